// SPDX-License-Identifier: MIT
/* Kernel maps from a plan's map descriptions, and their release. */
#include "maps/maps.h"
#include "base/thread.h"
#include "maps/ustacks.h"
#include "sys/bpfsys.h"
#include "sys/ringbuf.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fill(int fd, const struct bpf_map_desc *d)
{
	size_t entry = d->key_size + d->value_size;

	for (uint32_t i = 0; i < d->ninit; i++) {
		const uint8_t *e = d->init + i * entry;
		if (bpf_map_update_elem(fd, e, e + d->key_size, 0) < 0)
			return -1;
	}
	return 0;
}

static struct {
	pthread_t tid;
	bool started;
	uint32_t bytes;
	int fd;
} prefetch;

static void *prefetch_main(void *arg)
{
	char name[16];

	(void)arg;
	sys_bpf_obj_name(name, sizeof(name), MAPS_RINGBUF_NAME);
	prefetch.fd = sys_map_create(BPF_MAP_TYPE_RINGBUF, name, 0, 0, 0, prefetch.bytes);
	if (prefetch.fd >= 0)
		sys_ringbuf_premap(prefetch.fd); /* the reader's mapping too (else it maps it then) */
	return NULL;
}

void maps_ringbuf_prefetch(uint32_t bytes)
{
	if (prefetch.started)
		return;
	prefetch.bytes = bytes;
	prefetch.fd = -1;
	prefetch.started = util_thread_start(&prefetch.tid, prefetch_main, NULL) == 0;
}

/* The prefetched ring buffer if it has that size (else -1: the caller makes one, and says why not) */
static int prefetched(uint32_t bytes)
{
	int fd;

	if (!prefetch.started)
		return -1;
	pthread_join(prefetch.tid, NULL);
	prefetch.started = false;
	fd = prefetch.fd;
	if (fd >= 0 && prefetch.bytes != bytes) {
		sys_ringbuf_unpremap();
		close(fd);
		fd = -1;
	}
	return fd;
}

int maps_create(struct live_maps *lm, const struct map_set *set, struct diag *dg, bool verbose)
{
	lm->set = set;
	lm->n = set->bpf.len;
	lm->ustacks = NULL;
	lm->fd = util_xmalloc(sizeof(int) * (lm->n + 1));
	lm->emptied = util_xcalloc(lm->n + 1, 1);
	for (size_t i = 0; i < lm->n; i++)
		lm->fd[i] = -1;
	for (size_t i = 0; i < lm->n; i++) {
		const struct bpf_map_desc *d = &set->bpf.data[i];
		char name[16];
		sys_bpf_obj_name(name, sizeof(name), d->name);
		lm->fd[i] = d->type == BPF_MAP_TYPE_RINGBUF ? prefetched(d->max_entries) : -1;
		if (lm->fd[i] < 0)
			lm->fd[i] = sys_map_create(d->type, name, d->flags, d->key_size, d->value_size, d->max_entries);
		if (lm->fd[i] < 0) {
			int e = errno;
			diag_error(dg, SPAN_NONE, E_MAP_CREATE,
				   "cannot create map %s (key %u bytes, value %u bytes, %u entries): %s",
				   d->name, d->key_size, d->value_size, d->max_entries, strerror(e));
			if (e == EPERM)
				diag_hint(dg, "lantern needs root (CAP_BPF and CAP_PERFMON)");
			return -1;
		}
		if (verbose)
			fprintf(stderr,
				"lantern: map %s: type %d, key %u bytes, value %u bytes, %u entries\n",
				d->name, d->type, d->key_size, d->value_size, d->max_entries);
		if (fill(lm->fd[i], d) < 0) {
			diag_error(dg, SPAN_NONE, E_MAP_CREATE, "cannot fill map %s: %s", d->name,
				   strerror(errno));
			return -1;
		}
	}
	prefetched(0); /* a plan without one */
	return 0;
}

void maps_close(struct live_maps *lm)
{
	for (size_t i = 0; i < lm->n; i++)
		if (lm->fd[i] >= 0)
			close(lm->fd[i]);
	free(lm->fd);
	lm->fd = NULL;
	free(lm->emptied);
	lm->emptied = NULL;
	maps_ustacks_free(lm);
	lm->n = 0;
}

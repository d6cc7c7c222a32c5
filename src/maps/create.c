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

/*
 * The prefetch thread: the ring buffer first, then, if the planner hands
 * them over before maps_create() (maps_prefetch_set()), the other maps,
 * each as its description stood then. maps_create() takes each one whose
 * description has not changed since, and makes the rest itself.
 */
static struct {
	pthread_t tid;
	bool started;
	uint32_t bytes;
	int fd;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool told;			/* a set, or none, was said */
	struct bpf_map_desc *descs;	/* the set's descriptions as handed over; NULL: none */
	size_t n;
	int *fds;			/* what the thread made of them, -1 for none */
} prefetch = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static int create_one(const struct bpf_map_desc *d)
{
	char name[16];
	int fd;

	sys_bpf_obj_name(name, sizeof(name), d->name);
	fd = sys_map_create(d->type, name, d->flags, d->key_size, d->value_size, d->max_entries);
	if (fd >= 0 && fill(fd, d) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void *prefetch_main(void *arg)
{
	char name[16];

	(void)arg;
	sys_bpf_obj_name(name, sizeof(name), MAPS_RINGBUF_NAME);
	prefetch.fd = sys_map_create(BPF_MAP_TYPE_RINGBUF, name, 0, 0, 0, prefetch.bytes);
	if (prefetch.fd >= 0)
		sys_ringbuf_premap(prefetch.fd); /* the reader's mapping too (else it maps it then) */
	pthread_mutex_lock(&prefetch.mu);
	while (!prefetch.told)
		pthread_cond_wait(&prefetch.cv, &prefetch.mu);
	pthread_mutex_unlock(&prefetch.mu);
	for (size_t i = 0; prefetch.descs && i < prefetch.n; i++)
		prefetch.fds[i] = prefetch.descs[i].type == BPF_MAP_TYPE_RINGBUF ? -1 : create_one(&prefetch.descs[i]);
	return NULL;
}

void maps_ringbuf_prefetch(uint32_t bytes)
{
	if (prefetch.started)
		return;
	prefetch.bytes = bytes;
	prefetch.fd = -1;
	prefetch.told = false;
	prefetch.started = util_thread_start(&prefetch.tid, prefetch_main, NULL) == 0;
}

static void tell(const struct map_set *set)
{
	pthread_mutex_lock(&prefetch.mu);
	if (!prefetch.told && set) {
		prefetch.n = set->bpf.len;
		prefetch.descs = util_xmalloc(sizeof(*prefetch.descs) * (prefetch.n + 1));
		memcpy(prefetch.descs, set->bpf.data, sizeof(*prefetch.descs) * prefetch.n);
		prefetch.fds = util_xmalloc(sizeof(int) * (prefetch.n + 1));
		for (size_t i = 0; i < prefetch.n; i++)
			prefetch.fds[i] = -1;
	}
	prefetch.told = true;
	pthread_cond_signal(&prefetch.cv);
	pthread_mutex_unlock(&prefetch.mu);
}

void maps_prefetch_set(const struct map_set *set)
{
	if (prefetch.started)
		tell(set);
}

/* The thread's work done: the ring buffer's fd if it has that size (else -1: the caller makes one) */
static int prefetched(uint32_t bytes)
{
	int fd;

	if (!prefetch.started)
		return -1;
	tell(NULL);
	pthread_join(prefetch.tid, NULL);
	prefetch.started = false;
	fd = prefetch.fd;
	prefetch.fd = -1;
	if (fd >= 0 && prefetch.bytes != bytes) {
		sys_ringbuf_unpremap();
		close(fd);
		fd = -1;
	}
	return fd;
}

static bool same_desc(const struct bpf_map_desc *a, const struct bpf_map_desc *b)
{
	return a->type == b->type && a->key_size == b->key_size && a->value_size == b->value_size &&
	       a->max_entries == b->max_entries && a->flags == b->flags && a->init == b->init &&
	       a->ninit == b->ninit && !strcmp(a->name, b->name);
}

/* Map i made by the thread as it is described now, or -1 */
static int prefetched_map(const struct bpf_map_desc *d, size_t i)
{
	int fd;

	if (!prefetch.descs || i >= prefetch.n || prefetch.fds[i] < 0)
		return -1;
	fd = prefetch.fds[i];
	prefetch.fds[i] = -1;
	if (!same_desc(d, &prefetch.descs[i])) {
		close(fd);
		return -1;
	}
	return fd;
}

static void prefetch_done(void)
{
	for (size_t i = 0; prefetch.descs && i < prefetch.n; i++)
		if (prefetch.fds[i] >= 0)
			close(prefetch.fds[i]);
	free(prefetch.descs);
	free(prefetch.fds);
	prefetch.descs = NULL;
	prefetch.fds = NULL;
	prefetch.n = 0;
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
	int ring = -1;
	for (size_t i = 0; i < lm->n; i++)
		if (set->bpf.data[i].type == BPF_MAP_TYPE_RINGBUF)
			ring = prefetched(set->bpf.data[i].max_entries);
	if (ring < 0)
		prefetched(0); /* a plan without one, or of another size: the thread's work is over */
	for (size_t i = 0; i < lm->n; i++) {
		const struct bpf_map_desc *d = &set->bpf.data[i];
		char name[16];
		bool filled = false;
		sys_bpf_obj_name(name, sizeof(name), d->name);
		if (d->type == BPF_MAP_TYPE_RINGBUF) {
			lm->fd[i] = ring;
			ring = -1;
		} else {
			lm->fd[i] = prefetched_map(d, i);
			filled = lm->fd[i] >= 0;
		}
		if (lm->fd[i] < 0)
			lm->fd[i] = sys_map_create(d->type, name, d->flags, d->key_size, d->value_size, d->max_entries);
		if (lm->fd[i] < 0) {
			int e = errno;
			diag_error(dg, SPAN_NONE, E_MAP_CREATE,
				   "cannot create map %s (key %u bytes, value %u bytes, %u entries): %s",
				   d->name, d->key_size, d->value_size, d->max_entries, strerror(e));
			if (e == EPERM)
				diag_hint(dg, "lantern needs root (CAP_BPF and CAP_PERFMON)");
			prefetch_done();
			return -1;
		}
		if (verbose)
			fprintf(stderr,
				"lantern: map %s: type %d, key %u bytes, value %u bytes, %u entries\n",
				d->name, d->type, d->key_size, d->value_size, d->max_entries);
		if (!filled && fill(lm->fd[i], d) < 0) {
			diag_error(dg, SPAN_NONE, E_MAP_CREATE, "cannot fill map %s: %s", d->name,
				   strerror(errno));
			prefetch_done();
			return -1;
		}
	}
	prefetch_done();
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

// SPDX-License-Identifier: MIT
/* Kernel maps from a plan's map descriptions, and their release. */
#include "maps/maps.h"
#include "maps/ustacks.h"
#include "sys/bpfsys.h"

#include <bpf/bpf.h>
#include <errno.h>
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

int maps_create(struct live_maps *lm, const struct map_set *set, struct diag *dg, bool verbose)
{
	lm->set = set;
	lm->n = set->bpf.len;
	lm->ustacks = NULL;
	lm->fd = util_xmalloc(sizeof(int) * (lm->n + 1));
	for (size_t i = 0; i < lm->n; i++)
		lm->fd[i] = -1;
	for (size_t i = 0; i < lm->n; i++) {
		const struct bpf_map_desc *d = &set->bpf.data[i];
		char name[16];
		sys_bpf_obj_name(name, sizeof(name), d->name);
		lm->fd[i] = sys_map_create(d->type, name, d->key_size, d->value_size, d->max_entries);
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
	return 0;
}

void maps_close(struct live_maps *lm)
{
	for (size_t i = 0; i < lm->n; i++)
		if (lm->fd[i] >= 0)
			close(lm->fd[i]);
	free(lm->fd);
	lm->fd = NULL;
	maps_ustacks_free(lm);
	lm->n = 0;
}

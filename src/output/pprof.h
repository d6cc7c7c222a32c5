/* SPDX-License-Identifier: MIT */
/*
 * The maps keyed by stacks as a pprof profile (profile.proto, gzip'ed),
 * for Pyroscope, Parca, Grafana and `go tool pprof`: --pprof FILE, or
 * -f pprof -o FILE, at exit (pprof.c).
 *
 * One sample type per stack map, named after its aggregation ("samples"
 * for count(), "sum", ...; "@name:..." when there are several maps); a
 * sample per map entry, with the value folded stacks give it
 * (out_folded_count), its kernel frames then its user frames, the leaf
 * first; the entry's other keys as labels (named as Prometheus names them:
 * comm, pid, ... or key0, key1). User frames are located in their
 * mappings (file, build-id, offset), kernel frames in [kernel.kallsyms];
 * a frame without a name has no function, for pprof to symbolize.
 */
#ifndef LANTERN_OUTPUT_PPROF_H
#define LANTERN_OUTPUT_PPROF_H

#include "output/value.h"

/* 0, or -1 with the reason on stderr (nothing to write: no file then). */
int out_pprof_write(const struct out_ctx *oc, const char *path);

/* -f pprof: events as text (on stdout), the maps only in the profile. */
extern const struct writer out_pprof_writer;

#endif

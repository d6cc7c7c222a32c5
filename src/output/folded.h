/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks: the folded writer (-f folded, folded.c) and the flame
 * graph written at exit (--flamegraph FILE.svg) from the same lines.
 */
#ifndef LANTERN_OUTPUT_FOLDED_H
#define LANTERN_OUTPUT_FOLDED_H

#include <stdbool.h>

#include "output/value.h"

/* Does m's key hold a kstack or ustack? */
bool out_map_has_stack_key(const struct map_info *m);
/* Does any map of the plan? */
bool out_plan_has_stack_map(const struct plan *p);

struct map_item;
/* An entry's samples as folded stacks (and pprof) count them: > 0, or 0 to leave it out. */
uint64_t out_folded_count(const struct type *t, const struct map_item *it);

/*
 * The plan's stack maps, folded, as an SVG flame graph in path. 0, or -1
 * with the reason on stderr: nothing to draw (no stack map, or no samples:
 * then no file is written) or the file cannot be written.
 */
int out_flamegraph_write(const struct out_ctx *oc, const char *path, const char *title);

#endif

/* SPDX-License-Identifier: MIT */
/* --metrics: the maps at http://ADDR:PORT/metrics while the script runs (metrics.c). */
#ifndef LANTERN_RUNTIME_METRICS_H
#define LANTERN_RUNTIME_METRICS_H

#include "output/value.h"

struct metrics_server;

/*
 * Serve oc's maps (and the lost-event counter, BPF map lost_map) at spec,
 * "ADDR:PORT". NULL, with the reason on stderr, when it cannot.
 */
struct metrics_server *rt_metrics_start(const char *spec, const struct out_ctx *oc, int lost_map);
/* Stop serving (waits for a scrape in progress); NULL is fine. */
void rt_metrics_stop(struct metrics_server *ms);

#endif

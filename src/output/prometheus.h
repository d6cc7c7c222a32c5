/* SPDX-License-Identifier: MIT */
/*
 * Maps as Prometheus metrics (prometheus.c): the -f prometheus writer
 * (prometheus_writer, writer.h) and the page --metrics serves.
 */
#ifndef LANTERN_OUTPUT_PROMETHEUS_H
#define LANTERN_OUTPUT_PROMETHEUS_H

#include <stdint.h>

#include "output/value.h"

/* Every map in the exposition format, then lantern_lost_events_total (lost). */
void out_prometheus_page(const struct out_ctx *oc, uint64_t lost, struct strbuf *out);

#endif

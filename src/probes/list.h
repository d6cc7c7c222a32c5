/* SPDX-License-Identifier: MIT */
#ifndef LANTERN_PROBES_LIST_H
#define LANTERN_PROBES_LIST_H

#include <stdbool.h>
#include <stdio.h>

/*
 * `lantern -l [PATTERN]` and `-lv`: the probes lantern can attach, as
 * bpftrace lists them ("tracepoint:sched:sched_switch"), with their fields
 * when verbose. PATTERN is "type:category:event" with '*' and '?'
 * ("tracepoint:sched:*", "t:syscalls:sys_enter_open*"), or a pattern over
 * the whole name ("*sched_wak*"). Returns the exit status.
 */
int list_probes(const char *pattern, bool verbose, FILE *out);

#endif

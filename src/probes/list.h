/* SPDX-License-Identifier: MIT */
#ifndef LANTERN_PROBES_LIST_H
#define LANTERN_PROBES_LIST_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * `lantern -l [PATTERN]` and `-lv`: the probes lantern can attach, as
 * bpftrace lists them ("tracepoint:sched:sched_switch"), with their fields
 * when verbose. PATTERN is "type:category:event" with '*' and '?'
 * ("tracepoint:sched:*", "t:syscalls:sys_enter_open*"), or a pattern over
 * the whole name ("*sched_wak*"); several patterns are separated by ','.
 * With pid (-p), FILE may be left out of uprobe and usdt patterns (the
 * process's files), and no pattern lists the process's functions and
 * USDT probes. Returns the exit status.
 */
int prov_list(const char *pattern, bool verbose, pid_t pid, FILE *out);

#endif

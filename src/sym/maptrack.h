/* SPDX-License-Identifier: MIT */
/*
 * The executable mappings of processes as they happen, from perf's mmap,
 * fork and exec records (a dummy software event on a process, inherited
 * by its children), as perf record follows them: the stacks of a process
 * resolve even after it exited, before lantern read its /proc/PID/maps
 * (`lantern trace -k /bin/echo hi`: echo has exited long before its write's
 * stack is printed). Each change goes to symbols.h's remembered mappings
 * (sym_pin_process_maps), which the unwinder and the symbols then use
 * instead of /proc.
 */
#ifndef LANTERN_SYM_MAPTRACK_H
#define LANTERN_SYM_MAPTRACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sym_maptrack;

/*
 * Follow pid and the processes it starts from now on, or with pid -1
 * every process of the machine (perf record -a's way: an event per CPU
 * that sees every mmap). A process met first by a mapping of its own (not
 * its fork or exec) starts from its /proc/PID/maps, read then. NULL with
 * err set when perf events cannot be opened.
 */
struct sym_maptrack *sym_maptrack_open(pid_t pid, char *err, size_t errlen);
/*
 * Apply the records of what happened up to ts (CLOCK_MONOTONIC, ns;
 * UINT64_MAX: all there is). Records lost (a full ring) leave the
 * processes to /proc again.
 */
void sym_maptrack_sync(struct sym_maptrack *mt, uint64_t ts);
void sym_maptrack_close(struct sym_maptrack *mt);

#endif

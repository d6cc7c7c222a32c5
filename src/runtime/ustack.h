/* SPDX-License-Identifier: MIT */
/*
 * The session's side of user stacks unwound in user space
 * (codegen/gen_ustack.c sends them, sym/unwind.h unwinds them, and
 * maps/ustacks.h names them): the snapshot and update records, the
 * choice of the kernel's frame-pointer walk per process (ustack_unwind=auto),
 * what was lost and, with -v or LANTERN_USTACK_STATS=1, what the unwinding
 * cost.
 */
#ifndef LANTERN_RUNTIME_USTACK_H
#define LANTERN_RUNTIME_USTACK_H

#include "runtime/session_impl.h"

/* REC_USTACK: unwind the snapshot, name its token's stack. */
void rt_ustack_snapshot(struct session *s, const struct record_desc *r, const uint8_t *data,
			size_t size);
/* REC_USTACK_UPDATE: apply the update a program could not. */
void rt_ustack_update(struct session *s, const struct record_desc *r, const uint8_t *data);
/*
 * Once the probes are attached, before the command runs: follow the
 * mappings of the command (-c), the process (-p) or every process, so
 * that the stacks of a process that ended before lantern read its
 * /proc/PID/maps resolve (sym/maptrack.h). rt_ustack_sync(): apply what
 * came, before stacks are named.
 */
void rt_ustack_follow(struct session *s);
void rt_ustack_sync(struct session *s);
/* Now and then: processes walked by frame pointers that exec'd or ended go back to snapshots. */
void rt_ustack_tick(struct session *s);
/* At the end: what was lost (stderr), and the statistics asked for. */
void rt_ustack_report(struct session *s);
void rt_ustack_free(struct session *s);

#endif

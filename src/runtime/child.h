/* SPDX-License-Identifier: MIT */
/*
 * -c CMD: the child is forked before the programs are generated (its pid is
 * `cpid`, a constant in them), waits on a pipe while probes attach, and
 * execs when released. If lantern fails first, the pipe closes and the
 * child exits without running anything.
 */
#ifndef LANTERN_RUNTIME_CHILD_H
#define LANTERN_RUNTIME_CHILD_H

#include "runtime/session_impl.h"

int rt_child_spawn(struct session *s);
/* -c CMD's words (split at blanks, as bpftrace; quotes kept, nothing expanded): see child.c. */
char **rt_child_split(const char *cmd, char *err, size_t errlen);
/*
 * Wait (at most a second) until the child waits on its pipe: the calls it
 * makes before (closing the pipe's other end, the read) are not the
 * command's, and must not be seen by probes attached next.
 */
void rt_child_wait_blocked(struct session *s);
/* Let the child exec. */
void rt_child_release(struct session *s);
/* After the run: stop the child if it still runs, and reap it. */
void rt_child_reap(struct session *s);

#endif

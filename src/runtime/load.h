/* SPDX-License-Identifier: MIT */
/* From a plan to kernel objects, and back. */
#ifndef LANTERN_RUNTIME_LOAD_H
#define LANTERN_RUNTIME_LOAD_H

#include "runtime/session_impl.h"

/* Create the plan's maps and load its programs (the verifier's log on failure). */
int rt_load_all(struct session *s);
/* Attach every instance through its provider. */
int rt_attach_all(struct session *s);
/* Release every attachment (the probes stop). */
void rt_detach_all(struct session *s);
/* Close every program, map, link and perf event of the session. */
void rt_release_all(struct session *s);

#endif

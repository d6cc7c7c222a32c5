/* SPDX-License-Identifier: MIT */
#ifndef LANTERN_RUNTIME_LOOP_H
#define LANTERN_RUNTIME_LOOP_H

#include "runtime/session_impl.h"

/* BEGIN, events until exit()/signal/child exit, END, maps. */
int rt_loop(struct session *s);
/* BEGIN and END (id): run by lantern, each of them in the order written */
void rt_run_special(struct session *s, enum provider_id id);
/* --test, --bench: the test (bench) probes, one by one, between BEGIN and END (selftest.c) */
int rt_run_selftests(struct session *s);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef LANTERN_RUNTIME_LOOP_H
#define LANTERN_RUNTIME_LOOP_H

#include "runtime/session_impl.h"

/* BEGIN, events until exit()/signal/child exit, END, maps. */
int rt_loop(struct session *s);

#endif

/* SPDX-License-Identifier: MIT */
#ifndef LANTERN_RUNTIME_LOAD_H
#define LANTERN_RUNTIME_LOAD_H

#include "runtime/session.h"

/* One program per probe, or per instance when the code depends on it. */
void plan_programs(struct session *s);
/* A BPF map for each @map, plus scratch, ring buffer and lost counter. */
void plan_maps(struct session *s);
/* IR for every program; sizes the scratch map. */
int generate(struct session *s);
int create_maps(struct session *s);
/* The stack trace map that holds stacks of type t (TY_STACK): its index in
   bpf_maps, made on first use (codegen); stack_map_find: NULL if none. */
int stack_map_for(struct session *s, const struct type *t);
const struct stack_map *stack_map_find(struct session *s, const struct type *t);
/* Register allocation, assembly and loading (verifier log on failure). */
int load_programs(struct session *s);
int attach_all(struct session *s);
void detach_all(struct session *s);
/* Close every program, map, link and perf event of the session. */
void release_all(struct session *s);

#endif

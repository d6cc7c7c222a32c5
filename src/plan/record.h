/* SPDX-License-Identifier: MIT */
/*
 * Output records: what a program sends user space through the ring
 * buffer. Each record starts with a u64 id, its index in the plan's record
 * table; the table says what the rest holds (its kind, the printf format,
 * the types of the arguments) and the session's handler for the kind
 * (runtime/records.c) prints or does it. Format strings stay in user space.
 */
#ifndef LANTERN_PLAN_RECORD_H
#define LANTERN_PLAN_RECORD_H

#include <stdint.h>

#include "maps/maps.h"
#include "types/type.h"

struct printf_fmt;

enum record_kind {
	REC_PRINTF,
	REC_EXIT,
	REC_PRINT_MAP,
	REC_CLEAR_MAP,
	REC_ZERO_MAP,
	REC_TIME,
	REC_JOIN,
	REC_SYSTEM, /* system(fmt, ...): run the text as a shell command */
	REC_CAT,    /* cat(fmt, ...): print the file the text names */
	REC_PRINT_VALUE, /* print(value) */
	REC_FRONTEND,	 /* a front end's own (lantern trace): its record hook takes it */
	REC_HELPER_ERROR, /* -k: a helper failed: its return value (text: its name) */
	REC_RUNTIME_ERROR, /* a check when the probe ran failed (text: what; span: where) */
	REC_USTACK,	  /* a user stack's snapshot, to unwind (layout below) */
	REC_USTACK_UPDATE, /* an update of a map keyed by a snapshot's stack (maps/ustacks.h) */
	REC_UNWATCH,	   /* unwatch(addr): the watchpoints on addr go */
	REC_ERRORF,	   /* errorf(fmt, ...): the text, as an error at span */
	REC_WARNF,	   /* warnf(fmt, ...): the text, as a warning at span */
	REC_COUNT_
};

/* join(): at most JOIN_MAX_ARGS strings of JOIN_ARG_SIZE bytes (bpftrace 0.17's) */
#define JOIN_MAX_ARGS 16
#define JOIN_ARG_SIZE 64

/*
 * REC_USTACK: a user stack's snapshot (codegen/gen_ustack.c makes it,
 * runtime/ustack.c unwinds it). args: a tuple of the stack's type.
 *
 *   0   u64 id
 *   8   u64 token: the stack value's id until unwound (maps/ustacks.h)
 *   16  u64 pid_tgid
 *   24  u64 len: bytes of the stack that follow the registers
 *   32  struct pt_regs of the task's user mode (x86-64: 168 bytes)
 *   200 the stack from its pointer up, len bytes
 *
 * REC_USTACK_UPDATE: u64 id, the map's key (its size rounded up to 8),
 * the value (a u64, or the map's value type) or nothing for a delete; map
 * and upd_op (enum maps_upd_op) say what to do.
 */
#define USTACK_TOKEN 8
#define USTACK_PID_TGID 16
#define USTACK_LEN 24
#define USTACK_REGS 32
#define USTACK_REGS_SIZE 168
#define USTACK_STACK (USTACK_REGS + USTACK_REGS_SIZE)

/* One record id: what user space does with a record that starts with it. */
struct record_desc {
	enum record_kind kind;
	struct printf_fmt *fmt; /* REC_PRINTF, REC_SYSTEM, REC_CAT */
	const char *text;	/* REC_TIME: strftime format; REC_JOIN: the delimiter */
	struct type *args;	/* TY_TUPLE of the arguments after the id */
	struct map_info *map;	/* REC_*_MAP */
	int64_t top, div;	/* print(@m, top, div) */
	int upd_op;		/* REC_USTACK_UPDATE: enum maps_upd_op */
	uint32_t size;		/* bytes, with the id (at least: REC_FRONTEND's vary) */
	struct span span;	/* REC_HELPER_ERROR, REC_RUNTIME_ERROR, REC_ERRORF, REC_WARNF: where */
};

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The building blocks of lantern trace's programs (emit.c): the scratch
 * memory's layout, the maps' entries, and emitters for what every program
 * does (find the traced task, read user memory into the record, send it).
 */
#ifndef LANTERN_TRACE_EMIT_H
#define LANTERN_TRACE_EMIT_H

#include "codegen/ir.h"
#include "plan/plan.h"
#include "trace/trace.h"

#include <stddef.h>

#define SCR_REGS 0
#define SCR_INFL 176
#define SCR_OFF 240 /* the enter program's write offset, spilled */
#define SCR_SENT 248 /* records this CPU sent: the fill level is asked every WAKE_EVERY */
#define WAKE_EVERY 16
#define SCR_REC 256 /* then the record: SCR_DATA after its header */
#define SCR_DATA (SCR_REC + (int32_t)sizeof(struct trace_hdr))
#define SCR_SIZE (SCR_DATA + TRACE_NARGS * TRACE_DATA_MAX + 8)
#define ARGV_MAX 32	/* argv strings read; strace shows "..." after them */
#define ENVP_MAX 256	/* envp pointers counted */
#define INFLIGHT_MAX 16384

/* What the enter program keeps for the exit one (map inflight, by thread id). */
struct trace_inflight {
	uint64_t ts;
	int64_t a[6];
	uint32_t nr;
	uint32_t retry; /* arguments to read again at exit: bit i for argument i */
};

/* What the programs read for one call (map spec, by number). */
#define SPEC_QUICK 2 /* selected: 1, and a quick call (sysdesc_quick): its exit is the whole call */
#define SPEC_OUT 4   /* the exit reads what the call filled */
struct trace_spec {
	uint32_t selected;
	struct tread_spec r[TRACE_NARGS];
};

_Static_assert(sizeof(struct trace_hdr) == 128, "the record header is 128 bytes");
_Static_assert(sizeof(struct tread_spec) == 6, "a read spec is 6 bytes");
_Static_assert(sizeof(struct trace_inflight) == 64, "an inflight entry is 64 bytes");

#define HDR(field) (SCR_REC + (int32_t)offsetof(struct trace_hdr, field))
#define INFL(field) (SCR_INFL + (int32_t)offsetof(struct trace_inflight, field))

/* The maps and what the builder needs while it emits. */
struct tb {
	struct plan *p;
	const struct trace_opts *o;
	struct ir *ir;
	int traced, live, spec, inflight, counts, ringbuf, lost, scratch; /* map indexes */
	uint32_t ids[TREC_COUNT_];				   /* record ids */
	uint32_t task_pid, task_tgid, task_exit_code;		   /* task_struct offsets */
	int32_t ctx, s, out;					   /* vregs, label */
	uint32_t prog_index;
	bool calls;    /* the selected calls' own tracepoints, not raw_syscalls */
	bool per_call; /* the program being made is on them */
	int32_t light;	/* the enter program's label: a quick call's entry */
	struct trace_funcs *funcs; /* --calls: the functions traced */
	uint32_t func;		   /* the one whose programs are being made */
	struct ir *iov_ir;	   /* the program whose trace_read_iov() slots these are */
	int16_t iov_slots;
};

void trace_lookup(struct tb *b, int map, int16_t slot);
void trace_traced_only(struct tb *b, int32_t tid, int32_t tgid, int16_t slot);
/* Leave unless thread tid is traced; set or clear it (and count it in map "live") */
void trace_traced_test(struct tb *b, int32_t tid, int16_t slot);
/* Leave unless tid is traced, or with -a, unless tgid is not lantern */
void trace_traced_check(struct tb *b, int32_t tid, int32_t tgid, int16_t slot);
void trace_traced_set(struct tb *b, int32_t tid, bool on, int16_t slot);
void trace_scratch(struct tb *b, int16_t slot);
void trace_put_comm(struct tb *b);
void trace_read_to(struct tb *b, int fn, int32_t off, int32_t size, int32_t src);
void trace_send(struct tb *b, int32_t off, int16_t slot);
void trace_set_dlen(struct tb *b, int i, int32_t len);
void trace_read_str(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, bool retry);
void trace_blur_off(struct tb *b, int32_t off);
/* TR_IOV_* (msg: TR_MSG_*) of argument i; args: where the arguments are in scratch */
void trace_read_iov(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, int32_t args, bool msg);
void trace_read_mem(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, int32_t args, int32_t ret,
	      bool retry);
void trace_read_argv(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, int16_t slot);
void trace_prologue(struct tb *b, struct ir *ir);
void trace_epilogue(struct tb *b);
void trace_task_u32(struct tb *b, int32_t task, uint32_t off, int32_t dst, int16_t slot);
/* A probe of the plan with one attach point "KIND:WHAT" (*ap), for programs of lantern trace */
struct probe *trace_probe(struct tb *b, const char *kind, const char *what, struct attach_point **ap);
/*
 * The task's argument registers and syscall number (from raw_syscalls'
 * pt_regs) into s + SCR_REGS at their pt_regs offsets; R0 the helper's result
 */
void trace_read_regs(struct tb *b, int32_t t);
/* Quick calls need no entry at all: nothing asks for their time (raw_syscalls only) */
bool trace_untimed_quick(const struct tb *b);
/* The exit program (exit.c) */
void trace_gen_exit(struct tb *b, struct ir *ir);
/* --calls: the library functions' programs (calls.c) */
int trace_calls_plan(struct tb *b);
/* pg's instructions from gen; 0, or -1 with an error in the plan */
int trace_assemble_prog(struct tb *b, struct prog *pg, void (*gen)(struct tb *, struct ir *), const char *what);

#endif

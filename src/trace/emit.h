/* SPDX-License-Identifier: MIT */
/*
 * The building blocks of lantern trace's programs: the scratch memory's
 * layout, the maps' entries, emitters for what every program does (find
 * the traced task, send a record: emit.c), the subprograms that read user
 * memory into the record (reads.c) and the blocks that call them, one per
 * shape of reads (shapes.c).
 */
#ifndef LANTERN_TRACE_EMIT_H
#define LANTERN_TRACE_EMIT_H

#include "codegen/funcs.h"
#include "codegen/ir.h"
#include "plan/plan.h"
#include "sys/syscalls.h"
#include "trace/trace.h"

#include <stddef.h>

/*
 * Scratch memory (one entry per program), in bytes:
 *   [0, 168)        the task's struct pt_regs (the span of the argument registers)
 *   [176, 240)      the inflight entry being built
 *   [248, 256)      records this CPU sent: the fill level is asked every WAKE_EVERY
 *   [256, 320)      the state of a read's loop (bpf_loop's callbacks: LOOP_*)
 *   [320, 448)      the record's header (struct trace_hdr)
 *   [448, ...)      its data: at most TRACE_DATA_MAX bytes per argument
 */
#define SCR_REGS 0
#define SCR_INFL 176
#define SCR_SENT 248
#define WAKE_EVERY 16
#define SCR_LOOP 256
#define SCR_REC 320
#define SCR_DATA (SCR_REC + (int32_t)sizeof(struct trace_hdr))
#define SCR_SIZE (SCR_DATA + TRACE_NARGS * TRACE_DATA_MAX + 8)
/* the last argument's room starts there: every read starts at most there */
#define SCR_LAST (SCR_DATA + (TRACE_NARGS - 1) * TRACE_DATA_MAX)
#define ARGV_MAX 32   /* argv strings read; strace shows "..." after them */
#define ENVP_MAX 256  /* envp pointers counted */
#define INFLIGHT_MAX 16384

/*
 * The state of a loop of reads.c (u64 each, at SCR_LOOP + 8 * which): the
 * callback's, and what its caller needs after it (in a register, a value
 * that differs between the caller's paths would have the verifier walk
 * the callback once for each)
 */
enum { LOOP_SRC, LOOP_AT, LOOP_CAP, LOOP_K, LOOP_START, LOOP_I, LOOP_HEAD, LOOP_COUNT_ };
#define SCR_LOOP_AT(which) (SCR_LOOP + 8 * (which))

/* What the enter program keeps for the exit one (map inflight, by thread id). */
struct trace_inflight {
	uint64_t ts;
	int64_t a[6];
	uint32_t nr;
	uint32_t retry; /* arguments to read again at exit: bit i for argument i */
};
/*
 * inflight's retry: an entry that sent no record (a quick call, sysdesc_quick):
 * its exit is the whole call; on raw_syscalls, the entry kept only the time
 * and the number, and the exit reads the arguments from the registers
 */
#define INFL_WHOLE (1u << 31)

/*
 * -c: the call in progress on this CPU (map "slots", per CPU, one entry):
 * no hash of thread ids on the way of every call. A call still there when
 * another task's call comes (it blocked) moves to inflight; one whose task
 * moved to another CPU is found in that CPU's slot (SLOT_SCAN of them).
 *
 * On raw_syscalls (trace_slot_fast), the slot also keeps the task's
 * pt_regs address (the tracepoints' args[0]: the top of its kernel stack,
 * which no other living task has). The next call of the same task on this
 * CPU, the common case, is known by it: no thread id is asked for (a
 * helper call, as costly here as the rest of the program), only the clock
 * is read. A traced task's end clears it from every CPU's slot, before its
 * stack can be another task's.
 */
struct trace_slot {
	uint32_t tid, nr;
	uint64_t ts;   /* 0: none */
	uint64_t regs; /* the task's pt_regs; 0: unknown */
};
#define SLOT_SCAN 64

/* What the programs do for call nr, decided in user space (progs.c) */
struct trace_call {
	bool selected; /* counted, or shown */
	bool quick;    /* a quick call (sysdesc_quick; not with --timeline) */
	struct tread_spec r[TRACE_NARGS]; /* what is read for it, when it is shown */
};

_Static_assert(sizeof(struct trace_hdr) == 128, "the record header is 128 bytes");
_Static_assert(sizeof(struct trace_inflight) == 64, "an inflight entry is 64 bytes");
_Static_assert(SCR_LOOP + 8 * LOOP_COUNT_ <= SCR_REC, "the loop state fits before the record");

#define HDR(field) (SCR_REC + (int32_t)offsetof(struct trace_hdr, field))
#define INFL(field) (SCR_INFL + (int32_t)offsetof(struct trace_inflight, field))

/*
 * The subprograms of reads.c: each reads argument i into the record at
 * s + off and returns where its bytes end (off when nothing was read),
 * having set dlen[i]. Global: the verifier walks each once, whatever
 * calls it. Each is made for the READ_* flags it is given (a subprogram
 * per set of flags a program uses: what it tests at run time doubles its
 * paths). r1 = TRACE_READ_ARGS(i, from, size), r2 = off:
 *   TFN_STR     a string of at most size bytes
 *   TFN_MEM     bytes: as many as the flags' enum tsize says (argument
 *               `from`, the result), at most size
 *   TFN_IOV     iovecs (from 1: a msghdr's), size bytes of each
 *   TFN_ARGV    argv (size: of each string) or envp (size 1: counted)
 * and the callbacks of their loops (bpf_loop).
 */
#define TRACE_READ_ARGS(i, from, size) ((i) | (from) << 4 | (size) << 8)
enum trace_fn { TFN_STR, TFN_MEM, TFN_IOV, TFN_ARGV, TFN_IOV_STEP, TFN_ARGV_STEP, TFN_COUNT_ };
#define READ_RETRY (1 << 16) /* a read that fails is marked for the exit to try again */
#define READ_AGAIN (1 << 17) /* only if the entry marked it so */
#define READ_OUT (1 << 18)   /* what the call filled: nothing if it failed */
#define READ_SP (1 << 19)    /* TR_FRAME: from the stack pointer at entry (the signal frame's mask) */
#define TRACE_FNS_MAX 16
#define TRACE_COLD_MAX 32 /* trace_unless() in one function */

/*
 * The calls table (map "calls", one entry of TBL_COUNT_ rows of
 * SYSCALL_NR_LIMIT bytes): for each number, where each dispatch goes
 */
enum {
	TBL_ENTER,	/* ENTER_*: what the enter program does */
	TBL_ENTER_SHAPE, /* the shape of its reads; SHAPES_MAX: none sent (a quick call) */
	TBL_QUICK,	/* 1: an untimed quick call, all of it at its exit */
	TBL_EXIT_SHAPE,	/* the shape of the exit's reads */
	TBL_COUNT_
};
enum { ENTER_OUT, ENTER_LIGHT, ENTER_FULL };
#define SHAPES_MAX 250 /* below TARGET_ANY; there are a few dozen */
#define TARGET_ANY 0xff /* a number that never comes to that dispatch */

struct trace_table {
	uint8_t at[TBL_COUNT_][SYSCALL_NR_LIMIT];
	struct tread_spec enter[SHAPES_MAX][TRACE_NARGS], exit[SHAPES_MAX][TRACE_NARGS];
	int nenter, nexit;
};

/* The maps and what the builder needs while it emits. */
struct tb {
	struct plan *p;
	const struct trace_opts *o;
	struct ir *ir;
	int traced, live, inflight, counts, ringbuf, lost, scratch, calls_map; /* map indexes */
	int slots; /* -c: struct trace_slot, per CPU */
	uint32_t ids[TREC_COUNT_];				   /* record ids */
	uint32_t task_pid, task_tgid, task_exit_code;		   /* task_struct offsets */
	int32_t ctx, s, out;					   /* vregs, label */
	uint32_t prog_index;
	bool calls;    /* the selected calls' own tracepoints, not raw_syscalls */
	bool per_call; /* the program being made is on them */
	bool slot_fast; /* -c on raw_syscalls, SLOT_SCAN CPUs at most: slots known by pt_regs */
	struct trace_funcs *funcs; /* --calls: the functions traced */
	uint32_t func;		   /* the one whose programs are being made */
	const struct trace_call *call; /* [SYSCALL_NR_LIMIT]: what each call needs */
	struct trace_table *tbl;	/* and what the programs do for it */
	/* the functions of the program being made: [0] the program, then its subprograms */
	struct ir_func fns[TRACE_FNS_MAX];
	uint32_t nfns;
	struct { enum trace_fn fn; uint32_t flags; } fn_of[TRACE_FNS_MAX];
	struct strbuf *dump_ir, *dump_bpf; /* -d ir, -d bpf */
	/* trace_unless()'s exceptions, for trace_cold() */
	struct trace_cold { int32_t cold, back, reg, value; } cold[TRACE_COLD_MAX];
	uint32_t ncold;
};

void trace_lookup(struct tb *b, int map, int16_t slot);
/* tid, tgid = the current task's thread and process ids */
void trace_current_ids(struct tb *b, int32_t tid, int32_t tgid);
void trace_traced_only(struct tb *b, int32_t tid, int32_t tgid, int16_t slot);
void trace_cpu_slot(struct tb *b, int cpu, int16_t slot, int32_t none);
/* Leave unless thread tid is traced; set or clear it (and count it in map "live") */
void trace_traced_test(struct tb *b, int32_t tid, int16_t slot);
/* ... or go to miss */
void trace_traced_test_to(struct tb *b, int32_t tid, int16_t slot, int32_t miss);
/* Leave unless tid is traced, or with -a, unless tgid is not lantern */
void trace_traced_check(struct tb *b, int32_t tid, int32_t tgid, int16_t slot);
void trace_traced_set(struct tb *b, int32_t tid, bool on, int16_t slot);
/* s = this program's scratch entry, or leave */
void trace_scratch(struct tb *b, int16_t slot);
void trace_put_comm(struct tb *b);
void trace_read_to(struct tb *b, int fn, int32_t off, int32_t size, int32_t src);
void trace_send(struct tb *b, int32_t off, int16_t slot);
/* if (reg op imm) reg = value: what the verifier needs of a value that is always right */
void trace_unless(struct tb *b, uint8_t op, int32_t reg, int32_t imm, int32_t value);
/* reg = MIN(reg, max), unsigned */
void trace_clamp(struct tb *b, int32_t reg, int32_t max);
/* The exceptions' code, after a function's last instruction */
void trace_cold(struct tb *b);
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
/*
 * goto labels[the byte of row which of the calls table for nr], nr below
 * SYSCALL_NR_LIMIT; straight there when all numbers that can come go one
 * way; hot: the way tested first (-1: none); slot: a stack slot
 */
void trace_dispatch(struct tb *b, int32_t nr, int which, const int32_t *labels, int hot, int16_t slot);
/* The shapes' rows of the table, from its TBL_ENTER row */
void trace_plan_shapes(struct trace_table *tbl, const struct trace_call *call, bool per_call);
/*
 * The enter program's reads for the call in the inflight entry's nr
 * (shapes.c): one block of calls per shape of reads, then goto sendit; a
 * quick call (per-call tracepoints) goes to nosend.
 */
void trace_enter_reads(struct tb *b, int32_t off, int32_t sendit, int32_t nosend, int16_t slot);
/* The exit program's: what the call filled, and what the entry could not read */
void trace_exit_reads(struct tb *b, int32_t off, int32_t sendit, int16_t slot);
/* Subprogram fn for flags of the program being made: its index in b->fns (made at the end, by reads.c) */
int32_t trace_fn(struct tb *b, enum trace_fn fn, uint32_t flags);
/* Its code (reads.c) */
void trace_gen_fn(struct tb *b, enum trace_fn fn, uint32_t flags, struct ir *ir);
/* The exit program (exit.c) */
void trace_gen_exit(struct tb *b, struct ir *ir);
/* -c: the entry's part: this CPU's slot (exit.c) */
void trace_count_entry(struct tb *b, int32_t tid, int32_t nr, int16_t slot);
/* -c's enter program with slot_fast, after the prologue */
void trace_count_enter_fast(struct tb *b, int16_t slot);
/* -c with slot_fast: task tid ended, its pt_regs forgotten in every CPU's slot */
void trace_slots_forget(struct tb *b, int32_t tid, int16_t slot);
/* -c alone: counts only, no records */
bool trace_counts_only(const struct tb *b);
/* -k: the stacks' programs (stacks.c), on sys_exit, sys_enter and signal_deliver */
void trace_gen_stack_exit(struct tb *b, struct ir *ir);
void trace_gen_stack_entry(struct tb *b, struct ir *ir);
void trace_gen_stack_signal(struct tb *b, struct ir *ir);
/* --calls: the library functions' programs (calls.c) */
int trace_calls_plan(struct tb *b);
/* pg's instructions from gen; 0, or -1 with an error in the plan */
int trace_assemble_prog(struct tb *b, struct prog *pg, void (*gen)(struct tb *, struct ir *), const char *what);

#endif

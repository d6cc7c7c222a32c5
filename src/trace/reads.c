// SPDX-License-Identifier: MIT
/*
 * The subprograms that read a call's arguments into its record (see
 * emit.h: TFN_*). They are global: the verifier walks each once, alone,
 * with its arguments unknown, however many shapes of reads call it; so
 * each bounds what it is given (the argument's index, the size, where the
 * bytes go) before it uses it. Their loops (the iovecs of readv and
 * sendmsg, execve's argv and envp) are bpf_loop()'s, whose callbacks keep
 * their state in the scratch entry (SCR_LOOP): the verifier walks such a
 * callback until its state stops changing, twice, not once per turn.
 */
#include "trace/emit.h"
#include "sys/arch.h"

#include <signal.h>
#include <ucontext.h>

/*
 * rt_sigreturn's signal frame, from the stack pointer at its entry: the
 * signal mask it restores (the kernel's rt_sigframe: its return address
 * popped on x86-64, the siginfo before the ucontext on arm64)
 */
#if defined(__x86_64__)
#define SIGFRAME_MASK ((int32_t)offsetof(ucontext_t, uc_sigmask))
#elif defined(__aarch64__)
#define SIGFRAME_MASK ((int32_t)(sizeof(siginfo_t) + offsetof(ucontext_t, uc_sigmask)))
#else
#define SIGFRAME_MASK 0
#endif

/* A read subprogram's arguments and flags */
struct rd {
	int32_t i, from, size, off; /* r1..r4 */
	uint32_t f;		    /* READ_*, and TFN_MEM's enum tsize */
	int16_t slot;
};

/*
 * i, from, size from r1 (TRACE_READ_ARGS), off from r2; leave unless
 * i < TRACE_NARGS; s = the scratch entry
 */
static void fn_begin(struct tb *b, struct ir *ir, struct rd *r, uint32_t f)
{
	b->ir = ir;
	b->ctx = -1;
	b->s = ir_vreg(ir);
	b->out = ir_label(ir);
	*r = (struct rd){ ir_vreg(ir), ir_vreg(ir), ir_vreg(ir), ir_vreg(ir), f, ir_stack(ir, 8) };
	emit(ir, MOV64_REG(r->off, R2));
	emit(ir, MOV64_REG(r->i, R1));
	emit(ir, ALU64_IMM(BPF_AND, r->i, 0xf));
	emit(ir, MOV64_REG(r->from, R1));
	emit(ir, ALU64_IMM(BPF_RSH, r->from, 4));
	emit(ir, ALU64_IMM(BPF_AND, r->from, 0xf));
	emit(ir, MOV64_REG(r->size, R1));
	emit(ir, ALU64_IMM(BPF_RSH, r->size, 8));
	emit(ir, JMP_IMM(BPF_JGE, r->i, TRACE_NARGS, b->out));
	trace_scratch(b, r->slot);
}

/* return off */
static void fn_end(struct tb *b, struct rd *r)
{
	emit(b->ir, LABEL(b->out));
	emit(b->ir, MOV64_REG(R0, r->off));
	emit(b->ir, EXIT_INSN());
	trace_cold(b);
}

/* dst = the value of argument i (a register below TRACE_NARGS) */
static void arg_of(struct tb *b, int32_t i, int32_t dst)
{
	int32_t p = ir_vreg(b->ir);

	emit(b->ir, MOV64_REG(p, i));
	emit(b->ir, ALU64_IMM(BPF_LSH, p, 3));
	emit(b->ir, ALU64_REG(BPF_ADD, p, b->s));
	emit(b->ir, LDX_MEM(BPF_DW, dst, p, HDR(a)));
}

/* dlen[i] = n */
static void set_dlen(struct tb *b, int32_t i, int32_t n)
{
	int32_t p = ir_vreg(b->ir);

	emit(b->ir, MOV64_REG(p, i));
	emit(b->ir, ALU64_IMM(BPF_LSH, p, 1));
	emit(b->ir, ALU64_REG(BPF_ADD, p, b->s));
	emit(b->ir, STX_MEM(BPF_H, p, n, HDR(dlen)));
}

/*
 * READ_AGAIN: leave unless the entry marked argument i (inflight's retry);
 * READ_OUT: a call that failed filled nothing (TRACE_NOTREAD)
 */
static void read_when(struct tb *b, struct rd *r)
{
	int32_t filled = ir_label(b->ir), v = ir_vreg(b->ir);

	if (r->f & READ_AGAIN) {
		emit(b->ir, LDX_MEM(BPF_W, v, b->s, INFL(retry)));
		emit(b->ir, ALU64_REG(BPF_RSH, v, r->i));
		emit(b->ir, ALU64_IMM(BPF_AND, v, 1));
		emit(b->ir, JMP_IMM(BPF_JEQ, v, 0, b->out));
	}
	if (r->f & READ_OUT) {
		emit(b->ir, LDX_MEM(BPF_DW, v, b->s, HDR(ret)));
		emit(b->ir, JMP_IMM(BPF_JSGE, v, 0, filled));
		emit(b->ir, MOV64_IMM(v, TRACE_NOTREAD));
		set_dlen(b, r->i, v);
		emit(b->ir, JA(b->out));
		emit(b->ir, LABEL(filled));
	}
}

/*
 * The end of a read: n bytes read (dlen[i] = n, off moves past them), or
 * at label fail, none (TRACE_UNREAD; READ_RETRY: marked for the exit)
 */
static void read_end(struct tb *b, struct rd *r, int32_t n, int32_t fail)
{
	int32_t m = ir_vreg(b->ir);

	set_dlen(b, r->i, n);
	emit(b->ir, ALU64_REG(BPF_ADD, r->off, n));
	emit(b->ir, JA(b->out));
	emit(b->ir, LABEL(fail));
	emit(b->ir, MOV64_IMM(n, TRACE_UNREAD));
	set_dlen(b, r->i, n);
	if (r->f & READ_RETRY) {
		// inflight's retry |= 1 << i
		emit(b->ir, MOV64_IMM(m, 1));
		emit(b->ir, ALU64_REG(BPF_LSH, m, r->i));
		emit(b->ir, LDX_MEM(BPF_W, n, b->s, INFL(retry)));
		emit(b->ir, ALU64_REG(BPF_OR, n, m));
		emit(b->ir, STX_MEM(BPF_W, b->s, n, INFL(retry)));
	}
}

/* TFN_STR: n = probe_read_user_str(s + off, size, argument i) */
static void gen_str(struct tb *b, struct ir *ir, uint32_t f)
{
	struct rd r;
	int32_t src = ir_vreg(ir), n = ir_vreg(ir), fail = ir_label(ir);

	fn_begin(b, ir, &r, f);
	read_when(b, &r);
	arg_of(b, r.i, src);
	trace_clamp(b, r.size, TRACE_DATA_MAX);
	trace_clamp(b, r.off, SCR_LAST);
	trace_read_to(b, BPF_FUNC_probe_read_user_str, r.off, r.size, src);
	emit(ir, MOV64_REG(n, R0));
	emit(ir, JMP_IMM(BPF_JSLE, n, 0, fail));
	emit(ir, JMP_IMM(BPF_JGT, n, TRACE_DATA_MAX, fail));
	read_end(b, &r, n, fail);
	fn_end(b, &r);
}

/*
 * TFN_MEM: the bytes argument i points to, as many as the flags' enum
 * tsize says (argument `from`, 8 times it, the result), at most size
 */
static void gen_mem(struct tb *b, struct ir *ir, uint32_t f)
{
	struct rd r;
	int32_t src = ir_vreg(ir), n = ir_vreg(ir), fail = ir_label(ir), sized = ir_label(ir);
	int32_t small = ir_label(ir);

	fn_begin(b, ir, &r, f);
	read_when(b, &r);
	if (f & READ_SP) {
		// src = the stack pointer + the mask's place in the frame
		emit(ir, LDX_MEM(BPF_DW, src, b->s, SCR_REGS + sys_arch_regs()->sp));
		emit(ir, ALU64_IMM(BPF_ADD, src, SIGFRAME_MASK));
	} else {
		arg_of(b, r.i, src);
	}
	trace_clamp(b, r.size, TRACE_DATA_MAX);
	emit(ir, MOV64_REG(n, r.size));
	switch (f & 0xff) {
	case TS_RET:
		emit(ir, LDX_MEM(BPF_DW, n, b->s, HDR(ret)));
		break;
	case TS_ARG:
	case TS_ARG8:
		// argument `from`; times 8 (but one above the size stays so)
		emit(ir, JMP_IMM(BPF_JGE, r.from, TRACE_NARGS, sized));
		arg_of(b, r.from, n);
		if ((f & 0xff) == TS_ARG8) {
			emit(ir, JMP_IMM(BPF_JGT, n, TRACE_DATA_MAX, sized));
			emit(ir, ALU64_IMM(BPF_LSH, n, 3));
		}
		break;
	default: /* TS_FIXED: size */
		break;
	}
	if ((f & 0xff) != TS_FIXED) {
		// n = MIN(n, size), unsigned: a negative count reads the size
		emit(ir, LABEL(sized));
		emit(ir, JMP_REG(BPF_JLE, n, r.size, small));
		emit(ir, MOV64_REG(n, r.size));
		emit(ir, LABEL(small));
	}
	trace_clamp(b, r.off, SCR_LAST);
	trace_read_to(b, BPF_FUNC_probe_read_user, r.off, n, src);
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, fail));
	read_end(b, &r, n, fail);
	fn_end(b, &r);
}

/* scratch's SCR_LOOP slot which = v; v = it */
static void loop_put(struct tb *b, int which, int32_t v)
{
	emit(b->ir, STX_MEM(BPF_DW, b->s, v, SCR_LOOP_AT(which)));
}

static void loop_get(struct tb *b, int which, int32_t v)
{
	emit(b->ir, LDX_MEM(BPF_DW, v, b->s, SCR_LOOP_AT(which)));
}

/*
 * After bpf_loop(): s, off and i again from the scratch entry, the state
 * the same whatever path led to the loop
 */
static void loop_end(struct tb *b, struct rd *r)
{
	trace_scratch(b, r->slot);
	loop_get(b, LOOP_START, r->off);
	loop_get(b, LOOP_I, r->i);
	trace_clamp(b, r->i, TRACE_NARGS - 1);
}

/* bpf_loop(n, &fn, NULL, 0) */
static void call_loop(struct tb *b, int32_t n, enum trace_fn fn)
{
	int32_t k = trace_fn(b, fn, 0);

	emit(b->ir, MOV64_REG(R1, n));
	emit(b->ir, LD_FUNC(R2, k));
	emit(b->ir, MOV64_IMM(R3, 0));
	emit(b->ir, MOV64_IMM(R4, 0));
	emit(b->ir, CALL(BPF_FUNC_loop, 4));
}

/*
 * TFN_IOV (the layout is in sysdesc.h): for a msghdr (msg, r2), its
 * bytes first, then the iovecs its msg_iov and msg_iovlen give; for an
 * iovec array, the count is the next argument
 */
static void gen_iov(struct tb *b, struct ir *ir, uint32_t f)
{
	struct rd r;
	int32_t src = ir_vreg(ir), n = ir_vreg(ir), at = ir_vreg(ir), head = ir_vreg(ir), t = ir_vreg(ir);
	int32_t fail = ir_label(ir), iov = ir_label(ir), counted = ir_label(ir);

	fn_begin(b, ir, &r, f);
	read_when(b, &r);
	arg_of(b, r.i, src);
	trace_clamp(b, r.size, IOV_SLOT_MAX);
	trace_clamp(b, r.off, SCR_LAST);
	loop_put(b, LOOP_CAP, r.size);
	loop_put(b, LOOP_SRC, src);
	emit(ir, MOV64_REG(at, r.off));
	emit(ir, JMP_IMM(BPF_JEQ, r.from, 0, iov));
	{
		// the msghdr; then its msg_iov, msg_iovlen
		emit(ir, MOV64_IMM(n, MSGHDR_SIZE));
		trace_read_to(b, BPF_FUNC_probe_read_user, r.off, n, src);
		emit(ir, JMP_IMM(BPF_JNE, R0, 0, fail));
		emit(ir, MOV64_REG(t, b->s));
		emit(ir, ALU64_REG(BPF_ADD, t, r.off));
		emit(ir, LDX_MEM(BPF_DW, src, t, 16));
		loop_put(b, LOOP_SRC, src);
		emit(ir, LDX_MEM(BPF_DW, n, t, 24));
		emit(ir, ALU64_IMM(BPF_ADD, at, MSGHDR_SIZE));
		emit(ir, JA(counted));
	}
	// iovecs: as many as the next argument says
	emit(ir, LABEL(iov));
	emit(ir, MOV64_REG(t, r.i));
	emit(ir, ALU64_IMM(BPF_ADD, t, 1));
	trace_clamp(b, t, TRACE_NARGS - 1);
	arg_of(b, t, n);
	emit(ir, LABEL(counted));
	// the count and the slot size go first, at head; then each iovec and its slot
	loop_put(b, LOOP_HEAD, at);
	emit(ir, ALU64_IMM(BPF_ADD, at, 8));
	loop_put(b, LOOP_AT, at);
	emit(ir, MOV64_IMM(t, 0));
	loop_put(b, LOOP_K, t);
	loop_put(b, LOOP_START, r.off);
	loop_put(b, LOOP_I, r.i);
	trace_clamp(b, n, IOV_SHOWN);
	call_loop(b, n, TFN_IOV_STEP);
	loop_end(b, &r);
	loop_get(b, LOOP_HEAD, head);
	trace_clamp(b, head, SCR_SIZE - 8);
	emit(ir, ALU64_REG(BPF_ADD, head, b->s));
	loop_get(b, LOOP_K, t);
	emit(ir, STX_MEM(BPF_W, head, t, 0));
	loop_get(b, LOOP_CAP, t);
	emit(ir, STX_MEM(BPF_W, head, t, 4));
	// its length: from off to the end of the last slot
	loop_get(b, LOOP_AT, n);
	emit(ir, ALU64_REG(BPF_SUB, n, r.off));
	read_end(b, &r, n, fail);
	fn_end(b, &r);
}

/* A callback's start: k = its turn (r1), s = the scratch entry; at out, it stops */
static void step_begin(struct tb *b, struct ir *ir, int32_t k, int bound, int16_t *slot)
{
	b->ir = ir;
	b->ctx = -1;
	b->s = ir_vreg(ir);
	b->out = ir_label(ir);
	*slot = ir_stack(ir, 8);
	emit(ir, MOV64_REG(k, R1));
	emit(ir, JMP_IMM(BPF_JGE, k, bound, b->out));
	trace_scratch(b, *slot);
}

/* return 0: go on; at out, return 1: stop */
static void step_end(struct tb *b)
{
	emit(b->ir, MOV64_IMM(R0, 0));
	emit(b->ir, EXIT_INSN());
	emit(b->ir, LABEL(b->out));
	emit(b->ir, MOV64_IMM(R0, 1));
	emit(b->ir, EXIT_INSN());
	trace_cold(b);
}

/*
 * iovec k of LOOP_SRC[] (16 bytes) at LOOP_AT, then the first
 * MIN(iov_len, LOOP_CAP) of its bytes (a fault leaves zeros); LOOP_AT
 * moves past its slot, LOOP_K counts it. A fault of the iovec stops.
 */
static void gen_iov_step(struct tb *b, struct ir *ir, uint32_t f)
{
	int32_t k = ir_vreg(ir), src = ir_vreg(ir), at = ir_vreg(ir), cap = ir_vreg(ir), t = ir_vreg(ir);
	int32_t p = ir_vreg(ir), len = ir_vreg(ir), fits = ir_label(ir);
	int16_t slot;

	(void)f;
	step_begin(b, ir, k, IOV_SHOWN, &slot);
	loop_get(b, LOOP_SRC, src);
	loop_get(b, LOOP_AT, at);
	loop_get(b, LOOP_CAP, cap);
	trace_clamp(b, at, SCR_SIZE - 8 - 16 - IOV_SLOT_MAX);
	trace_clamp(b, cap, IOV_SLOT_MAX);
	// the iovec: src[k] -> s + at
	emit(ir, MOV64_REG(p, k));
	emit(ir, ALU64_IMM(BPF_LSH, p, 4));
	emit(ir, ALU64_REG(BPF_ADD, p, src));
	emit(ir, MOV64_IMM(len, 16));
	trace_read_to(b, BPF_FUNC_probe_read_user, at, len, p);
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, b->out));
	// its bytes -> s + at + 16
	emit(ir, MOV64_REG(t, b->s));
	emit(ir, ALU64_REG(BPF_ADD, t, at));
	emit(ir, LDX_MEM(BPF_DW, p, t, 0));
	emit(ir, LDX_MEM(BPF_DW, len, t, 8));
	emit(ir, JMP_REG(BPF_JLE, len, cap, fits));
	emit(ir, MOV64_REG(len, cap));
	emit(ir, LABEL(fits));
	emit(ir, ALU64_IMM(BPF_ADD, at, 16));
	trace_read_to(b, BPF_FUNC_probe_read_user, at, len, p);
	// next: at += cap (its slot), k + 1 read
	emit(ir, ALU64_REG(BPF_ADD, at, cap));
	loop_put(b, LOOP_AT, at);
	emit(ir, ALU64_IMM(BPF_ADD, k, 1));
	loop_put(b, LOOP_K, k);
	step_end(b);
}

/*
 * TFN_ARGV: argv and envp: a u32 count of the pointers up to NULL, a u32
 * slot size, then (slot > 1) the first ARGV_MAX strings, each in its slot
 * of that many bytes (NUL-padded; a string longer than the slot is cut).
 * argv is counted up to ARGV_MAX + 1 (more shows as "..."), envp (size 1)
 * up to ENVP_MAX and only counted.
 */
static void gen_argv(struct tb *b, struct ir *ir, uint32_t f)
{
	struct rd r;
	int32_t src = ir_vreg(ir), n = ir_vreg(ir), k = ir_vreg(ir), t = ir_vreg(ir);
	int32_t counted = ir_label(ir), fits = ir_label(ir);

	fn_begin(b, ir, &r, f);
	arg_of(b, r.i, src);
	trace_clamp(b, r.size, TRACE_DATA_MAX / ARGV_MAX - 1);
	trace_clamp(b, r.off, SCR_LAST);
	loop_put(b, LOOP_SRC, src);
	loop_put(b, LOOP_START, r.off);
	loop_put(b, LOOP_CAP, r.size);
	emit(ir, MOV64_IMM(k, 0));
	loop_put(b, LOOP_K, k);
	emit(ir, MOV64_IMM(n, ENVP_MAX));
	emit(ir, JMP_IMM(BPF_JLE, r.size, 1, counted));
	emit(ir, MOV64_IMM(n, ARGV_MAX + 1));
	emit(ir, LABEL(counted));
	loop_put(b, LOOP_I, r.i);
	call_loop(b, n, TFN_ARGV_STEP);
	loop_end(b, &r);
	// the count, the slot size; then off = start + 8 + MIN(k, ARGV_MAX) * size (size > 1)
	loop_get(b, LOOP_K, k);
	loop_get(b, LOOP_CAP, r.size);
	trace_clamp(b, r.off, SCR_LAST);
	emit(ir, MOV64_REG(t, b->s));
	emit(ir, ALU64_REG(BPF_ADD, t, r.off));
	emit(ir, STX_MEM(BPF_W, t, k, 0));
	emit(ir, STX_MEM(BPF_W, t, r.size, 4));
	emit(ir, MOV64_IMM(n, 8));
	emit(ir, JMP_IMM(BPF_JLE, r.size, 1, fits));
	trace_clamp(b, k, ARGV_MAX);
	trace_clamp(b, r.size, TRACE_DATA_MAX / ARGV_MAX - 1);
	emit(ir, ALU64_REG(BPF_MUL, k, r.size));
	emit(ir, ALU64_REG(BPF_ADD, n, k));
	emit(ir, LABEL(fits));
	set_dlen(b, r.i, n);
	emit(ir, ALU64_REG(BPF_ADD, r.off, n));
	fn_end(b, &r);
}

/*
 * Pointer k of LOOP_SRC[] (user memory): NULL or a fault stops; LOOP_K
 * counts it; one of the first ARGV_MAX with LOOP_CAP > 1: its string in
 * its slot, LOOP_START + 8 + k * LOOP_CAP.
 */
static void gen_argv_step(struct tb *b, struct ir *ir, uint32_t f)
{
	int32_t k = ir_vreg(ir), p = ir_vreg(ir), cap = ir_vreg(ir), at = ir_vreg(ir), t = ir_vreg(ir);
	int32_t done = ir_label(ir);
	int16_t slot;

	(void)f;
	step_begin(b, ir, k, ENVP_MAX, &slot);
	loop_get(b, LOOP_SRC, p);
	emit(ir, MOV64_REG(t, k));
	emit(ir, ALU64_IMM(BPF_LSH, t, 3));
	emit(ir, ALU64_REG(BPF_ADD, p, t));
	emit(ir, MOV64_REG(R1, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R1, slot));
	emit(ir, MOV64_IMM(R2, 8));
	emit(ir, MOV64_REG(R3, p));
	emit(ir, CALL(BPF_FUNC_probe_read_user, 3));
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, b->out));
	emit(ir, LDX_MEM(BPF_DW, p, R10, slot));
	emit(ir, JMP_IMM(BPF_JEQ, p, 0, b->out));
	emit(ir, MOV64_REG(t, k));
	emit(ir, ALU64_IMM(BPF_ADD, t, 1));
	loop_put(b, LOOP_K, t);
	// the string, in its slot
	loop_get(b, LOOP_CAP, cap);
	emit(ir, JMP_IMM(BPF_JLE, cap, 1, done));
	emit(ir, JMP_IMM(BPF_JGE, k, ARGV_MAX, done));
	trace_clamp(b, cap, TRACE_DATA_MAX / ARGV_MAX - 1);
	loop_get(b, LOOP_START, at);
	trace_clamp(b, at, SCR_LAST);
	emit(ir, ALU64_REG(BPF_MUL, k, cap));
	emit(ir, ALU64_REG(BPF_ADD, at, k));
	emit(ir, ALU64_IMM(BPF_ADD, at, 8));
	trace_read_to(b, BPF_FUNC_probe_read_user_str, at, cap, p);
	emit(ir, LABEL(done));
	step_end(b);
}

void trace_gen_fn(struct tb *b, enum trace_fn fn, uint32_t flags, struct ir *ir)
{
	static void (*const gens[TFN_COUNT_])(struct tb *, struct ir *, uint32_t) = {
		[TFN_STR] = gen_str,	       [TFN_MEM] = gen_mem,	      [TFN_IOV] = gen_iov,
		[TFN_ARGV] = gen_argv,	       [TFN_IOV_STEP] = gen_iov_step, [TFN_ARGV_STEP] = gen_argv_step,
	};

	gens[fn](b, ir, flags);
}

// SPDX-License-Identifier: MIT
/*
 * The program on raw_syscalls:sys_exit (or the selected calls'
 * syscalls:sys_exit_X): the call's result and duration, what the kernel
 * filled, the strings the entry could not read; -c's counts. See progs.c
 * for the whole set of programs.
 */
#include "trace/emit.h"
#include "plan/provider.h"
#include "sys/arch.h"
#include "sys/syscalls.h"

/* -c: calls, errors and time of the call, on this CPU */
static void count(struct tb *b, int32_t nr, int32_t ret, int32_t dur, int16_t slot)
{
	int32_t st = ir_vreg(b->ir), t = ir_vreg(b->ir), ok = ir_label(b->ir);

	emit(b->ir, STX_MEM(BPF_W, R10, nr, slot));
	trace_lookup(b, b->counts, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_REG(st, R0));
	emit(b->ir, LDX_MEM(BPF_DW, t, st, 0));
	emit(b->ir, ALU64_IMM(BPF_ADD, t, 1));
	emit(b->ir, STX_MEM(BPF_DW, st, t, 0));
	emit(b->ir, LDX_MEM(BPF_DW, t, st, 16));
	emit(b->ir, ALU64_REG(BPF_ADD, t, dur));
	emit(b->ir, STX_MEM(BPF_DW, st, t, 16));
	// an error is -4095 .. -1
	emit(b->ir, JMP_IMM(BPF_JSGE, ret, 0, ok));
	emit(b->ir, JMP_IMM(BPF_JSLT, ret, -4095, ok));
	emit(b->ir, LDX_MEM(BPF_DW, t, st, 8));
	emit(b->ir, ALU64_IMM(BPF_ADD, t, 1));
	emit(b->ir, STX_MEM(BPF_DW, st, t, 8));
	emit(b->ir, LABEL(ok));
}

/*
 * The call's arguments, into the record and the scratch entry: from its
 * inflight entry, or for a quick call (raw_syscalls only), from the task's
 * registers, which the call left as they were.
 */
static void exit_args(struct tb *b, int32_t e, int32_t sp, int32_t t)
{
	const struct arch_regs *regs = sys_arch_regs();
	int32_t quick = ir_label(b->ir), copied = ir_label(b->ir);

	for (int i = 0; i < TRACE_NARGS; i++)
		emit(b->ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	if (e < 0) { /* no entry: the registers were read already */
		for (int i = 0; i < TRACE_NARGS; i++) {
			emit(b->ir, LDX_MEM(BPF_DW, t, b->s, SCR_REGS + regs->sysarg[i]));
			emit(b->ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
			emit(b->ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
		}
		return;
	}
	if (!b->per_call) {
		emit(b->ir, LDX_MEM(BPF_W, t, sp, 0));
		emit(b->ir, JMP_IMM(BPF_JSET, t, SPEC_QUICK, quick));
	}
	for (int i = 0; i < TRACE_NARGS; i++) {
		emit(b->ir, LDX_MEM(BPF_DW, t, e, offsetof(struct trace_inflight, a) + 8 * i));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
	}
	if (b->per_call)
		return;
	emit(b->ir, JA(copied));
	emit(b->ir, LABEL(quick));
	trace_read_regs(b, t);
	for (int i = 0; i < TRACE_NARGS; i++) {
		emit(b->ir, LDX_MEM(BPF_DW, t, b->s, SCR_REGS + regs->sysarg[i]));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
	}
	emit(b->ir, LABEL(copied));
}

/*
 * The exit record of call nr of task tid: result ret, duration dur, ended
 * at now; e its inflight entry, or -1 for an untimed quick call (no entry,
 * its registers in the scratch entry already); then what the kernel
 * filled, and the strings the entry could not read
 */
static void exit_record(struct tb *b, int32_t tid, int32_t tgid, int32_t e, int32_t ret, int32_t nr,
			int32_t dur, int32_t now, int16_t slot, int32_t gone)
{
	struct ir *ir = b->ir;
	int32_t t = ir_vreg(ir), sp = ir_vreg(ir), off = ir_vreg(ir), retry = ir_vreg(ir);
	int32_t quick = ir_label(ir);

	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, gone));
	if (e >= 0)
		trace_scratch(b, slot);
	emit(ir, STX_MEM(BPF_DW, b->s, now, HDR(ts)));
	emit(ir, STX_MEM(BPF_DW, b->s, ret, HDR(ret)));
	emit(ir, STX_MEM(BPF_DW, b->s, dur, HDR(dur)));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[TREC_EXIT]));
	emit(ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(ir, STX_MEM(BPF_W, b->s, tgid, HDR(pid)));
	emit(ir, STX_MEM(BPF_W, b->s, nr, HDR(nr)));
	trace_put_comm(b);
	if (e >= 0)
		emit(ir, LDX_MEM(BPF_W, retry, e, offsetof(struct trace_inflight, retry)));
	else
		emit(ir, MOV64_IMM(retry, 0));
	emit(ir, STX_MEM(BPF_W, R10, nr, slot));
	trace_lookup(b, b->spec, slot);
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, gone));
	emit(ir, MOV64_REG(sp, R0));
	exit_args(b, e, sp, t);
	// flags: TRACE_F_ENTERED unless the call is a quick one
	emit(ir, LDX_MEM(BPF_W, t, sp, 0));
	emit(ir, ST_MEM(BPF_W, b->s, HDR(flags), 0));
	emit(ir, JMP_IMM(BPF_JSET, t, SPEC_QUICK, quick));
	emit(ir, ST_MEM(BPF_W, b->s, HDR(flags), TRACE_F_ENTERED));
	emit(ir, LABEL(quick));
	emit(ir, MOV64_IMM(off, SCR_DATA));
	// nothing to read (no buffer filled, no string to read again): straight to the send
	int32_t reads = ir_label(ir), sendit = ir_label(ir);
	emit(ir, JMP_IMM(BPF_JSET, t, SPEC_OUT, reads));
	emit(ir, JMP_IMM(BPF_JEQ, retry, 0, sendit));
	emit(ir, LABEL(reads));
	for (int i = 0; i < TRACE_NARGS; i++) {
		int32_t how = ir_vreg(ir), src = ir_vreg(ir), next = ir_label(ir), not_out = ir_label(ir);
		int32_t unread = ir_label(ir), not_str = ir_label(ir);
		emit(ir, LDX_MEM(BPF_B, how, sp, 4 + 6 * i));
		emit(ir, LDX_MEM(BPF_DW, src, b->s, INFL(a) + 8 * i));
		if (i == 1) { /* readv's iovecs, recvmsg's msghdr, when the call worked */
			int32_t not_iov = ir_label(ir), not_msg = ir_label(ir), worked = ir_label(ir);
			emit(ir, JMP_IMM(BPF_JEQ, how, TR_IOV_OUT, worked));
			emit(ir, JMP_IMM(BPF_JNE, how, TR_MSG_OUT, not_msg));
			emit(ir, LABEL(worked));
			emit(ir, JMP_IMM(BPF_JSLT, ret, 0, unread));
			emit(ir, JMP_IMM(BPF_JNE, how, TR_IOV_OUT, not_iov));
			trace_read_iov(b, i, sp, off, src, INFL(a), false);
			emit(ir, JA(next));
			emit(ir, LABEL(not_iov));
			trace_read_iov(b, i, sp, off, src, INFL(a), true);
			emit(ir, JA(next));
			emit(ir, LABEL(not_msg));
		}
		emit(ir, JMP_IMM(BPF_JNE, how, TR_MEM_OUT, not_out));
		// a failed call filled nothing
		emit(ir, JMP_IMM(BPF_JSLT, ret, 0, unread));
		trace_read_mem(b, i, sp, off, src, INFL(a), ret, false);
		emit(ir, JA(next));
		emit(ir, LABEL(unread));
		emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, TRACE_NOTREAD));
		emit(ir, JA(next));
		emit(ir, LABEL(not_out));
		// what the entry could not read: again, now that the call faulted it in
		emit(ir, MOV64_REG(t, retry));
		emit(ir, ALU64_IMM(BPF_AND, t, 1 << i));
		emit(ir, JMP_IMM(BPF_JEQ, t, 0, next));
		emit(ir, JMP_IMM(BPF_JNE, how, TR_STR, not_str));
		trace_read_str(b, i, sp, off, src, false);
		emit(ir, JA(next));
		emit(ir, LABEL(not_str));
		emit(ir, JMP_IMM(BPF_JNE, how, TR_MEM_IN, next));
		trace_read_mem(b, i, sp, off, src, INFL(a), -1, false);
		emit(ir, LABEL(next));
		trace_blur_off(b, off);
	}
	emit(ir, LABEL(sendit));
	trace_send(b, off, slot);
}

/*
 * An untimed quick call (no -T, -t, -r, -c, --json, --timeline) has no
 * entry: its enter program stopped at the spec. Its exit is made from the
 * registers (the number, the arguments) alone; other calls go on to
 * entered.
 */
static void untimed_quick_exit(struct tb *b, int32_t tid, int32_t tgid, int16_t slot, int32_t entered)
{
	struct ir *ir = b->ir;
	int32_t nr = ir_vreg(ir), t = ir_vreg(ir), ret = ir_vreg(ir), now = ir_vreg(ir), zero = ir_vreg(ir);

	trace_traced_check(b, tid, tgid, slot);
	trace_scratch(b, slot);
	trace_read_regs(b, t);
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, b->out));
	emit(ir, LDX_MEM(BPF_DW, nr, b->s, SCR_REGS + sys_arch_regs()->sys_nr));
	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, entered));
	emit(ir, STX_MEM(BPF_W, R10, nr, slot));
	trace_lookup(b, b->spec, slot);
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, entered));
	emit(ir, LDX_MEM(BPF_W, t, R0, 0));
	emit(ir, JMP_IMM(BPF_JSET, t, SPEC_QUICK, b->light));
	emit(ir, JA(entered));
	emit(ir, LABEL(b->light));
	emit(ir, LDX_MEM(BPF_DW, ret, b->ctx, 8));
	emit(ir, MOV64_IMM(zero, 0));
	emit(ir, MOV64_IMM(now, 0)); /* untimed: nothing prints a time */
	exit_record(b, tid, tgid, -1, ret, nr, zero, now, slot, b->out);
	emit(ir, JA(b->out));
}

/* raw_syscalls:sys_exit: args[1] the result (syscalls:sys_exit_X: at 16) */
void trace_gen_exit(struct tb *b, struct ir *ir)
{
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), e = ir_vreg(ir), ret = ir_vreg(ir);
	int32_t nr = ir_vreg(ir), t = ir_vreg(ir), now = ir_vreg(ir);
	int32_t gone = ir_label(ir), entered = ir_label(ir);
	int16_t slot = ir_stack(ir, 8);

	trace_prologue(b, ir);
	b->light = ir_label(ir);
	emit(ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
	emit(ir, MOV64_REG(tgid, R0));
	emit(ir, MOV32_REG(tid, R0));
	emit(ir, ALU64_IMM(BPF_RSH, tgid, 32));
	if (trace_untimed_quick(b))
		untimed_quick_exit(b, tid, tgid, slot, entered);
	emit(ir, LABEL(entered));
	// the call's entry, if it was traced
	emit(ir, STX_MEM(BPF_W, R10, tid, slot));
	trace_lookup(b, b->inflight, slot);
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(ir, MOV64_REG(e, R0));
	emit(ir, LDX_MEM(BPF_DW, t, e, offsetof(struct trace_inflight, ts)));
	emit(ir, JMP_IMM(BPF_JEQ, t, 0, b->out)); /* done already */
	emit(ir, LDX_MEM(BPF_DW, ret, b->ctx, b->per_call ? 16 : 8));
	emit(ir, LDX_MEM(BPF_W, nr, e, offsetof(struct trace_inflight, nr)));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, LDX_MEM(BPF_DW, t, e, offsetof(struct trace_inflight, ts)));
	emit(ir, MOV64_REG(now, R0));
	emit(ir, ALU64_REG(BPF_SUB, R0, t));
	emit(ir, MOV64_REG(t, R0)); /* the duration */
	if (b->o->summary) {
		count(b, nr, ret, t, slot);
		if (!b->o->summary_too)
			goto done;
	}
	exit_record(b, tid, tgid, e, ret, nr, t, now, slot, gone);
	emit(ir, LABEL(gone));
done:
	emit(ir, ST_MEM(BPF_DW, e, offsetof(struct trace_inflight, ts), 0));
	trace_epilogue(b);
}


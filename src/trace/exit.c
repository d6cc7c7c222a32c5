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

bool trace_counts_only(const struct tb *b)
{
	return b->o->summary && !b->o->summary_too;
}

/* s = this CPU's slot (-c), or leave */
static void this_slot(struct tb *b, int32_t s, int16_t slot)
{
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	trace_lookup(b, b->slots, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_REG(s, R0));
}

/*
 * -c, at entry: this CPU's slot = {tid, nr, now}. A call of another task
 * still in it (that task blocked in it) goes to inflight first, while that
 * task is traced (a task that ended leaves its last call there; with -a,
 * where no set of tasks is kept, always).
 */
static void slot_claim(struct tb *b, int32_t s, int32_t tid, int32_t nr, int32_t regs, int16_t slot)
{
	struct ir *ir = b->ir;
	int32_t t = ir_vreg(ir), o = ir_vreg(ir), free = ir_label(ir);
	int16_t e = ir_stack(ir, sizeof(struct trace_inflight));

	emit(ir, LDX_MEM(BPF_DW, t, s, offsetof(struct trace_slot, ts)));
	emit(ir, JMP_IMM(BPF_JEQ, t, 0, free));
	emit(ir, LDX_MEM(BPF_W, o, s, offsetof(struct trace_slot, tid)));
	emit(ir, JMP_REG(BPF_JEQ, o, tid, free));
	if (!b->o->all)
		trace_traced_test_to(b, o, slot, free);
	// inflight[o] = {ts, nr}
	emit(ir, STX_MEM(BPF_DW, R10, t, e + (int16_t)offsetof(struct trace_inflight, ts)));
	emit(ir, LDX_MEM(BPF_W, t, s, offsetof(struct trace_slot, nr)));
	emit(ir, STX_MEM(BPF_W, R10, t, e + (int16_t)offsetof(struct trace_inflight, nr)));
	for (int k = 8; k < (int)offsetof(struct trace_inflight, nr); k += 8)
		emit(ir, ST_MEM(BPF_DW, R10, e + k, 0));
	emit(ir, ST_MEM(BPF_W, R10, e + (int16_t)offsetof(struct trace_inflight, retry), 0));
	emit(ir, STX_MEM(BPF_W, R10, o, slot));
	emit(ir, LD_MAP(R1, b->inflight));
	emit(ir, MOV64_REG(R2, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R2, slot));
	emit(ir, MOV64_REG(R3, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R3, e));
	emit(ir, MOV64_IMM(R4, BPF_ANY));
	emit(ir, CALL(BPF_FUNC_map_update_elem, 4));
	// the slot is this call's
	emit(ir, LABEL(free));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, STX_MEM(BPF_W, s, tid, offsetof(struct trace_slot, tid)));
	emit(ir, STX_MEM(BPF_W, s, nr, offsetof(struct trace_slot, nr)));
	emit(ir, STX_MEM(BPF_DW, s, R0, offsetof(struct trace_slot, ts)));
	if (regs >= 0)
		emit(ir, STX_MEM(BPF_DW, s, regs, offsetof(struct trace_slot, regs)));
}

void trace_count_entry(struct tb *b, int32_t tid, int32_t nr, int16_t slot)
{
	int32_t s = ir_vreg(b->ir);

	this_slot(b, s, slot);
	slot_claim(b, s, tid, nr, -1, slot);
}

/*
 * The slot's task again (its pt_regs there): the number and the time, no
 * more. Else the thread id, leave unless it is traced, and claim the slot
 * as trace_count_entry() does, with the task's pt_regs.
 */
void trace_count_enter_fast(struct tb *b, int16_t slot)
{
	struct ir *ir = b->ir;
	int32_t nr = ir_vreg(ir), regs = ir_vreg(ir), s = ir_vreg(ir), o = ir_vreg(ir);
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), light = ir_label(ir), other = ir_label(ir);

	emit(ir, LDX_MEM(BPF_DW, nr, b->ctx, 8));
	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, b->out));
	trace_dispatch(b, nr, TBL_ENTER, (int32_t[]){ b->out, light, b->out }, -1, slot);
	emit(ir, LABEL(light));
	emit(ir, LDX_MEM(BPF_DW, regs, b->ctx, 0));
	this_slot(b, s, slot);
	emit(ir, LDX_MEM(BPF_DW, o, s, offsetof(struct trace_slot, regs)));
	emit(ir, JMP_REG(BPF_JNE, o, regs, other));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, STX_MEM(BPF_W, s, nr, offsetof(struct trace_slot, nr)));
	emit(ir, STX_MEM(BPF_DW, s, R0, offsetof(struct trace_slot, ts)));
	emit(ir, JA(b->out));
	emit(ir, LABEL(other));
	trace_traced_only(b, tid, tgid, slot);
	slot_claim(b, s, tid, nr, regs, slot);
}

/*
 * Every CPU's slot of task tid forgets its pt_regs: only the thread id
 * knows them afterwards. A CPU writing its slot meanwhile may lose its
 * pt_regs too: its next call goes the slower way.
 */
void trace_slots_forget(struct tb *b, int32_t tid, int16_t slot)
{
	struct ir *ir = b->ir;
	int32_t o = ir_vreg(ir), done = ir_label(ir);

	for (int cpu = 0; cpu < SLOT_SCAN; cpu++) {
		int32_t next = ir_label(ir);
		trace_cpu_slot(b, cpu, slot, done);
		emit(ir, LDX_MEM(BPF_W, o, R0, offsetof(struct trace_slot, tid)));
		emit(ir, JMP_REG(BPF_JNE, o, tid, next));
		emit(ir, ST_MEM(BPF_DW, R0, offsetof(struct trace_slot, regs), 0));
		emit(ir, LABEL(next));
	}
	emit(ir, LABEL(done));
}

/* p: a slot; if it holds tid's call: t, nr = its time and number, the slot freed, goto found */
/*
 * The call held at p (its start time at ts_off, its number at nr_off) taken
 * into t and nr, and the time cleared, then to found; to miss if it holds none
 */
static void take_call(struct tb *b, int32_t p, int16_t ts_off, int16_t nr_off, int32_t t, int32_t nr,
		      int32_t miss, int32_t found)
{
	emit(b->ir, LDX_MEM(BPF_DW, t, p, ts_off));
	emit(b->ir, JMP_IMM(BPF_JEQ, t, 0, miss));
	emit(b->ir, LDX_MEM(BPF_W, nr, p, nr_off));
	emit(b->ir, ST_MEM(BPF_DW, p, ts_off, 0));
	emit(b->ir, JA(found));
}

#define SLOT_CALL offsetof(struct trace_slot, ts), offsetof(struct trace_slot, nr)

static void take_slot(struct tb *b, int32_t p, int32_t tid, int32_t t, int32_t nr, int32_t found)
{
	int32_t o = ir_vreg(b->ir), no = ir_label(b->ir);

	emit(b->ir, LDX_MEM(BPF_W, o, p, offsetof(struct trace_slot, tid)));
	emit(b->ir, JMP_REG(BPF_JNE, o, tid, no));
	take_call(b, p, SLOT_CALL, t, nr, no, found);
	emit(b->ir, LABEL(no));
}

/*
 * -c, at exit: the call's time and number from this CPU's slot; else,
 * for a traced task, from inflight (moved there); else from the slot of
 * the CPU the task left; then its counts
 */
static void count_exit(struct tb *b, int32_t tid, int32_t tgid, int16_t slot)
{
	struct ir *ir = b->ir;
	int32_t s = ir_vreg(ir), t = ir_vreg(ir), nr = ir_vreg(ir), ret = ir_vreg(ir), p = ir_vreg(ir);
	int32_t found = ir_label(ir), scan = ir_label(ir);

	this_slot(b, s, slot);
	if (b->slot_fast) {
		// the slot's task (its pt_regs there), and its call in it
		int32_t regs = ir_vreg(ir), other = ir_label(ir);
		emit(ir, LDX_MEM(BPF_DW, regs, b->ctx, 0));
		emit(ir, LDX_MEM(BPF_DW, p, s, offsetof(struct trace_slot, regs)));
		emit(ir, JMP_REG(BPF_JNE, p, regs, other));
		take_call(b, s, SLOT_CALL, t, nr, other, found);
		emit(ir, LABEL(other));
	}
	trace_current_ids(b, tid, tgid);
	take_slot(b, s, tid, t, nr, found);
	trace_traced_check(b, tid, tgid, slot);
	// moved to inflight
	emit(ir, STX_MEM(BPF_W, R10, tid, slot));
	trace_lookup(b, b->inflight, slot);
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, scan));
	emit(ir, MOV64_REG(p, R0));
	take_call(b, p, offsetof(struct trace_inflight, ts), offsetof(struct trace_inflight, nr), t, nr, scan, found);
	// the task moved: the other CPUs' slots, to the last
	emit(ir, LABEL(scan));
	for (int cpu = 0; cpu < SLOT_SCAN; cpu++) {
		trace_cpu_slot(b, cpu, slot, b->out);
		emit(ir, MOV64_REG(p, R0));
		take_slot(b, p, tid, t, nr, found);
	}
	emit(ir, JA(b->out));
	emit(ir, LABEL(found));
	emit(ir, LDX_MEM(BPF_DW, ret, b->ctx, b->per_call ? 16 : 8));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, ALU64_REG(BPF_SUB, R0, t));
	emit(ir, MOV64_REG(t, R0));
	count(b, nr, ret, t, slot);
}

/*
 * The call's arguments into the record and the scratch entry, from its
 * inflight entry e; or for an entry that kept the time only (a quick call
 * on raw_syscalls), from the task's registers, which the call left as
 * they were. flags: TRACE_F_ENTERED unless the entry sent nothing.
 */
static void exit_args(struct tb *b, int32_t e, int32_t t)
{
	const struct arch_regs *regs = sys_arch_regs();
	int32_t f = ir_vreg(b->ir), whole = ir_label(b->ir), copied = ir_label(b->ir);

	emit(b->ir, LDX_MEM(BPF_W, t, e, offsetof(struct trace_inflight, retry)));
	emit(b->ir, STX_MEM(BPF_W, b->s, t, INFL(retry)));
	// flags = !(retry & INFL_WHOLE)
	emit(b->ir, MOV64_REG(f, t));
	emit(b->ir, ALU64_IMM(BPF_RSH, f, 31));
	emit(b->ir, ALU64_IMM(BPF_XOR, f, TRACE_F_ENTERED));
	emit(b->ir, STX_MEM(BPF_W, b->s, f, HDR(flags)));
	if (!b->per_call)
		emit(b->ir, JMP_IMM(BPF_JSET, t, (int32_t)INFL_WHOLE, whole));
	for (int i = 0; i < TRACE_NARGS; i++) {
		emit(b->ir, LDX_MEM(BPF_DW, t, e, offsetof(struct trace_inflight, a) + 8 * i));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
	}
	if (b->per_call)
		return;
	emit(b->ir, JA(copied));
	emit(b->ir, LABEL(whole));
	trace_read_regs(b, t);
	for (int i = 0; i < TRACE_NARGS; i++) {
		emit(b->ir, LDX_MEM(BPF_DW, t, b->s, SCR_REGS + regs->sysarg[i]));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
		emit(b->ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
	}
	emit(b->ir, LABEL(copied));
}

/*
 * The exit record of the call in the scratch entry (its number, result,
 * duration, end time, arguments and flags there already) of task tid:
 * then what the kernel filled, and the strings the entry could not read
 */
static void exit_record(struct tb *b, int32_t tid, int32_t tgid, int16_t slot)
{
	struct ir *ir = b->ir;
	int32_t off = ir_vreg(ir), sendit = ir_label(ir);

	emit(ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[TREC_EXIT]));
	emit(ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(ir, STX_MEM(BPF_W, b->s, tgid, HDR(pid)));
	for (int i = 0; i < TRACE_NARGS; i++)
		emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	trace_put_comm(b);
	emit(ir, MOV64_IMM(off, SCR_DATA));
	trace_exit_reads(b, off, sendit, slot);
	emit(ir, LABEL(sendit));
	trace_send(b, off, slot);
}

/*
 * An untimed quick call (no -T, -t, -r, -c, --json, --timeline) has no
 * entry: its enter program stopped at the number. Its exit is made from
 * the registers (the number, the arguments) alone, and goes on to the
 * record; other calls go on to entered.
 */
static void untimed_quick_exit(struct tb *b, int32_t tid, int32_t tgid, int16_t slot, int32_t entered,
			       int32_t record)
{
	struct ir *ir = b->ir;
	int32_t nr = ir_vreg(ir), t = ir_vreg(ir), quick = ir_label(ir);

	trace_traced_check(b, tid, tgid, slot);
	trace_scratch(b, slot);
	trace_read_regs(b, t);
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, b->out));
	emit(ir, LDX_MEM(BPF_DW, nr, b->s, SCR_REGS + sys_arch_regs()->sys_nr));
	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, entered));
	trace_dispatch(b, nr, TBL_QUICK, (int32_t[]){ entered, quick }, -1, slot);
	// untimed: nothing prints a time
	emit(ir, LABEL(quick));
	emit(ir, LDX_MEM(BPF_DW, t, b->ctx, 8));
	emit(ir, STX_MEM(BPF_DW, b->s, t, HDR(ret)));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(ts), 0));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(dur), 0));
	emit(ir, STX_MEM(BPF_W, b->s, nr, HDR(nr)));
	emit(ir, ST_MEM(BPF_W, b->s, HDR(flags), 0));
	emit(ir, ST_MEM(BPF_W, b->s, INFL(retry), 0));
	for (int i = 0; i < TRACE_NARGS; i++) {
		emit(ir, LDX_MEM(BPF_DW, t, b->s, SCR_REGS + sys_arch_regs()->sysarg[i]));
		emit(ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
		emit(ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
	}
	emit(ir, JA(record));
}

/* raw_syscalls:sys_exit: args[1] the result (syscalls:sys_exit_X: at 16) */
void trace_gen_exit(struct tb *b, struct ir *ir)
{
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), e = ir_vreg(ir), ret = ir_vreg(ir);
	int32_t nr = ir_vreg(ir), t = ir_vreg(ir), now = ir_vreg(ir);
	int32_t done = ir_label(ir), entered = ir_label(ir), record = ir_label(ir);
	int16_t slot = ir_stack(ir, 8);

	trace_prologue(b, ir);
	if (trace_counts_only(b)) {
		count_exit(b, tid, tgid, slot);
		trace_epilogue(b);
		return;
	}
	trace_current_ids(b, tid, tgid);
	if (trace_untimed_quick(b))
		untimed_quick_exit(b, tid, tgid, slot, entered, record);
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
	// the record: what it needs of the entry into the scratch entry; the entry is done
	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, done));
	trace_scratch(b, slot);
	emit(ir, STX_MEM(BPF_DW, b->s, now, HDR(ts)));
	emit(ir, STX_MEM(BPF_DW, b->s, ret, HDR(ret)));
	emit(ir, STX_MEM(BPF_DW, b->s, t, HDR(dur)));
	emit(ir, STX_MEM(BPF_W, b->s, nr, HDR(nr)));
	exit_args(b, e, t);
	emit(ir, ST_MEM(BPF_DW, e, offsetof(struct trace_inflight, ts), 0));
	emit(ir, LABEL(record));
	exit_record(b, tid, tgid, slot);
	emit(ir, JA(b->out));
done:
	emit(ir, LABEL(done));
	emit(ir, ST_MEM(BPF_DW, e, offsetof(struct trace_inflight, ts), 0));
	trace_epilogue(b);
}

// SPDX-License-Identifier: MIT
/*
 * The programs and maps of lantern trace, built with lantern's own IR and
 * register allocator into a plan the session loads and attaches as it
 * does a script's:
 *
 *   raw_syscalls:sys_enter   a traced task's selected call: its arguments,
 *                            and the strings and bytes they point to that
 *                            the call reads (a path, write()'s buffer), go
 *                            to the ring buffer; the arguments are kept
 *                            (map inflight) for the exit
 *   raw_syscalls:sys_exit    the result, the duration, and the bytes the
 *                            call filled (read()'s buffer, a struct stat);
 *                            a path that could not be read at entry (its
 *                            page was not in memory yet) is read again
 *   sched_process_fork       -f: the new task is traced before it runs
 *   sched_process_exit       a traced task ended: its exit code
 *   signal_deliver           a signal reached a traced task: its siginfo
 *   signal_generate          ... or was dropped at once, being ignored
 *
 * With -c, the exit program counts calls, errors and time per call in a
 * per-CPU map instead, and nothing is sent per call.
 *
 * Only what the run needs is in them, decided here in user space, where
 * it is known which calls are selected and what each reads
 * (trace_sysdesc_reads): the programs look nothing up that the plan
 * knows. The calls are grouped by the shape of their reads; each shape
 * is a straight-line block of calls to the read subprograms, with
 * constant arguments (shapes.c), found through the calls table (map
 * "calls"), or straight away when only one way is possible (-e trace=
 * on the selected calls' own tracepoints: one call, one block). The
 * reads themselves (a string, bytes, iovecs, argv) are global
 * subprograms (reads.c), made for the flags their callers use; their
 * loops are bpf_loop()'s.
 *
 * Why this form: the verifier's work for `lantern trace /bin/true` (its
 * enter + exit programs on raw_syscalls), measured on this kind of
 * machine (2 vCPU, Linux 6.18, other work running; medians of 7):
 *
 *   a spec map interpreted at run time (before)      64,086 + 47,717 insns  ~170 ms
 *   one inline straight-line block per shape         32,459 +  4,374 insns   ~60 ms
 *     the bounded loops (argv, envp, iovecs) were most of it: without
 *     them 1,751 + 2,830 insns, still ~6 ms (every block verified inline)
 *   the blocks calling global read subprograms,       1,376 +  1,601 insns  3-9 ms
 *     loops by bpf_loop(): a global subprogram is walked once, whatever
 *     calls it, a callback until its state stops changing (its state
 *     kept in the scratch entry, so twice)
 *   per-shape programs by tail calls: not built. Each program load costs
 *     0.2 ms however small (the three small programs here), and there
 *     are ~25 entry and ~40 exit shapes: more than the whole budget.
 *
 * -e trace=openat's programs are straight-line: 260 + 261 insns, 0.8 ms.
 */
#include "trace/emit.h"
#include "plan/provider.h"
#include "probes/probes.h"
#include "probes/tracepoint.h"
#include "sys/tracefs.h"
#include "sys/arch.h"
#include "sys/syscalls.h"
#include "types/btf.h"

#include <bpf/libbpf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * inflight[tid] = the 64 bytes at base + off: in place when the task has
 * its entry already (every call but its first), a map update otherwise.
 * Exits mark the entry done (ts = 0) rather than delete it; the task's
 * end deletes it.
 */
static void keep_inflight(struct tb *b, int32_t tid, int32_t base, int16_t off, int16_t slot)
{
	int32_t dst = ir_vreg(b->ir), w = ir_vreg(b->ir), fresh = ir_label(b->ir), kept = ir_label(b->ir);

	emit(b->ir, STX_MEM(BPF_W, R10, tid, slot));
	trace_lookup(b, b->inflight, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, fresh));
	emit(b->ir, MOV64_REG(dst, R0));
	for (int k = 0; k < (int)sizeof(struct trace_inflight); k += 8) {
		emit(b->ir, LDX_MEM(BPF_DW, w, base, off + k));
		emit(b->ir, STX_MEM(BPF_DW, dst, w, k));
	}
	emit(b->ir, JA(kept));
	emit(b->ir, LABEL(fresh));
	emit(b->ir, LD_MAP(R1, b->inflight));
	emit(b->ir, MOV64_REG(R2, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R2, slot));
	emit(b->ir, MOV64_REG(R3, base));
	emit(b->ir, ALU64_IMM(BPF_ADD, R3, off));
	emit(b->ir, MOV64_IMM(R4, BPF_ANY));
	emit(b->ir, CALL(BPF_FUNC_map_update_elem, 4));
	emit(b->ir, LABEL(kept));
}

/* inflight[tid] = the time and the number only: what -c and a quick call need */
static void light_entry(struct tb *b, int32_t tid, int32_t nr, int16_t slot)
{
	int16_t e = ir_stack(b->ir, sizeof(struct trace_inflight));

	emit(b->ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(b->ir, STX_MEM(BPF_DW, R10, R0, e + (int16_t)offsetof(struct trace_inflight, ts)));
	emit(b->ir, STX_MEM(BPF_W, R10, nr, e + (int16_t)offsetof(struct trace_inflight, nr)));
	for (int k = 8; k < (int)offsetof(struct trace_inflight, nr); k += 8)
		emit(b->ir, ST_MEM(BPF_DW, R10, e + k, 0));
	emit(b->ir, ST_MEM(BPF_W, R10, e + (int16_t)offsetof(struct trace_inflight, retry), (int32_t)INFL_WHOLE));
	keep_inflight(b, tid, R10, e, slot);
}

/* What the enter program does for call nr: nothing, keep its time, or read it all (ENTER_*) */
static uint8_t enter_class(const struct tb *b, int nr)
{
	const struct trace_call *c = &b->call[nr];

	if (!c->selected)
		return b->calls ? TARGET_ANY : ENTER_OUT;
	if (b->o->summary && !b->o->summary_too)
		return ENTER_LIGHT; /* -c: the exit needs the time and the number only */
	if (c->quick && !b->calls) /* the exit reads the arguments from the registers, still there */
		return trace_untimed_quick(b) ? ENTER_OUT : ENTER_LIGHT;
	return ENTER_FULL;
}

/*
 * The arguments, the time and the header of a call's entry into the
 * scratch entry: syscalls:sys_enter_X's args[] at 16, read, not loaded, as
 * a program may not load past the shortest record it is attached to
 * (close has one argument; what follows is not shown); raw_syscalls'
 * from the task's registers.
 */
static void enter_args(struct tb *b, int32_t tid, int32_t tgid, int32_t nr)
{
	const struct arch_regs *regs = sys_arch_regs();
	struct ir *ir = b->ir;
	int32_t t = ir_vreg(ir);

	if (b->per_call) {
		emit(ir, MOV64_REG(t, b->ctx));
		emit(ir, ALU64_IMM(BPF_ADD, t, 16));
		emit(ir, MOV64_IMM(R2, 8 * TRACE_NARGS));
		emit(ir, MOV64_REG(R1, b->s));
		emit(ir, MOV64_REG(R3, t));
		emit(ir, CALL(BPF_FUNC_probe_read_kernel, 3));
	} else {
		trace_read_regs(b, t);
	}
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, b->out));
	for (int i = 0; i < TRACE_NARGS; i++) {
		emit(ir, LDX_MEM(BPF_DW, t, b->s, SCR_REGS + (b->per_call ? 8 * i : regs->sysarg[i])));
		emit(ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
		emit(ir, STX_MEM(BPF_DW, b->s, t, INFL(a) + 8 * i));
		emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	}
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, STX_MEM(BPF_DW, b->s, R0, HDR(ts)));
	emit(ir, STX_MEM(BPF_DW, b->s, R0, INFL(ts)));
	emit(ir, STX_MEM(BPF_W, b->s, nr, INFL(nr)));
	emit(ir, ST_MEM(BPF_W, b->s, INFL(retry), 0));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[TREC_ENTER]));
	emit(ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(ir, STX_MEM(BPF_W, b->s, tgid, HDR(pid)));
	emit(ir, STX_MEM(BPF_W, b->s, nr, HDR(nr)));
	trace_put_comm(b);
}

/*
 * raw_syscalls:sys_enter (args[0] the task's pt_regs, args[1] the number),
 * or with per_call, syscalls:sys_enter_X (the number and the arguments in
 * the tracepoint's record)
 */
static void gen_enter(struct tb *b, struct ir *ir)
{
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), nr = ir_vreg(ir), off = ir_vreg(ir);
	int32_t light = ir_label(ir), full = ir_label(ir), sendit = ir_label(ir), kept = ir_label(ir);
	int32_t whole = ir_label(ir);
	int16_t slot = ir_stack(ir, 8);

	trace_prologue(b, ir);
	if (b->slot_fast) {
		trace_count_enter_fast(b, slot);
		trace_epilogue(b);
		return;
	}
	trace_traced_only(b, tid, tgid, slot);
	// the call: nothing if it is not selected; its time only; or all of it
	if (b->per_call)
		emit(ir, LDX_MEM(BPF_W, nr, b->ctx, 8)); /* syscalls:sys_enter_X: __syscall_nr */
	else
		emit(ir, LDX_MEM(BPF_DW, nr, b->ctx, 8));
	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, b->out));
	trace_dispatch(b, nr, TBL_ENTER, (int32_t[]){ b->out, light, full }, -1, slot);
	emit(ir, LABEL(full));
	trace_scratch(b, slot);
	enter_args(b, tid, tgid, nr);
	// what the call reads, to the ring buffer after the header
	emit(ir, MOV64_IMM(off, SCR_DATA));
	trace_enter_reads(b, off, sendit, whole, slot);
	emit(ir, LABEL(sendit));
	trace_send(b, off, slot);
	emit(ir, JA(kept));
	// a quick call sends its exit only
	emit(ir, LABEL(whole));
	emit(ir, ST_MEM(BPF_W, b->s, INFL(retry), (int32_t)INFL_WHOLE));
	// keep the arguments for the exit
	emit(ir, LABEL(kept));
	keep_inflight(b, tid, b->s, SCR_INFL, slot);
	emit(ir, JA(b->out));
	emit(ir, LABEL(light));
	if (trace_counts_only(b))
		trace_count_entry(b, tid, nr, slot);
	else
		light_entry(b, tid, nr, slot);
	trace_epilogue(b);
}

/* A record of just the header: kind, tid, pid, nr, a[0], a[1]. */
static void send_small(struct tb *b, enum trace_rec kind, int32_t tid, int32_t pid, int32_t nr,
		       int32_t a0, int32_t a1, int16_t slot)
{
	int32_t off = ir_vreg(b->ir);

	trace_scratch(b, slot);
	emit(b->ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[kind]));
	emit(b->ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(b->ir, STX_MEM(BPF_DW, b->s, R0, HDR(ts)));
	emit(b->ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(b->ir, STX_MEM(BPF_W, b->s, pid, HDR(pid)));
	emit(b->ir, STX_MEM(BPF_W, b->s, nr, HDR(nr)));
	emit(b->ir, STX_MEM(BPF_DW, b->s, a0, HDR(a)));
	emit(b->ir, STX_MEM(BPF_DW, b->s, a1, HDR(a) + 8));
	trace_put_comm(b);
	for (int i = 0; i < TRACE_NARGS; i++)
		emit(b->ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	emit(b->ir, MOV64_IMM(off, SCR_DATA));
	trace_send(b, off, slot);
}

/* sched_process_fork(parent, child): a traced task's new task is traced (-f) */
static void gen_fork(struct tb *b, struct ir *ir)
{
	int32_t parent = ir_vreg(ir), child = ir_vreg(ir), ppid = ir_vreg(ir), cpid = ir_vreg(ir);
	int32_t ctgid = ir_vreg(ir), zero = ir_vreg(ir);
	int16_t slot = ir_stack(ir, 8), key = ir_stack(ir, 8);

	trace_prologue(b, ir);
	emit(ir, LDX_MEM(BPF_DW, parent, b->ctx, 0));
	emit(ir, LDX_MEM(BPF_DW, child, b->ctx, 8));
	trace_task_u32(b, parent, b->task_pid, ppid, slot);
	trace_task_u32(b, child, b->task_pid, cpid, slot);
	trace_task_u32(b, child, b->task_tgid, ctgid, slot);
	if (b->o->all) {
		emit(ir, JMP_CONST(BPF_JEQ, ctgid, LC_SELF_PID, b->out));
	} else {
		trace_traced_test(b, ppid, key);
		// the child is traced before it runs
		trace_traced_set(b, cpid, true, key);
	}
	if (!b->o->summary || b->o->summary_too) {
		emit(ir, MOV64_IMM(zero, 0));
		send_small(b, TREC_FORK, cpid, ctgid, zero, ppid, zero, slot);
	}
	trace_epilogue(b);
}

/* sched_process_exit(task, group_dead): a traced task ended */
static void gen_task_exit(struct tb *b, struct ir *ir)
{
	int32_t task = ir_vreg(ir), pid = ir_vreg(ir), tgid = ir_vreg(ir), code = ir_vreg(ir);
	int32_t dead = ir_vreg(ir), zero = ir_vreg(ir);
	int16_t slot = ir_stack(ir, 8), key = ir_stack(ir, 8);

	trace_prologue(b, ir);
	emit(ir, LDX_MEM(BPF_DW, task, b->ctx, 0));
	emit(ir, LDX_MEM(BPF_DW, dead, b->ctx, 8));
	emit(ir, ALU64_IMM(BPF_AND, dead, 0xff));
	trace_task_u32(b, task, b->task_pid, pid, slot);
	trace_task_u32(b, task, b->task_tgid, tgid, slot);
	trace_task_u32(b, task, b->task_exit_code, code, slot);
	// its entry of calls in flight goes (the exits only mark it done)
	emit(ir, STX_MEM(BPF_W, R10, pid, key));
	emit(ir, LD_MAP(R1, b->inflight));
	emit(ir, MOV64_REG(R2, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R2, key));
	emit(ir, CALL(BPF_FUNC_map_delete_elem, 2));
	if (b->o->all) {
		emit(ir, JMP_CONST(BPF_JEQ, tgid, LC_SELF_PID, b->out));
	} else {
		trace_traced_test(b, pid, key);
		trace_traced_set(b, pid, false, key);
	}
	if (b->slot_fast)
		trace_slots_forget(b, pid, key);
	if (!b->o->summary || b->o->summary_too) {
		emit(ir, MOV64_IMM(zero, 0));
		send_small(b, TREC_EXITED, pid, tgid, zero, code, dead, slot);
	}
	trace_epilogue(b);
}

/*
 * The record of signal sig reaching task tid: its siginfo (48 bytes of
 * kernel memory), or none when the kernel passed SEND_SIG_NOINFO (0) or
 * SEND_SIG_PRIV (1): a[0] says which; a[1] is 1 for an ignored signal. SIGKILL never shows (as in strace:
 * the task is just killed).
 */
static void signal_record(struct tb *b, int32_t tid, int32_t tgid, int32_t sig, int32_t info, bool ignored,
			  int16_t slot)
{
	int32_t off = ir_vreg(b->ir), n = ir_vreg(b->ir), noinfo = ir_label(b->ir),
		sent = ir_label(b->ir);
	struct ir *ir = b->ir;

	emit(ir, JMP_IMM(BPF_JEQ, sig, SIGKILL, b->out));
	trace_scratch(b, slot);
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[TREC_SIGNAL]));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, STX_MEM(BPF_DW, b->s, R0, HDR(ts)));
	emit(ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(ir, STX_MEM(BPF_W, b->s, tgid, HDR(pid)));
	emit(ir, STX_MEM(BPF_W, b->s, sig, HDR(nr)));
	emit(ir, STX_MEM(BPF_DW, b->s, info, HDR(a)));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(a) + 8, ignored));
	trace_put_comm(b);
	for (int i = 0; i < TRACE_NARGS; i++)
		emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	emit(ir, MOV64_IMM(off, SCR_DATA));
	emit(ir, JMP_IMM(BPF_JLE, info, 1, noinfo));
	emit(ir, MOV64_IMM(n, 48));
	trace_read_to(b, BPF_FUNC_probe_read_kernel, off, n, info);
	emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen), 48));
	emit(ir, ALU64_IMM(BPF_ADD, off, 48));
	emit(ir, JA(sent));
	emit(ir, LABEL(noinfo));
	emit(ir, LABEL(sent));
	trace_send(b, off, slot);
}

/* signal_deliver(sig, info, ka): a traced task takes a signal */
static void gen_signal(struct tb *b, struct ir *ir)
{
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), sig = ir_vreg(ir), info = ir_vreg(ir);
	int16_t slot = ir_stack(ir, 8);

	trace_prologue(b, ir);
	trace_traced_only(b, tid, tgid, slot);
	emit(ir, LDX_MEM(BPF_DW, sig, b->ctx, 0));
	emit(ir, LDX_MEM(BPF_DW, info, b->ctx, 8));
	signal_record(b, tid, tgid, sig, info, false, slot);
	trace_epilogue(b);
}

/*
 * signal_generate(sig, info, task, group, result): a signal the kernel
 * drops at once because it is ignored (SIGCHLD by default) never reaches
 * signal_deliver. Under strace it would (a traced task ignores nothing),
 * so strace shows it: so does lantern.
 */
static void gen_signal_ignored(struct tb *b, struct ir *ir)
{
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), sig = ir_vreg(ir), info = ir_vreg(ir);
	int32_t task = ir_vreg(ir), t = ir_vreg(ir);
	int16_t slot = ir_stack(ir, 8), key = ir_stack(ir, 8);

	trace_prologue(b, ir);
	emit(ir, LDX_MEM(BPF_DW, t, b->ctx, 32));
	emit(ir, JMP_IMM(BPF_JNE, t, 1, b->out)); /* TRACE_SIGNAL_IGNORED */
	emit(ir, LDX_MEM(BPF_DW, sig, b->ctx, 0));
	emit(ir, LDX_MEM(BPF_DW, info, b->ctx, 8));
	emit(ir, LDX_MEM(BPF_DW, task, b->ctx, 16));
	trace_task_u32(b, task, b->task_pid, tid, slot);
	trace_task_u32(b, task, b->task_tgid, tgid, slot);
	if (b->o->all) {
		emit(ir, JMP_CONST(BPF_JEQ, tgid, LC_SELF_PID, b->out));
	} else {
		trace_traced_test(b, tid, key);
	}
	signal_record(b, tid, tgid, sig, info, true, slot);
	trace_epilogue(b);
}

/* One program on raw tracepoint event, from the IR gen makes. */
/* The instance of tracepoint syscalls:<dir>_<call nr> */
static struct probe_inst *syscall_inst(struct tb *b, struct probe *pr, struct attach_point *ap,
				       const char *dir, int nr)
{
	struct tp_inst *ti = ARENA_NEW(&b->p->arena, struct tp_inst);
	struct probe_inst *in;

	ti->cat = "syscalls";
	ti->event = arena_printf(&b->p->arena, "%s_%s", dir, sys_syscall_tp_name(nr));
	ti->sysnr = nr;
	in = plan_add_inst(b->p, pr, ap, &prov_tracepoint,
			   arena_printf(&b->p->arena, "tracepoint:syscalls:%s", ti->event));
	in->data = ti;
	return in;
}

/*
 * One program on raw tracepoint event, from the IR gen makes; with
 * b->per_call and a "sys_enter" or "sys_exit" event, on the selected
 * calls' own tracepoints instead.
 */
static int add_prog(struct tb *b, const char *event, void (*gen)(struct tb *, struct ir *))
{
	struct plan *p = b->p;
	bool per_call = b->calls && !strncmp(event, "sys_e", 5);
	struct attach_point *ap;
	struct probe *pr = trace_probe(b, per_call ? "tracepoint:syscalls" : "rawtracepoint", event, &ap);
	struct probe_inst *in = NULL;
	struct prog *pg = NULL;

	if (per_call) {
		for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
			if (!b->o->selected[nr])
				continue;
			in = syscall_inst(b, pr, ap, event, nr);
			if (!pg)
				pg = plan_add_prog(p, pr, in);
			plan_prog_attach_inst(pg, in);
		}
		pg->type = BPF_PROG_TYPE_TRACEPOINT;
	} else {
		in = plan_add_inst(p, pr, ap, &prov_rawtracepoint, ap->text);
		in->data = arena_strdup(&p->arena, event);
		pg = plan_add_prog(p, pr, in);
		plan_prog_attach_inst(pg, in);
		pg->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	}
	b->per_call = per_call;
	return trace_assemble_prog(b, pg, gen, ap->text);
}

/*
 * A few calls selected: programs on their own tracepoints
 * (syscalls:sys_enter_X), so that the other calls run no program at
 * all (B5). Every selected call must have its tracepoints, and no
 * argument read from the registers only raw_syscalls has (TR_FRAME:
 * rt_sigreturn, whose sys_exit_X never fires either, as the signal
 * frame it restores ends the call's number).
 */
static bool any_selected(const struct trace_opts *o)
{
	for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++)
		if (o->select_all || o->selected[nr])
			return true;
	return false;
}

static bool needs_regs(const struct sysdesc *d)
{
	for (int i = 0; i < d->nargs; i++)
		if (trace_kinds[d->arg[i]].read.how == TR_FRAME)
			return true;
	return false;
}

#define PER_CALL_MAX 64
static bool per_call_mode(const struct trace_opts *o)
{
	int n = 0;

	/* -k: its programs follow the calls' on raw_syscalls, in the order they run */
	if (o->select_all || o->all || o->stacks || getenv("LANTERN_TRACE_RAW"))
		return false;
	for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++)
		n += o->selected[nr];
	if (!n || n > PER_CALL_MAX)
		return false;
	for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
		const char *tp;
		char ev[128];
		if (!o->selected[nr])
			continue;
		if (!(tp = sys_syscall_tp_name(nr)) || needs_regs(trace_sysdesc_of(nr)))
			return false;
		snprintf(ev, sizeof(ev), "sys_enter_%s", tp);
		if (sys_tracefs_event_id("syscalls", ev) < 0)
			return false;
		snprintf(ev, sizeof(ev), "sys_exit_%s", tp);
		if (sys_tracefs_event_id("syscalls", ev) < 0)
			return false;
	}
	return true;
}

/*
 * What the programs do for each call: counted or shown, quick, what is
 * read for it; the calls table (shapes.c), in map "calls" for the
 * programs to look up
 */
static void plan_calls(struct tb *b)
{
	struct trace_call *calls = ARENA_ARRAY(&b->p->arena, struct trace_call, SYSCALL_NR_LIMIT);
	struct trace_table *tbl = ARENA_NEW(&b->p->arena, struct trace_table);
	bool shown = !b->o->summary || b->o->summary_too;
	struct bpf_map_desc *d;
	uint8_t *init;

	for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
		struct trace_call *c = &calls[nr];
		/* -c counts every selected call; a shown call's memory is read */
		c->selected = b->o->select_all || b->o->selected[nr];
		if (c->selected && shown) {
			const struct sysdesc *sd = trace_sysdesc_brief(nr);
			trace_sysdesc_reads(sd, b->o->strsize, c->r);
			c->quick = trace_sysdesc_quick(sd) && !b->o->timeline;
		}
	}
	b->call = calls;
	b->tbl = tbl;
	for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
		tbl->at[TBL_ENTER][nr] = enter_class(b, nr);
		tbl->at[TBL_QUICK][nr] = calls[nr].selected && calls[nr].quick && trace_untimed_quick(b);
	}
	trace_plan_shapes(tbl, calls, b->calls);
	/* the map: 4 bytes of key, then the rows; a number that never comes anywhere reads 0 */
	b->calls_map = maps_add(&b->p->maps, "calls", BPF_MAP_TYPE_ARRAY, 4, sizeof(tbl->at), 1);
	d = &b->p->maps.bpf.data[b->calls_map];
	init = arena_alloc(&b->p->arena, 4 + sizeof(tbl->at));
	for (size_t k = 0; k < sizeof(tbl->at); k++)
		init[4 + k] = ((const uint8_t *)tbl->at)[k] == TARGET_ANY ? 0 : ((const uint8_t *)tbl->at)[k];
	d->init = init;
	d->ninit = 1;
}

/* task_struct's pid, tgid and exit_code, from BTF: where fork and exit read them */
static int task_offsets(struct tb *b)
{
	static const char *const names[] = { "pid", "tgid", "exit_code" };
	uint32_t offs[3];
	struct type *t;
	const struct field *f;

	if (types_btf_vmlinux_offsets("task_struct", names, offs, 3) == 0) {
		b->task_pid = offs[0];
		b->task_tgid = offs[1];
		b->task_exit_code = offs[2];
		return 0;
	}
	t = type_env_lookup(&b->p->types, "struct", "task_struct");
	if (!t || t->kind != TY_RECORD) {
		diag_error(&b->p->diag, SPAN_NONE, E_MECHANISM_MISSING,
			   "lantern trace needs the kernel's BTF to follow tasks: %s",
			   b->p->types.btf.err[0] ? b->p->types.btf.err : "no struct task_struct");
		return -1;
	}
	if (!(f = type_field(t, "pid", &b->task_pid)) || !(f = type_field(t, "tgid", &b->task_tgid)) ||
	    !(f = type_field(t, "exit_code", &b->task_exit_code))) {
		diag_error(&b->p->diag, SPAN_NONE, E_MECHANISM_MISSING,
			   "this kernel's struct task_struct has no pid, tgid or exit_code");
		return -1;
	}
	return 0;
}

/* The largest thread id plus one: the traced bitmap's bits */
static uint32_t pid_max(void)
{
	char buf[32];
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	unsigned long n = 0;

	if (f && fgets(buf, sizeof(buf), f))
		n = strtoul(buf, NULL, 10);
	if (f)
		fclose(f);
	return n >= 64 && n <= (1u << 22) ? (uint32_t)n : 1u << 22; /* PID_MAX_LIMIT */
}

/* A program on a tracepoint: the event, its generator */
struct progdef {
	const char *event;
	void (*gen)(struct tb *, struct ir *);
};

#define PROGDEFS_MAX 10

/* The run's programs on tracepoints, in order, and where --calls' go among them (*calls_at) */
static size_t prog_defs(const struct trace_opts *o, struct progdef *d, size_t *calls_at)
{
	size_t n = 0;

	if (any_selected(o)) {
		d[n++] = (struct progdef){ "sys_enter", gen_enter };
		d[n++] = (struct progdef){ "sys_exit", trace_gen_exit };
	}
	if (o->follow || o->all)
		d[n++] = (struct progdef){ "sched_process_fork", gen_fork };
	*calls_at = n;
	/* the exit program ends the run (no task left traced), -c too */
	d[n++] = (struct progdef){ "sched_process_exit", gen_task_exit };
	if (!o->summary || o->summary_too) {
		d[n++] = (struct progdef){ "signal_deliver", gen_signal };
		d[n++] = (struct progdef){ "signal_generate", gen_signal_ignored };
	}
	/* -k: after the programs whose records they follow (a raw tracepoint runs its programs in order) */
	if (o->stacks && (!o->summary || o->summary_too) && any_selected(o)) {
		d[n++] = (struct progdef){ "sys_exit", trace_gen_stack_exit };
		d[n++] = (struct progdef){ "sys_enter", trace_gen_stack_entry };
		d[n++] = (struct progdef){ "signal_deliver", trace_gen_stack_signal };
	}
	return n;
}

static int plan_progs(struct tb *b)
{
	struct progdef d[PROGDEFS_MAX];
	size_t calls_at, n = prog_defs(b->o, d, &calls_at);

	for (size_t k = 0; k <= n; k++) {
		if (k == calls_at && trace_calls_plan(b) < 0)
			return -1;
		if (k < n && add_prog(b, d[k].event, d[k].gen) < 0)
			return -1;
	}
	return 0;
}

/*
 * 4 MB: a burst of ~10,000 records fits while user space drains (ls -lR
 * /usr/lib loses nothing even at 512 KB; two busy tasks that outrun the
 * reader lose events at 8 MB too, a little fewer). Its pages are
 * allocated, zeroed and mapped at every start, about half a millisecond
 * per MB, on the critical path of a short command's run. -k: 64 MB, for
 * 7,000 stacks of 8 KB (each takes user space microseconds to unwind).
 */
uint32_t trace_ringbuf_bytes(const struct trace_opts *o)
{
	const char *e = getenv("LANTERN_RINGBUF_KB");

	return e ? (uint32_t)(strtoul(e, NULL, 10) * 1024) : o->stacks ? 64u << 20 : 4u << 20;
}

int trace_plan(struct plan *p, const struct trace_opts *o, struct trace_funcs *funcs,
	       struct trace_maps *maps, struct strbuf *dump)
{
	struct tb b = { .p = p, .o = o, .funcs = funcs };
	struct strbuf ir = { 0 }, bpf = { 0 };
	int rc;

	if (!sys_arch_regs()) {
		diag_error(&p->diag, SPAN_NONE, E_MECHANISM_MISSING,
			   "lantern trace does not know this architecture's registers");
		return -1;
	}
	if (task_offsets(&b) < 0)
		return -1;
	for (int k = 0; k < TREC_COUNT_; k++) {
		struct record_desc *r = ARENA_NEW(&p->arena, struct record_desc);
		r->kind = REC_FRONTEND;
		r->size = sizeof(struct trace_hdr);
		r->top = k; /* the record's trace kind */
		b.ids[k] = plan_add_record(p, r);
	}
	maps_plan(&p->maps, &p->arena, trace_ringbuf_bytes(o), MAP_KEYS_DEFAULT);
	b.scratch = p->maps.scratch;
	b.ringbuf = p->maps.ringbuf;
	b.lost = p->maps.lost;
	b.traced = maps_add(&p->maps, "traced", BPF_MAP_TYPE_ARRAY, 4, 8, (pid_max() + 63) / 64);
	b.live = maps_add(&p->maps, "live", BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	b.inflight = maps_add(&p->maps, "inflight", BPF_MAP_TYPE_HASH, 4,
			      sizeof(struct trace_inflight), INFLIGHT_MAX);
	/* its entries allocated as calls come: preallocating 16,384 took a millisecond of the start */
	p->maps.bpf.data[b.inflight].flags = BPF_F_NO_PREALLOC;
	/* -c, -C: what they count (a per-CPU map takes a while to make: only then) */
	b.counts = o->summary ? maps_add(&p->maps, "counts", BPF_MAP_TYPE_PERCPU_ARRAY, 4,
					 sizeof(struct trace_count), SYSCALL_NR_LIMIT)
			      : -1;
	b.slots = o->summary && !o->summary_too
			  ? maps_add(&p->maps, "slots", BPF_MAP_TYPE_PERCPU_ARRAY, 4, sizeof(struct trace_slot), 1)
			  : -1;
	*maps = (struct trace_maps){ b.traced, b.live, b.counts };
	b.calls = per_call_mode(o);
	b.slot_fast = b.slots >= 0 && !b.calls && libbpf_num_possible_cpus() <= SLOT_SCAN;
	plan_calls(&b);
	/* the maps are known now: made while the code is generated (the scratch map has an
	   entry per program; --calls' programs come on top, and it is made again at load) */
	struct progdef defs[PROGDEFS_MAX];
	size_t calls_at;
	p->maps.bpf.data[p->maps.scratch].value_size = ALIGN_UP(SCR_SIZE, 8);
	p->maps.bpf.data[p->maps.scratch].max_entries = (uint32_t)prog_defs(o, defs, &calls_at);
	maps_prefetch_set(&p->maps);
	b.dump_ir = dump && (o->dump & DUMP_IR) ? &ir : NULL;
	b.dump_bpf = dump && (o->dump & DUMP_BPF) ? &bpf : NULL;
	rc = plan_progs(&b);
	if (dump) {
		sb_puts(dump, sb_str(&ir));
		sb_puts(dump, sb_str(&bpf));
	}
	sb_free(&ir);
	sb_free(&bpf);
	if (rc < 0)
		return -1;
	p->maps.bpf.data[p->maps.scratch].value_size = ALIGN_UP(SCR_SIZE, 8);
	p->maps.bpf.data[p->maps.scratch].max_entries = p->progs.len;
	p->checks_stop = p->maps.stop >= 0; /* trace_prologue() puts the check in */
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * lantern trace -k: a stack after each call, as strace -k prints them.
 *
 * Programs of their own, attached after the calls' programs on the same
 * raw tracepoints (a raw tracepoint runs its programs in the order they
 * were attached, so each stack's record follows its call's): at a call's
 * exit, at the entry of execve, execveat, exit and exit_group (as strace
 * takes theirs: before the exec replaces the stack, and for calls that
 * never return) and at a signal's delivery, each sends the task's user
 * registers and the top of its user stack. The command's own exec shows
 * its stack at exit, the new program's (strace never sees that entry;
 * lantern's is its own fork's).
 * The printer unwinds them with sym/unwind.h, from the files' call frame
 * information, as perf --call-graph dwarf does; strace walks the live
 * task with libunwind.
 *
 * Each frame prints as strace's libunwind build names it:
 * " > FILE(FUNC+0xOFF) [0xFILE_OFFSET]", FUNC the nearest function at or
 * below the address whatever its size ("()" without one; "(+0x0)" for a
 * stack strace took at a call's entry, which it prints later).
 */
#include "trace/emit.h"
#include "trace/printer.h"
#include "base/util.h"
#include "sym/maptrack.h"
#include "sym/symbols.h"
#include "sym/unwind.h"
#include "sys/arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STACK_AT_EXIT, STACK_AT_ENTRY, STACK_AT_SIGNAL };
#define STACK_REGS 168	     /* struct pt_regs (x86-64), as the unwinder reads it */
#define STACK_COPY 8192	     /* bytes of the user stack copied (perf's default too) */
#define STACK_FRAMES 256     /* frames shown at most */
_Static_assert(STACK_REGS + STACK_COPY <= TRACE_NARGS * TRACE_DATA_MAX, "a stack's record fits the scratch data");

/*
 * The record: the header (nr the call, a[0] when, a[1] the bytes of
 * stack), then the registers and the stack's bytes
 */
static void gen_stack(struct tb *b, struct ir *ir, int when)
{
	const struct arch_regs *ar = sys_arch_regs();
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), sp = ir_vreg(ir), nr = ir_vreg(ir), off = ir_vreg(ir);
	int16_t slot = ir_stack(ir, 8);

	trace_prologue(b, ir);
	if (when == STACK_AT_ENTRY) {
		// raw_syscalls:sys_enter(regs, id): execve, execveat, exit and exit_group only
		int32_t go = ir_label(ir);
		emit(ir, LDX_MEM(BPF_DW, nr, b->ctx, 8));
		emit(ir, JMP_IMM(BPF_JEQ, nr, sys_syscall_number("execve"), go));
		emit(ir, JMP_IMM(BPF_JEQ, nr, sys_syscall_number("execveat"), go));
		emit(ir, JMP_IMM(BPF_JEQ, nr, sys_syscall_number("exit"), go));
		emit(ir, JMP_IMM(BPF_JNE, nr, sys_syscall_number("exit_group"), b->out));
		emit(ir, LABEL(go));
	}
	trace_traced_only(b, tid, tgid, slot);
	trace_scratch(b, slot);
	// the user mode's registers: task_pt_regs(get_current_task_btf())
	emit(ir, CALL(BPF_FUNC_get_current_task_btf, 0));
	emit(ir, MOV64_REG(R1, R0));
	emit(ir, CALL(BPF_FUNC_task_pt_regs, 1));
	emit(ir, MOV64_REG(R3, R0));
	emit(ir, MOV64_REG(R1, b->s));
	emit(ir, ALU64_IMM(BPF_ADD, R1, SCR_DATA));
	emit(ir, MOV64_IMM(R2, STACK_REGS));
	emit(ir, CALL(BPF_FUNC_probe_read_kernel, 3));
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, b->out));
	emit(ir, LDX_MEM(BPF_DW, sp, b->s, SCR_DATA + ar->sp));
	emit(ir, JMP_IMM(BPF_JEQ, sp, 0, b->out));
	if (when == STACK_AT_SIGNAL)
		emit(ir, MOV64_IMM(nr, 0));
	else if (when == STACK_AT_EXIT)
		emit(ir, LDX_MEM(BPF_DW, nr, b->s, SCR_DATA + ar->sys_nr));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[TREC_STACK]));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, STX_MEM(BPF_DW, b->s, R0, HDR(ts)));
	emit(ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(ir, STX_MEM(BPF_W, b->s, tgid, HDR(pid)));
	emit(ir, STX_MEM(BPF_W, b->s, nr, HDR(nr)));
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(a), when));
	for (int i = 0; i < TRACE_NARGS; i++)
		emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	int32_t len = ir_copy_user_stack(ir, b->s, SCR_DATA + STACK_REGS, sp, STACK_COPY);
	emit(ir, STX_MEM(BPF_DW, b->s, len, HDR(a) + 8));
	emit(ir, MOV64_REG(off, len));
	emit(ir, ALU64_IMM(BPF_ADD, off, SCR_DATA + STACK_REGS));
	trace_send(b, off, slot);
	trace_epilogue(b);
}

void trace_gen_stack_exit(struct tb *b, struct ir *ir)
{
	gen_stack(b, ir, STACK_AT_EXIT);
}

void trace_gen_stack_entry(struct tb *b, struct ir *ir)
{
	gen_stack(b, ir, STACK_AT_ENTRY);
}

void trace_gen_stack_signal(struct tb *b, struct ir *ir)
{
	gen_stack(b, ir, STACK_AT_SIGNAL);
}

/* The frames of a stack record, as strace -k prints them */
static void frames(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size, struct strbuf *out)
{
	const uint8_t *regs = data + sizeof(*h);
	uint64_t len = (uint64_t)h->a[1], ips[STACK_FRAMES];
	struct sym_uregs ur;
	struct sym_unwind_info info;
	bool later = h->a[0] == STACK_AT_ENTRY;

	len = MIN(len, size - sizeof(*h) - STACK_REGS);
	for (size_t i = 0; i < tp->nmaptracks; i++) /* the mappings as they were then */
		sym_maptrack_sync(tp->maptracks[i], h->ts);
	sym_uregs_from_pt_regs(&ur, regs);
	int n = sym_unwind((int)h->pid, &ur, regs + STACK_REGS, (size_t)len, ips, STACK_FRAMES, &info);
	for (int i = 0; i < n; i++) {
		struct sym_frame f;
		if (!sym_usym_frame((int)h->pid, ips[i], &f))
			sb_printf(out, " > unexpected_backtracing_error [0x%llx]\n", (unsigned long long)ips[i]);
		else if (f.name)
			sb_printf(out, " > %s(%s+0x%llx) [0x%llx]\n", f.path, f.name, (unsigned long long)f.func_off,
				  (unsigned long long)f.file_off);
		else
			sb_printf(out, " > %s(%s) [0x%llx]\n", f.path, later ? "+0x0" : "",
				  (unsigned long long)f.file_off);
	}
}

static bool shown(const struct trace_opts *o, uint32_t nr)
{
	return o->select_all || (nr < ARRAY_SIZE(o->selected) && o->selected[nr]);
}

void trace_on_stack(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, false);

	if (!t || size < sizeof(*h) + STACK_REGS || tp->o->json)
		return;
	bool exec = h->nr == (uint32_t)sys_syscall_number("execve") || h->nr == (uint32_t)sys_syscall_number("execveat");
	if (h->a[0] == STACK_AT_ENTRY) {
		/* shown after the exec's line, or once the task is gone, after "+++ exited" (strace) */
		if (shown(tp->o, h->nr) && !(exec && t->stack_cmd)) {
			sb_reset(&t->stack);
			frames(tp, h, data, size, &t->stack);
		}
		return;
	}
	/* after the line just printed for the task: its call's (not one of the calls not shown), or its signal's */
	if (!t->stack_next || (h->a[0] == STACK_AT_EXIT && !shown(tp->o, h->nr)))
		return;
	t->stack_next = false;
	if (h->a[0] == STACK_AT_EXIT && exec) {
		t->stack_cmd = false;
		if (t->stack.len) { /* taken at its entry */
			trace_stack_pending(tp, t);
			return;
		}
	}
	if (t->held.len) { /* the call's line waits for what comes next: its stack goes with it */
		frames(tp, h, data, size, &t->held);
		return;
	}
	struct tout *to = trace_out_of(tp, t);
	trace_close_open(to);
	frames(tp, h, data, size, &to->line);
	trace_flush_line(to);
}

void trace_stack_pending(struct trace_printer *tp, struct ttask *t)
{
	if (!t->stack.len)
		return;
	struct tout *to = trace_out_of(tp, t);
	trace_close_open(to);
	sb_putn(&to->line, t->stack.s, t->stack.len);
	sb_reset(&t->stack);
	trace_flush_line(to);
}

void trace_stacks_follow(struct trace_printer *tp, pid_t pid, bool command)
{
	if (command)
		trace_task_find(tp, pid, true)->stack_cmd = true;
	char err[128];
	struct sym_maptrack *mt = sym_maptrack_open(pid, err, sizeof(err));

	if (!mt) {
		fprintf(stderr, "lantern trace: -k: cannot follow the mappings of process %d (%s): its stacks "
				"resolve only while it runs\n", (int)pid, err);
		return;
	}
	tp->maptracks = util_xrealloc(tp->maptracks, (tp->nmaptracks + 1) * sizeof(*tp->maptracks));
	tp->maptracks[tp->nmaptracks++] = mt;
}

void trace_stacks_free(struct trace_printer *tp)
{
	for (size_t i = 0; i < tp->nmaptracks; i++)
		sym_maptrack_close(tp->maptracks[i]);
	free(tp->maptracks);
	tp->maptracks = NULL;
	tp->nmaptracks = 0;
}

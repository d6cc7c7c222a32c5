// SPDX-License-Identifier: MIT
/* Emitters shared by lantern trace's programs: see emit.h. */
#include "trace/emit.h"
#include "plan/provider.h"
#include "sys/arch.h"

#include <ctype.h>
#include <string.h>

/* r0 = map_lookup_elem(&map, fp + slot) */
void trace_lookup(struct tb *b, int map, int16_t slot)
{
	emit(b->ir, LD_MAP(R1, map));
	emit(b->ir, MOV64_REG(R2, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R2, slot));
	emit(b->ir, CALL(BPF_FUNC_map_lookup_elem, 2));
}

void trace_current_ids(struct tb *b, int32_t tid, int32_t tgid)
{
	emit(b->ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
	emit(b->ir, MOV64_REG(tgid, R0));
	emit(b->ir, MOV32_REG(tid, R0));
	emit(b->ir, ALU64_IMM(BPF_RSH, tgid, 32));
}

/* tid, tgid of the current task; leave unless it is traced (by thread id, or -a: not lantern) */
void trace_traced_only(struct tb *b, int32_t tid, int32_t tgid, int16_t slot)
{
	trace_current_ids(b, tid, tgid);
	trace_traced_check(b, tid, tgid, slot);
}

/* r0 = the "slots" entry of CPU cpu (-c), or goto none: past the last CPU */
void trace_cpu_slot(struct tb *b, int cpu, int16_t slot, int32_t none)
{
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	emit(b->ir, LD_MAP(R1, b->slots));
	emit(b->ir, MOV64_REG(R2, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R2, slot));
	emit(b->ir, MOV64_IMM(R3, cpu));
	emit(b->ir, CALL(BPF_FUNC_map_lookup_percpu_elem, 3));
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, none));
}

void trace_traced_check(struct tb *b, int32_t tid, int32_t tgid, int16_t slot)
{
	if (b->o->all)
		emit(b->ir, JMP_CONST(BPF_JEQ, tgid, LC_SELF_PID, b->out));
	else
		trace_traced_test(b, tid, slot);
}

/*
 * The traced set is a bitmap of thread ids (array map "traced": word
 * tid / 64, bit tid % 64): the test is an inlined array lookup and a
 * shift, far cheaper than a hash lookup, and every syscall pays it.
 * R0 = tid's word, w its value; leaves unless the bit is set.
 */
static void traced_word(struct tb *b, int32_t tid, int32_t bit, int16_t slot, int32_t miss)
{
	int32_t w = ir_vreg(b->ir);

	emit(b->ir, MOV64_REG(w, tid));
	emit(b->ir, ALU64_IMM(BPF_RSH, w, 6));
	emit(b->ir, STX_MEM(BPF_W, R10, w, slot));
	trace_lookup(b, b->traced, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, miss));
	emit(b->ir, MOV64_REG(bit, tid));
	emit(b->ir, ALU64_IMM(BPF_AND, bit, 63));
}

void trace_traced_test_to(struct tb *b, int32_t tid, int16_t slot, int32_t miss)
{
	int32_t bit = ir_vreg(b->ir), w = ir_vreg(b->ir);

	traced_word(b, tid, bit, slot, miss);
	emit(b->ir, LDX_MEM(BPF_DW, w, R0, 0));
	emit(b->ir, ALU64_REG(BPF_RSH, w, bit));
	emit(b->ir, ALU64_IMM(BPF_AND, w, 1));
	emit(b->ir, JMP_IMM(BPF_JEQ, w, 0, miss));
}

void trace_traced_test(struct tb *b, int32_t tid, int16_t slot)
{
	trace_traced_test_to(b, tid, slot, b->out);
}

void trace_traced_set(struct tb *b, int32_t tid, bool on, int16_t slot)
{
	int32_t bit = ir_vreg(b->ir), m = ir_vreg(b->ir), one = ir_vreg(b->ir);

	traced_word(b, tid, bit, slot, b->out);
	emit(b->ir, MOV64_IMM(m, 1));
	emit(b->ir, ALU64_REG(BPF_LSH, m, bit));
	if (!on)
		emit(b->ir, ALU64_IMM(BPF_XOR, m, -1));
	emit(b->ir, IRI(BPF_STX | BPF_ATOMIC | BPF_DW, R0, m, 0, on ? BPF_OR : BPF_AND));
	// the count of traced tasks: user space ends the run at 0
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	trace_lookup(b, b->live, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_IMM(one, on ? 1 : -1));
	emit(b->ir, ATOMIC_ADD(BPF_DW, R0, one, 0));
}

/* s = this program's scratch entry, or leave */
void trace_scratch(struct tb *b, int16_t slot)
{
	emit(b->ir, ST_MEM(BPF_W, R10, slot, b->prog_index));
	trace_lookup(b, b->scratch, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_REG(b->s, R0));
}

/* -a, --timeline: the task's name in the header */
void trace_put_comm(struct tb *b)
{
	if (!b->o->all && !b->o->timeline)
		return;
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, HDR(comm)));
	emit(b->ir, MOV64_IMM(R2, 16));
	emit(b->ir, CALL(BPF_FUNC_get_current_comm, 2));
}

/* fn(s + off, size, src): off and size registers */
void trace_read_to(struct tb *b, int fn, int32_t off, int32_t size, int32_t src)
{
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_REG(BPF_ADD, R1, off));
	emit(b->ir, MOV64_REG(R2, size));
	emit(b->ir, MOV64_REG(R3, src));
	emit(b->ir, CALL(fn, 3));
}

/* The record from s + SCR_REC, off - SCR_REC bytes long, to the ring buffer; lost++ if full. */
void trace_send(struct tb *b, int32_t off, int16_t slot)
{
	int32_t size = ir_vreg(b->ir), flags = ir_vreg(b->ir), ok = ir_label(b->ir), go = ir_label(b->ir);
	uint32_t half = b->p->maps.bpf.data[b->ringbuf].max_entries / 2;

	// off in [SCR_DATA, the end of the data], for the verifier: it always is
	trace_unless(b, BPF_JLT, off, SCR_DATA, SCR_DATA);
	trace_unless(b, BPF_JGT, off, SCR_DATA + TRACE_NARGS * TRACE_DATA_MAX, SCR_DATA);
	// hdr.len = off - SCR_DATA; size = off - SCR_REC
	emit(b->ir, MOV64_REG(size, off));
	emit(b->ir, ALU64_IMM(BPF_SUB, size, SCR_DATA));
	emit(b->ir, STX_MEM(BPF_W, b->s, size, HDR(len)));
	emit(b->ir, ALU64_IMM(BPF_ADD, size, SCR_DATA - SCR_REC));
	/*
	 * Wake the reader only when the buffer is half full: it drains on a
	 * timer. The fill level is asked every WAKE_EVERY records of this CPU
	 * (a helper call saved on the others; half the buffer leaves room).
	 */
	int32_t n = ir_vreg(b->ir);
	emit(b->ir, MOV64_IMM(flags, BPF_RB_NO_WAKEUP));
	emit(b->ir, LDX_MEM(BPF_W, n, b->s, SCR_SENT));
	emit(b->ir, ALU64_IMM(BPF_ADD, n, 1));
	emit(b->ir, STX_MEM(BPF_W, b->s, n, SCR_SENT));
	emit(b->ir, ALU64_IMM(BPF_AND, n, WAKE_EVERY - 1));
	emit(b->ir, JMP_IMM(BPF_JNE, n, 0, go));
	emit(b->ir, LD_MAP(R1, b->ringbuf));
	emit(b->ir, MOV64_IMM(R2, BPF_RB_AVAIL_DATA));
	emit(b->ir, CALL(BPF_FUNC_ringbuf_query, 2));
	emit(b->ir, JMP_IMM(BPF_JLE, R0, half, go));
	emit(b->ir, MOV64_IMM(flags, BPF_RB_FORCE_WAKEUP));
	emit(b->ir, LABEL(go));
	emit(b->ir, LD_MAP(R1, b->ringbuf));
	emit(b->ir, MOV64_REG(R2, b->s));
	emit(b->ir, ALU64_IMM(BPF_ADD, R2, SCR_REC));
	emit(b->ir, MOV64_REG(R3, size));
	emit(b->ir, MOV64_REG(R4, flags));
	emit(b->ir, CALL(BPF_FUNC_ringbuf_output, 4));
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, ok));
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	trace_lookup(b, b->lost, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, ok));
	emit(b->ir, MOV64_IMM(R1, 1));
	emit(b->ir, ATOMIC_ADD(BPF_DW, R0, R1, 0));
	emit(b->ir, LABEL(ok));
}

/*
 * The exception is out of line, after the function's end (trace_cold):
 * the verifier walks the straight way first, and when the exception joins
 * it, its value within the range walked already, stops there.
 */
void trace_unless(struct tb *b, uint8_t op, int32_t reg, int32_t imm, int32_t value)
{
	struct trace_cold c = { ir_label(b->ir), ir_label(b->ir), reg, value };

	emit(b->ir, JMP_IMM(op, reg, imm, c.cold));
	emit(b->ir, LABEL(c.back));
	if (b->ncold < TRACE_COLD_MAX)
		b->cold[b->ncold++] = c;
}

void trace_clamp(struct tb *b, int32_t reg, int32_t max)
{
	trace_unless(b, BPF_JGT, reg, max, max);
}

void trace_cold(struct tb *b)
{
	for (uint32_t k = 0; k < b->ncold; k++) {
		emit(b->ir, LABEL(b->cold[k].cold));
		emit(b->ir, MOV64_IMM(b->cold[k].reg, b->cold[k].value));
		emit(b->ir, JA(b->cold[k].back));
	}
	b->ncold = 0;
}

void trace_prologue(struct tb *b, struct ir *ir)
{
	b->ir = ir;
	b->ctx = ir_vreg(ir);
	b->s = ir_vreg(ir);
	b->out = ir_label(ir);
	emit(ir, MOV64_REG(b->ctx, R1));
	if (b->p->maps.stop >= 0) {
		// if (stop) return 0: the session stopped the probes (their release comes later)
		int32_t t = ir_vreg(ir);
		emit(ir, LD_MAP_VALUE(t, b->p->maps.stop));
		emit(ir, LDX_MEM(BPF_DW, t, t, 0));
		emit(ir, JMP_IMM(BPF_JNE, t, 0, b->out));
	}
}

void trace_epilogue(struct tb *b)
{
	emit(b->ir, LABEL(b->out));
	emit(b->ir, MOV64_IMM(R0, 0));
	emit(b->ir, EXIT_INSN());
	trace_cold(b);
}

/* *dst = the u32 at task + off (kernel memory) */
void trace_task_u32(struct tb *b, int32_t task, uint32_t off, int32_t dst, int16_t slot)
{
	emit(b->ir, ST_MEM(BPF_DW, R10, slot, 0));
	emit(b->ir, MOV64_REG(R1, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, slot));
	emit(b->ir, MOV64_IMM(R2, 4));
	emit(b->ir, MOV64_REG(R3, task));
	emit(b->ir, ALU64_IMM(BPF_ADD, R3, (int32_t)off));
	emit(b->ir, CALL(BPF_FUNC_probe_read_kernel, 3));
	emit(b->ir, LDX_MEM(BPF_W, dst, R10, slot));
}

struct probe *trace_probe(struct tb *b, const char *kind, const char *what, struct attach_point **ap_out)
{
	struct plan *p = b->p;
	struct probe *pr = ARENA_NEW(&p->arena, struct probe);
	struct attach_point *ap = ARENA_NEW(&p->arena, struct attach_point);

	ap->text = arena_printf(&p->arena, "%s:%s", kind, what);
	ap->span = SPAN_NONE;
	pr->aps = ARENA_NEW(&p->arena, struct attach_point *);
	pr->aps[0] = ap;
	pr->naps = 1;
	*ap_out = ap;
	return pr;
}

/*
 * A function's name in the program's BTF, which tools show (bpftool, perf):
 * prefix_name, a C identifier
 */
static const char *fn_name(struct tb *b, const char *prefix, const char *name)
{
	char *s = arena_printf(&b->p->arena, "%s_%s", prefix, name);

	for (char *c = s; *c; c++)
		if (!isalnum((unsigned char)*c))
			*c = '_';
	return s;
}

int32_t trace_fn(struct tb *b, enum trace_fn fn, uint32_t flags)
{
	static const char *const names[TFN_COUNT_] = { "read_str", "read_mem", "read_iov",
							 "read_argv", "iov_step", "argv_step" };
	struct ir_func *f;
	uint32_t k;

	for (k = 1; k < b->nfns; k++)
		if (b->fn_of[k].fn == fn && b->fn_of[k].flags == flags)
			return (int32_t)k;
	if (b->nfns == TRACE_FNS_MAX) /* cannot be: there are a few kinds of reads */
		return 0;
	f = &b->fns[b->nfns];
	f->name = fn_name(b, "lt", names[fn]);
	if (flags || fn == TFN_MEM) { /* one per set of flags: its name says them */
		static const char *const sizes[] = { "fixed", "arg", "ret", "arg8" };
		f->name = arena_printf(&b->p->arena, "lt_%s%s%s%s%s%s%s", names[fn], flags & READ_RETRY ? "_retry" : "",
				       flags & READ_AGAIN ? "_again" : "", flags & READ_OUT ? "_out" : "",
				       flags & READ_SP ? "_sp" : "",
				       fn == TFN_MEM ? "_" : "",
				       fn == TFN_MEM ? sizes[(flags & 0xff) % ARRAY_SIZE(sizes)] : "");
	}
	f->linkage = fn == TFN_IOV_STEP || fn == TFN_ARGV_STEP ? IR_STATIC : IR_GLOBAL;
	f->nargs = 2; /* r1, r2: a read's (TRACE_READ_ARGS, off), a callback's (its turn, NULL) */
	ir_init(&f->ir);
	b->fn_of[b->nfns].fn = fn;
	b->fn_of[b->nfns].flags = flags;
	return (int32_t)b->nfns++;
}

/* -d ir: each function's IR, before registers */
static void dump_ir(struct tb *b, const char *what)
{
	sb_printf(b->dump_ir, "; %s\n", what);
	for (uint32_t k = 0; k < b->nfns; k++) {
		if (k)
			sb_printf(b->dump_ir, "fn%u %s (%s):\n", k, b->fns[k].name,
				  b->fns[k].linkage == IR_GLOBAL ? "global" : "static");
		ir_dump(&b->fns[k].ir, b->dump_ir);
	}
}

int trace_assemble_prog(struct tb *b, struct prog *pg, void (*gen)(struct tb *, struct ir *), const char *what)
{
	struct ir_linked out;
	char err[256];
	int rc = 0;

	b->prog_index = pg->index;
	b->fns[0] = (struct ir_func){ .name = fn_name(b, "lt", pg->name), .linkage = IR_GLOBAL, .nargs = 1 };
	b->nfns = 1;
	ir_init(&b->fns[0].ir);
	gen(b, &b->fns[0].ir);
	/* the subprograms it calls, and theirs */
	for (uint32_t k = 1; k < b->nfns; k++)
		trace_gen_fn(b, b->fn_of[k].fn, b->fn_of[k].flags, &b->fns[k].ir);
	for (uint32_t k = 0; k < b->nfns; k++)
		ir_prune(&b->fns[k].ir);
	if (b->dump_ir)
		dump_ir(b, pg->name);
	if (b->dump_bpf)
		sb_printf(b->dump_bpf, "; %s\n", pg->name);
	if (ir_link(b->fns, b->nfns, &b->p->arena, &out, b->dump_bpf, err, sizeof(err)) < 0) {
		diag_error(&b->p->diag, SPAN_NONE, E_CODEGEN, "%s: %s", what, err);
		rc = -1;
	} else {
		pg->insns = out.insns;
		pg->ninsns = out.n;
		pg->btf = out.btf;
		pg->btf_size = out.btf_size;
		pg->func_info = out.func_info;
		pg->nfuncs = out.nfuncs;
		pg->scratch_size = SCR_SIZE;
	}
	for (uint32_t k = 0; k < b->nfns; k++)
		ir_free(&b->fns[k].ir);
	b->ir = NULL;
	return rc;
}

/*
 * The task's argument registers (raw_syscalls' args[0] is its struct
 * pt_regs) into s + SCR_REGS at their pt_regs offsets, and the syscall
 * number: only the span that holds them (72 of x86-64's 168 bytes). R0:
 * the helper's result.
 */
void trace_read_regs(struct tb *b, int32_t t)
{
	const struct arch_regs *regs = sys_arch_regs();
	int lo = regs->sysarg[0], hi = regs->sysarg[0];

	for (int i = 1; i < TRACE_NARGS; i++) {
		lo = regs->sysarg[i] < lo ? regs->sysarg[i] : lo;
		hi = regs->sysarg[i] > hi ? regs->sysarg[i] : hi;
	}
	if (regs->sys_nr >= 0) { /* and the number, for the exit of an untimed quick call */
		lo = regs->sys_nr < lo ? regs->sys_nr : lo;
		hi = regs->sys_nr > hi ? regs->sys_nr : hi;
	}
	/* and the stack pointer, where rt_sigreturn's frame is (TR_FRAME) */
	lo = regs->sp < lo ? regs->sp : lo;
	hi = regs->sp > hi ? regs->sp : hi;
	emit(b->ir, LDX_MEM(BPF_DW, t, b->ctx, 0));
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, SCR_REGS + lo));
	emit(b->ir, MOV64_IMM(R2, hi + 8 - lo));
	emit(b->ir, MOV64_REG(R3, t));
	emit(b->ir, ALU64_IMM(BPF_ADD, R3, lo));
	emit(b->ir, CALL(BPF_FUNC_probe_read_kernel, 3));
}

/* Quick calls need no entry at all: nothing asks for their time (raw_syscalls only) */
bool trace_untimed_quick(const struct tb *b)
{
	const struct trace_opts *o = b->o;

	return !b->calls && sys_arch_regs()->sys_nr >= 0 && !o->durations && !o->summary && !o->timeline &&
	       !o->json && !o->timestamps && !o->relative;
}


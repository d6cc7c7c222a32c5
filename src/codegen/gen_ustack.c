// SPDX-License-Identifier: MIT
/*
 * User stacks walked in user space (maps/ustacks.h, sym/unwind.h).
 *
 * Where a program's stack has no frame pointers, `ustack` is a snapshot:
 * the program copies the task's user registers (task_pt_regs) and the top
 * of its user stack into a REC_USTACK record, and the stack value holds
 * the snapshot's token until user space has unwound it. Under
 * ustack_unwind=auto, a process the session found to keep frame pointers
 * (the ustack_fp map) gets the kernel's walk (bpf_get_stackid), as before.
 *
 * A map keyed by such a stack cannot be updated here (the key's stack is
 * not known yet): when the key holds a token, the update goes to user
 * space as a REC_USTACK_UPDATE record, applied there after the unwinding.
 */
#include "codegen/gen.h"
#include "codegen/gen_stdlib.h"
#include "maps/ustacks.h"
#include "sys/arch.h"

#include <stddef.h>

/* Whether ustack values of this program may be snapshots. */
bool gen_ustack_dwarf(const struct gen *g)
{
#if defined(__x86_64__)
	return g->p->settings.v[SET_USTACK_UNWIND] != UNWIND_FP;
#else
	return false; /* the snapshot's registers are x86-64's */
#endif
}

/* The maps this needs: the sequence numbers (always) and the frame-pointer processes (auto). */
static void ustack_maps(struct gen *g)
{
	struct map_set *ms = &g->p->maps;

	if (ms->ustack_seq < 0)
		ms->ustack_seq = maps_add(ms, "ustack_seq", BPF_MAP_TYPE_PERCPU_ARRAY, 4,
					  sizeof(struct ustack_cpu), 1);
	if (ms->ustack_fp < 0 && g->p->settings.v[SET_USTACK_UNWIND] == UNWIND_AUTO) {
		ms->ustack_fp = maps_add(ms, "ustack_fp", BPF_MAP_TYPE_HASH, 4, 8, 65536);
		ms->ustack_gen = maps_add(ms, "ustack_gen", BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	}
}

int32_t ir_copy_user_stack(struct ir *ir, int32_t base, int32_t off, int32_t sp, uint32_t size)
{
	int32_t len = ir_vreg(ir), done = ir_label(ir);
	uint32_t piece = size / 16;

	// if (probe_read_user(base + off, size, sp) == 0) len = size
	emit(ir, MOV64_IMM(len, size));
	emit(ir, MOV64_REG(R1, base));
	emit(ir, ALU64_IMM(BPF_ADD, R1, off));
	emit(ir, MOV64_IMM(R2, size));
	emit(ir, MOV64_REG(R3, sp));
	emit(ir, CALL(BPF_FUNC_probe_read_user, 3));
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, done));
	/* the stack's end is nearer than size: as many pieces as can be read */
	emit(ir, MOV64_IMM(len, 0));
	for (uint32_t i = 0; i < 16; i++) {
		// if (probe_read_user(base + off + i * piece, piece, sp + i * piece)) goto done
		emit(ir, MOV64_REG(R1, base));
		emit(ir, ALU64_IMM(BPF_ADD, R1, off + (int32_t)(i * piece)));
		emit(ir, MOV64_IMM(R2, piece));
		emit(ir, MOV64_REG(R3, sp));
		emit(ir, ALU64_IMM(BPF_ADD, R3, i * piece));
		emit(ir, CALL(BPF_FUNC_probe_read_user, 3));
		emit(ir, JMP_IMM(BPF_JNE, R0, 0, done));
		emit(ir, MOV64_IMM(len, (i + 1) * piece));
	}
	emit(ir, LABEL(done));
	return len;
}

/* token = STACK_ID_TOKEN | cpu << 40 | (seq & (2^40 - 1)) */
static int32_t make_token(struct gen *g, int32_t seq)
{
	int32_t tok = ir_vreg(g->ir), x = ir_vreg(g->ir);

	emit(g->ir, LD_IMM64(tok, (int64_t)STACK_ID_TOKEN));
	emit(g->ir, CALL(BPF_FUNC_get_smp_processor_id, 0));
	emit(g->ir, MOV64_REG(x, R0));
	emit(g->ir, ALU64_IMM(BPF_LSH, x, STACK_TOKEN_CPU_SHIFT));
	emit(g->ir, ALU64_REG(BPF_OR, tok, x));
	emit(g->ir, MOV64_REG(x, seq));
	emit(g->ir, ALU64_IMM(BPF_LSH, x, 64 - STACK_TOKEN_CPU_SHIFT));
	emit(g->ir, ALU64_IMM(BPF_RSH, x, 64 - STACK_TOKEN_CPU_SHIFT));
	emit(g->ir, ALU64_REG(BPF_OR, tok, x));
	return tok;
}

/* Send the snapshot (its size in a register); a refusal counted in seq[1]. */
static void send_snapshot(struct gen *g, uint32_t rec, int32_t len, int32_t seqp)
{
	int32_t ok = ir_label(g->ir), x = ir_vreg(g->ir);

	// if (ringbuf_output(&rb, rec, USTACK_STACK + len, 0) < 0) seqp->lost++
	emit(g->ir, LD_MAP(R1, g->p->maps.ringbuf));
	emit(g->ir, MOV64_REG(R2, g->scratch));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, rec));
	emit(g->ir, MOV64_REG(R3, len));
	emit(g->ir, ALU64_IMM(BPF_ADD, R3, USTACK_STACK));
	emit(g->ir, MOV64_IMM(R4, 0));
	emit(g->ir, CALL(BPF_FUNC_ringbuf_output, 4));
	emit(g->ir, JMP_IMM(BPF_JEQ, R0, 0, ok));
	emit(g->ir, LDX_MEM(BPF_DW, x, seqp, 8));
	emit(g->ir, ALU64_IMM(BPF_ADD, x, 1));
	emit(g->ir, STX_MEM(BPF_DW, seqp, x, 8));
	emit(g->ir, LABEL(ok));
}

/* The record of a snapshot: the token, pid_tgid, registers and stack (seqp: this CPU's ustack_cpu). */
static void snapshot(struct gen *g, struct type *t, int32_t pidtgid, int32_t seqp, int32_t id,
		     int32_t out)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
	uint32_t size = (uint32_t)g->p->settings.v[SET_USTACK_SNAPSHOT] & ~15u;
	uint32_t rec = gen_scratch_alloc(g, USTACK_STACK + size);
	int32_t seq = ir_vreg(g->ir), sp = ir_vreg(g->ir);

	r->kind = REC_USTACK;
	r->args = type_tuple(&g->p->arena, &t, 1);
	r->size = USTACK_STACK;
	// regs = task_pt_regs(get_current_task_btf()): the user mode's registers
	emit(g->ir, CALL(BPF_FUNC_get_current_task_btf, 0));
	emit(g->ir, MOV64_REG(R1, R0));
	emit(g->ir, CALL(BPF_FUNC_task_pt_regs, 1));
	emit(g->ir, MOV64_REG(R3, R0));
	emit(g->ir, MOV64_REG(R1, g->scratch));
	emit(g->ir, ALU64_IMM(BPF_ADD, R1, rec + USTACK_REGS));
	emit(g->ir, MOV64_IMM(R2, USTACK_REGS_SIZE));
	emit(g->ir, CALL(BPF_FUNC_probe_read_kernel, 3));
	emit(g->ir, JMP_IMM(BPF_JNE, R0, 0, out));
	// no user stack (a kernel thread): no snapshot
	emit(g->ir, LDX_MEM(BPF_DW, sp, g->scratch, rec + USTACK_REGS + sys_arch_regs()->sp));
	emit(g->ir, JMP_IMM(BPF_JEQ, sp, 0, out));
	// seq = ++seqp->seq
	emit(g->ir, LDX_MEM(BPF_DW, seq, seqp, 0));
	emit(g->ir, ALU64_IMM(BPF_ADD, seq, 1));
	emit(g->ir, STX_MEM(BPF_DW, seqp, seq, 0));
	int32_t tok = make_token(g, seq);
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, rec, plan_add_record(g->p, r)));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, tok, rec + USTACK_TOKEN));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, pidtgid, rec + USTACK_PID_TGID));
	int32_t len = ir_copy_user_stack(g->ir, g->scratch, (int32_t)(rec + USTACK_STACK), sp, size);
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, len, rec + USTACK_LEN));
	send_snapshot(g, rec, len, seqp);
	emit(g->ir, MOV64_REG(id, tok));
}

/* r = map_lookup_elem(&map, &key): key a u32 at k */
static int32_t lookup(struct gen *g, int map, struct loc k)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, LD_MAP(R1, map));
	emit(g->ir, MOV64_REG(R2, k.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, k.off));
	emit(g->ir, CALL(BPF_FUNC_map_lookup_elem, 2));
	emit(g->ir, MOV64_REG(r, R0));
	return r;
}

/*
 * Whether the kernel walks this process's frame pointers: this CPU's
 * answer for the last process while ustack_gen has not changed (two array
 * lookups, which the verifier inlines), else ustack_fp's, kept. Jumps to fp.
 */
static void choose_walk(struct gen *g, int32_t cpu, int32_t tgid, int32_t fp)
{
	const struct map_set *ms = &g->p->maps;
	struct loc k = gen_temp_alloc(g, 8);
	int32_t gen = ir_vreg(g->ir), x = ir_vreg(g->ir), ask = ir_label(g->ir);
	int32_t got = ir_label(g->ir), keep = ir_label(g->ir);

	// gen = ustack_gen[0] (0 if none)
	emit(g->ir, ST_MEM(BPF_DW, k.base, k.off, 0));
	int32_t gp = lookup(g, ms->ustack_gen, k);
	emit(g->ir, MOV64_IMM(gen, 0));
	emit(g->ir, JMP_IMM(BPF_JEQ, gp, 0, ask));
	emit(g->ir, LDX_MEM(BPF_DW, gen, gp, 0));
	// if (cpu->tgid == tgid && cpu->gen == gen) the answer is cpu->fp
	emit(g->ir, LDX_MEM(BPF_DW, x, cpu, offsetof(struct ustack_cpu, tgid)));
	emit(g->ir, JMP_REG(BPF_JNE, x, tgid, ask));
	emit(g->ir, LDX_MEM(BPF_DW, x, cpu, offsetof(struct ustack_cpu, gen)));
	emit(g->ir, JMP_REG(BPF_JNE, x, gen, ask));
	emit(g->ir, LDX_MEM(BPF_DW, x, cpu, offsetof(struct ustack_cpu, fp)));
	emit(g->ir, JA(got));
	// else x = map_lookup_elem(&ustack_fp, &tgid) != 0, kept for the next event
	emit(g->ir, LABEL(ask));
	emit(g->ir, STX_MEM(BPF_W, k.base, tgid, k.off));
	int32_t hit = lookup(g, ms->ustack_fp, k);
	emit(g->ir, MOV64_IMM(x, 0));
	emit(g->ir, JMP_IMM(BPF_JEQ, hit, 0, keep));
	emit(g->ir, MOV64_IMM(x, 1));
	emit(g->ir, LABEL(keep));
	emit(g->ir, STX_MEM(BPF_DW, cpu, tgid, offsetof(struct ustack_cpu, tgid)));
	emit(g->ir, STX_MEM(BPF_DW, cpu, gen, offsetof(struct ustack_cpu, gen)));
	emit(g->ir, STX_MEM(BPF_DW, cpu, x, offsetof(struct ustack_cpu, fp)));
	emit(g->ir, LABEL(got));
	emit(g->ir, JMP_IMM(BPF_JNE, x, 0, fp));
}

void gen_ustack(struct gen *g, struct type *t, uint32_t off)
{
	int32_t pidtgid = ir_vreg(g->ir), tgid = ir_vreg(g->ir), id = ir_vreg(g->ir);
	int32_t fp = ir_label(g->ir), done = ir_label(g->ir);
	struct loc zero;

	ustack_maps(g);
	/* as lantern's /proc numbers them: the unwinder reads the process's maps there */
	emit(g->ir, MOV64_REG(pidtgid, gen_pid_tgid(g)));
	emit(g->ir, MOV64_REG(tgid, pidtgid));
	emit(g->ir, ALU64_IMM(BPF_RSH, tgid, 32));
	// cpu = map_lookup_elem(&ustack_seq, &0); if (!cpu) id = -1
	emit(g->ir, MOV64_IMM(id, -1));
	zero = gen_temp_alloc(g, 8);
	emit(g->ir, ST_MEM(BPF_DW, zero.base, zero.off, 0));
	int32_t cpu = lookup(g, g->p->maps.ustack_seq, zero);
	emit(g->ir, JMP_IMM(BPF_JEQ, cpu, 0, done));
	if (g->p->maps.ustack_fp >= 0)
		choose_walk(g, cpu, tgid, fp);
	snapshot(g, t, pidtgid, cpu, id, done);
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(fp));
	// id = get_stackid(ctx, &stacks, BPF_F_USER_STACK)
	emit(g->ir, MOV64_REG(R1, g->ctx));
	emit(g->ir, LD_MAP(R2, maps_stack_for(&g->p->maps, &g->p->arena, t)));
	emit(g->ir, MOV64_IMM(R3, BPF_F_USER_STACK));
	emit(g->ir, CALL(BPF_FUNC_get_stackid, 3));
	emit(g->ir, MOV64_REG(id, R0));
	emit(g->ir, LABEL(done));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, id, off));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, tgid, off + 8));
}

bool gen_ustack_divert_key(const struct gen *g, const struct map_info *m)
{
	return gen_ustack_dwarf(g) && maps_key_has_ustack(m->key);
}

void gen_ustack_divert(struct gen *g, struct map_info *m, struct loc key, int op, int32_t v,
		       const struct loc *val, int32_t done)
{
	int32_t send = ir_label(g->ir), keep = ir_label(g->ir), x = ir_vreg(g->ir);
	const struct type *k = m->key;

	for (uint32_t i = 0; i < k->nfields; i++) {
		const struct type *ft = k->fields[i].type;
		if (ft->kind != TY_STACK || !ft->user)
			continue;
		// if ((key.stack >> 61) == 1) goto send: a snapshot's token, not a stack yet
		emit(g->ir, LDX_MEM(BPF_DW, x, key.base, key.off + k->fields[i].offset));
		emit(g->ir, ALU64_IMM(BPF_RSH, x, 61));
		emit(g->ir, JMP_IMM(BPF_JEQ, x, 1, send));
	}
	emit(g->ir, JA(keep));
	emit(g->ir, LABEL(send));
	/* the record: id, key, value */
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
	uint32_t ksize = ALIGN_UP(k->size, 8);
	uint32_t vsize = op == UPD_DELETE ? 0 : val ? ALIGN_UP(MAX(m->value->size, 8), 8) : 8;
	r->kind = REC_USTACK_UPDATE;
	r->map = m;
	r->upd_op = op;
	r->size = 8 + ksize + vsize;
	uint32_t rec = gen_scratch_alloc(g, r->size);
	gen_zero(g, g->scratch, rec, r->size);
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, rec, plan_add_record(g->p, r)));
	gen_copy(g, g->scratch, rec + 8, key.base, key.off, k->size);
	if (val)
		gen_copy(g, g->scratch, rec + 8 + ksize, val->base, val->off, m->value->size);
	else if (v >= 0)
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, v, rec + 8 + ksize));
	gen_output(g, rec, r->size, false);
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(keep));
}

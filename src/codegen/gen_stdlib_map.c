// SPDX-License-Identifier: MIT
/*
 * The code of today's bpftrace's functions on maps: has_key, find, len
 * (their checks: sema/check_stdlib_map.c).
 */
#include "codegen/gen_stdlib.h"

/* r = (p != 0) */
static int32_t nonzero(struct gen *g, int32_t p)
{
	int32_t r = ir_vreg(g->ir), done = ir_label(g->ir);

	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, done));
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, LABEL(done));
	return r;
}

/* has_key(@m, key): map_lookup_elem(&m, &key) != NULL */
struct val gen_has_key(struct gen *g, struct expr *e)
{
	struct expr *mx = e->info;
	struct map_info *m = mx->info;
	int32_t p = gen_map_lookup(g, m, gen_map_key(g, m, &mx->u.map.keys));

	return reg_val(e->type, nonzero(g, p));
}

/* find(@m, key, $v): if ((p = map_lookup_elem(&m, &key))) $v = *p; p != NULL */
struct val gen_find(struct gen *g, struct expr *e)
{
	struct expr *mx = e->info;
	struct map_info *m = mx->info;
	struct var_info *v = e->u.call.args.v[2]->info;
	int32_t p = gen_map_lookup(g, m, gen_map_key(g, m, &mx->u.map.keys));
	int32_t done = ir_label(g->ir);

	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, done));
	if (type_is_scalar(v->type)) {
		emit(g->ir, LDX_MEM(BPF_DW, v->vreg, p, 0));
		gen_extend(g, v->vreg, v->type);
	} else {
		gen_store_val(g, mem_val(m->value, p, 0), v->type, g->scratch, v->offset);
	}
	emit(g->ir, LABEL(done));
	return reg_val(e->type, nonzero(g, p));
}

/*
 * len(@m): bpf_for_each_map_elem with a callback that goes on at every
 * element returns how many there are. len(kstack), len(ustack): the
 * frames bpf_get_stack copies, at 8 bytes each.
 */
struct val gen_len(struct gen *g, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	int32_t r = ir_vreg(g->ir);

	if (a->kind != EXPR_MAP) {
		struct type *t = a->type;
		uint32_t size = t->count * 8, off = gen_scratch_alloc(g, size);
		int32_t ok = ir_label(g->ir);
		// r = get_stack(ctx, buf, frames * 8, user ? BPF_F_USER_STACK : 0) / 8, 0 on errors
		emit(g->ir, MOV64_REG(R1, g->ctx));
		emit(g->ir, MOV64_REG(R2, g->scratch));
		emit(g->ir, ALU64_IMM(BPF_ADD, R2, off));
		emit(g->ir, MOV64_IMM(R3, size));
		emit(g->ir, MOV64_IMM(R4, t->user ? BPF_F_USER_STACK : 0));
		emit(g->ir, CALL(BPF_FUNC_get_stack, 4));
		emit(g->ir, MOV64_REG(r, R0));
		emit(g->ir, JMP_IMM(BPF_JSGE, r, 0, ok));
		emit(g->ir, MOV64_IMM(r, 0));
		emit(g->ir, LABEL(ok));
		emit(g->ir, ALU64_IMM(BPF_RSH, r, 3));
		return reg_val(e->type, r);
	}
	struct map_info *m = a->info;
	int32_t sub = ir_new_sub(g->root, FUNC_MAP_CB, g->func);
	struct ir *cb = g->root->subs.data[sub];
	// the callback: return 0 (go on)
	emit(cb, MOV64_IMM(R0, 0));
	emit(cb, EXIT_INSN());
	// r = for_each_map_elem(&m, callback, NULL, 0)
	emit(g->ir, LD_MAP(R1, m->bpf_map));
	emit(g->ir, LD_FUNC(R2, sub));
	emit(g->ir, MOV64_IMM(R3, 0));
	emit(g->ir, MOV64_IMM(R4, 0));
	emit(g->ir, CALL(BPF_FUNC_for_each_map_elem, 4));
	emit(g->ir, MOV64_REG(r, R0));
	return reg_val(e->type, r);
}

// SPDX-License-Identifier: MIT
/*
 * Today's bpftrace's constructs in code: `&$x` and `&@m`, array casts,
 * inlined function calls (sema/fn.c).
 *
 *   &$x     a variable of a memory type (string, tuple, ...): its scratch
 *           place. A scalar lives in a register; once its address is
 *           taken (var_info.addr) it also has a place in scratch (home),
 *           written each time the variable is, which &$x points to.
 *   &@m     the map (a map without keys), as bpftrace gives it.
 *   (uint8[8])x   the integer's bytes in a scratch place, as the array;
 *   (uint64)$a    the array's bytes read as the integer.
 *   f(args) the block sema made of it, `return` leaving that block: its
 *           own exit label while its body is generated.
 */
#include "codegen/gen.h"

void gen_var_written(struct gen *g, const struct var_info *v)
{
	// *(u64 *)(scratch + home) = $x
	if (v->addr && type_is_scalar(v->type))
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, v->vreg, (int32_t)v->home));
}

struct val gen_addr_of(struct gen *g, struct expr *e)
{
	struct expr *x = e->u.unary.operand;
	int32_t r = ir_vreg(g->ir);

	if (x->kind == EXPR_MAP) {
		// r = &map
		const struct map_info *m = x->info;
		emit(g->ir, LD_MAP(r, m->bpf_map));
		return reg_val(e->type, r);
	}
	const struct var_info *v = x->info;
	// r = scratch + (home or offset)
	if (type_is_scalar(v->type))
		gen_var_written(g, v);
	emit(g->ir, MOV64_REG(r, g->scratch));
	emit(g->ir, ALU64_IMM(BPF_ADD, r, (int32_t)(type_is_scalar(v->type) ? v->home : v->offset)));
	return reg_val(e->type, r);
}

struct val gen_array_cast(struct gen *g, struct expr *e)
{
	struct expr *x = e->u.cast.operand;
	struct type *t = e->type;

	if (t->kind == TY_ARRAY && x->type->kind == TY_STR) {
		/* (int8[])s: the string's bytes as they are */
		struct val v = gen_load(g, gen_expr(g, x));
		v.type = t;
		return v;
	}
	if (t->kind == TY_ARRAY) {
		// *(uN *)(scratch + off) = x
		uint32_t off = gen_scratch_alloc(g, 8);
		int32_t r = gen_scalar(g, x);
		uint8_t sz = t->size == 1 ? BPF_B : t->size == 2 ? BPF_H : t->size == 4 ? BPF_W : BPF_DW;
		emit(g->ir, STX_MEM(sz, g->scratch, r, (int32_t)off));
		return mem_val(t, g->scratch, (int32_t)off);
	}
	struct val a = gen_load(g, gen_expr(g, x));
	return reg_val(t, gen_load_int(g, t, a.reg, a.off));
}

struct val gen_fn_block(struct gen *g, struct expr *e)
{
	int32_t out = g->out, brk = g->loop_break, cont = g->loop_continue;
	int32_t end = ir_label(g->ir);
	struct stmt *b = e->u.blk.body;
	struct span sp = g->span;

	g->out = end;
	g->loop_break = g->loop_continue = -1;
	for (uint32_t i = 0; i < b->u.block.n; i++)
		gen_stmt(g, b->u.block.v[i]);
	emit(g->ir, LABEL(end));
	g->out = out;
	g->loop_break = brk;
	g->loop_continue = cont;
	g->span = sp;
	if (!e->u.blk.value)
		return reg_val(e->type, gen_const(g, 0));
	return gen_expr(g, e->u.blk.value);
}

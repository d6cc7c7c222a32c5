// SPDX-License-Identifier: MIT
/* Expressions: values in registers, or in memory for strings and tuples. */
#include "codegen/gen.h"
#include "codegen/gen_stdlib.h"
#include "plan/provider.h"

#include <stdlib.h>
#include <string.h>

int32_t gen_const(struct gen *g, int64_t v)
{
	int32_t r = ir_vreg(g->ir);

	if (v >= INT32_MIN && v <= INT32_MAX)
		emit(g->ir, MOV64_IMM(r, (int32_t)v));
	else
		emit(g->ir, LD_IMM64(r, v));
	return r;
}

/* A string literal, NUL-padded to size, at base + off. */
static void gen_str_lit(struct gen *g, const char *s, uint32_t len, uint32_t size, int32_t base,
			int32_t off)
{
	/* in the widest aligned words: a string in a tuple is byte-aligned, any size */
	for (uint32_t i = 0, n; i < size; i += n) {
		uint64_t w = 0;
		n = gen_chunk(off + (int32_t)i, size - i);
		for (uint32_t k = 0; k < n && i + k < len; k++)
			w |= (uint64_t)(uint8_t)s[i + k] << (8 * k);
		if (n < 8) {
			emit(g->ir, ST_MEM(gen_bpf_size(n), base, off + (int32_t)i, (int32_t)(uint32_t)w));
		} else if ((int64_t)w >= INT32_MIN && (int64_t)w <= INT32_MAX) {
			emit(g->ir, ST_MEM(BPF_DW, base, off + i, (int32_t)w));
		} else {
			int32_t t = ir_vreg(g->ir);
			emit(g->ir, LD_IMM64(t, (int64_t)w));
			emit(g->ir, STX_MEM(BPF_DW, base, t, off + i));
		}
	}
}

/* Whether values of types a and b are laid out alike (a byte copy converts one to the other) */
static bool same_layout(const struct type *a, const struct type *b)
{
	if (a == b)
		return true;
	if (a->kind != b->kind || a->size != b->size)
		return false;
	if (a->kind == TY_INT)
		return true;
	if (a->kind != TY_TUPLE)
		return a->kind != TY_ARRAY || same_layout(a->elem, b->elem);
	if (a->nfields != b->nfields)
		return false;
	for (uint32_t i = 0; i < a->nfields; i++) {
		const char *an = a->fields[i].name, *bn = b->fields[i].name;
		if (a->fields[i].offset != b->fields[i].offset ||
		    !same_layout(a->fields[i].type, b->fields[i].type) ||
		    ((an || bn) && (!an || !bn || strcmp(an, bn))))
			return false;
	}
	return true;
}

/*
 * A tuple (record) of BPF memory stored as tuple type t laid out
 * otherwise (wider strings, a record's fields in another order): field
 * by field, a record's by name.
 */
static void store_tuple(struct gen *g, struct val v, struct type *t, int32_t base, int32_t off)
{
	bool named = type_is_named_tuple(t) && type_is_named_tuple(v.type);

	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct field *ft = &t->fields[i];
		const struct field *fv = named ? type_named_field(v.type, ft->name) : &v.type->fields[i];
		struct val part = v;
		if (!fv) {
			gen_zero(g, base, off + ft->offset, ft->type->size);
			continue;
		}
		part.type = fv->type;
		part.off += (int32_t)fv->offset;
		if (ft->type->kind == TY_INT && fv->type->kind == TY_INT && ft->type->size != fv->type->size) {
			int32_t r = gen_load_int(g, fv->type, part.reg, part.off);
			gen_store_val(g, reg_val(ft->type, r), ft->type, base, off + ft->offset);
			continue;
		}
		gen_store_val(g, part, ft->type, base, off + ft->offset);
	}
}

void gen_store_val(struct gen *g, struct val v, struct type *t, int32_t base, int32_t off)
{
	if (v.mem && !v.ext && t->kind == TY_TUPLE && v.type->kind == TY_TUPLE &&
	    v.type->nfields == t->nfields && !same_layout(v.type, t)) {
		store_tuple(g, v, t, base, off);
		return;
	}
	if (!v.mem) {
		emit(g->ir, STX_MEM(t->size == 4 ? BPF_W : BPF_DW, base, v.reg, off));
		return;
	}
	uint32_t n = MIN(v.len ? v.len : v.type->size, t->size);
	if (v.ext) {
		/* straight from the kernel's (or process's) memory */
		if (n < t->size)
			gen_zero(g, base, off + n, t->size - n);
		if (n)
			gen_read_ext(g, v, base, off, n);
		return;
	}
	gen_copy(g, base, off, v.reg, v.off, n);
	if (t->size > n)
		gen_zero(g, base, off + n, t->size - n);
}

void gen_expr_into(struct gen *g, struct expr *e, struct type *t, int32_t base, int32_t off)
{
	if (t->kind == TY_STR && e->kind == EXPR_STR) {
		gen_str_lit(g, e->u.str, e->u.len, t->size, base, off);
		return;
	}
	if (t->kind == TY_STR && e->kind == EXPR_BUILTIN && e->id == BI_COMM) {
		// get_current_comm(base + off, size): NUL-padded to size
		emit(g->ir, MOV64_REG(R1, base));
		emit(g->ir, ALU64_IMM(BPF_ADD, R1, off));
		emit(g->ir, MOV64_IMM(R2, t->size));
		emit(g->ir, CALL(BPF_FUNC_get_current_comm, 2));
		return;
	}
	if (t->kind == TY_TUPLE && e->kind == EXPR_TUPLE && e->u.list.n == t->nfields) {
		for (uint32_t i = 0; i < t->nfields; i++)
			gen_expr_into(g, e->u.list.v[i], t->fields[i].type, base,
				      off + t->fields[i].offset);
		return;
	}
	if (t->kind == TY_TUPLE && e->kind == EXPR_RECORD && e->u.record.vals.n == t->nfields) {
		/* each field where the type has it (the order written may differ) */
		for (uint32_t i = 0; i < t->nfields; i++) {
			const struct field *f = type_named_field(t, e->u.record.names[i]);
			if (!f)
				f = &t->fields[i];
			gen_expr_into(g, e->u.record.vals.v[i], f->type, base, off + f->offset);
		}
		return;
	}
	gen_store_val(g, gen_expr(g, e), t, base, off);
}

int32_t gen_scalar(struct gen *g, struct expr *e)
{
	struct val v = gen_load(g, gen_expr(g, e));

	if (v.mem) {
		gen_error(g, e->span, "internal error: %s used as a scalar", type_str_of(e->type));
		return gen_const(g, 0);
	}
	return v.reg;
}

static bool is_cmp(enum op op)
{
	return op >= OP_EQ && op <= OP_GE;
}

static uint8_t jmp_for(enum op op, bool is_signed)
{
	switch (op) {
	case OP_EQ:
		return BPF_JEQ;
	case OP_NE:
		return BPF_JNE;
	case OP_LT:
		return is_signed ? BPF_JSLT : BPF_JLT;
	case OP_LE:
		return is_signed ? BPF_JSLE : BPF_JLE;
	case OP_GT:
		return is_signed ? BPF_JSGT : BPF_JGT;
	default:
		return is_signed ? BPF_JSGE : BPF_JGE;
	}
}

static enum op negate_cmp(enum op op)
{
	switch (op) {
	case OP_EQ:
		return OP_NE;
	case OP_NE:
		return OP_EQ;
	case OP_LT:
		return OP_GE;
	case OP_LE:
		return OP_GT;
	case OP_GT:
		return OP_LE;
	default:
		return OP_LT;
	}
}

static bool small_const(struct expr *e, int32_t *imm)
{
	if (e->kind == EXPR_INT && e->u.ival <= INT32_MAX) {
		*imm = (int32_t)e->u.ival;
		return true;
	}
	return false;
}

static bool int_cmp(struct expr *e)
{
	return e->kind == EXPR_BINARY && is_cmp(e->u.binary.op) &&
	       type_is_scalar(e->u.binary.lhs->type);
}

/* if (lhs op rhs) goto label */
static void gen_cmp_jump(struct gen *g, struct expr *e, enum op op, int32_t label)
{
	struct expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
	/* as C: unsigned when either side is (bpftrace 0.17 too) */
	bool sg = l->type->is_signed && r->type->is_signed;
	int32_t a = gen_scalar(g, l), imm;

	if (small_const(r, &imm)) {
		emit(g->ir, JMP_IMM(jmp_for(op, sg), a, imm, label));
		return;
	}
	emit(g->ir, JMP_REG(jmp_for(op, sg), a, gen_scalar(g, r), label));
}

static void gen_branch(struct gen *g, struct expr *e, int32_t label, bool when);

void gen_branch_false(struct gen *g, struct expr *e, int32_t label)
{
	gen_branch(g, e, label, false);
}

/* goto label when e's truth is `when` */
static void gen_branch(struct gen *g, struct expr *e, int32_t label, bool when)
{
	if (int_cmp(e)) {
		enum op op = e->u.binary.op;
		gen_cmp_jump(g, e, when ? op : negate_cmp(op), label);
		return;
	}
	if (e->kind == EXPR_UNARY && e->u.unary.op == OP_LNOT) {
		gen_branch(g, e->u.unary.operand, label, !when);
		return;
	}
	if (e->kind == EXPR_BINARY && (e->u.binary.op == OP_LAND || e->u.binary.op == OP_LOR)) {
		bool and = e->u.binary.op == OP_LAND;
		if (and != when) {
			/* a && b false: a false or b false; a || b true: a true or b true */
			gen_branch(g, e->u.binary.lhs, label, when);
			gen_branch(g, e->u.binary.rhs, label, when);
		} else {
			int32_t skip = ir_label(g->ir);
			gen_branch(g, e->u.binary.lhs, skip, !when);
			gen_branch(g, e->u.binary.rhs, label, when);
			emit(g->ir, LABEL(skip));
		}
		return;
	}
	int32_t r = gen_scalar(g, e);
	emit(g->ir, JMP_IMM(when ? BPF_JNE : BPF_JEQ, r, 0, label));
}

/* 0 or 1 from a condition */
static int32_t gen_bool(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir), done = ir_label(g->ir);

	emit(g->ir, MOV64_IMM(r, 1));
	gen_branch(g, e, done, true);
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, LABEL(done));
	return r;
}

static uint8_t alu_for(enum op op)
{
	switch (op) {
	case OP_ADD:
		return BPF_ADD;
	case OP_SUB:
		return BPF_SUB;
	case OP_MUL:
		return BPF_MUL;
	case OP_DIV:
		return BPF_DIV;
	case OP_MOD:
		return BPF_MOD;
	case OP_BAND:
		return BPF_AND;
	case OP_BOR:
		return BPF_OR;
	case OP_BXOR:
		return BPF_XOR;
	case OP_SHL:
		return BPF_LSH;
	default:
		return BPF_RSH;
	}
}

/* dst op= src, for the arithmetic and bitwise operators */
int32_t gen_arith(struct gen *g, enum op op, int32_t a, struct expr *rhs, struct type *lt)
{
	int32_t r = ir_vreg(g->ir), imm;
	uint8_t alu = alu_for(op);

	if (op == OP_SHR && lt && lt->is_signed)
		alu = BPF_ARSH;
	emit(g->ir, MOV64_REG(r, a));
	if (rhs && small_const(rhs, &imm) && (imm || (alu != BPF_DIV && alu != BPF_MOD))) {
		emit(g->ir, ALU64_IMM(alu, r, imm));
		return r;
	}
	if ((alu == BPF_DIV || alu == BPF_MOD) && g->p->modern) {
		// today's bpftrace: if (d == 0) { warn; r = 1 } else r op= d
		int32_t d = gen_scalar(g, rhs), ok = ir_label(g->ir), done = ir_label(g->ir);
		emit(g->ir, JMP_IMM(BPF_JNE, d, 0, ok));
		gen_runtime_error(g, rhs->span,
				  "Divide or modulo by 0 detected. This can lead to unexpected results. "
				  "1 is being used as the result.");
		emit(g->ir, MOV64_IMM(r, 1));
		emit(g->ir, JA(done));
		emit(g->ir, LABEL(ok));
		emit(g->ir, ALU64_REG(alu, r, d));
		emit(g->ir, LABEL(done));
		return r;
	}
	emit(g->ir, ALU64_REG(alu, r, gen_scalar(g, rhs)));
	return r;
}

static struct val gen_binary(struct gen *g, struct expr *e)
{
	enum op op = e->u.binary.op;
	struct expr *l = e->u.binary.lhs, *rr = e->u.binary.rhs;

	if ((op == OP_EQ || op == OP_NE) && !type_is_scalar(l->type)) {
		/* strings, tuples, records, arrays (gen_compare.c) */
		int32_t r = gen_value_eq(g, l, rr);
		if (op == OP_NE)
			emit(g->ir, ALU64_IMM(BPF_XOR, r, 1));
		return reg_val(e->type, r);
	}
	if (is_cmp(op) || op == OP_LAND || op == OP_LOR)
		return reg_val(e->type, gen_bool(g, e));
	if (l->type->kind == TY_PTR || rr->type->kind == TY_PTR)
		return reg_val(e->type, gen_ptr_arith(g, e));
	return reg_val(e->type, gen_arith(g, op, gen_scalar(g, l), rr, l->type));
}

static struct val gen_unary(struct gen *g, struct expr *e)
{
	struct expr *x = e->u.unary.operand;
	int32_t r;

	switch (e->u.unary.op) {
	case OP_PREINC:
	case OP_PREDEC:
	case OP_POSTINC:
	case OP_POSTDEC: {
		bool inc = e->u.unary.op == OP_PREINC || e->u.unary.op == OP_POSTINC;
		bool post = e->u.unary.op == OP_POSTINC || e->u.unary.op == OP_POSTDEC;
		if (x->kind == EXPR_VAR) {
			struct var_info *v = x->info;
			/* a pointer moves by the size of what it points to */
			int32_t step = v->type->kind == TY_PTR ? (int32_t)type_step(v->type) : 1;
			r = ir_vreg(g->ir);
			if (post)
				emit(g->ir, MOV64_REG(r, v->vreg));
			emit(g->ir, ALU64_IMM(BPF_ADD, v->vreg, inc ? step : -step));
			gen_var_written(g, v);
			if (!post)
				emit(g->ir, MOV64_REG(r, v->vreg));
			return reg_val(e->type, r);
		}
		gen_map_incdec(g, x, inc ? 1 : -1, NULL);
		/* the map's new value */
		struct val nv = gen_map_read(g, x);
		r = nv.reg;
		if (post) {
			int32_t p = ir_vreg(g->ir);
			int32_t step = x->type->kind == TY_PTR ? (int32_t)type_step(x->type) : 1;
			emit(g->ir, MOV64_REG(p, r));
			emit(g->ir, ALU64_IMM(BPF_ADD, p, inc ? -step : step));
			r = p;
		}
		return reg_val(e->type, r);
	}
	case OP_LNOT:
		return reg_val(e->type, gen_bool(g, e));
	case OP_NEG:
		r = ir_vreg(g->ir);
		emit(g->ir, MOV64_REG(r, gen_scalar(g, x)));
		emit(g->ir, NEG64(r));
		return reg_val(e->type, r);
	case OP_BNOT:
		r = ir_vreg(g->ir);
		emit(g->ir, MOV64_REG(r, gen_scalar(g, x)));
		emit(g->ir, ALU64_IMM(BPF_XOR, r, -1));
		return reg_val(e->type, r);
	case OP_PLUS:
		return reg_val(e->type, gen_scalar(g, x));
	case OP_DEREF:
		return gen_deref(g, e);
	case OP_ADDR:
		return gen_addr_of(g, e);
	default:
		gen_error(g, e->span, "unsupported operator '%s'", ast_op_str(e->u.unary.op));
		return reg_val(e->type, gen_const(g, 0));
	}
}

/* args->field of a tracepoint: loads from the context. */
struct val gen_ctx_field(struct gen *g, struct expr *e)
{
	struct field *f = e->info;
	struct type *t = e->type;

	if (f->data_loc) {
		// loc = *(u32 *)(ctx + off); data = ctx + (loc & 0xffff)
		int32_t loc = ir_vreg(g->ir);
		uint32_t off = gen_scratch_alloc(g, t->size);
		emit(g->ir, LDX_MEM(BPF_W, loc, g->ctx, f->offset));
		emit(g->ir, ALU64_IMM(BPF_AND, loc, 0xffff));
		emit(g->ir, ALU64_REG(BPF_ADD, loc, g->ctx));
		gen_zero(g, g->scratch, off, t->size);
		gen_probe_read(g, g->scratch, off, t->size, loc, SPACE_KERNEL, true);
		return mem_val(t, g->scratch, off);
	}
	if (t->kind == TY_STR) {
		uint32_t off = gen_scratch_alloc(g, t->size);
		int32_t src = gen_addr(g, g->ctx, f->offset);
		gen_zero(g, g->scratch, off, t->size);
		gen_probe_read(g, g->scratch, off, MIN(f->read_size + 1, t->size), src, SPACE_KERNEL, true);
		return mem_val(t, g->scratch, off);
	}
	if (t->kind == TY_INT || t->kind == TY_PTR) {
		int32_t r = ir_vreg(g->ir);
		uint8_t sz = t->size == 1 ? BPF_B : t->size == 2 ? BPF_H : t->size == 4 ? BPF_W : BPF_DW;
		emit(g->ir, LDX_MEM(sz, r, g->ctx, f->offset));
		gen_extend(g, r, t);
		return reg_val(t, r);
	}
	/* arrays and records: their address, for indexing */
	return mem_val(t, g->ctx, f->offset);
}

/* $t.N, $t[N], $r.name: the tuple is in memory; its element is read (integers) or pointed at */
static struct val gen_tuple_elem(struct gen *g, struct expr *e, struct expr *base)
{
	struct val t = gen_expr(g, base);
	struct field *f = e->info;

	if (!t.mem) {
		gen_error(g, e->span, "internal error: a tuple not in memory");
		return reg_val(e->type, gen_const(g, 0));
	}
	if (type_is_scalar(f->type))
		return reg_val(f->type, gen_load_int(g, f->type, t.reg, t.off + f->offset));
	return mem_val(f->type, t.reg, t.off + f->offset);
}

static struct val gen_ternary(struct gen *g, struct expr *e)
{
	int32_t other = ir_label(g->ir), done = ir_label(g->ir);

	if (!e->u.ternary.then) {
		// r = cond; if (r == 0) r = otherwise
		int32_t r = ir_vreg(g->ir);
		emit(g->ir, MOV64_REG(r, gen_scalar(g, e->u.ternary.cond)));
		emit(g->ir, JMP_IMM(BPF_JNE, r, 0, done));
		emit(g->ir, MOV64_REG(r, gen_scalar(g, e->u.ternary.otherwise)));
		emit(g->ir, LABEL(done));
		return reg_val(e->type, r);
	}

	if (e->type->kind == TY_VOID) {
		// if (c) { a } else { b }, of no value
		gen_branch_false(g, e->u.ternary.cond, other);
		gen_expr(g, e->u.ternary.then);
		emit(g->ir, JA(done));
		emit(g->ir, LABEL(other));
		gen_expr(g, e->u.ternary.otherwise);
		emit(g->ir, LABEL(done));
		return reg_val(e->type, gen_const(g, 0));
	}
	if (type_is_scalar(e->type)) {
		int32_t r = ir_vreg(g->ir);
		gen_branch_false(g, e->u.ternary.cond, other);
		emit(g->ir, MOV64_REG(r, gen_scalar(g, e->u.ternary.then)));
		emit(g->ir, JA(done));
		emit(g->ir, LABEL(other));
		emit(g->ir, MOV64_REG(r, gen_scalar(g, e->u.ternary.otherwise)));
		emit(g->ir, LABEL(done));
		return reg_val(e->type, r);
	}
	uint32_t off = gen_scratch_alloc(g, e->type->size);
	gen_branch_false(g, e->u.ternary.cond, other);
	gen_expr_into(g, e->u.ternary.then, e->type, g->scratch, off);
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(other));
	gen_expr_into(g, e->u.ternary.otherwise, e->type, g->scratch, off);
	emit(g->ir, LABEL(done));
	return mem_val(e->type, g->scratch, off);
}

static struct val gen_cast(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir);

	if (e->type->is_bool && e->u.cast.operand->type->kind == TY_STR) {
		struct val v = gen_load(g, gen_expr(g, e->u.cast.operand));
		int32_t done = ir_label(g->ir);

		// (bool)s: s[0] != 0, a string is true unless empty
		emit(g->ir, LDX_MEM(BPF_B, r, v.reg, v.off));
		emit(g->ir, JMP_IMM(BPF_JEQ, r, 0, done));
		emit(g->ir, MOV64_IMM(r, 1));
		emit(g->ir, LABEL(done));
		return reg_val(e->type, r);
	}
	if (e->type->is_bool) // (bool)x: x != 0
		return reg_val(e->type, gen_bool(g, e->u.cast.operand));
	if (e->type->kind == TY_ARRAY || e->u.cast.operand->type->kind == TY_ARRAY)
		return gen_array_cast(g, e);
	emit(g->ir, MOV64_REG(r, gen_scalar(g, e->u.cast.operand)));
	gen_extend(g, r, e->type);
	return reg_val(e->type, r);
}

/* { stmts; value }: the statements, then the value */
static struct val gen_block_expr(struct gen *g, struct expr *e)
{
	struct stmt *b = e->u.blk.body;
	struct span sp = g->span;

	for (uint32_t i = 0; i < b->u.block.n; i++)
		gen_stmt(g, b->u.block.v[i]);
	g->span = sp;
	if (!e->u.blk.value)
		return reg_val(e->type, gen_const(g, 0));
	return gen_expr(g, e->u.blk.value);
}

/*
 * s->f, s.f, a[i], *p: what is read from outside the program, at once or
 * later (v.at), is read where e is (-kk says a failed read there, as bpftrace)
 */
static struct val gen_access(struct gen *g, struct expr *e)
{
	struct span sp = g->span;
	struct val v;

	g->span = e->span;
	v = e->kind == EXPR_FIELD ? gen_record_field(g, e)
	    : e->kind == EXPR_INDEX ? gen_index(g, e)
				      : gen_unary(g, e);
	g->span = sp;
	if (v.ext)
		v.at = &e->span;
	return v;
}

struct val gen_expr(struct gen *g, struct expr *e)
{
	switch (e->kind) {
	case EXPR_INT:
		return reg_val(e->type, gen_const(g, (int64_t)e->u.ival));
	case EXPR_STR: {
		uint32_t off = gen_scratch_alloc(g, e->type->size);
		gen_str_lit(g, e->u.str, e->u.len, e->type->size, g->scratch, off);
		return mem_val(e->type, g->scratch, off);
	}
	case EXPR_BUILTIN:
		return gen_builtin(g, e);
	case EXPR_POSITIONAL: {
		int64_t v;
		plan_param_int(g->p, e->u.num, &v); /* sema made sure it is a number */
		return reg_val(e->type, gen_const(g, v));
	}
	case EXPR_POSCOUNT:
		return reg_val(e->type, gen_const(g, g->p->opts->nparams));
	case EXPR_VAR: {
		struct var_info *v = e->info;
		if (type_is_scalar(v->type))
			return reg_val(v->type, v->vreg);
		return mem_val(v->type, g->scratch, v->offset);
	}
	case EXPR_MAP:
		return gen_map_read(g, e);
	case EXPR_CALL:
		return gen_call(g, e);
	case EXPR_UNARY:
		return e->u.unary.op == OP_DEREF ? gen_access(g, e) : gen_unary(g, e);
	case EXPR_BINARY:
		return gen_binary(g, e);
	case EXPR_TERNARY:
		return gen_ternary(g, e);
	case EXPR_FIELD:
		if (e->u.field.base->type->kind == TY_CTX)
			return g->inst->prov->gen_args_field(g, e);
		if (e->u.field.base->type->kind == TY_TUPLE)
			return gen_tuple_elem(g, e, e->u.field.base);
		return gen_access(g, e);
	case EXPR_INDEX:
		if (e->u.index.base->type->kind == TY_TUPLE)
			return gen_tuple_elem(g, e, e->u.index.base);
		return gen_access(g, e);
	case EXPR_TUPLE: {
		uint32_t off = gen_scratch_alloc(g, e->type->size);
		gen_expr_into(g, e, e->type, g->scratch, off);
		return mem_val(e->type, g->scratch, off);
	}
	case EXPR_CAST:
		return gen_cast(g, e);
	case EXPR_SIZEOF:
	case EXPR_OFFSETOF:
		return reg_val(e->type, gen_const(g, e->id));
	case EXPR_BOOL:
		return reg_val(e->type, gen_const(g, (int64_t)e->u.ival));
	case EXPR_BLOCK:
		return e->u.blk.fn ? gen_fn_block(g, e) : gen_block_expr(g, e);
	case EXPR_COMPTIME: {
		struct val v = gen_expr(g, e->u.unary.operand);
		v.type = e->type;
		return v;
	}
	case EXPR_RECORD: {
		uint32_t off = gen_scratch_alloc(g, e->type->size);
		gen_expr_into(g, e, e->type, g->scratch, off);
		return mem_val(e->type, g->scratch, off);
	}
	case EXPR_IDENT: {
		/* a constant: #define, enum member, kernel enum */
		const struct constant *k = e->info;
		if (k->str) {
			uint32_t off = gen_scratch_alloc(g, e->type->size);
			gen_str_lit(g, k->str, strlen(k->str), e->type->size, g->scratch, off);
			return mem_val(e->type, g->scratch, off);
		}
		return reg_val(e->type, gen_const(g, k->value));
	}
	}
	gen_error(g, e->span, "cannot generate code for this expression");
	return reg_val(&ty_s64, gen_const(g, 0));
}

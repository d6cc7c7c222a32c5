// SPDX-License-Identifier: MIT
/*
 * Pointers, struct fields, arrays and the memory outside the program.
 *
 * A value reached through a pointer (`p->field`, `*p`, `p[i]`) is an ext
 * val: the address of kernel (or user) memory in a register and an offset;
 * nothing is read until the value is used. `.field` and a constant index
 * only move the offset, so `$t->se.cfs_rq` reads 8 bytes once. A scalar is
 * then read with probe_read into a temporary and loaded (gen_load); a
 * struct, array or string is read into scratch memory, or straight into its
 * destination (a map key, a record: gen_store_val). Reads that fail leave
 * zeros, as in bpftrace.
 */
#include "codegen/gen.h"

/* dst = base + off, or base itself */
static int32_t address(struct gen *g, struct val v)
{
	return v.off ? gen_addr(g, v.reg, v.off) : v.reg;
}

/* Read ext value v into BPF memory at base + off, size bytes (the rest of them zero). */
static void read_into(struct gen *g, struct val v, int32_t base, int32_t off, uint32_t size)
{
	uint32_t n = MIN(v.len ? v.len : v.type->size, size);

	if (n < size)
		gen_zero(g, base, off + n, size - n);
	if (n)
		gen_read_ext(g, v, base, off, n);
}

void gen_read_ext(struct gen *g, struct val v, int32_t base, int32_t off, uint32_t n)
{
	struct span sp = g->span;

	if (v.at)
		g->span = *v.at;
	gen_probe_read(g, base, off, n, address(g, v), (enum mem_space)v.space, false);
	g->span = sp;
}

struct val gen_load(struct gen *g, struct val v)
{
	struct type *t = v.type;
	uint32_t off;

	if (!v.mem || (!v.ext && (!v.len || v.len >= t->size)))
		return v;
	if (v.ext && type_is_scalar(t)) {
		struct loc tmp = gen_temp_alloc(g, 8);
		read_into(g, v, tmp.base, tmp.off, 8);
		return reg_val(t, gen_load_int(g, t, tmp.base, tmp.off));
	}
	off = gen_scratch_alloc(g, t->size);
	gen_store_val(g, v, t, g->scratch, off);
	return mem_val(t, g->scratch, off);
}

/*
 * A bitfield: the bytes that hold it, shifted and masked, never sign-extended
 * (bpftrace's reading: `short b:8` holding -39 is 217)
 */
static struct val bitfield(struct gen *g, struct val v, const struct field *f, struct type *t)
{
	uint32_t bits = f->bit_off + f->bit_size, n = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
	struct type *unit = type_int(n, false);
	int32_t r;

	v.type = unit;
	v.len = 0;
	r = v.ext ? gen_load(g, v).reg : gen_load_int(g, unit, v.reg, v.off);
	// r = r << (64 - bit_off - bit_size) >> (64 - bit_size)
	emit(g->ir, ALU64_IMM(BPF_LSH, r, 64 - f->bit_off - f->bit_size));
	emit(g->ir, ALU64_IMM(BPF_RSH, r, 64 - f->bit_size));
	return reg_val(t, r);
}

/* Field f of the record in v, off bytes in, of type t (its type as sema gave it). */
static struct val member(struct gen *g, struct val v, const struct field *f, uint32_t off, struct type *t)
{
	v.off += (int32_t)off;
	v.type = t;
	v.len = f->read_size;
	if (f->bit_size)
		return bitfield(g, v, f, t);
	if (!type_is_scalar(t))
		return v;
	if (v.ext)
		return gen_load(g, v);
	return reg_val(t, gen_load_int(g, t, v.reg, v.off));
}

struct val gen_record_field(struct gen *g, struct expr *e)
{
	struct expr *b = e->u.field.base;
	struct val base;

	if (b->type->kind == TY_PTR)
		base = ext_val(type_elem(b->type), gen_scalar(g, b), 0, type_space(b->type));
	else
		base = gen_expr(g, b);
	if (!base.mem) {
		gen_error(g, e->span, "internal error: a struct not in memory");
		return reg_val(e->type, gen_const(g, 0));
	}
	return member(g, base, e->info, (uint32_t)e->id, e->type);
}

struct val gen_deref(struct gen *g, struct expr *e)
{
	struct expr *x = e->u.unary.operand;
	struct val v = ext_val(e->type, gen_scalar(g, x), 0, type_space(x->type));

	return type_is_scalar(e->type) ? gen_load(g, v) : v;
}

int32_t gen_ptr_scale(struct gen *g, int32_t n, struct type *t)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, MOV64_REG(r, n));
	if (type_step(t) != 1)
		emit(g->ir, ALU64_IMM(BPF_MUL, r, (int32_t)type_step(t)));
	return r;
}

/*
 * a[i], s[i] with i known when the probe runs (today's bpftrace): out of
 * bounds, a warning and 0, else the element. An array of the program's
 * memory is indexed in scratch (a copy of it when it is elsewhere); one of
 * the kernel's (or process's) is read at its address.
 */
static struct val dyn_index(struct gen *g, struct expr *e, struct val v, uint32_t count)
{
	struct type *et = e->type;
	uint32_t esize = et->size, off;
	int32_t i = ir_vreg(g->ir), r = ir_vreg(g->ir), ok = ir_label(g->ir), done = ir_label(g->ir);
	struct loc tmp;

	// if (i >= count) { warn; r = 0 } else r = a[i]
	emit(g->ir, MOV64_REG(i, gen_scalar(g, e->u.index.index)));
	emit(g->ir, JMP_IMM(BPF_JLT, i, (int32_t)count, ok));
	gen_runtime_error(g, e->span, "Array access out of bounds. This can lead to unexpected results.");
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(ok));
	if (esize != 1)
		emit(g->ir, ALU64_IMM(BPF_MUL, i, (int32_t)esize));
	if (v.ext) {
		emit(g->ir, ALU64_REG(BPF_ADD, i, address(g, v)));
		tmp = gen_temp_alloc(g, 8);
		gen_zero(g, tmp.base, tmp.off, 8);
		gen_probe_read(g, tmp.base, tmp.off, esize, i, v.space, false);
		emit(g->ir, MOV64_REG(r, gen_load_int(g, et, tmp.base, tmp.off)));
	} else {
		if (v.reg != g->scratch) {
			off = gen_scratch_alloc(g, count * esize);
			gen_copy(g, g->scratch, off, v.reg, v.off, count * esize);
			v = mem_val(v.type, g->scratch, off);
		}
		emit(g->ir, ALU64_REG(BPF_ADD, i, v.reg));
		emit(g->ir, MOV64_REG(r, gen_load_int(g, et, i, v.off)));
	}
	emit(g->ir, LABEL(done));
	return reg_val(et, r);
}

/*
 * The same for an element that is a struct, an array, a tuple: copied to
 * a scratch place (zeros out of bounds), which the rest reads.
 */
static struct val dyn_index_mem(struct gen *g, struct expr *e, struct val v, uint32_t count)
{
	struct type *et = e->type;
	uint32_t esize = et->size, off = gen_scratch_alloc(g, esize);
	int32_t i = ir_vreg(g->ir), ok = ir_label(g->ir), done = ir_label(g->ir);

	// if (i >= count) { warn; zero } else copy a[i]
	emit(g->ir, MOV64_REG(i, gen_scalar(g, e->u.index.index)));
	emit(g->ir, JMP_IMM(BPF_JLT, i, (int32_t)count, ok));
	gen_runtime_error(g, e->span, "Array access out of bounds. This can lead to unexpected results.");
	gen_zero(g, g->scratch, off, esize);
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(ok));
	emit(g->ir, ALU64_IMM(BPF_MUL, i, (int32_t)esize));
	if (v.ext) {
		emit(g->ir, ALU64_REG(BPF_ADD, i, address(g, v)));
		gen_probe_read(g, g->scratch, off, esize, i, v.space, false);
	} else {
		if (v.reg != g->scratch) {
			uint32_t copy = gen_scratch_alloc(g, count * esize);
			gen_copy(g, g->scratch, copy, v.reg, v.off, count * esize);
			v = mem_val(v.type, g->scratch, copy);
		}
		emit(g->ir, ALU64_REG(BPF_ADD, i, v.reg));
		gen_copy(g, g->scratch, off, i, v.off, esize);
	}
	emit(g->ir, LABEL(done));
	return mem_val(et, g->scratch, off);
}

struct val gen_index(struct gen *g, struct expr *e)
{
	struct expr *b = e->u.index.base;
	struct type *bt = b->type, *et = e->type;
	struct val v;

	if (bt->kind == TY_PTR) {
		// the element at p + i * size
		int32_t a = gen_ptr_scale(g, gen_scalar(g, e->u.index.index), bt);
		emit(g->ir, ALU64_REG(BPF_ADD, a, gen_scalar(g, b)));
		v = ext_val(et, a, 0, type_space(bt));
		return type_is_scalar(et) ? gen_load(g, v) : v;
	}
	/* an array: the constant index only moves the offset */
	v = gen_expr(g, b);
	if (!v.mem) {
		gen_error(g, e->span, "internal error: an array not in memory");
		return reg_val(et, gen_const(g, 0));
	}
	if (e->id < 0 && type_is_scalar(et))
		return dyn_index(g, e, v, bt->kind == TY_STR ? (v.len ? v.len : bt->size) : bt->count);
	if (e->id < 0)
		return dyn_index_mem(g, e, v, bt->count);
	v.off += e->id * (int32_t)bt->elem->size;
	v.type = et;
	v.len = 0;
	if (!type_is_scalar(et))
		return v;
	return v.ext ? gen_load(g, v) : reg_val(et, gen_load_int(g, et, v.reg, v.off));
}

int32_t gen_ptr_arith(struct gen *g, struct expr *e)
{
	struct expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
	int32_t res = ir_vreg(g->ir);

	if (l->type->kind == TY_PTR && r->type->kind == TY_PTR) {
		// (p - q) / size, signed: a power of two shifts
		uint32_t step = type_step(l->type), shift = 0;
		emit(g->ir, MOV64_REG(res, gen_scalar(g, l)));
		emit(g->ir, ALU64_REG(BPF_SUB, res, gen_scalar(g, r)));
		while (shift < 63 && (1u << shift) < step)
			shift++;
		if ((1u << shift) == step)
			emit(g->ir, ALU64_IMM(BPF_ARSH, res, shift));
		else
			emit(g->ir, ALU64_IMM(BPF_DIV, res, (int32_t)step));
		return res;
	}
	// p + n * size, n * size + p, p - n * size
	struct expr *p = l->type->kind == TY_PTR ? l : r, *n = p == l ? r : l;
	int32_t scaled = gen_ptr_scale(g, gen_scalar(g, n), p->type);
	emit(g->ir, MOV64_REG(res, gen_scalar(g, p)));
	emit(g->ir, ALU64_REG(e->u.binary.op == OP_SUB ? BPF_SUB : BPF_ADD, res, scaled));
	return res;
}

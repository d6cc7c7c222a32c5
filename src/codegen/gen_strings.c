// SPDX-License-Identifier: MIT
/*
 * The code of today's bpftrace's functions of strings and memory (their
 * checks: sema/check_strings.c): strlen, strcap, strstr and strcontains,
 * memcmp, is_err. The loops index copies of their arguments in scratch
 * with a variable offset, bounded by the arguments' sizes.
 */
#include "codegen/gen_stdlib.h"

/* A copy of a in scratch (loops index it with a variable offset): its offset */
static uint32_t in_scratch(struct gen *g, struct expr *a)
{
	uint32_t off = gen_scratch_alloc(g, a->type->size);

	gen_store_val(g, gen_expr(g, a), a->type, g->scratch, off);
	return off;
}

/* x = byte i of the copy at scratch + off */
static void load_byte(struct gen *g, int32_t x, int32_t i, uint32_t off)
{
	int32_t p = ir_vreg(g->ir);

	emit(g->ir, MOV64_REG(p, g->scratch));
	emit(g->ir, ALU64_REG(BPF_ADD, p, i));
	emit(g->ir, LDX_MEM(BPF_B, x, p, off));
}

/* strlen(s): for (n = 0; n < size && s[n]; n++); */
struct val gen_strlen(struct gen *g, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	uint32_t top = g->scratch_top, off = in_scratch(g, a), size = a->type->size;
	int32_t n = ir_vreg(g->ir), x = ir_vreg(g->ir);
	int32_t loop = ir_label(g->ir), done = ir_label(g->ir);

	emit(g->ir, MOV64_IMM(n, 0));
	emit(g->ir, LABEL(loop));
	emit(g->ir, JMP_IMM(BPF_JGE, n, size, done));
	load_byte(g, x, n, off);
	emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, done));
	emit(g->ir, ALU64_IMM(BPF_ADD, n, 1));
	emit(g->ir, JA(loop));
	emit(g->ir, LABEL(done));
	g->scratch_top = top;
	return reg_val(e->type, n);
}

/* strcap(s): a string's size as bpftrace counts it (NUL included), an array's elements */
struct val gen_strcap(struct gen *g, struct expr *e)
{
	struct type *t = e->u.call.args.v[0]->type;
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, MOV64_IMM(r, (int32_t)(t->kind == TY_ARRAY ? t->count
					   : t->strsize	       ? t->strsize
							       : t->size)));
	return reg_val(e->type, r);
}

/*
 * strstr(h, s): the index of s in h, else -1; strcontains(h, s): that
 * index >= 0. Two bounded loops:
 *
 *   for (i = 0; i < H; i++) {
 *     for (j = 0; ; j++) {
 *       if (j >= S || !s[j]) return i;
 *       if (i + j >= H || h[i + j] != s[j]) break;
 *     }
 *     if (!h[i]) break;
 *   }
 *   return -1;
 */
struct val gen_strstr(struct gen *g, struct expr *e)
{
	struct expr **args = e->u.call.args.v;
	uint32_t top = g->scratch_top;
	uint32_t hoff = in_scratch(g, args[0]), soff = in_scratch(g, args[1]);
	uint32_t hn = args[0]->type->size, sn = args[1]->type->size;
	int32_t r = ir_vreg(g->ir), i = ir_vreg(g->ir), j = ir_vreg(g->ir), k = ir_vreg(g->ir);
	int32_t x = ir_vreg(g->ir), y = ir_vreg(g->ir);
	int32_t outer = ir_label(g->ir), inner = ir_label(g->ir), next = ir_label(g->ir);
	int32_t found = ir_label(g->ir), done = ir_label(g->ir);

	emit(g->ir, MOV64_IMM(r, -1));
	emit(g->ir, MOV64_IMM(i, 0));
	emit(g->ir, LABEL(outer));
	emit(g->ir, JMP_IMM(BPF_JGE, i, hn, done));
	emit(g->ir, MOV64_IMM(j, 0));
	emit(g->ir, LABEL(inner));
	// y = s[j]: the needle's end is a match
	emit(g->ir, JMP_IMM(BPF_JGE, j, sn, found));
	load_byte(g, y, j, soff);
	emit(g->ir, JMP_IMM(BPF_JEQ, y, 0, found));
	// x = h[i + j]
	emit(g->ir, MOV64_REG(k, i));
	emit(g->ir, ALU64_REG(BPF_ADD, k, j));
	emit(g->ir, JMP_IMM(BPF_JGE, k, hn, next));
	load_byte(g, x, k, hoff);
	emit(g->ir, JMP_REG(BPF_JNE, x, y, next));
	emit(g->ir, ALU64_IMM(BPF_ADD, j, 1));
	emit(g->ir, JA(inner));
	emit(g->ir, LABEL(next));
	// the haystack's end: no match
	load_byte(g, x, i, hoff);
	emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, done));
	emit(g->ir, ALU64_IMM(BPF_ADD, i, 1));
	emit(g->ir, JA(outer));
	emit(g->ir, LABEL(found));
	emit(g->ir, MOV64_REG(r, i));
	emit(g->ir, LABEL(done));
	g->scratch_top = top;
	if (e->id == FN_STRCONTAINS) {
		// r = r >= 0 (r is -1 or an index)
		emit(g->ir, ALU64_IMM(BPF_RSH, r, 63));
		emit(g->ir, ALU64_IMM(BPF_XOR, r, 1));
	}
	return reg_val(e->type, r);
}

/*
 * memcmp(l, r, n): the difference of the first differing bytes (as signed
 * chars), else 0, within n and the smaller size:
 *
 *   for (i = 0; i < n && i < SIZE; i++)
 *     if (l[i] != r[i]) return (s8)l[i] - (s8)r[i];
 *   return 0;
 */
struct val gen_memcmp(struct gen *g, struct expr *e)
{
	struct expr **args = e->u.call.args.v;
	uint32_t top = g->scratch_top;
	uint32_t loff = in_scratch(g, args[0]), roff = in_scratch(g, args[1]);
	uint32_t size = MIN(args[0]->type->size, args[1]->type->size);
	int32_t n = gen_scalar(g, args[2]);
	int32_t r = ir_vreg(g->ir), i = ir_vreg(g->ir), x = ir_vreg(g->ir), y = ir_vreg(g->ir);
	int32_t loop = ir_label(g->ir), done = ir_label(g->ir);

	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, MOV64_IMM(i, 0));
	emit(g->ir, LABEL(loop));
	emit(g->ir, JMP_IMM(BPF_JGE, i, size, done));
	emit(g->ir, JMP_REG(BPF_JGE, i, n, done));
	load_byte(g, x, i, loff);
	load_byte(g, y, i, roff);
	emit(g->ir, ALU64_IMM(BPF_ADD, i, 1));
	emit(g->ir, JMP_REG(BPF_JEQ, x, y, loop));
	// r = (s8)x - (s8)y
	emit(g->ir, ALU64_IMM(BPF_LSH, x, 56));
	emit(g->ir, ALU64_IMM(BPF_ARSH, x, 56));
	emit(g->ir, ALU64_IMM(BPF_LSH, y, 56));
	emit(g->ir, ALU64_IMM(BPF_ARSH, y, 56));
	emit(g->ir, MOV64_REG(r, x));
	emit(g->ir, ALU64_REG(BPF_SUB, r, y));
	emit(g->ir, LABEL(done));
	g->scratch_top = top;
	return reg_val(e->type, r);
}

/* is_err(p): -4095 <= (s64)p < 0, i.e. (u64)p + 4095 < 4095 */
struct val gen_is_err(struct gen *g, struct expr *e)
{
	int32_t p = gen_scalar(g, e->u.call.args.v[0]), r = ir_vreg(g->ir), t = ir_vreg(g->ir);
	int32_t done = ir_label(g->ir);

	emit(g->ir, MOV64_REG(t, p));
	emit(g->ir, ALU64_IMM(BPF_ADD, t, 4095));
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, JMP_IMM(BPF_JLT, t, 4095, done));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, LABEL(done));
	return reg_val(e->type, r);
}

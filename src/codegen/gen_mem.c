// SPDX-License-Identifier: MIT
/* Memory in generated code: scratch allocation, zeroing, copies, loads. */
#include "codegen/gen.h"
#include "plan/provider.h"
#include "codegen/scratch.h"

#include <stdarg.h>

void gen_error(struct gen *g, struct span sp, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(&g->p->diag, span_is_none(sp) ? g->span : sp, E_CODEGEN, "%s", msg);
	g->failed = true;
}

uint32_t gen_scratch_alloc(struct gen *g, uint32_t size)
{
	uint32_t off = g->scratch_top;

	g->scratch_top += ALIGN_UP(size ? size : 8, 8);
	if (g->scratch_top > g->scratch_max)
		g->scratch_max = g->scratch_top;
	if (g->scratch_top > SCRATCH_MAX) {
		if (!g->failed)
			gen_error(g, SPAN_NONE, "the probe needs %u bytes of scratch memory; the limit is %u",
				  g->scratch_top, SCRATCH_MAX);
		g->scratch_top = 0;
		return 0;
	}
	return off;
}

#define STACK_TEMP_MAX 16 /* bigger temporaries go to scratch */

struct loc gen_temp_alloc(struct gen *g, uint32_t size)
{
	uint32_t n = ALIGN_UP(size ? size : 8, 8);

	if (n > STACK_TEMP_MAX)
		return (struct loc){ g->scratch, gen_scratch_alloc(g, n) };
	g->stack_top += n;
	g->stack_max = MAX(g->stack_max, g->stack_top);
	return (struct loc){ R10, -(int32_t)(g->stack_base + g->stack_top) };
}

void gen_zero(struct gen *g, int32_t base, int32_t off, uint32_t size)
{
	uint32_t i = 0;

	/* up to an 8-byte boundary first: the stack takes aligned stores only */
	while (i < size && ((off + (int32_t)i) & 7)) {
		if (!((off + (int32_t)i) & 3) && size - i >= 4) {
			emit(g->ir, ST_MEM(BPF_W, base, off + i, 0));
			i += 4;
		} else {
			emit(g->ir, ST_MEM(BPF_B, base, off + i, 0));
			i++;
		}
	}
	for (; i + 8 <= size; i += 8)
		emit(g->ir, ST_MEM(BPF_DW, base, off + i, 0));
	for (; i + 4 <= size; i += 4)
		emit(g->ir, ST_MEM(BPF_W, base, off + i, 0));
	for (; i < size; i++)
		emit(g->ir, ST_MEM(BPF_B, base, off + i, 0));
}

uint32_t gen_chunk(int32_t off, uint32_t left)
{
	for (uint32_t w = 8; w > 1; w /= 2)
		if (left >= w && !(off & (int32_t)(w - 1)))
			return w;
	return 1;
}

int gen_bpf_size(uint32_t w)
{
	return w == 8 ? BPF_DW : w == 4 ? BPF_W : w == 2 ? BPF_H : BPF_B;
}

void gen_copy(struct gen *g, int32_t dbase, int32_t doff, int32_t sbase, int32_t soff, uint32_t size)
{
	int32_t t = ir_vreg(g->ir);

	/* in the widest words aligned at both ends (the stack takes aligned accesses only:
	   strings in tuples are byte-aligned) */
	for (uint32_t i = 0, w; i < size; i += w) {
		w = gen_chunk((doff + (int32_t)i) | (soff + (int32_t)i), size - i);
		emit(g->ir, LDX_MEM(gen_bpf_size(w), t, sbase, soff + (int32_t)i));
		emit(g->ir, STX_MEM(gen_bpf_size(w), dbase, t, doff + (int32_t)i));
	}
}

int32_t gen_addr(struct gen *g, int32_t base, int32_t off)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, MOV64_REG(r, base));
	if (off)
		emit(g->ir, ALU64_IMM(BPF_ADD, r, off));
	return r;
}

static uint8_t bpf_size(uint32_t size)
{
	switch (size) {
	case 1:
		return BPF_B;
	case 2:
		return BPF_H;
	case 4:
		return BPF_W;
	default:
		return BPF_DW;
	}
}

void gen_extend(struct gen *g, int32_t reg, struct type *t)
{
	uint32_t bits = t->size * 8;

	if (t->kind != TY_INT || bits >= 64)
		return;
	if (t->is_signed) {
		// reg = (s64)(reg << (64 - bits)) >> (64 - bits)
		emit(g->ir, ALU64_IMM(BPF_LSH, reg, 64 - bits));
		emit(g->ir, ALU64_IMM(BPF_ARSH, reg, 64 - bits));
	} else if (bits == 32) {
		emit(g->ir, MOV32_REG(reg, reg));
	} else {
		emit(g->ir, ALU64_IMM(BPF_AND, reg, (int32_t)((1u << bits) - 1)));
	}
}

int32_t gen_load_int(struct gen *g, struct type *t, int32_t base, int32_t off)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, LDX_MEM(bpf_size(t->size), r, base, off));
	if (t->is_signed)
		gen_extend(g, r, t);
	return r;
}

enum mem_space gen_probe_space(const struct gen *g)
{
	return plan_mem_space(g->inst->prov);
}

void gen_probe_read(struct gen *g, int32_t base, int32_t off, uint32_t size, int32_t src_reg,
		    enum mem_space space, bool str)
{
	static const int32_t fns[][2] = {
		[SPACE_KERNEL] = { BPF_FUNC_probe_read_kernel, BPF_FUNC_probe_read_kernel_str },
		[SPACE_USER] = { BPF_FUNC_probe_read_user, BPF_FUNC_probe_read_user_str },
		/* the compat helpers: user memory below the kernel's, else kernel memory */
		[SPACE_ANY] = { BPF_FUNC_probe_read, BPF_FUNC_probe_read_str },
	};
	int32_t fn = fns[space][str];

	// fn(base + off, size, src)
	emit(g->ir, MOV64_REG(R3, src_reg));
	emit(g->ir, MOV64_REG(R1, base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R1, off));
	emit(g->ir, MOV64_IMM(R2, size));
	emit(g->ir, CALL(fn, 3));
	gen_helper_check(g, fn, g->span);
}

/*
 * r = the bytes of a and b are the same: arrays of one size; buf() values
 * (their length, then as many bytes as the shorter has)
 */
int32_t gen_mem_eq(struct gen *g, struct val a, struct val b)
{
	uint32_t size = MIN(a.type->size, b.type->size);
	int32_t r = ir_vreg(g->ir), x = ir_vreg(g->ir), y = ir_vreg(g->ir);
	int32_t ne = ir_label(g->ir), done = ir_label(g->ir);

	// compare in the widest aligned words that fit; any difference: not equal
	for (uint32_t i = 0, w; i < size; i += w) {
		w = gen_chunk((a.off + (int32_t)i) | (b.off + (int32_t)i), size - i);
		emit(g->ir, LDX_MEM(gen_bpf_size(w), x, a.reg, a.off + (int16_t)i));
		emit(g->ir, LDX_MEM(gen_bpf_size(w), y, b.reg, b.off + (int16_t)i));
		emit(g->ir, JMP_REG(BPF_JNE, x, y, ne));
	}
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(ne));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, LABEL(done));
	return r;
}

int32_t gen_str_eq(struct gen *g, struct val a, struct val b)
{
	uint32_t size = MAX(a.type->size, b.type->size);
	int32_t r = ir_vreg(g->ir), x = ir_vreg(g->ir), y = ir_vreg(g->ir);
	int32_t ne = ir_label(g->ir), done = ir_label(g->ir);

	uint32_t as = a.type->size, bs = b.type->size;

	// Both are NUL-padded: compare word by word (aligned words of the bytes each has: a
	// string in a tuple is byte-aligned, any size), a missing word is zero.
	for (uint32_t i = 0, w; i < size; i += w) {
		uint32_t left = size - i;
		int32_t at = 0;
		if (i < as) {
			left = MIN(left, as - i);
			at |= a.off + (int32_t)i;
		}
		if (i < bs) {
			left = MIN(left, bs - i);
			at |= b.off + (int32_t)i;
		}
		w = gen_chunk(at, left);
		if (i < as)
			emit(g->ir, LDX_MEM(gen_bpf_size(w), x, a.reg, a.off + (int32_t)i));
		else
			emit(g->ir, MOV64_IMM(x, 0));
		if (i < bs)
			emit(g->ir, LDX_MEM(gen_bpf_size(w), y, b.reg, b.off + (int32_t)i));
		else
			emit(g->ir, MOV64_IMM(y, 0));
		emit(g->ir, JMP_REG(BPF_JNE, x, y, ne));
	}
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(ne));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, LABEL(done));
	return r;
}

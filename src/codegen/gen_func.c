// SPDX-License-Identifier: MIT
/*
 * The code of the functions on bytes, strings and addresses (buf, bswap,
 * strncmp, strerror, ntop, pton, macaddr, cgroup_path), of
 * username and sarg0.., and of debugf, signal and override. Values that
 * print as text (buf, ntop, ...) are laid out as output/value_text.h says.
 */
#include "codegen/gen.h"
#include "plan/provider.h"
#include "sys/arch.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* The memory an address points into here: a pointer's, or the probe's. */
static enum mem_space addr_space(struct gen *g, struct type *t)
{
	if (t->kind == TY_PTR)
		return type_space(t);
	return gen_probe_space(g);
}

/* A value in memory as a value of size bytes (len: at most that many of them). */
static struct val as_bytes(struct gen *g, struct val v, uint32_t len)
{
	v.len = v.len ? MIN(v.len, len) : MIN(v.type->size, len);
	return v;
}

/*
 * buf(data, n): the u64 length, then the bytes. From a string or an array:
 * a copy; from an address: probe_read of n bytes (a variable n is capped at
 * the buffer's size, which the verifier needs).
 */
struct val gen_buf(struct gen *g, struct expr *e)
{
	struct type *t = e->type, *at = e->u.call.args.v[0]->type;
	struct type *bytes = type_array(&g->p->arena, &ty_u8, t->size - 8);
	uint32_t off = gen_scratch_alloc(g, t->size);
	struct expr *len = e->u.call.args.n > 1 ? e->u.call.args.v[1] : NULL;

	if (at->kind == TY_STR || at->kind == TY_ARRAY) {
		struct val v = gen_expr(g, e->u.call.args.v[0]);
		gen_store_val(g, as_bytes(g, v, t->count), bytes, g->scratch, off + 8);
		emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, t->count));
		return mem_val(t, g->scratch, off);
	}
	int32_t src = gen_scalar(g, e->u.call.args.v[0]);
	enum mem_space space = addr_space(g, at);
	gen_zero(g, g->scratch, off + 8, t->size - 8);
	if (len && len->kind != EXPR_INT && len->kind != EXPR_POSITIONAL &&
	    len->kind != EXPR_UNARY) {
		// n = min(len, t->count); *(u64 *)buf = n; probe_read(buf + 8, n, src)
		int32_t n = ir_vreg(g->ir), ok = ir_label(g->ir);
		emit(g->ir, MOV64_REG(n, gen_scalar(g, len)));
		emit(g->ir, JMP_IMM(BPF_JLE, n, t->count, ok));
		emit(g->ir, MOV64_IMM(n, t->count));
		emit(g->ir, LABEL(ok));
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, n, off));
		emit(g->ir, MOV64_REG(R3, src));
		emit(g->ir, MOV64_REG(R2, n));
		emit(g->ir, MOV64_REG(R1, g->scratch));
		emit(g->ir, ALU64_IMM(BPF_ADD, R1, off + 8));
		emit(g->ir, CALL(space == SPACE_USER ? BPF_FUNC_probe_read_user
				 : space == SPACE_ANY ? BPF_FUNC_probe_read
						      : BPF_FUNC_probe_read_kernel, 3));
		return mem_val(t, g->scratch, off);
	}
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, t->count));
	if (t->count)
		gen_probe_read(g, g->scratch, off + 8, t->count, src, space, false);
	return mem_val(t, g->scratch, off);
}

/* bswap(n): BPF_END to big endian swaps the low 16, 32 or 64 bits */
struct val gen_bswap(struct gen *g, struct expr *e)
{
	int32_t r = gen_scalar(g, e->u.call.args.v[0]);

	if (e->type->size > 1)
		emit(g->ir, BSWAP(r, e->type->size * 8));
	else
		emit(g->ir, ALU64_IMM(BPF_AND, r, 0xff));
	return reg_val(e->type, r);
}

/* A string argument in BPF memory: its base and offset, and its size. */
static struct val string_arg(struct gen *g, struct expr *a)
{
	return gen_load(g, gen_expr(g, a));
}

/*
 * strncmp(a, b, n): 0 when the first n characters are equal (a NUL ends
 * both early), else 1. Unrolled: byte i of each string, or 0 past its end.
 */
struct val gen_strncmp(struct gen *g, struct expr *e)
{
	struct expr **args = e->u.call.args.v;
	struct val a = string_arg(g, args[0]), b = string_arg(g, args[1]);
	uint32_t n = (uint32_t)MIN((uint64_t)(uintptr_t)e->info, MAX(a.type->size, b.type->size));
	int32_t r = ir_vreg(g->ir), x = ir_vreg(g->ir), y = ir_vreg(g->ir);
	int32_t ne = ir_label(g->ir), eq = ir_label(g->ir), done = ir_label(g->ir);

	for (uint32_t i = 0; i < n; i++) {
		// x = a[i]; y = b[i]; if (x != y) goto ne; if (!x) goto eq
		if (i < a.type->size)
			emit(g->ir, LDX_MEM(BPF_B, x, a.reg, a.off + i));
		else
			emit(g->ir, MOV64_IMM(x, 0));
		if (i < b.type->size)
			emit(g->ir, LDX_MEM(BPF_B, y, b.reg, b.off + i));
		else
			emit(g->ir, MOV64_IMM(y, 0));
		emit(g->ir, JMP_REG(BPF_JNE, x, y, ne));
		emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, eq));
	}
	emit(g->ir, LABEL(eq));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(ne));
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, LABEL(done));
	return reg_val(e->type, r);
}

/* strerror(n), cgroup_path(id): the number; user space prints its text */
struct val gen_int_text(struct gen *g, struct expr *e)
{
	uint32_t off = gen_scratch_alloc(g, 8);

	emit(g->ir, STX_MEM(BPF_DW, g->scratch, gen_scalar(g, e->u.call.args.v[0]), off));
	return mem_val(e->type, g->scratch, off);
}

/* ntop([af,] addr): the family, then the address's 4 or 16 bytes */
struct val gen_ntop(struct gen *g, struct expr *e)
{
	uint32_t n = e->u.call.args.n;
	struct expr *a = e->u.call.args.v[n - 1];
	struct type *t = e->type, *at = a->type;
	uint32_t off = gen_scratch_alloc(g, t->size);
	uint32_t size = at->kind == TY_ARRAY ? at->size : at->kind == TY_BUF ? at->count : 4;

	gen_zero(g, g->scratch, off + 8, 16);
	if (n == 2)
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, gen_scalar(g, e->u.call.args.v[0]), off));
	else
		emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, size == 16 ? AF_INET6 : AF_INET));
	if (at->kind == TY_INT) {
		emit(g->ir, STX_MEM(BPF_W, g->scratch, gen_scalar(g, a), off + 8));
		return mem_val(t, g->scratch, off);
	}
	struct val v = gen_expr(g, a);
	if (at->kind == TY_BUF)
		v = (struct val){.type = type_array(&g->p->arena, &ty_u8, size),
				 .mem = true,
				 .ext = v.ext,
				 .space = v.space,
				 .reg = v.reg,
				 .off = v.off + 8};
	gen_store_val(g, as_bytes(g, v, size), type_array(&g->p->arena, &ty_u8, 16), g->scratch,
		      off + 8);
	return mem_val(t, g->scratch, off);
}

/* pton("addr"): the bytes sema parsed */
struct val gen_pton(struct gen *g, struct expr *e)
{
	const uint8_t *b = e->info;
	uint32_t off = gen_scratch_alloc(g, e->type->size);

	for (uint32_t i = 0; i < e->type->size; i += 4) {
		uint32_t w;
		memcpy(&w, b + i, 4);
		emit(g->ir, ST_MEM(BPF_W, g->scratch, off + i, (int32_t)w));
	}
	return mem_val(e->type, g->scratch, off);
}

/* macaddr(mac): 6 bytes from an array, a buf, or the memory an address points to */
struct val gen_macaddr(struct gen *g, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct type *at = a->type, *bytes = type_array(&g->p->arena, &ty_u8, 8);
	uint32_t off = gen_scratch_alloc(g, 8);

	if (at->kind == TY_INT || at->kind == TY_PTR) {
		emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, 0));
		gen_probe_read(g, g->scratch, off, 6, gen_scalar(g, a), addr_space(g, at), false);
		return mem_val(e->type, g->scratch, off);
	}
	struct val v = gen_expr(g, a);
	if (at->kind == TY_BUF)
		v.off += 8;
	v.type = type_array(&g->p->arena, &ty_u8, 6);
	v.len = 6;
	gen_store_val(g, v, bytes, g->scratch, off);
	return mem_val(e->type, g->scratch, off);
}

/* cgroupid("path"): the id sema found */
struct val gen_cgroupid(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, LD_IMM64(r, (int64_t) * (uint64_t *)e->info));
	return reg_val(e->type, r);
}

/* username: the uid; user space looks its name up */
struct val gen_username(struct gen *g, struct expr *e)
{
	uint32_t off = gen_scratch_alloc(g, 8);
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, CALL(BPF_FUNC_get_current_uid_gid, 0));
	emit(g->ir, MOV32_REG(r, R0));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, r, off));
	return mem_val(e->type, g->scratch, off);
}

/* sargN: the u64 at sp + 8 * (N + 1), above the return address (x86-64) */
struct val gen_sarg(struct gen *g, struct expr *e)
{
	uint32_t n = (uint32_t)strtoul(e->u.name + 4, NULL, 10);
	struct loc tmp = gen_temp_alloc(g, 8);
	int32_t sp = ir_vreg(g->ir), r = ir_vreg(g->ir);

	emit(g->ir, LDX_MEM(BPF_DW, sp, g->ctx, sys_arch_reg_offset("sp")));
	emit(g->ir, ALU64_IMM(BPF_ADD, sp, 8 * (n + 1)));
	emit(g->ir, ST_MEM(BPF_DW, tmp.base, tmp.off, 0));
	gen_probe_read(g, tmp.base, tmp.off, 8, sp, gen_probe_space(g), false);
	emit(g->ir, LDX_MEM(BPF_DW, r, tmp.base, tmp.off));
	return reg_val(e->type, r);
}

/* debugf(fmt, ...): trace_printk(fmt, sizeof(fmt), args...) */
struct val gen_call_debugf(struct gen *g, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	uint32_t n = e->u.call.args.n, off = gen_scratch_alloc(g, a[0]->type->size);
	int32_t r[3];

	gen_expr_into(g, a[0], a[0]->type, g->scratch, off);
	for (uint32_t i = 1; i < n; i++) {
		if (a[i]->type->kind == TY_STR) {
			struct val v = gen_load(g, gen_expr(g, a[i]));
			r[i - 1] = gen_addr(g, v.reg, v.off);
		} else {
			r[i - 1] = gen_scalar(g, a[i]);
		}
	}
	for (uint32_t i = 1; i < n; i++)
		emit(g->ir, MOV64_REG(R2 + i, r[i - 1]));
	emit(g->ir, MOV64_REG(R1, g->scratch));
	emit(g->ir, ALU64_IMM(BPF_ADD, R1, off));
	emit(g->ir, MOV64_IMM(R2, a[0]->u.len + 1));
	emit(g->ir, CALL(BPF_FUNC_trace_printk, n + 1));
	return (struct val){.type = &ty_void, .reg = NO_REG};
}

/* signal(SIG), signal_thread(SIG): send_signal(SIG) to the current process, its thread */
/* write_user(dst, src, len): probe_write_user(dst, &src, len) == 0 */
struct val gen_write_user(struct gen *g, struct expr *e)
{
	struct expr **args = e->u.call.args.v;
	int32_t dst = gen_scalar(g, args[0]);
	struct val src = gen_load(g, gen_expr(g, args[1]));
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, MOV64_REG(R1, dst));
	emit(g->ir, MOV64_REG(R2, src.reg));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, src.off));
	emit(g->ir, MOV64_IMM(R3, (int32_t)(uintptr_t)e->info));
	emit(g->ir, CALL(BPF_FUNC_probe_write_user, 3));
	// r = R0 == 0 (else a negative error)
	int32_t done = ir_label(g->ir);
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, JMP_IMM(BPF_JEQ, R0, 0, done));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, LABEL(done));
	return reg_val(e->type, r);
}

struct val gen_call_signal(struct gen *g, struct expr *e)
{
	emit(g->ir, MOV64_IMM(R1, (int32_t)(intptr_t)e->info));
	emit(g->ir, CALL(e->id == FN_SIGNAL_THREAD ? BPF_FUNC_send_signal_thread : BPF_FUNC_send_signal,
			 1));
	return (struct val){.type = &ty_void, .reg = NO_REG};
}

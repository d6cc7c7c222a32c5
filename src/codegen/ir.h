/* SPDX-License-Identifier: MIT */
/*
 * The IR: eBPF instructions over virtual registers, with labels instead of
 * jump offsets. Code generation appends to it with emit() and builders that
 * read like assembly:
 *
 *	// r0 = lookup(&map, key)
 *	emit(ir, LD_MAP(R1, map->id));
 *	emit(ir, MOV64_REG(R2, key));
 *	emit(ir, CALL(BPF_FUNC_map_lookup_elem, 2));
 *
 * Registers 0..10 are the BPF registers r0..r10; numbers from VREG0 up are
 * virtual registers that regalloc.c maps onto r0..r9 (spilling to the stack
 * when it must). Calls read r1..r<nargs> and clobber r0..r5.
 */
#ifndef LANTERN_CODEGEN_IR_H
#define LANTERN_CODEGEN_IR_H

#include <linux/bpf.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "plan/code.h"

enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, VREG0 = 16 };
#define NO_REG (-1)

enum ir_kind {
	IR_INSN,     /* one eBPF instruction */
	IR_LD_IMM64, /* dst = imm64 (two instruction slots) */
	IR_LD_MAP,   /* dst = &map (imm: the plan's map index, patched to an fd) */
	IR_LD_MAP_VALUE, /* dst = &map's first value (an array's: direct access, no helper) */
	IR_LD_CONST, /* dst = a load-time constant (imm: enum load_const) */
	IR_LD_KSYM,  /* dst = &a kernel variable (imm: its vmlinux BTF id; BPF_PSEUDO_BTF_ID) */
	IR_LABEL,    /* a jump target: .label */
	IR_LD_FUNC,  /* dst = &function imm: with subprograms in ir.subs (for loops), the
				index of one of them; else (codegen/funcs.h) of the linked program's */
};

struct ir_insn {
	uint8_t kind;
	uint8_t code;  /* BPF opcode */
	uint8_t nargs; /* calls: arguments in r1..r<nargs> */
	int32_t dst, src;
	int16_t off;
	int32_t imm;
	int64_t imm64;
	int32_t label; /* jumps: target label; IR_LABEL: its number */
	bool lconst;   /* IR_INSN: imm is a load-time constant's id */
};

/*
 * One function: the program, or a subprogram of it (a for loop's body,
 * which the kernel calls back from bpf_loop or bpf_for_each_map_elem).
 * Each has its own virtual registers, labels and stack frame; the
 * program's ir holds every subprogram (nested loops' too) in subs, in
 * the order they follow it in the final code.
 */
struct ir {
	VEC(struct ir_insn) insns;
	int32_t next_vreg;
	int32_t next_label;
	uint32_t stack_size; /* bytes below r10 reserved by codegen (spills go beneath) */
	enum code_func_kind kind;
	int32_t parent;	       /* subprograms: the function that calls it (-1: the program) */
	VEC(struct ir *) subs; /* the program's: its subprograms */
};

void ir_init(struct ir *ir);
void ir_free(struct ir *ir);
/* A new subprogram of program ir, called from function parent (-1: ir itself); its index. */
int32_t ir_new_sub(struct ir *ir, enum code_func_kind kind, int32_t parent);
int32_t ir_vreg(struct ir *ir);
int32_t ir_label(struct ir *ir);
/* Reserve n bytes (8-aligned) of BPF stack; returns the offset from r10 (negative). */
int16_t ir_stack(struct ir *ir, uint32_t n);

static inline void emit(struct ir *ir, struct ir_insn insn)
{
	vec_push(&ir->insns, insn);
}

#define IRI(c, d, s, o, i) ((struct ir_insn){ .kind = IR_INSN, .code = (c), .dst = (d), .src = (s), .off = (o), .imm = (i), .label = -1 })

#define MOV64_REG(d, s) IRI(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i) IRI(BPF_ALU64 | BPF_MOV | BPF_K, d, NO_REG, 0, i)
#define MOV32_REG(d, s) IRI(BPF_ALU | BPF_MOV | BPF_X, d, s, 0, 0)
#define ALU64_REG(op, d, s) IRI(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define ALU64_IMM(op, d, i) IRI(BPF_ALU64 | (op) | BPF_K, d, NO_REG, 0, i)
/* d = the low bits of d in big-endian order (a byte swap on this little-endian machine) */
#define BSWAP(d, bits) IRI(BPF_ALU | BPF_END | BPF_TO_BE, d, NO_REG, 0, bits)
#define NEG64(d) IRI(BPF_ALU64 | BPF_NEG | BPF_K, d, NO_REG, 0, 0)
#define LDX_MEM(sz, d, s, o) IRI(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX_MEM(sz, d, s, o) IRI(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST_MEM(sz, d, o, i) IRI(BPF_ST | BPF_MEM | (sz), d, NO_REG, o, i)
/* *(size *)(d + o) += s, atomically */
#define ATOMIC_ADD(sz, d, s, o) IRI(BPF_STX | BPF_ATOMIC | (sz), d, s, o, BPF_ADD)
#define EXIT_INSN() IRI(BPF_JMP | BPF_EXIT, NO_REG, NO_REG, 0, 0)

static inline struct ir_insn ir_jmp(uint8_t code, int32_t d, int32_t s, int32_t imm, int32_t label)
{
	struct ir_insn i = IRI(code, d, s, 0, imm);
	i.label = label;
	return i;
}
#define JMP_REG(op, d, s, l) ir_jmp(BPF_JMP | (op) | BPF_X, d, s, 0, l)
#define JMP_IMM(op, d, i, l) ir_jmp(BPF_JMP | (op) | BPF_K, d, NO_REG, i, l)
#define JA(l) ir_jmp(BPF_JMP | BPF_JA, NO_REG, NO_REG, 0, l)

static inline struct ir_insn ir_call(int32_t helper, uint8_t nargs)
{
	struct ir_insn i = IRI(BPF_JMP | BPF_CALL, NO_REG, NO_REG, 0, helper);
	i.nargs = nargs;
	return i;
}
#define CALL(fn, nargs) ir_call(fn, nargs)

/* call function k of the program (a subprogram: codegen/funcs.h); r0 its result */
static inline struct ir_insn ir_call_func(int32_t k, uint8_t nargs)
{
	struct ir_insn i = IRI(BPF_JMP | BPF_CALL, NO_REG, BPF_PSEUDO_CALL, 0, k);
	i.nargs = nargs;
	return i;
}
#define CALL_FUNC(k, nargs) ir_call_func(k, nargs)
static inline bool ir_is_call_func(const struct ir_insn *i)
{
	return i->kind == IR_INSN && i->code == (BPF_JMP | BPF_CALL) && i->src == BPF_PSEUDO_CALL;
}

/* dst = the address of function k (IR_LD_FUNC says which k), for a helper that calls it back */
static inline struct ir_insn ir_ld_func(int32_t d, int32_t k)
{
	struct ir_insn i = IRI(BPF_LD | BPF_DW | BPF_IMM, d, NO_REG, 0, k);
	i.kind = IR_LD_FUNC;
	return i;
}
#define LD_FUNC(d, k) ir_ld_func(d, k)

static inline struct ir_insn ir_ld_imm64(int32_t d, int64_t v)
{
	struct ir_insn i = IRI(BPF_LD | BPF_DW | BPF_IMM, d, NO_REG, 0, 0);
	i.kind = IR_LD_IMM64;
	i.imm64 = v;
	return i;
}
#define LD_IMM64(d, v) ir_ld_imm64(d, v)

static inline struct ir_insn ir_ld_map(int32_t d, int32_t map_id)
{
	struct ir_insn i = IRI(BPF_LD | BPF_DW | BPF_IMM, d, NO_REG, 0, map_id);
	i.kind = IR_LD_MAP;
	return i;
}
#define LD_MAP(d, id) ir_ld_map(d, id)

static inline struct ir_insn ir_ld_map_value(int32_t d, int32_t map_id)
{
	struct ir_insn i = IRI(BPF_LD | BPF_DW | BPF_IMM, d, NO_REG, 0, map_id);
	i.kind = IR_LD_MAP_VALUE;
	return i;
}
#define LD_MAP_VALUE(d, id) ir_ld_map_value(d, id)

static inline struct ir_insn ir_ld_const(int32_t d, enum load_const c)
{
	struct ir_insn i = IRI(BPF_LD | BPF_DW | BPF_IMM, d, NO_REG, 0, c);
	i.kind = IR_LD_CONST;
	return i;
}
#define LD_CONST(d, c) ir_ld_const(d, c)

static inline struct ir_insn ir_ld_ksym(int32_t d, uint32_t btf_id)
{
	struct ir_insn i = IRI(BPF_LD | BPF_DW | BPF_IMM, d, NO_REG, 0, (int32_t)btf_id);
	i.kind = IR_LD_KSYM;
	return i;
}
#define LD_KSYM(d, id) ir_ld_ksym(d, id)

static inline struct ir_insn ir_with_const(struct ir_insn i)
{
	i.lconst = true;
	return i;
}
/* dst = a load-time constant that fits in 32 bits (a pid) */
#define MOV64_CONST(d, c) ir_with_const(MOV64_IMM(d, c))
/* if (dst op a load-time constant) goto l */
#define JMP_CONST(op, d, c, l) ir_with_const(JMP_IMM(op, d, c, l))

static inline struct ir_insn ir_label_insn(int32_t l)
{
	struct ir_insn i = IRI(0, NO_REG, NO_REG, 0, 0);
	i.kind = IR_LABEL;
	i.label = l;
	return i;
}
#define LABEL(l) ir_label_insn(l)

/* Registers an instruction reads and writes (at most 6 each). */
struct ir_regs {
	int32_t use[6], def[6];
	uint8_t nuse, ndef;
};
void ir_regs_of(const struct ir_insn *insn, struct ir_regs *r);
static inline bool ir_is_jump(const struct ir_insn *i)
{
	uint8_t cls = BPF_CLASS(i->code);
	return i->kind == IR_INSN && (cls == BPF_JMP || cls == BPF_JMP32) && BPF_OP(i->code) != BPF_CALL &&
	       BPF_OP(i->code) != BPF_EXIT;
}

/* Pseudo-C rendering of one instruction ("r1 = *(u64 *)(r10 -8)"). */
void ir_format_insn(struct strbuf *out, const struct ir_insn *insn);
/* Remove instructions that no path reaches. */
void ir_prune(struct ir *ir);
/* The `-d ir` listing. */
void ir_dump(const struct ir *ir, struct strbuf *out);
const char *ir_helper_name(int32_t id);
/*
 * A user stack's snapshot (gen_ustack.c, and lantern trace -k): the stack
 * from sp copied to base + off, size bytes; near the stack's end, as many
 * of its 16 pieces as can be read. Returns the vreg holding the bytes copied.
 */
int32_t ir_copy_user_stack(struct ir *ir, int32_t base, int32_t off, int32_t sp, uint32_t size);

#endif

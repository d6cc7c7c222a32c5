/* SPDX-License-Identifier: MIT */
/*
 * A program of several functions: the program itself (the first) and its
 * subprograms, which it calls with CALL_FUNC(k, nargs) or names with
 * LD_FUNC(dst, k) (bpf_loop's callback). The verifier walks a global
 * subprogram once, alone, its arguments unknown, whoever calls it; a
 * static one where it is used (a callback: as many times as its state
 * changes). Each function has its registers and its stack of its own: its
 * IR is allocated and assembled alone, then ir_link() puts the functions
 * one after the other, makes the calls and addresses pc-relative, and
 * makes the BTF the kernel needs to tell them apart (its arguments and its
 * result are each a long).
 */
#ifndef LANTERN_CODEGEN_FUNCS_H
#define LANTERN_CODEGEN_FUNCS_H

#include <linux/bpf.h>

#include "base/arena.h"
#include "codegen/ir.h"

enum ir_linkage { IR_STATIC, IR_GLOBAL };

struct ir_func {
	const char *name; /* a C identifier */
	enum ir_linkage linkage;
	uint8_t nargs; /* in r1..r<nargs> */
	struct ir ir;
};

/* What ir_link() makes: the code, and with subprograms their BTF and where each begins */
struct ir_linked {
	struct bpf_insn *insns; /* malloc'd */
	uint32_t n;
	void *btf; /* in the arena; NULL for a program of one function */
	uint32_t btf_size;
	struct bpf_func_info *func_info; /* [nfuncs], in the arena */
	uint32_t nfuncs;
};

/* A function as BTF describes it: its name, its long arguments, where it starts */
struct ir_btf_func {
	const char *name;
	uint8_t nargs;
	bool global; /* the first (the program) always is */
	uint32_t insn;
};

/*
 * The BTF of a program's functions and their func_info (out->btf,
 * btf_size, func_info, nfuncs; each a FUNC of a FUNC_PROTO whose arguments
 * and result are longs). 0, or -1 with err set.
 */
int ir_btf_funcs(const struct ir_btf_func *funcs, uint32_t n, struct arena *arena, struct ir_linked *out,
		 char *err, size_t errlen);

/*
 * Allocate, assemble and link funcs[0..n) (their IR is consumed). dump:
 * the instructions as they load (-d bpf), each function after its name.
 * 0, or -1 with err set.
 */
int ir_link(struct ir_func *funcs, uint32_t n, struct arena *arena, struct ir_linked *out, struct strbuf *dump,
	    char *err, size_t errlen);

#endif

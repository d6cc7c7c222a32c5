/* SPDX-License-Identifier: MIT */
#ifndef LANTERN_CODEGEN_REGALLOC_H
#define LANTERN_CODEGEN_REGALLOC_H

#include <linux/bpf.h>

#include "codegen/ir.h"

/*
 * Map every virtual register of ir onto r0..r9, spilling to 8-byte stack
 * slots below ir->stack_size when ten registers are not enough. Rewrites ir
 * in place so that it holds physical registers only; its subprograms too,
 * each on its own. Returns 0, or -1 when the program needs more than the
 * 512 bytes of BPF stack, its subprograms' frames counted (err says so).
 */
int ir_regalloc(struct ir *ir, char *err, size_t errlen);

/*
 * Resolve labels into jump offsets and produce the final instructions, map
 * references and load-time constants still symbolic (plan/code.h).
 * Returns the count, or -1 with err set (a jump too far for a 16-bit
 * offset).
 */
int ir_assemble(const struct ir *ir, struct bpf_insn **out, char *err, size_t errlen);
/*
 * With subprograms: every function of ir's final code (the program first),
 * malloc'd in *out; their count. 0 (and NULL) without subprograms.
 */
uint32_t ir_funcs(const struct ir *ir, struct code_func **out);
/* Disassembly of final instructions, one per line ("   3: r1 = r6"). */
void ir_bpf_dump(const struct bpf_insn *insns, int n, struct strbuf *out);
/* The same, of instructions [from, n) only, numbered from the start */
void ir_bpf_dump_range(const struct bpf_insn *insns, int from, int n, struct strbuf *out);

#endif

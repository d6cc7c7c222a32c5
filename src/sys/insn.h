/* SPDX-License-Identifier: MIT */
/*
 * Machine instruction lengths, so that a uprobe at FUNCTION+OFFSET or at
 * an address goes only where an instruction starts (a breakpoint in the
 * middle of one would corrupt the traced program). x86-64 is decoded
 * (prefixes, REX, VEX, EVEX, the one-, two- and three-byte opcode maps:
 * lengths only, not meanings); arm64 instructions are 4 bytes.
 */
#ifndef LANTERN_SYS_INSN_H
#define LANTERN_SYS_INSN_H

#include <stddef.h>
#include <stdint.h>

/* The length of the x86-64 instruction at code (n bytes readable), or -1. */
int sys_insn_len_x86_64(const uint8_t *code, size_t n);

/*
 * Whether offset off of a function whose code is code[0..n) is where an
 * instruction of this machine starts: 1 yes, 0 no (*before and *after:
 * the starts around it), -1 when an instruction on the way cannot be
 * decoded or this machine's instructions are not known.
 */
int sys_insn_boundary(const uint8_t *code, size_t n, size_t off, size_t *before, size_t *after);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Runtime memory of generated programs.
 *
 * The 512-byte BPF stack holds only scalars: spilled registers and the key
 * of the scratch lookup. Everything bigger (strings, map keys, tuples,
 * output records) lives in the scratch map: a BPF_MAP_TYPE_PERCPU_ARRAY
 * with one entry per program, so a program never shares its area with
 * another one that could interrupt it on the same CPU (a perf event
 * program firing inside a raw tracepoint program, say).
 *
 *   BPF stack (r10 = top)                scratch map, entry = program index
 *   +---------------------------+ r10    +---------------------------+ 0
 *   | u32 key (program index)   | -8     | $variables of memory      |
 *   +---------------------------+        | types (strings, tuples)   |
 *   | spill slots, 8 bytes each |        +---------------------------+ vars_end
 *   | (regalloc.c)              |        | temporaries of the current|
 *   +---------------------------+ -512   | statement: strings, keys, |
 *                                        | map values, records       |
 *                                        +---------------------------+ scratch_max
 *
 * The prologue of every program looks its entry up once and keeps the
 * pointer in a register for the whole program; temporaries are allocated
 * from the area by a bump pointer that goes back to vars_end at the start
 * of each statement. All offsets are multiples of 8 and every value written
 * there is fully initialised (strings are NUL-padded), so equal strings and
 * keys compare equal byte for byte.
 *
 * Scratch entries are at most SCRATCH_MAX bytes: the kernel's limit on a
 * per-CPU map value.
 */
#ifndef LANTERN_CODEGEN_SCRATCH_H
#define LANTERN_CODEGEN_SCRATCH_H

#define SCRATCH_MAX (32 * 1024)

#endif

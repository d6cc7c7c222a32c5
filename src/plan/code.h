/* SPDX-License-Identifier: MIT */
/*
 * The code in a plan, and how the session finishes it. compile() leaves
 * two things symbolic in each program's instructions:
 *
 *   map references     ld_imm64, src_reg BPF_PSEUDO_MAP_FD (or
 *                      BPF_PSEUDO_MAP_VALUE: its first value), imm: the
 *                      map's index in plan.maps.bpf
 *   load-time values   src_reg BPF_PSEUDO_LOAD_CONST, imm: enum load_const
 *
 * plan_bpf_resolve() puts the session's map fds and values in, on a copy, right
 * before the program loads.
 */
#ifndef LANTERN_PLAN_CODE_H
#define LANTERN_PLAN_CODE_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Values the session knows only when it loads the programs. In the code,
 * an instruction that takes one has its id as imm and src_reg
 * BPF_PSEUDO_LOAD_CONST (as a map reference has BPF_PSEUDO_MAP_FD and the
 * map's index): an ld_imm64 for 64-bit values, or an ALU or jump
 * instruction with an immediate operand for those that fit in 32 bits
 * (codegen/ir.h: LD_CONST, MOV64_CONST, JMP_CONST). The kernel refuses the
 * marker.
 */
enum load_const {
	LC_CPID,     /* the -c child's pid */
	LC_START_NS, /* CLOCK_MONOTONIC when the session started (`elapsed`) */
	LC_SELF_PID, /* lantern's own pid */
	LC_NCPUS,    /* the possible CPUs (per-CPU map values) */
	LC_TAI_OFFSET, /* CLOCK_TAI - CLOCK_BOOTTIME (nsecs(sw_tai)) */
	LC_COUNT_
};
#define BPF_PSEUDO_LOAD_CONST 15
const char *plan_load_const_name(enum load_const c);

/*
 * A program with subprograms (the bodies of for loops, run by
 * bpf_loop and bpf_for_each_map_elem): where each function starts and
 * what it is. The kernel takes a callback only with a BTF description of
 * every function (func_info), which the loader makes of these.
 */
enum code_func_kind {
	FUNC_MAIN,    /* the program: int (void *ctx) */
	FUNC_LOOP_CB, /* bpf_loop's callback: long (u64 index, void *ctx) */
	FUNC_MAP_CB,  /* bpf_for_each_map_elem's: long (void *map, void *key, void *value, void *ctx) */
};
struct code_func {
	uint32_t insn;
	enum code_func_kind kind;
};

/*
 * Put the session's values into a program's code: map index i becomes
 * map_fds[i], load-time value c becomes values[c]. -1 if the code names a
 * map or value that is not there.
 */
int plan_bpf_resolve(struct bpf_insn *insns, int n, const int *map_fds, size_t nmaps,
		const int64_t *values);

#endif

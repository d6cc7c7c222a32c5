/* SPDX-License-Identifier: MIT */
/*
 * Direct bpf(2) calls for creating maps and loading programs. libbpf's
 * wrappers probe the kernel's features with test programs first, which costs
 * more than lantern's whole compile; these pass exactly what they are given.
 */
#ifndef LANTERN_SYS_BPFSYS_H
#define LANTERN_SYS_BPFSYS_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fd, or -1 with errno */
int sys_map_create(enum bpf_map_type type, const char *name, uint32_t key_size,
		   uint32_t value_size, uint32_t max_entries);
/*
 * A program of several functions (the program and subprograms it calls
 * or that helpers call back): the kernel takes it only with a BTF
 * description of each (func_info). A function takes nargs arguments,
 * each a u64 or a pointer, and returns a long.
 */
struct sys_func {
	uint32_t insn; /* where it starts */
	uint8_t nargs;
	bool main;     /* the program itself (global); the others are static */
};
struct sys_prog_btf {
	int fd; /* the BTF (sys_btf_funcs) */
	struct bpf_func_info *info;
	uint32_t n;
};
/* Load the BTF of n functions into the kernel and describe them in out (n entries): 0 or -1 */
int sys_btf_funcs(const struct sys_func *funcs, uint32_t n, struct sys_prog_btf *out);

/* attach_type, attach_btf_id: for tracing programs (fentry, fexit), else 0; btf: NULL
   for a program of one function */
int sys_prog_load(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
		  uint32_t n, uint32_t attach_type, uint32_t attach_btf_id,
		  const struct sys_prog_btf *btf, char *log, size_t log_size);
/* The same, with the verifier's statistics in log (BPF_LOG_STATS): -vv */
int sys_prog_load_stats(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
			uint32_t n, uint32_t attach_type, uint32_t attach_btf_id,
			const struct sys_prog_btf *btf, char *log, size_t log_size);

/* A kernel object's name for name: "lt_" and what fits of it ("@" dropped). */
void sys_bpf_obj_name(char *out, size_t n, const char *name);

#endif

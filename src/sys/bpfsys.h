/* SPDX-License-Identifier: MIT */
/*
 * Direct bpf(2) calls for creating maps and loading programs. libbpf's
 * wrappers probe the kernel's features with test programs first, which costs
 * more than lantern's whole compile; these pass exactly what they are given.
 */
#ifndef LANTERN_SYS_BPFSYS_H
#define LANTERN_SYS_BPFSYS_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/* fd, or -1 with errno */
int sys_map_create(enum bpf_map_type type, const char *name, uint32_t flags, uint32_t key_size,
		   uint32_t value_size, uint32_t max_entries);
/* attach_type, attach_btf_id: for tracing programs (fentry, fexit), else 0 */
int sys_prog_load(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
		  uint32_t n, uint32_t attach_type, uint32_t attach_btf_id, char *log,
		  size_t log_size);
/* The same, with the verifier's statistics in log (BPF_LOG_STATS): -vv */
int sys_prog_load_stats(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
			uint32_t n, uint32_t attach_type, uint32_t attach_btf_id, char *log,
			size_t log_size);

/*
 * A program with subprograms: the BTF that describes its functions (loaded
 * with sys_btf_load()) and where each begins (struct bpf_func_info[n]).
 */
struct sys_prog_funcs {
	int btf_fd;
	const void *func_info;
	uint32_t n;
};
/* The same as sys_prog_load(), with funcs (NULL: none) and the log's level (1, 2, 4: stats) */
int sys_prog_load_funcs(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns, uint32_t n,
			uint32_t attach_type, uint32_t attach_btf_id, const struct sys_prog_funcs *funcs,
			char *log, size_t log_size, int level);
/* BTF data into the kernel: its fd, or -1 (errno; log says why when given) */
int sys_btf_load(const void *data, uint32_t size, char *log, size_t log_size);

/* A kernel object's name for name: "lt_" and what fits of it ("@" dropped). */
void sys_bpf_obj_name(char *out, size_t n, const char *name);

#endif

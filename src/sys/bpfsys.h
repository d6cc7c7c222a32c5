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
int sys_map_create(enum bpf_map_type type, const char *name, uint32_t key_size,
		   uint32_t value_size, uint32_t max_entries);
/* attach_type, attach_btf_id: for tracing programs (fentry, fexit), else 0 */
int sys_prog_load(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
		  uint32_t n, uint32_t attach_type, uint32_t attach_btf_id, char *log,
		  size_t log_size);
/* The same, with the verifier's statistics in log (BPF_LOG_STATS): -vv */
int sys_prog_load_stats(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
			uint32_t n, uint32_t attach_type, uint32_t attach_btf_id, char *log,
			size_t log_size);

/* A kernel object's name for name: "lt_" and what fits of it ("@" dropped). */
void sys_bpf_obj_name(char *out, size_t n, const char *name);

#endif

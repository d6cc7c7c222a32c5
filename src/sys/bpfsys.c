// SPDX-License-Identifier: MIT
#include "sys/bpfsys.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int fd;

	do
		fd = syscall(__NR_bpf, cmd, attr, sizeof(*attr));
	while (fd < 0 && errno == EAGAIN && cmd == BPF_PROG_LOAD);
	return fd;
}

int sys_map_create(enum bpf_map_type type, const char *name, uint32_t flags, uint32_t key_size,
		   uint32_t value_size, uint32_t max_entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	attr.map_flags = flags;
	strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

int sys_prog_load_funcs(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns, uint32_t n,
			uint32_t attach_type, uint32_t attach_btf_id, const struct sys_prog_funcs *funcs,
			char *log, size_t log_size, int level)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.expected_attach_type = attach_type;
	attr.attach_btf_id = attach_btf_id;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = n;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
	if (log && log_size) {
		attr.log_buf = (uint64_t)(uintptr_t)log;
		attr.log_size = log_size;
		attr.log_level = level;
	}
	if (funcs && funcs->n) {
		attr.prog_btf_fd = funcs->btf_fd;
		attr.func_info = (uint64_t)(uintptr_t)funcs->func_info;
		attr.func_info_cnt = funcs->n;
		attr.func_info_rec_size = sizeof(struct bpf_func_info);
	}
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

int sys_btf_load(const void *data, uint32_t size, char *log, size_t log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uint64_t)(uintptr_t)data;
	attr.btf_size = size;
	if (log && log_size) {
		attr.btf_log_buf = (uint64_t)(uintptr_t)log;
		attr.btf_log_size = log_size;
		attr.btf_log_level = 1;
	}
	return sys_bpf(BPF_BTF_LOAD, &attr);
}

int sys_prog_load(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
		  uint32_t n, uint32_t attach_type, uint32_t attach_btf_id, char *log,
		  size_t log_size)
{
	return sys_prog_load_funcs(type, name, insns, n, attach_type, attach_btf_id, NULL, log, log_size, 1);
}

int sys_prog_load_stats(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
			uint32_t n, uint32_t attach_type, uint32_t attach_btf_id, char *log,
			size_t log_size)
{
	return sys_prog_load_funcs(type, name, insns, n, attach_type, attach_btf_id, NULL, log, log_size,
				   4 /* BPF_LOG_STATS */);
}

void sys_bpf_obj_name(char *out, size_t n, const char *name)
{
	/* BPF object names: 15 characters of [A-Za-z0-9_.] */
	size_t k = 0;

	for (const char *p = "lt_"; *p && k + 1 < n; p++)
		out[k++] = *p;
	for (const char *p = name + (*name == '@'); *p && k + 1 < n && k < 15; p++)
		out[k++] = (isalnum((unsigned char)*p) || *p == '_' || *p == '.') ? *p : '_';
	out[k] = 0;
}

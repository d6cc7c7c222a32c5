// SPDX-License-Identifier: MIT
#include "sys/bpfsys.h"

#include <bpf/btf.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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

int sys_map_create(enum bpf_map_type type, const char *name, uint32_t key_size,
		   uint32_t value_size, uint32_t max_entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

int sys_btf_funcs(const struct sys_func *funcs, uint32_t n, struct sys_prog_btf *out)
{
	struct btf *btf = btf__new_empty();
	int t_long, t_ptr, rc = -1;
	char name[32];

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!btf)
		return -1;
	t_long = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	t_ptr = btf__add_ptr(btf, 0);
	out->info = calloc(n ? n : 1, sizeof(*out->info));
	if (t_long < 0 || t_ptr < 0 || !out->info)
		goto done;
	for (uint32_t i = 0; i < n; i++) {
		int proto = btf__add_func_proto(btf, t_long), fn;
		if (proto < 0)
			goto done;
		for (uint8_t a = 0; a < funcs[i].nargs; a++) {
			snprintf(name, sizeof(name), "a%u", a);
			if (btf__add_func_param(btf, name, t_ptr) < 0)
				goto done;
		}
		snprintf(name, sizeof(name), funcs[i].main ? "lt_prog" : "lt_sub%u", i);
		fn = btf__add_func(btf, name, funcs[i].main ? BTF_FUNC_GLOBAL : BTF_FUNC_STATIC, proto);
		if (fn < 0)
			goto done;
		out->info[i] = (struct bpf_func_info){ .insn_off = funcs[i].insn, .type_id = (uint32_t)fn };
	}
	if (btf__load_into_kernel(btf) < 0)
		goto done;
	out->fd = fcntl(btf__fd(btf), F_DUPFD_CLOEXEC, 3);
	out->n = n;
	rc = out->fd < 0 ? -1 : 0;
done:
	btf__free(btf);
	if (rc < 0) {
		free(out->info);
		out->info = NULL;
	}
	return rc;
}

static int prog_load(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns, uint32_t n,
		     uint32_t attach_type, uint32_t attach_btf_id, const struct sys_prog_btf *btf,
		     char *log, size_t log_size, int level)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	if (btf) {
		attr.prog_btf_fd = (uint32_t)btf->fd;
		attr.func_info = (uint64_t)(uintptr_t)btf->info;
		attr.func_info_cnt = btf->n;
		attr.func_info_rec_size = sizeof(struct bpf_func_info);
	}
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
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

int sys_prog_load(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
		  uint32_t n, uint32_t attach_type, uint32_t attach_btf_id,
		  const struct sys_prog_btf *btf, char *log, size_t log_size)
{
	return prog_load(type, name, insns, n, attach_type, attach_btf_id, btf, log, log_size, 1);
}

int sys_prog_load_stats(enum bpf_prog_type type, const char *name, const struct bpf_insn *insns,
			uint32_t n, uint32_t attach_type, uint32_t attach_btf_id,
			const struct sys_prog_btf *btf, char *log, size_t log_size)
{
	return prog_load(type, name, insns, n, attach_type, attach_btf_id, btf, log, log_size,
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

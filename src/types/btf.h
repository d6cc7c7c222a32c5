/* SPDX-License-Identifier: MIT */
/*
 * Kernel types from BTF (/sys/kernel/btf/vmlinux, then the modules'),
 * through libbpf's btf API. Nothing is read until a script names a kernel
 * type; then the BTF is parsed once and only the types asked for are
 * converted: a struct with its members (embedded structs and arrays too),
 * but a pointer's target only when it is followed (type_elem).
 *
 * Conversion, as bpftrace sees kernel types: integers of 1, 2, 4, 8 bytes
 * (bool, char and enums among them; enums as unsigned or signed ints), char
 * arrays as strings (read_size = their length), other arrays, structs and
 * unions with anonymous members and bitfields, pointers; typedefs,
 * const, volatile and type tags are looked through; anything else (floats,
 * 128-bit integers) becomes an array of bytes of its size.
 *
 * LANTERN_BTF=PATH reads a raw BTF file instead of the kernel's (tests use
 * a missing one to check that the absence is reported).
 */
#ifndef LANTERN_TYPES_BTF_H
#define LANTERN_TYPES_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "types/type.h"

struct btf;

/* One BTF object: vmlinux's, or a module's (split: its ids follow vmlinux's). */
struct btf_obj {
	char name[64]; /* "vmlinux", or the module's */
	struct btf *btf;
	struct type **types; /* converted, by id */
	uint32_t ntypes;
};

struct btf_src {
	struct type_src src; /* resolves lazy pointer targets */
	struct arena *arena; /* where converted types live */
	struct btf_obj *objs; /* [0] vmlinux, then modules once vmlinux lacks a name */
	uint32_t nobjs;
	bool tried, mods_read;
	char err[256]; /* why there is no BTF */
	bool err_said; /* a message gave err already */
};

/*
 * The byte offsets of members names[0..n) of struct sname in vmlinux's
 * BTF, read from the mapped file without parsing all of it (btf_scan.c):
 * lantern trace needs three of task_struct's, and has them in ~1 ms where
 * the whole BTF takes ~10 (a copy of its 5 MB, an index of its 150,000
 * types). Members of the struct itself, not of its anonymous members, nor
 * bitfields. 0, or -1 when it cannot tell (a kernel that does not map the
 * file, before 6.15; LANTERN_BTF; no such struct or member): ask
 * types_btf_src_named() then.
 */
int types_btf_vmlinux_offsets(const char *sname, const char *const *names, uint32_t *offs, size_t n);

void types_btf_src_init(struct btf_src *b, struct arena *a);
void types_btf_src_free(struct btf_src *b);
/* Parse the kernel's BTF on first use; false, with b->err, when there is none. */
bool types_btf_src_load(struct btf_src *b);
/*
 * The kernel type named name: tag "struct", "union" or "enum", or NULL for
 * a typedef or a base type ("u64", "pid_t", "unsigned int"). NULL when BTF
 * has no such type (or there is no BTF: see b->err).
 */
struct type *types_btf_src_named(struct btf_src *b, const char *tag, const char *name);
/* A function's parameter or return value, as BTF types them. */
struct func_param {
	const char *name;
	struct type *type;
};

#define BTF_MAX_PARAMS 12 /* what a tracing program can read (MAX_BPF_FUNC_ARGS) */

/* A kernel function's prototype: its BTF id, parameters and return type. */
struct btf_func {
	uint32_t id; /* of the FUNC, for attach_btf_id */
	struct func_param params[BTF_MAX_PARAMS];
	uint32_t nparams;
	struct type *ret; /* void for none */
};

/*
 * The prototype of kernel function name (typedef: the function pointer
 * typedef name, as btf_trace_<tracepoint> is). false when BTF has none.
 */
bool types_btf_src_func(struct btf_src *b, const char *name, bool typedef_ptr, struct btf_func *out);
/* fn(name, arg) for every kernel function (vmlinux) whose name matches pattern ('*', '?'). */
int types_btf_src_funcs(struct btf_src *b, const char *pattern, int (*fn)(const char *name, void *arg),
		  void *arg);

/*
 * The definition of kernel type TAG NAME (tag "struct", "union" or
 * "enum") as C writes it, its members one a line, into out (-lv 'struct
 * task_struct'); false when BTF has none.
 */
bool types_btf_src_describe(struct btf_src *b, const char *tag, const char *name,
			    struct strbuf *out);
/*
 * fn(obj, name, id, arg) for every function of vmlinux's BTF, then (with
 * modules) of every module's ("vmlinux" or the module's name in obj), until
 * fn returns non-zero, which it returns; -1 without BTF.
 */
int types_btf_src_each_func(struct btf_src *b, bool modules,
			    int (*fn)(const char *obj, const char *name, uint32_t id, void *arg),
			    void *arg);
/*
 * The BTF id of vmlinux's per-CPU variable name (a VAR of its .data..percpu
 * section: ld_imm64 with BPF_PSEUDO_BTF_ID names it to the kernel); false
 * if BTF has none.
 */
bool types_btf_src_percpu_var(struct btf_src *b, const char *name, uint32_t *id);
/* The value of the kernel enum constant name (TASK_COMM_LEN, ...) and its enum's type; false if none. */
bool types_btf_src_enum_value(struct btf_src *b, const char *name, int64_t *value,
			      struct type **type);
#endif

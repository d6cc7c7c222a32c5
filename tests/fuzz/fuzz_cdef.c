// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a script's preamble -- C definitions (types/cdef.c),
 * #define and #if (their constant expressions: types/cexpr.c), #include
 * and the headers it names (types/env.c reads their #defines) -- as the
 * front end cuts it (lex_cdef, lex_directive) and sema_preamble() takes
 * it; then what a script does with the types and constants it defined:
 * look them up, follow their members and pointers, name constants.
 *
 * The input: the script, then optionally a NUL and the text of a header,
 * written to fuzz.h in a directory of its own that is -I's (so that
 * `#include "fuzz.h"` and `#include <fuzz.h>` read it; it may #include
 * others, the system's among them). Kernel types come from a small BTF
 * file the target writes at start (LANTERN_BTF): a lookup in the
 * kernel's scans its 100000 types, and the kernel is not what is fuzzed.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "parse/parser.h"
#include "plan/plan.h"
#include "sema/sema.h"
#include "types/env.h"

static char dir[256], header[300], btf_path[300];
static const char *include_dirs[1];

static void remove_dir(void)
{
	unlink(header);
	unlink(btf_path);
	rmdir(dir);
}

/* A few kernel types and enum constants, as a script's definitions meet them */
static void write_btf(void)
{
	struct btf *b = btf__new_empty();
	const void *raw;
	uint32_t size;
	FILE *f;

	int s32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int u32 = btf__add_int(b, "unsigned int", 4, 0);
	int u64 = btf__add_int(b, "long long unsigned int", 8, 0);
	int u16 = btf__add_int(b, "short unsigned int", 2, 0);
	int chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	int ul = btf__add_int(b, "long unsigned int", 8, 0);
	btf__add_typedef(b, "u32", u32);
	btf__add_typedef(b, "__u64", u64);
	btf__add_typedef(b, "size_t", ul);
	int pid = btf__add_typedef(b, "pid_t", s32);
	/* a struct's fields follow it; pointers to it come right after them */
	int idx = btf__add_array(b, s32, chr, 16);
	int list = btf__add_struct(b, "list_head", 16);
	btf__add_field(b, "next", list + 1, 0, 0);
	btf__add_field(b, "prev", list + 1, 64, 0);
	btf__add_ptr(b, list);
	int task = btf__add_struct(b, "task_struct", 48);
	btf__add_field(b, "pid", pid, 0, 0);
	btf__add_field(b, "flags", u32, 32, 3);
	btf__add_field(b, "comm", idx, 64, 0);
	btf__add_field(b, "parent", task + 1, 192, 0);
	btf__add_field(b, "tasks", list, 256, 0);
	btf__add_ptr(b, task);
	btf__add_struct(b, "load_weight", 16);
	btf__add_field(b, "weight", ul, 0, 0);
	btf__add_field(b, "inv_weight", u32, 64, 0);
	btf__add_union(b, "sock_addr", 8);
	btf__add_field(b, "v4", u32, 0, 0);
	btf__add_field(b, "family", u16, 0, 0);
	btf__add_fwd(b, "sock", BTF_FWD_STRUCT);
	btf__add_enum(b, "sock_type", 4);
	btf__add_enum_value(b, "SOCK_STREAM", 1);
	btf__add_enum_value(b, "SOCK_DGRAM", 2);
	btf__add_enum(b, "", 4);
	btf__add_enum_value(b, "TASK_RUNNING", 0);
	btf__add_enum_value(b, "AF_INET6", 10);
	raw = btf__raw_data(b, &size);
	if (!raw || !(f = fopen(btf_path, "we")) || fwrite(raw, 1, size, f) != size ||
	    fclose(f) != 0)
		abort();
	btf__free(b);
	setenv("LANTERN_BTF", btf_path, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/lantern-fuzz-cdef.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		exit(1);
	}
	snprintf(header, sizeof(header), "%s/fuzz.h", dir);
	snprintf(btf_path, sizeof(btf_path), "%s/btf", dir);
	include_dirs[0] = dir;
	atexit(remove_dir);
	write_btf();
	return 0;
}

static void put_header(const uint8_t *data, size_t size)
{
	FILE *f = fopen(header, "we");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
}

/* What a script reaches from a type: members by name, pointer targets (resolved now), elements */
static void walk(struct type *t, int depth, int *budget)
{
	if (!t || depth > 4 || --*budget < 0)
		return;
	switch (t->kind) {
	case TY_PTR:
		type_step(t);
		walk(type_elem(t), depth + 1, budget);
		break;
	case TY_ARRAY:
		walk(t->elem, depth + 1, budget);
		break;
	case TY_RECORD:
		for (uint32_t i = 0; i < t->nfields; i++) {
			uint32_t off;
			type_field(t, t->fields[i].name, &off);
			walk(t->fields[i].type, depth + 1, budget);
		}
		break;
	default:
		break;
	}
}

/* The script's types and constants, and the identifiers of its text as names of either */
static void use(struct type_env *env, const char *text)
{
	size_t ntypes = env->types.len;
	int budget = 1000, names = 0;

	for (size_t i = 0; i < ntypes; i++) {
		struct named_type nt = env->types.data[i];
		walk(type_env_lookup(env, nt.tag, nt.name), 0, &budget);
	}
	for (const char *p = text; *p && names < 32;) {
		char name[64];
		size_t n = 0;
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		while ((isalnum((unsigned char)*p) || *p == '_') && n + 1 < sizeof(name))
			name[n++] = *p++;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		name[n] = 0;
		names++;
		type_env_constant(env, name);
		if (names <= 8)
			walk(type_env_lookup(env, NULL, name), 0, &budget);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compile_opts o = { .script_name = "fuzz" };
	const uint8_t *nul = memchr(data, 0, size);
	size_t len = nul ? (size_t)(nul - data) : size;
	struct plan p;

	if (size > 64 * 1024)
		return 0;
	o.script = malloc(len + 1);
	memcpy(o.script, data, len);
	o.script[len] = 0;
	put_header(nul ? nul + 1 : data, nul ? size - len - 1 : 0);
	plan_init(&p, &o);
	vec_push(&p.types.include_dirs, include_dirs[0]);
	p.ast = parse_program(&p.arena, &p.src, &p.diag);
	if (p.ast) {
		sema_preamble(&p);
		use(&p.types, o.script);
	}
	plan_free(&p);
	free(o.script);
	return 0;
}

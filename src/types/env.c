// SPDX-License-Identifier: MIT
/* The names a script's types and constants come from: see env.h. */
#include "types/env.h"
#include "base/util.h"
#include "types/cexpr.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct type *resolve_named(struct type_src *src, uint32_t id)
{
	struct type_env *env = (struct type_env *)((char *)src - offsetof(struct type_env, named));
	struct lazy_name ln = env->lazy.data[id];
	struct type *t;

	if (ln.depth > 1)
		return type_env_lazy_ptr(env, ln.tag, ln.name, ln.depth - 1, ln.user);
	t = type_env_lookup(env, ln.tag, ln.name);
	return t && t->kind != TY_VOID ? t : &ty_u8;
}

void type_env_init(struct type_env *env, struct arena *a)
{
	memset(env, 0, sizeof(*env));
	env->arena = a;
	env->named.resolve = resolve_named;
	types_btf_src_init(&env->btf, a);
}

struct type *type_env_lazy_ptr(struct type_env *env, const char *tag, const char *name,
			       uint32_t depth, bool user)
{
	struct lazy_name ln = { tag, name, depth, user };

	vec_push(&env->lazy, ln);
	return type_ptr_lazy(env->arena, &env->named, env->lazy.len - 1, user);
}

void type_env_free(struct type_env *env)
{
	vec_foreach(&env->dwarf, d) types_dwarf_src_free(*d);
	vec_free(&env->dwarf);
	types_btf_src_free(&env->btf);
	vec_free(&env->types);
	vec_free(&env->consts);
	vec_free(&env->includes);
	vec_free(&env->include_dirs);
	vec_free(&env->lazy);
}

void type_env_add_type(struct type_env *env, const char *tag, const char *name, struct type *t)
{
	struct named_type nt = { tag, name, t };
	vec_push(&env->types, nt);
}

void type_env_add_const(struct type_env *env, const char *name, int64_t value, const char *str)
{
	struct constant c = { name, value, str, NULL };
	vec_push(&env->consts, c);
}

void type_env_add_enum_const(struct type_env *env, const char *name, int64_t value, struct type *t)
{
	struct constant c = { name, value, NULL, t };
	vec_push(&env->consts, c);
}

struct type *type_base(const char *name)
{
	static const struct {
		const char *name;
		struct type *t;
	} names[] = {
		{ "int8", &ty_s8 },
		{ "int16", &ty_s16 },
		{ "int32", &ty_s32 },
		{ "int64", &ty_s64 },
		{ "uint8", &ty_u8 },
		{ "uint16", &ty_u16 },
		{ "uint32", &ty_u32 },
		{ "uint64", &ty_u64 },
		{ "u8", &ty_u8 },
		{ "u16", &ty_u16 },
		{ "u32", &ty_u32 },
		{ "u64", &ty_u64 },
		{ "s8", &ty_s8 },
		{ "s16", &ty_s16 },
		{ "s32", &ty_s32 },
		{ "s64", &ty_s64 },
		{ "__u8", &ty_u8 },
		{ "__u16", &ty_u16 },
		{ "__u32", &ty_u32 },
		{ "__u64", &ty_u64 },
		{ "__s8", &ty_s8 },
		{ "__s16", &ty_s16 },
		{ "__s32", &ty_s32 },
		{ "__s64", &ty_s64 },
		{ "char", &ty_s8 },
		{ "signed char", &ty_s8 },
		{ "unsigned char", &ty_u8 },
		{ "short", &ty_s16 },
		{ "short int", &ty_s16 },
		{ "signed short", &ty_s16 },
		{ "unsigned short", &ty_u16 },
		{ "unsigned short int", &ty_u16 },
		{ "int", &ty_s32 },
		{ "signed", &ty_s32 },
		{ "signed int", &ty_s32 },
		{ "unsigned", &ty_u32 },
		{ "unsigned int", &ty_u32 },
		{ "long", &ty_s64 },
		{ "long int", &ty_s64 },
		{ "signed long", &ty_s64 },
		{ "unsigned long", &ty_u64 },
		{ "unsigned long int", &ty_u64 },
		{ "long long", &ty_s64 },
		{ "long long int", &ty_s64 },
		{ "signed long long", &ty_s64 },
		{ "unsigned long long", &ty_u64 },
		{ "unsigned long long int", &ty_u64 },
		{ "bool", &ty_u8 },
		{ "_Bool", &ty_u8 },
		{ "void", &ty_void },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i].name))
			return names[i].t;
	return NULL;
}

struct type *type_env_lookup(struct type_env *env, const char *tag, const char *name)
{
	struct type *t;

	vec_foreach(&env->types, nt)
	{
		if (!strcmp(nt->name, name) && (tag ? nt->tag && !strcmp(nt->tag, tag) : !nt->tag))
			return nt->type;
	}
	if (!tag && (t = type_base(name)))
		return t;
	vec_foreach(&env->dwarf, d)
	{
		if ((t = types_dwarf_src_named(*d, tag, name)))
			return t;
	}
	return types_btf_src_named(&env->btf, tag, name);
}

struct dwarf_src *type_env_dwarf(struct type_env *env, const char *path)
{
	struct dwarf_src *d;

	vec_foreach(&env->dwarf, dp)
	{
		if (!strcmp((*dp)->path, path))
			return *dp;
	}
	d = ARENA_NEW(env->arena, struct dwarf_src);
	types_dwarf_src_init(d, env->arena, arena_strdup(env->arena, path));
	d->find = env->dwarf_find;
	vec_push(&env->dwarf, d);
	return d;
}

/*
 * Kernel ABI constants that scripts use and BTF does not carry (they are
 * #defines in the kernel's own headers, which are not installed): task
 * states (include/linux/sched.h), address families and socket types
 * (include/linux/socket.h, net.h), task flags.
 */
static const struct {
	const char *name;
	int64_t value;
} abi[] = {
	{ "TASK_RUNNING", 0x0000 },
	{ "TASK_INTERRUPTIBLE", 0x0001 },
	{ "TASK_UNINTERRUPTIBLE", 0x0002 },
	{ "__TASK_STOPPED", 0x0004 },
	{ "__TASK_TRACED", 0x0008 },
	{ "EXIT_DEAD", 0x0010 },
	{ "EXIT_ZOMBIE", 0x0020 },
	{ "EXIT_TRACE", 0x0030 },
	{ "TASK_PARKED", 0x0040 },
	{ "TASK_DEAD", 0x0080 },
	{ "TASK_WAKEKILL", 0x0100 },
	{ "TASK_WAKING", 0x0200 },
	{ "TASK_NOLOAD", 0x0400 },
	{ "TASK_NEW", 0x0800 },
	{ "TASK_KILLABLE", 0x0102 },
	{ "TASK_STOPPED", 0x0104 },
	{ "TASK_TRACED", 0x0008 },
	{ "TASK_IDLE", 0x0402 },
	{ "TASK_NORMAL", 0x0003 },
	{ "TASK_REPORT", 0x007f },
	{ "TASK_COMM_LEN", 16 },
	{ "PF_KTHREAD", 0x00200000 },
	{ "AF_UNSPEC", 0 },
	{ "AF_UNIX", 1 },
	{ "AF_LOCAL", 1 },
	{ "AF_INET", 2 },
	{ "AF_INET6", 10 },
	{ "AF_NETLINK", 16 },
	{ "AF_PACKET", 17 },
	{ "AF_VSOCK", 40 },
	{ "SOCK_STREAM", 1 },
	{ "SOCK_DGRAM", 2 },
	{ "SOCK_RAW", 3 },
	{ "SOCK_SEQPACKET", 5 },
	{ "DNAME_INLINE_LEN", 40 },
};

static bool abi_value(const char *name, int64_t *value)
{
	for (size_t i = 0; i < ARRAY_SIZE(abi); i++)
		if (!strcmp(abi[i].name, name)) {
			*value = abi[i].value;
			return true;
		}
	return false;
}

/*
 * Header files: object-like macros "#define NAME integer-expression".
 * A path as it is, else -I's directories, then the system's.
 */
static FILE *open_header(const struct type_env *env, const char *name)
{
	static const char *const dirs[] = { "/usr/include", "/usr/include/x86_64-linux-gnu",
					    "/usr/include/aarch64-linux-gnu", "/usr/local/include" };
	char path[512];

	if (name[0] == '/' || !strncmp(name, "./", 2) || !strncmp(name, "../", 3))
		return fopen(name, "r");
	vec_foreach(&env->include_dirs, dir)
	{
		FILE *f;
		snprintf(path, sizeof(path), "%s/%s", *dir, name);
		if ((f = fopen(path, "r")))
			return f;
	}
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		FILE *f;
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		if ((f = fopen(path, "r")))
			return f;
	}
	return NULL;
}

bool type_env_header_found(const struct type_env *env, const char *name)
{
	FILE *f = open_header(env, name);

	if (f)
		fclose(f);
	return f != NULL;
}

struct macro {
	const char *name, *text;
	enum { MACRO_NEW, MACRO_BUSY, MACRO_VALUE, MACRO_NONE } state; /* evaluated once */
	int64_t value;
};

struct macro_scan {
	struct type_env *env;
	VEC(struct macro) macros;
	VEC(const char *) seen;
	int depth;     /* macros inside macros, at most 16 */
	bool too_deep; /* an evaluation stopped there: its failure is not the macro's own */
};

static bool abi_value(const char *name, int64_t *value);

static void scan_header(struct macro_scan *ms, const char *name, int depth)
{
	char line[1024];
	FILE *f;

	vec_foreach(&ms->seen, s)
	{
		if (!strcmp(*s, name))
			return;
	}
	vec_push(&ms->seen, arena_strdup(ms->env->arena, name));
	if (!(f = open_header(ms->env, name)))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *n, *v;
		while (isspace((unsigned char)*p))
			p++;
		if (*p++ != '#')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		/* nested includes, as deep as the headers go (seen stops cycles) */
		if (!strncmp(p, "include", 7) && depth < 64) {
			char *lt = strpbrk(p, "<\""), *gt = lt ? strchr(lt + 1, *lt == '<' ? '>' : '"') : NULL;
			if (gt) {
				*gt = 0;
				scan_header(ms, lt + 1, depth + 1);
			}
			continue;
		}
		if (strncmp(p, "define", 6) || !isspace((unsigned char)p[6]))
			continue;
		for (n = p + 6; isspace((unsigned char)*n); n++)
			;
		for (v = n; isalnum((unsigned char)*v) || *v == '_'; v++)
			;
		if (v == n || *v == '(') /* function-like macros are not constants */
			continue;
		*v++ = 0;
		v[strcspn(v, "\n")] = 0;
		if (strstr(v, "/*"))
			*strstr(v, "/*") = 0;
		struct macro m = { arena_strdup(ms->env->arena, n), arena_strdup(ms->env->arena, v) };
		vec_push(&ms->macros, m);
	}
	fclose(f);
}

static bool header_name(void *ctx, const char *name, int64_t *value);

/*
 * Whether macro m has a value (m->value). Each macro is evaluated once:
 * macros naming others twice over would take exponential time. One met
 * again while it is being evaluated ("#define SOCK_STREAM SOCK_STREAM")
 * has none.
 */
static bool macro_value(struct macro_scan *ms, struct macro *m)
{
	bool outer = ms->too_deep, ok;

	if (m->state == MACRO_NEW && ms->depth >= 16)
		ms->too_deep = true;
	if (m->state != MACRO_NEW || ms->depth >= 16)
		return m->state == MACRO_VALUE;
	ms->too_deep = false;
	m->state = MACRO_BUSY;
	ms->depth++;
	ok = types_cexpr_eval(m->text, header_name, ms, &m->value);
	ms->depth--;
	/* too deep from here, maybe not from elsewhere: evaluated again then */
	m->state = ok ? MACRO_VALUE : ms->too_deep ? MACRO_NEW : MACRO_NONE;
	ms->too_deep |= outer;
	return ok;
}

/* A name in a header's macro: another macro, the script's constant, the ABI table's. */
static bool header_name(void *ctx, const char *name, int64_t *value)
{
	struct macro_scan *ms = ctx;

	vec_foreach(&ms->macros, m)
	{
		if (!strcmp(m->name, name)) {
			bool ok = macro_value(ms, m);
			*value = m->value;
			return ok;
		}
	}
	vec_foreach(&ms->env->consts, c)
	{
		if (!strcmp(c->name, name) && !c->str) {
			*value = c->value;
			return true;
		}
	}
	return abi_value(name, value);
}

/* The headers' integer macros become constants (the script's stay first). */
static void read_headers(struct type_env *env)
{
	struct macro_scan ms = { .env = env };

	env->headers_read = true;
	vec_foreach(&env->includes, inc) scan_header(&ms, *inc, 0);
	vec_foreach(&ms.macros, m)
	{
		if (macro_value(&ms, m))
			type_env_add_const(env, m->name, m->value, NULL);
	}
	vec_free(&ms.macros);
	vec_free(&ms.seen);
}

const struct constant *type_env_constant(struct type_env *env, const char *name)
{
	int64_t v;

	vec_foreach(&env->consts, c)
	{
		if (!strcmp(c->name, name))
			return c;
	}
	struct type *et = NULL;
	if (types_btf_src_enum_value(&env->btf, name, &v, &et)) {
		type_env_add_enum_const(env, arena_strdup(env->arena, name), v, et);
		return &env->consts.data[env->consts.len - 1];
	}
	if (!env->headers_read && env->includes.len) {
		read_headers(env);
		return type_env_constant(env, name);
	}
	if (abi_value(name, &v)) {
		type_env_add_const(env, arena_strdup(env->arena, name), v, NULL);
		return &env->consts.data[env->consts.len - 1];
	}
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * The types and constants a script can name, in the order they are looked
 * up:
 *
 *   1. its own C definitions and #defines (cdef.c)
 *   2. the base type names: int8 .. uint64, u8 .. s64, char, short, int,
 *      long, unsigned, long long, bool, ...
 *   3. the types of the programs and libraries the script's uprobes probe,
 *      from their debug info (dwarf.c), read when a name is not found before
 *   4. the kernel's types and enum constants, from BTF (btf.c), loaded only
 *      when a name is not found before
 *   5. constants: the object-like macros of the headers the script
 *      #includes when they are installed, else a small table of the
 *      kernel ABI constants scripts use and BTF lacks (abi.c)
 */
#ifndef LANTERN_TYPES_ENV_H
#define LANTERN_TYPES_ENV_H

#include "base/arena.h"
#include "base/vec.h"
#include "types/btf.h"
#include "types/dwarf.h"
#include "types/type.h"

/* A type the script defines: struct NAME, union NAME, enum NAME, or a typedef. */
struct named_type {
	const char *tag; /* "struct", "union", "enum"; NULL for a typedef */
	const char *name;
	struct type *type;
};

/* A constant the script defines (#define, enum member) or a header gives. */
struct constant {
	const char *name;
	int64_t value;
	const char *str; /* a string #define: its text; NULL for integers */
	struct type *type; /* an enum member: its enum's type (NULL: a plain integer) */
};

/* A pointer to a type known by name, looked up when it is first followed. */
struct lazy_name {
	const char *tag, *name;
	uint32_t depth; /* '*'s: a pointer to a pointer to ... */
	bool user;
};

struct type_env {
	struct arena *arena;
	struct btf_src btf;
	struct type_src named; /* resolves lazy_ptr targets */
	VEC(struct lazy_name) lazy;
	VEC(struct named_type) types;
	VEC(struct dwarf_src *) dwarf; /* the debug info of the programs uprobes probe */
	bool (*dwarf_find)(const char *path, char *out, size_t n); /* their dwarf_src.find */
	VEC(struct constant) consts;
	VEC(const char *) includes; /* the headers the script #includes, to read constants from */
	VEC(const char *) include_dirs; /* -I: searched before the system's */
	bool headers_read;
};

void type_env_init(struct type_env *env, struct arena *a);
void type_env_free(struct type_env *env);
/* The type called name (tag: "struct", "union", "enum" or NULL); NULL if none. */
struct type *type_env_lookup(struct type_env *env, const char *tag, const char *name);
/* The base type of a C name ("unsigned long", "u32", "int8"); NULL if it is none. */
struct type *type_base(const char *name);
/* The constant called name: the script's, a kernel enum's, a header's or the ABI table's. */
const struct constant *type_env_constant(struct type_env *env, const char *name);
/* Whether #include <name> finds a file (-I's directories, then the system's). */
bool type_env_header_found(const struct type_env *env, const char *name);
/*
 * A pointer (depth '*'s) to the type called name (tag as above), looked up
 * only when the pointer is followed: naming a tracepoint field's type does
 * not load BTF. An unknown name points to bytes (uint8).
 */
struct type *type_env_lazy_ptr(struct type_env *env, const char *tag, const char *name,
			       uint32_t depth, bool user);
/* The debug info of the program or library at path, added once (read when first asked). */
struct dwarf_src *type_env_dwarf(struct type_env *env, const char *path);
/* Add a type or a constant the script defines. */
void type_env_add_type(struct type_env *env, const char *tag, const char *name, struct type *t);
void type_env_add_const(struct type_env *env, const char *name, int64_t value, const char *str);
/* An enum member the script defines, of the enum type t */
void type_env_add_enum_const(struct type_env *env, const char *name, int64_t value, struct type *t);

#endif

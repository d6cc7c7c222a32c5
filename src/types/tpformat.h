/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint format files: events/CAT/EV/format in tracefs.
 *
 *   name: sys_enter_openat
 *   ID: 782
 *   format:
 *   	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *   	...
 *   	field:const char * filename;	offset:24;	size:8;	signed:0;
 *   	field:char comm[16];	offset:8;	size:16;	signed:0;
 *   	field:__data_loc char[] name;	offset:8;	size:4;	signed:0;
 *
 *   print fmt: "..."
 *
 * The record a tracepoint program gets as its context is laid out exactly as
 * listed: each field at its offset with its size. The offset and size in the
 * file are authoritative; the C type is only a hint for signedness, strings
 * and printing (syscall arguments are all stored as 8-byte longs even when
 * declared `int`).
 *
 * Field shapes on kernel 6.18 (all 2323 format files parse):
 *   scalars:   int, unsigned int, long, u64, bool, pid_t, enum foo,
 *              xfs_ino_t and other typedefs (size from the file)
 *   pointers:  const char *, void *, const void*, const char *const *,
 *              struct robust_list_head * *, void __seg_gs *
 *   arrays:    char comm[16], u8 uuid[16], unsigned long args[6]
 *   flexible:  char buf[], u32 buf[], unsigned long args[] (size 0; only
 *              in the "ftrace" category, which is not attachable)
 *   dynamic:   __data_loc char[] name, __data_loc u64[] x,
 *              __data_loc unsigned int[] x, __data_loc cpumask_t mask
 * and, on other kernels, __rel_loc (offset relative to the field's end).
 */
#ifndef LANTERN_TYPES_TPFORMAT_H
#define LANTERN_TYPES_TPFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

struct tp_field {
	char *name;  /* "filename" */
	char *decl;  /* as the file writes it: "char comm[16]", "const void* ip" */
	char *ctype; /* type alone: "const char *", "char[16]", "__data_loc char[]" */
	char *base;  /* ctype without qualifiers, '*' and dimensions: "char",
			"unsigned long", "struct iovec", "cpumask_t" */
	uint32_t offset, size;
	bool is_signed;	    /* signed integer, or array of them */
	bool is_common;	    /* common_type, common_pid, ... */
	bool is_data_loc;   /* __data_loc: u32 at offset, (len << 16 | data offset
			     from the record start) */
	bool is_rel_loc;    /* __rel_loc: u32 at offset, (len << 16 | data offset
			     from the end of this u32) */
	bool is_pointer;    /* ptr_depth > 0 */
	bool is_user;	    /* the pointer is to user memory: syscalls:* pointer
			     arguments, or `__user` in the type */
	bool is_array;	    /* fixed ("[16]") or flexible ("[]") array */
	bool is_string;	    /* text: a char array, __data_loc/__rel_loc char[],
			     or a char pointer (str() reads it) */
	uint8_t ptr_depth;  /* "const char *const *" -> 2 */
	uint32_t array_len; /* char comm[16] -> 16; 0 when not an array or flexible */
	uint32_t elem_size; /* array/dynamic element size (0: unknown); else size */
};

struct tp_format {
	char *category; /* NULL after types_tp_format_parse() until set */
	char *event;
	uint32_t id;
	struct tp_field *fields; /* in file order, common_* first */
	uint32_t nfields;
};

/*
 * Parse format text. Unknown lines are ignored; a field line that cannot be
 * read is an error naming its line. Returns 0, or -EINVAL with err filled
 * (out is then empty and need not be freed, though freeing is harmless).
 */
int types_tp_format_parse(const char *text, struct tp_format *out, char *err, size_t errlen);

/*
 * Set the category and apply what depends on it: in "syscalls" every
 * pointer argument is a user pointer (as bpftrace treats them).
 */
void types_tp_format_set_category(struct tp_format *f, const char *cat);

/*
 * Read and parse events/CAT/EV/format from tracefs. -ENOENT when the
 * tracepoint does not exist (err says so; sys_tracefs_suggest() can propose
 * names), other negative errnos on failure.
 */
int types_tp_format_load(const char *cat, const char *ev, struct tp_format *out, char *err,
		   size_t errlen);

/* The field called name, or NULL. */
const struct tp_field *types_tp_format_field(const struct tp_format *f, const char *name);

void types_tp_format_free(struct tp_format *f);

/*
 * `bpftrace -lv` presentation: the probe line, then one line per non-common
 * field, indented by four spaces, as declared in the file:
 *
 *   tracepoint:syscalls:sys_enter_openat
 *       int __syscall_nr
 *       const char * filename
 */
void types_tp_field_describe(const struct tp_field *fld, struct strbuf *sb); /* "    decl\n" */
void types_tp_format_describe(const struct tp_format *f, struct strbuf *sb);

#endif

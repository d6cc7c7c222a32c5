// SPDX-License-Identifier: MIT
/*
 * One field declaration of a format file, "field:<decl>;", split into name
 * and type, and the type classified: pointer depth, array dimensions,
 * __data_loc/__rel_loc, the base type, signedness and element size.
 *
 *   const char * filename         ptr 1, base "char", string
 *   char comm[16]                 array 16 x 1, base "char", string
 *   __data_loc char[] name        dynamic, base "char", string
 *   unsigned long args[6]         array 6 x 8, base "unsigned long"
 *   void __seg_gs * ptr           ptr 1, base "void"
 */
#include "types/tp_decl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"

struct known_type {
	const char *name;
	uint8_t size;
	bool is_signed;
};

/*
 * Base types whose size and sign lantern knows without BTF. Signedness from
 * here overrides signed:0 in the file: syscall arguments are stored as
 * unsigned longs, so `int dfd` says signed:0 but is a signed int (bpftrace
 * reads it as int64). Plain char is absent: the kernel builds with
 * -funsigned-char, so the file's word is the right one.
 */
static const struct known_type known_types[] = {
	{"bool", 1, false},
	{"_Bool", 1, false},
	{"char", 1, false},
	{"signed char", 1, true},
	{"unsigned char", 1, false},
	{"u8", 1, false},
	{"s8", 1, true},
	{"__u8", 1, false},
	{"__s8", 1, true},
	{"uint8_t", 1, false},
	{"int8_t", 1, true},
	{"short", 2, true},
	{"short int", 2, true},
	{"unsigned short", 2, false},
	{"u16", 2, false},
	{"s16", 2, true},
	{"__u16", 2, false},
	{"__s16", 2, true},
	{"uint16_t", 2, false},
	{"int16_t", 2, true},
	{"int", 4, true},
	{"signed", 4, true},
	{"signed int", 4, true},
	{"unsigned", 4, false},
	{"unsigned int", 4, false},
	{"u32", 4, false},
	{"s32", 4, true},
	{"__u32", 4, false},
	{"__s32", 4, true},
	{"uint32_t", 4, false},
	{"int32_t", 4, true},
	{"pid_t", 4, true},
	{"uid_t", 4, false},
	{"gid_t", 4, false},
	{"clockid_t", 4, true},
	{"timer_t", 4, true},
	{"mqd_t", 4, true},
	{"key_t", 4, true},
	{"key_serial_t", 4, true},
	{"long", 8, true},
	{"long int", 8, true},
	{"unsigned long", 8, false},
	{"long long", 8, true},
	{"unsigned long long", 8, false},
	{"u64", 8, false},
	{"s64", 8, true},
	{"__u64", 8, false},
	{"__s64", 8, true},
	{"uint64_t", 8, false},
	{"int64_t", 8, true},
	{"size_t", 8, false},
	{"ssize_t", 8, true},
	{"loff_t", 8, true},
	{"off_t", 8, true},
	{"time64_t", 8, true},
};

static const struct known_type *known(const char *base)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_types); i++)
		if (!strcmp(known_types[i].name, base))
			return &known_types[i];
	return NULL;
}

/* Words that qualify a type without changing what it is. */
static bool is_qualifier(const char *w, size_t n)
{
	static const char *const quals[] = {"const",	"volatile", "__user",	 "__iomem",
					    "__percpu", "__rcu",    "__force",	 "__seg_gs",
					    "__seg_fs", "restrict", "__restrict"};
	for (size_t i = 0; i < ARRAY_SIZE(quals); i++)
		if (strlen(quals[i]) == n && !strncmp(quals[i], w, n))
			return true;
	return false;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return util_xstrndup(s, n);
}

/*
 * Read "[16][4]" at s: the product of the dimensions into *len. *numeric
 * turns false when one is empty or not a number ("[]", "[TASK_COMM_LEN]");
 * *len is then 0, as it is when the product does not fit in 32 bits.
 * Returns the end, or NULL when a '[' is not closed.
 */
static const char *read_dims(const char *s, uint32_t *len, bool *numeric)
{
	uint64_t total = 1;

	*numeric = true;
	while (*s == '[') {
		const char *close = strchr(s, ']');
		uint64_t v = 0;

		if (!close)
			return NULL;
		if (close == s + 1)
			*numeric = false;
		for (const char *d = s + 1; d < close; d++) {
			if (!isdigit((unsigned char)*d)) {
				*numeric = false;
				break;
			}
			v = v * 10 + (*d - '0');
			if (v > UINT32_MAX)
				v = (uint64_t)UINT32_MAX + 1;
		}
		total *= v;
		if (total > UINT32_MAX)
			total = 0;
		s = close + 1;
	}
	*len = *numeric ? (uint32_t)total : 0;
	return s;
}

/*
 * Classify the type text (no name, no __data_loc): pointer depth, base
 * type, dimensions written in the type ("char[]").
 */
static bool classify(const char *type, struct tp_field *f, bool *has_dims, uint32_t *dims,
		     bool *dims_numeric)
{
	struct strbuf base = {0};
	const char *p = type;

	*has_dims = false;
	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
		} else if (*p == '*') {
			f->ptr_depth++;
			p++;
		} else if (*p == '[') {
			p = read_dims(p, dims, dims_numeric);
			if (!p) {
				sb_free(&base);
				return false;
			}
			*has_dims = true;
		} else if (is_ident(*p)) {
			const char *w = p;
			while (is_ident(*p))
				p++;
			if ((size_t)(p - w) == 6 && !strncmp(w, "__user", 6))
				f->is_user = true;
			if (is_qualifier(w, p - w))
				continue;
			if (base.len)
				sb_putc(&base, ' ');
			sb_putn(&base, w, p - w);
		} else {
			sb_free(&base);
			return false;
		}
	}
	if (!base.len) {
		sb_free(&base);
		return false;
	}
	f->base = base.s;
	return true;
}

int types_tp_decl_parse(const char *decl, size_t n, struct tp_field *f)
{
	const char *s, *end, *name_end, *name, *type;
	size_t tlen;
	bool name_dims = false, type_dims, numeric = true, ok;
	uint32_t dims = 0;
	char *typetext;
	const struct known_type *k;

	f->decl = trim_dup(decl, n);
	s = f->decl;
	end = s + strlen(s);

	/* Dimensions after the name: "comm[16]". */
	name_end = end;
	if (end > s && end[-1] == ']') {
		const char *open = end;
		while (open > s && open[-1] == ']') {
			while (open > s && *--open != '[')
				;
			if (*open != '[')
				return -1;
		}
		name_end = open;
		name_dims = true;
		if (read_dims(open, &dims, &numeric) != end)
			return -1;
	}
	name = name_end;
	while (name > s && is_ident(name[-1]))
		name--;
	if (name == name_end || name == s || isdigit((unsigned char)*name))
		return -1;
	f->name = util_xstrndup(name, name_end - name);
	f->is_common = !strncmp(f->name, "common_", 7);

	/* The type: everything before the name, plus any name-side dimensions. */
	tlen = name - s;
	while (tlen && isspace((unsigned char)s[tlen - 1]))
		tlen--;
	if (!tlen)
		return -1;
	if (name_dims)
		f->ctype = util_xasprintf("%.*s%s", (int)tlen, s, name_end);
	else
		f->ctype = util_xstrndup(s, tlen);

	type = s;
	if (!strncmp(type, "__data_loc ", 11)) {
		f->is_data_loc = true;
		type += 11;
	} else if (!strncmp(type, "__rel_loc ", 10)) {
		f->is_rel_loc = true;
		type += 10;
	}
	if (type >= s + tlen)
		return -1;
	typetext = util_xstrndup(type, s + tlen - type);
	ok = classify(typetext, f, &type_dims, &dims, &numeric);
	free(typetext);
	if (!ok)
		return -1;

	f->is_pointer = f->ptr_depth > 0;
	f->is_array = (name_dims || type_dims) && !f->is_data_loc && !f->is_rel_loc;
	f->array_len = f->is_array ? dims : 0;

	k = f->ptr_depth ? NULL : known(f->base);
	if (k && k->is_signed)
		f->is_signed = true;
	if (f->is_array && f->array_len)
		f->elem_size = f->size / f->array_len;
	else if (f->is_array || f->is_data_loc || f->is_rel_loc)
		f->elem_size = k ? k->size : 0;
	else
		f->elem_size = f->size;
	if (f->is_array && !f->array_len && !numeric && f->elem_size)
		f->array_len = f->size / f->elem_size; /* "[TASK_COMM_LEN]" on old kernels */

	f->is_string = !strcmp(f->base, "char") &&
		       (f->ptr_depth == 1 ||
			(!f->ptr_depth && (f->is_array || ((f->is_data_loc || f->is_rel_loc) &&
							   (type_dims || name_dims)))));
	return 0;
}

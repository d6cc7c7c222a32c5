/* SPDX-License-Identifier: MIT */
/*
 * The printf engine: printf(), system() and cat() format strings, parsed
 * once at compile time and rendered for every output record. The output is
 * byte for byte what bpftrace 0.17 prints (see FORMAT.md, "printf").
 *
 * What bpftrace 0.17 accepts as a conversion (anything else is no
 * conversion at all, see below):
 *
 *   %[-][digits][.digits][hh|h|l|ll|j|z|t](d|u|x|X|o|p)   an integer
 *   %[-][digits][.digits]c                               an integer, as a char
 *   %[-][digits][.digits]s                               a string
 *   %[-][digits][.digits](r|rx|rh)                       a buffer (buf())
 *
 * A leading '0' in the digits is the zero-padding flag. There is no %i, no
 * '+', ' ' or '#' flag, no '*' width, no floating point. Conversions are
 * found left to right without regard to "%%" (so "%%d" holds a %d that
 * takes an argument), and the text is then rendered like C printf would:
 *
 *   - before a conversion, "%%" prints '%'; when that pairing eats the
 *     conversion's own '%' ("%%d"), the conversion prints as plain text
 *     ("%d") and its argument is not printed;
 *   - %r, %rx and %rh with a flag, width or precision ("%5r") print as
 *     written and their argument is not printed;
 *   - integers print with C semantics for the length modifier: %d and %u
 *     see the low 32 bits of the 64-bit value, %hd 16, %hhd 8, %ld all 64;
 *   - the text after the last conversion is printed verbatim: "%%" stays
 *     "%%" and an unknown "%i" stays "%i".
 *
 * Any other '%' before a conversion would reach C printf in bpftrace 0.17
 * as a directive that eats or invents arguments (undefined behaviour).
 * out_printf_parse() rejects it, with its byte offset in the format string.
 */
#ifndef LANTERN_OUTPUT_PRINTF_H
#define LANTERN_OUTPUT_PRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "types/type.h"

/* Width and precision above this are rejected (bpftrace fails at run time). */
#define PRINTF_MAX_WIDTH 1000000

enum fmt_conv {
	FMT_CONV_D,  /* d */
	FMT_CONV_U,  /* u */
	FMT_CONV_X,  /* x */
	FMT_CONV_XX, /* X */
	FMT_CONV_O,  /* o */
	FMT_CONV_P,  /* p: 0x-hex, "(nil)" for 0 */
	FMT_CONV_C,  /* c: the low byte of an integer */
	FMT_CONV_S,  /* s */
	FMT_CONV_R,  /* r: buffer, printable bytes as is */
	FMT_CONV_RX, /* rx: buffer, \xNN per byte */
	FMT_CONV_RH, /* rh: buffer, NN per byte, space separated */
	FMT_CONV_GR, /* gr: an integer as the kernel's GFP flags (today's bpftrace) */
};

enum fmt_len {
	FMT_LEN_NONE,
	FMT_LEN_HH,
	FMT_LEN_H,
	FMT_LEN_L,
	FMT_LEN_LL,
	FMT_LEN_J,
	FMT_LEN_Z,
	FMT_LEN_T,
};

/* The kind of argument a conversion wants. */
enum fmt_want {
	FMT_WANT_INT, /* d u x X o p c */
	FMT_WANT_STR, /* s */
	FMT_WANT_BUF, /* r rx rh */
};

/*
 * What the caller has as an argument. Each kind has the name bpftrace uses
 * in its messages ("integer", "string", ...): out_fmt_arg_kind_name().
 * Strings in the wider sense (ksym, usym, kstack, ustack, ntop, username,
 * probe, strerror, cgroup_path, strftime, comm, char arrays) are FMT_ARG_STR:
 * bpftrace 0.17 accepts them for %s and calls them strings.
 */
enum fmt_arg_kind {
	FMT_ARG_NONE,	/* no value (e.g. the result of exit()) */
	FMT_ARG_INT,	/* signed integer, bool, enum */
	FMT_ARG_UINT,	/* unsigned integer, pointer */
	FMT_ARG_STR,	/* string */
	FMT_ARG_BUF,	/* buf() */
	FMT_ARG_TUPLE,	/* (a, b) */
	FMT_ARG_RECORD, /* a struct or union */
	FMT_ARG_ARRAY,	/* an array that is not a char array */
	FMT_ARG_KIND_COUNT,
};

/* One argument value at render time. */
struct fmt_value {
	enum fmt_arg_kind kind;
	bool is_bool; /* an integer that is a bool: %s prints true or false (today's bpftrace) */
	union {
		int64_t i;  /* FMT_ARG_INT: sign-extended to 64 bits */
		uint64_t u; /* FMT_ARG_UINT: zero-extended to 64 bits */
		struct {
			const char *p;
			size_t len;
		} s; /* FMT_ARG_STR: up to len bytes, ends early at a NUL;
		      * FMT_ARG_BUF: exactly len bytes */
	};
};

/* One conversion of a parsed format string. */
struct printf_spec {
	size_t off, len;	 /* the conversion's text in the format string */
	size_t lit_off, lit_len; /* the text printed before it, in printf_fmt.lit */
	enum fmt_conv conv;
	enum fmt_len length;
	bool left;     /* '-' */
	bool zero;     /* '0' (ignored by C printf for c, s, p and with '-') */
	int width;     /* -1: none */
	int prec;      /* -1: none */
	bool silent;   /* takes an argument but prints nothing ("%%d", "%5r") */
	char cfmt[24]; /* the C printf format for d u x X o p c, e.g. "%-08lx" */
};

struct printf_fmt {
	char *lit; /* all literal text, "%%" already collapsed where C would */
	struct printf_spec *specs;
	size_t nspecs;		   /* arguments expected */
	size_t tail_off, tail_len; /* text printed after the last conversion, in lit */
	/* The first '%' in the tail that is not "%%" (e.g. "%i"), for hints
	 * when the argument count is wrong; SIZE_MAX if none. */
	size_t tail_bad_off, tail_bad_len;
	char tail_bad[24]; /* its text, NUL-terminated (truncated if long) */
};

struct printf_error {
	size_t off, len; /* the offending specifier in the format string */
	char msg[160];
	char hint[160]; /* "" when there is nothing to add */
};

/*
 * Parse fmt (len bytes; the escapes are already resolved by the lexer).
 * On failure returns false, fills *err and leaves *f empty (freeing it is
 * still fine). Free with out_printf_fmt_free().
 */
bool out_printf_parse(struct printf_fmt *f, const char *fmt, size_t len, struct printf_error *err);
void out_printf_fmt_free(struct printf_fmt *f);

enum fmt_want out_printf_spec_want(const struct printf_spec *spec);
/* "integer", "string", "buffer", "tuple", "record", "array", "none" */
const char *out_fmt_arg_kind_name(enum fmt_arg_kind kind);

/*
 * Whether the argument count fits. Otherwise appends to msg, as bpftrace:
 *   "Too many arguments for format string (3 supplied, 1 expected)"
 *   "Not enough arguments for format string (1 supplied, 2 expected)"
 * (bpftrace prefixes its messages with the function: "printf: ...").
 * Check the count first, then each argument in order; bpftrace reports
 * only the first problem.
 */
bool out_printf_check_count(const struct printf_fmt *f, size_t nargs, struct strbuf *msg);
/*
 * A hint for a count mismatch when the tail holds something that looks like
 * a conversion bpftrace does not know ("%i", "%f", "%+d"). false if none.
 */
bool out_printf_count_hint(const struct printf_fmt *f, struct strbuf *hint);

/*
 * Whether an argument of this kind fits the conversion. Otherwise appends
 * to msg, as bpftrace: "%s specifier expects a value of type string
 * (integer supplied)" (the specifier is written as %, length, conversion:
 * "%ld", "%rx").
 */
bool out_printf_check_arg(const struct printf_spec *spec, enum fmt_arg_kind kind, struct strbuf *msg);

/* The kind of argument a value of type t is (strings in the wider sense: FMT_ARG_STR). */
enum fmt_arg_kind out_fmt_kind_of(const struct type *t);

/*
 * Append what bpftrace prints for the format and f->nspecs arguments.
 * An argument of the wrong kind prints as 0 or "" (the checks above keep
 * that from happening).
 */
void out_printf_render(struct strbuf *out, const struct printf_fmt *f, const struct fmt_value *args);

#endif

// SPDX-License-Identifier: MIT
/*
 * printf format strings: parsing and checking. Rendering is in
 * printf_render.c. The rules are in printf.h and FORMAT.md.
 */
#include "output/printf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A decimal number of digits, saturated just above PRINTF_MAX_WIDTH. */
static int read_number(const char *s, size_t n)
{
	long v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > PRINTF_MAX_WIDTH)
			return PRINTF_MAX_WIDTH + 1;
	}
	return (int)v;
}

static const struct {
	const char *text;
	enum fmt_len len;
} lengths[] = {
	/* longest first: "hh" before "h", "ll" before "l" */
	{"hh", FMT_LEN_HH}, {"h", FMT_LEN_H}, {"ll", FMT_LEN_LL}, {"l", FMT_LEN_L},
	{"j", FMT_LEN_J},   {"z", FMT_LEN_Z}, {"t", FMT_LEN_T},
};

static const char *const length_text[] = {
	[FMT_LEN_NONE] = "", [FMT_LEN_HH] = "hh", [FMT_LEN_H] = "h", [FMT_LEN_L] = "l",
	[FMT_LEN_LL] = "ll", [FMT_LEN_J] = "j",	  [FMT_LEN_Z] = "z", [FMT_LEN_T] = "t",
};

static const char *const conv_text[] = {
	[FMT_CONV_D] = "d", [FMT_CONV_U] = "u",	  [FMT_CONV_X] = "x",	[FMT_CONV_XX] = "X",
	[FMT_CONV_O] = "o", [FMT_CONV_P] = "p",	  [FMT_CONV_C] = "c",	[FMT_CONV_S] = "s",
	[FMT_CONV_R] = "r", [FMT_CONV_RX] = "rx", [FMT_CONV_RH] = "rh", [FMT_CONV_GR] = "gr",
};

/* Integer conversions, the only ones that take a length modifier. */
static bool int_conv(char c, enum fmt_conv *conv)
{
	switch (c) {
	case 'd':
		*conv = FMT_CONV_D;
		return true;
	case 'u':
		*conv = FMT_CONV_U;
		return true;
	case 'x':
		*conv = FMT_CONV_X;
		return true;
	case 'X':
		*conv = FMT_CONV_XX;
		return true;
	case 'o':
		*conv = FMT_CONV_O;
		return true;
	case 'p':
		*conv = FMT_CONV_P;
		return true;
	default:
		return false;
	}
}

/*
 * Whether a conversion as bpftrace 0.17 knows it starts at fmt[i] (a '%'):
 *   %[-][digits][.digits][length](d|u|x|X|o|p)  or  ...(c|s|r|rx|rh)
 */
static bool match_conv(const char *fmt, size_t len, size_t i, struct printf_spec *sp)
{
	size_t j = i + 1, d;

	*sp = (struct printf_spec){.off = i, .width = -1, .prec = -1};
	if (j < len && fmt[j] == '-') {
		sp->left = true;
		j++;
	}
	if (j < len && fmt[j] == '0')
		sp->zero = true;
	while (j < len && fmt[j] == '0')
		j++;
	for (d = j; d < len && is_digit(fmt[d]); d++)
		;
	if (d > j)
		sp->width = read_number(fmt + j, d - j);
	j = d;
	if (j < len && fmt[j] == '.') {
		for (d = j + 1; d < len && is_digit(fmt[d]); d++)
			;
		if (d == j + 1)
			return false;
		sp->prec = read_number(fmt + j + 1, d - j - 1);
		j = d;
	}
	for (size_t k = 0; k < ARRAY_SIZE(lengths); k++) {
		size_t n = strlen(lengths[k].text);

		if (j + n < len && !strncmp(fmt + j, lengths[k].text, n) &&
		    int_conv(fmt[j + n], &sp->conv)) {
			sp->length = lengths[k].len;
			sp->len = j + n + 1 - i;
			return true;
		}
	}
	if (j >= len)
		return false;
	if (int_conv(fmt[j], &sp->conv)) {
		sp->len = j + 1 - i;
		return true;
	}
	switch (fmt[j]) {
	case 'c':
		sp->conv = FMT_CONV_C;
		break;
	case 's':
		sp->conv = FMT_CONV_S;
		break;
	case 'g': /* %gr: GFP flags; other %g are floating point */
		if (j + 1 >= len || fmt[j + 1] != 'r')
			return false;
		sp->conv = FMT_CONV_GR;
		j++;
		break;
	case 'r':
		sp->conv = FMT_CONV_R;
		if (j + 1 < len && fmt[j + 1] == 'x')
			sp->conv = FMT_CONV_RX, j++;
		else if (j + 1 < len && fmt[j + 1] == 'h')
			sp->conv = FMT_CONV_RH, j++;
		break;
	default:
		return false;
	}
	sp->len = j + 1 - i;
	return true;
}

static size_t find_conv(const char *fmt, size_t len, size_t from, struct printf_spec *sp)
{
	for (size_t i = from; i < len; i++)
		if (fmt[i] == '%' && match_conv(fmt, len, i, sp))
			return i;
	return len;
}

/* The extent of a C printf directive at fmt[i] (a '%'), for messages. */
static size_t directive_len(const char *fmt, size_t len, size_t i)
{
	size_t j = i + 1;

	while (j < len && strchr("-+ #0'", fmt[j]))
		j++;
	while (j < len && (is_digit(fmt[j]) || fmt[j] == '*'))
		j++;
	if (j < len && fmt[j] == '.') {
		j++;
		while (j < len && (is_digit(fmt[j]) || fmt[j] == '*'))
			j++;
	}
	while (j < len && strchr("hlLqjzt", fmt[j]))
		j++;
	if (j < len && (is_alpha(fmt[j]) || fmt[j] == '%'))
		j++;
	return j - i;
}

static void explain_directive(const char *d, size_t n, char *msg, size_t msgsz, char *hint,
			      size_t hintsz)
{
	char last = n > 1 ? d[n - 1] : 0;
	size_t k;

	hint[0] = 0;
	for (k = 1; k < n && strchr("-+ #0'", d[k]); k++) {
		if (d[k] != '-' && d[k] != '0') {
			snprintf(msg, msgsz, "flag '%c' is not supported in '%.*s'", d[k], (int)n,
				 d);
			snprintf(hint, hintsz, "bpftrace 0.17 knows only the '-' and '0' flags");
			return;
		}
	}
	if (k > 2 && (d[1] != '-' || d[2] == '-')) {
		snprintf(msg, msgsz, "unsupported flags in '%.*s'", (int)n, d);
		snprintf(hint, hintsz,
			 "bpftrace 0.17 reads at most one '-' followed by '0', as in %%-05d");
		return;
	}
	for (k = 1; k < n; k++) {
		if (d[k] == '.' && (k + 1 >= n || !is_digit(d[k + 1]))) {
			snprintf(msg, msgsz, "precision without digits in '%.*s'", (int)n, d);
			snprintf(hint, hintsz, "write the precision, as in %%.0d");
			return;
		}
		if (d[k] == '*') {
			snprintf(msg, msgsz, "'*' width or precision is not supported in '%.*s'",
				 (int)n, d);
			snprintf(hint, hintsz, "write the width as a number");
			return;
		}
	}
	if (n > 1 && strchr("fFeEgGaA", last)) {
		snprintf(msg, msgsz, "floating-point conversion '%.*s' is not supported", (int)n,
			 d);
		snprintf(hint, hintsz, "bpftrace has no floating-point values");
		return;
	}
	if (last == 'i') {
		snprintf(msg, msgsz, "conversion '%.*s' is not supported", (int)n, d);
		snprintf(hint, hintsz, "use %%d");
		return;
	}
	if (n > 2 && strchr("csr", last) && strchr("hlLqjzt", d[n - 2])) {
		snprintf(msg, msgsz, "a length modifier is not supported with %%%c in '%.*s'", last,
			 (int)n, d);
		return;
	}
	if (!is_alpha(last) && last != '%')
		snprintf(msg, msgsz, "incomplete format specifier '%.*s'", (int)n, d);
	else
		snprintf(msg, msgsz, "unsupported format specifier '%.*s'", (int)n, d);
	snprintf(hint, hintsz,
		 "conversions are %%d %%u %%x %%X %%o %%p %%c %%s %%r %%rx %%rh %%gr; "
		 "write %%%% for a literal '%%'");
}

static void fill_error(struct printf_error *err, const char *fmt, size_t len, size_t i)
{
	size_t n = directive_len(fmt, len, i);

	err->off = i;
	err->len = n;
	explain_directive(fmt + i, n, err->msg, sizeof(err->msg), err->hint, sizeof(err->hint));
}

static void build_cfmt(struct printf_spec *sp)
{
	char *p = sp->cfmt;
	enum fmt_len l =
		sp->conv == FMT_CONV_P || sp->conv == FMT_CONV_C ? FMT_LEN_NONE : sp->length;

	*p++ = '%';
	if (sp->left)
		*p++ = '-';
	if (sp->zero)
		*p++ = '0';
	if (sp->width >= 0)
		p += sprintf(p, "%d", sp->width);
	if (sp->prec >= 0)
		p += sprintf(p, ".%d", sp->prec);
	sprintf(p, "%s%s", length_text[l], conv_text[sp->conv]);
}

static bool is_buf_conv(enum fmt_conv c)
{
	return c == FMT_CONV_R || c == FMT_CONV_RX || c == FMT_CONV_RH;
}

bool out_printf_parse(struct printf_fmt *f, const char *fmt, size_t len, struct printf_error *err)
{
	struct strbuf lit = {0};
	struct printf_spec sp, *specs = NULL;
	size_t nspecs = 0, cap = 0, start = 0, i;

	*f = (struct printf_fmt){.tail_bad_off = SIZE_MAX};
	*err = (struct printf_error){0};
	while ((i = find_conv(fmt, len, start, &sp)) < len) {
		bool eaten = false;
		size_t k = start, lit_off = lit.len;

		if (sp.width > PRINTF_MAX_WIDTH || sp.prec > PRINTF_MAX_WIDTH) {
			err->off = sp.off;
			err->len = sp.len;
			snprintf(err->msg, sizeof(err->msg),
				 "%s of '%.*s' is too large (at most %d)",
				 sp.width > PRINTF_MAX_WIDTH ? "width" : "precision", (int)sp.len,
				 fmt + sp.off, PRINTF_MAX_WIDTH);
			goto fail;
		}
		/* The text before the conversion goes through C printf. */
		while (k < i) {
			if (fmt[k] != '%') {
				sb_putc(&lit, fmt[k++]);
			} else if (k + 1 < i && fmt[k + 1] == '%') {
				sb_putc(&lit, '%');
				k += 2;
			} else if (k + 1 == i) {
				/* "%%d": the pair eats the conversion's '%'. bpftrace
				 * has rewritten a plain %r, %rx, %rh to %s by then. */
				sb_putc(&lit, '%');
				if (is_buf_conv(sp.conv) &&
				    sp.len == strlen(conv_text[sp.conv]) + 1)
					sb_putc(&lit, 's');
				else
					sb_putn(&lit, fmt + i + 1, sp.len - 1);
				eaten = true;
				k = i;
			} else {
				fill_error(err, fmt, len, k);
				goto fail;
			}
		}
		if (!eaten && is_buf_conv(sp.conv) && sp.len != strlen(conv_text[sp.conv]) + 1) {
			/* C printf does not know "%5r" and prints it as written */
			sb_putn(&lit, fmt + i, sp.len);
			eaten = true;
		}
		sp.silent = eaten;
		sp.lit_off = lit_off;
		sp.lit_len = lit.len - lit_off;
		build_cfmt(&sp);
		if (nspecs == cap) {
			cap = cap ? cap * 2 : 4;
			specs = util_xrealloc(specs, cap * sizeof(*specs));
		}
		specs[nspecs++] = sp;
		start = i + sp.len;
	}

	/* The tail is printed verbatim. */
	f->tail_off = lit.len;
	f->tail_len = len - start;
	sb_putn(&lit, fmt + start, len - start);
	for (i = start; i < len; i++) {
		if (fmt[i] != '%')
			continue;
		if (i + 1 < len && fmt[i + 1] == '%') {
			i++;
			continue;
		}
		f->tail_bad_off = i;
		f->tail_bad_len = directive_len(fmt, len, i);
		snprintf(f->tail_bad, sizeof(f->tail_bad), "%.*s", (int)f->tail_bad_len, fmt + i);
		break;
	}
	if (!lit.s)
		sb_putn(&lit, "", 0);
	f->lit = lit.s;
	f->specs = specs;
	f->nspecs = nspecs;
	return true;

fail:
	sb_free(&lit);
	free(specs);
	return false;
}

void out_printf_fmt_free(struct printf_fmt *f)
{
	free(f->lit);
	free(f->specs);
	*f = (struct printf_fmt){.tail_bad_off = SIZE_MAX};
}

enum fmt_want out_printf_spec_want(const struct printf_spec *spec)
{
	if (spec->conv == FMT_CONV_S)
		return FMT_WANT_STR;
	if (is_buf_conv(spec->conv))
		return FMT_WANT_BUF;
	return FMT_WANT_INT;
}

const char *out_fmt_arg_kind_name(enum fmt_arg_kind kind)
{
	static const char *const names[FMT_ARG_KIND_COUNT] = {
		[FMT_ARG_NONE] = "none",     [FMT_ARG_INT] = "integer", [FMT_ARG_UINT] = "integer",
		[FMT_ARG_STR] = "string",    [FMT_ARG_BUF] = "buffer",	[FMT_ARG_TUPLE] = "tuple",
		[FMT_ARG_RECORD] = "record", [FMT_ARG_ARRAY] = "array",
	};

	if ((unsigned)kind >= FMT_ARG_KIND_COUNT)
		return "unknown";
	return names[kind];
}

bool out_printf_check_count(const struct printf_fmt *f, size_t nargs, struct strbuf *msg)
{
	if (nargs == f->nspecs)
		return true;
	sb_printf(msg, "%s arguments for format string (%zu supplied, %zu expected)",
		  nargs > f->nspecs ? "Too many" : "Not enough", nargs, f->nspecs);
	return false;
}

bool out_printf_count_hint(const struct printf_fmt *f, struct strbuf *hint)
{
	if (f->tail_bad_off == SIZE_MAX)
		return false;
	sb_printf(hint, "'%s' is not a conversion bpftrace knows: it is printed as written",
		  f->tail_bad);
	return true;
}

bool out_printf_check_arg(const struct printf_spec *spec, enum fmt_arg_kind kind, struct strbuf *msg)
{
	static const char *const want_name[] = {
		[FMT_WANT_INT] = "integer",
		[FMT_WANT_STR] = "string",
		[FMT_WANT_BUF] = "buffer",
	};
	enum fmt_want want = out_printf_spec_want(spec);
	bool ok;

	switch (want) {
	case FMT_WANT_INT:
		ok = kind == FMT_ARG_INT || kind == FMT_ARG_UINT;
		break;
	case FMT_WANT_STR:
		ok = kind == FMT_ARG_STR;
		break;
	default:
		ok = kind == FMT_ARG_BUF;
		break;
	}
	if (ok)
		return true;
	sb_printf(msg, "%%%s%s specifier expects a value of type %s (%s supplied)",
		  length_text[spec->length], conv_text[spec->conv], want_name[want],
		  out_fmt_arg_kind_name(kind));
	return false;
}

/* The printf argument kind of a value of type t. */
enum fmt_arg_kind out_fmt_kind_of(const struct type *t)
{
	switch (t->kind) {
	case TY_INT:
		return t->is_signed ? FMT_ARG_INT : FMT_ARG_UINT;
	case TY_PTR:
		return FMT_ARG_UINT;
	case TY_STR:
	case TY_PROBE:
	case TY_STACK:
	case TY_SYM:
	case TY_TIMESTAMP:
	case TY_INET:
	case TY_MACADDR:
	case TY_STRERROR:
	case TY_CGPATH:
	case TY_USERNAME:
		return FMT_ARG_STR;
	case TY_BUF:
		return FMT_ARG_BUF;
	case TY_TUPLE:
		return FMT_ARG_TUPLE;
	case TY_RECORD:
		return FMT_ARG_RECORD;
	case TY_ARRAY:
		return FMT_ARG_ARRAY;
	default:
		return FMT_ARG_NONE;
	}
}


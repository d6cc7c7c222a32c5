// SPDX-License-Identifier: MIT
/*
 * printf rendering. Integers and %c go through C snprintf with the
 * conversion's own format (spec->cfmt): bpftrace 0.17 hands them to glibc
 * the same way, so padding, precision and length modifiers come out
 * identical. Strings and buffers are written here, as their bytes need not
 * be NUL-terminated.
 */
#include "output/printf.h"

#include <string.h>

#include "output/escape.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static uint64_t int_bits(const struct fmt_value *v)
{
	switch (v->kind) {
	case FMT_ARG_INT:
		return (uint64_t)v->i;
	case FMT_ARG_UINT:
		return v->u;
	default:
		return 0;
	}
}

static void render_int(struct strbuf *out, const struct printf_spec *sp, uint64_t v)
{
	switch (sp->conv) {
	case FMT_CONV_P:
		sb_printf(out, sp->cfmt, (void *)(uintptr_t)v);
		return;
	case FMT_CONV_C: {
		/* bpftrace keeps each piece of output as a C string: a NUL
		 * char ends it, with any padding behind it ("%-5c" of 0 is "") */
		size_t start = out->len;

		sb_printf(out, sp->cfmt, (int)(v & 0xff));
		out->len = start + strnlen(out->s + start, out->len - start);
		out->s[out->len] = 0;
		return;
	}
	default:
		break;
	}
	switch (sp->length) {
	case FMT_LEN_NONE:
	case FMT_LEN_H:
	case FMT_LEN_HH:
		/* C reads an int: the low 32 bits (h and hh narrow it further) */
		sb_printf(out, sp->cfmt, (int)(uint32_t)v);
		return;
	default:
		sb_printf(out, sp->cfmt, (long long)v);
		return;
	}
}

static void render_str(struct strbuf *out, const struct printf_spec *sp, const struct fmt_value *v)
{
	size_t n = 0, pad = 0;

	const char *text = v->kind == FMT_ARG_STR ? v->s.p : NULL;

	if (v->is_bool) /* %s of a bool: its word */
		text = v->u ? "true" : "false";
	if (text)
		n = strnlen(text, v->is_bool ? 5 : v->s.len);
	if (sp->prec >= 0 && (size_t)sp->prec < n)
		n = sp->prec;
	if (sp->width > 0 && (size_t)sp->width > n)
		pad = sp->width - n;
	/* '0' pads %s with spaces too */
	if (!sp->left)
		sb_pad(out, ' ', pad);
	if (n)
		sb_putn(out, text, n);
	if (sp->left)
		sb_pad(out, ' ', pad);
}

static void render_buf(struct strbuf *out, const struct printf_spec *sp, const struct fmt_value *v)
{
	enum buf_style style = sp->conv == FMT_CONV_RX	 ? BUF_STYLE_RX
			       : sp->conv == FMT_CONV_RH ? BUF_STYLE_RH
							 : BUF_STYLE_R;

	if (v->kind == FMT_ARG_BUF && v->s.p)
		out_fmt_buf(out, v->s.p, v->s.len, style);
}

void out_printf_render(struct strbuf *out, const struct printf_fmt *f, const struct fmt_value *args)
{
	for (size_t k = 0; k < f->nspecs; k++) {
		const struct printf_spec *sp = &f->specs[k];

		sb_putn(out, f->lit + sp->lit_off, sp->lit_len);
		if (sp->silent)
			continue;
		switch (out_printf_spec_want(sp)) {
		case FMT_WANT_INT:
			render_int(out, sp, int_bits(&args[k]));
			break;
		case FMT_WANT_STR:
			render_str(out, sp, &args[k]);
			break;
		case FMT_WANT_BUF:
			render_buf(out, sp, &args[k]);
			break;
		}
	}
	sb_putn(out, f->lit + f->tail_off, f->tail_len);
}

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

/*
 * The kernel's GFP flags (include/linux/gfp_types.h: ___GFP_DMA_BIT is 0,
 * then one bit each in this order, 0x200 unused), named as the kernel's
 * own tracepoints name them (show_gfp_flags): the compound masks first,
 * the single flags for what is left, and the rest in hex.
 */
enum {
	GFP_DMA_ = 1u << 0, GFP_HIGHMEM_ = 1u << 1, GFP_DMA32_ = 1u << 2, GFP_MOVABLE_ = 1u << 3,
	GFP_RECLAIMABLE_ = 1u << 4, GFP_HIGH_ = 1u << 5, GFP_IO_ = 1u << 6, GFP_FS_ = 1u << 7,
	GFP_ZERO_ = 1u << 8, GFP_DIRECT_RECLAIM_ = 1u << 10, GFP_KSWAPD_RECLAIM_ = 1u << 11,
	GFP_WRITE_ = 1u << 12, GFP_NOWARN_ = 1u << 13, GFP_RETRY_MAYFAIL_ = 1u << 14, GFP_NOFAIL_ = 1u << 15,
	GFP_NORETRY_ = 1u << 16, GFP_MEMALLOC_ = 1u << 17, GFP_COMP_ = 1u << 18, GFP_NOMEMALLOC_ = 1u << 19,
	GFP_HARDWALL_ = 1u << 20, GFP_THISNODE_ = 1u << 21, GFP_ACCOUNT_ = 1u << 22, GFP_ZEROTAGS_ = 1u << 23,
	GFP_SKIP_ZERO_ = 1u << 24, GFP_SKIP_KASAN_ = 1u << 25, GFP_NO_OBJ_EXT_ = 1u << 26,
	GFP_RECLAIM_ = GFP_DIRECT_RECLAIM_ | GFP_KSWAPD_RECLAIM_,
	GFP_KERNEL_ = GFP_RECLAIM_ | GFP_IO_ | GFP_FS_,
	GFP_USER_ = GFP_KERNEL_ | GFP_HARDWALL_,
	GFP_HIGHUSER_ = GFP_USER_ | GFP_HIGHMEM_,
	GFP_HIGHUSER_MOVABLE_ = GFP_HIGHUSER_ | GFP_MOVABLE_ | GFP_SKIP_KASAN_,
	GFP_TRANSHUGE_LIGHT_ = (GFP_HIGHUSER_MOVABLE_ | GFP_COMP_ | GFP_NOMEMALLOC_ | GFP_NOWARN_) & ~GFP_RECLAIM_,
};
static const struct {
	uint32_t mask;
	const char *name;
} gfp_names[] = {
	{ GFP_TRANSHUGE_LIGHT_ | GFP_DIRECT_RECLAIM_, "GFP_TRANSHUGE" },
	{ GFP_TRANSHUGE_LIGHT_, "GFP_TRANSHUGE_LIGHT" },
	{ GFP_HIGHUSER_MOVABLE_, "GFP_HIGHUSER_MOVABLE" },
	{ GFP_HIGHUSER_, "GFP_HIGHUSER" },
	{ GFP_USER_, "GFP_USER" },
	{ GFP_KERNEL_ | GFP_ACCOUNT_, "GFP_KERNEL_ACCOUNT" },
	{ GFP_KERNEL_, "GFP_KERNEL" },
	{ GFP_RECLAIM_ | GFP_IO_, "GFP_NOFS" },
	{ GFP_HIGH_ | GFP_KSWAPD_RECLAIM_, "GFP_ATOMIC" },
	{ GFP_RECLAIM_, "GFP_NOIO" },
	{ GFP_KSWAPD_RECLAIM_ | GFP_NOWARN_, "GFP_NOWAIT" },
	{ GFP_DMA_, "GFP_DMA" },
	{ GFP_HIGHMEM_, "__GFP_HIGHMEM" },
	{ GFP_DMA32_, "GFP_DMA32" },
	{ GFP_HIGH_, "__GFP_HIGH" },
	{ GFP_IO_, "__GFP_IO" },
	{ GFP_FS_, "__GFP_FS" },
	{ GFP_ZERO_, "__GFP_ZERO" },
	{ GFP_DIRECT_RECLAIM_, "__GFP_DIRECT_RECLAIM" },
	{ GFP_KSWAPD_RECLAIM_, "__GFP_KSWAPD_RECLAIM" },
	{ GFP_WRITE_, "__GFP_WRITE" },
	{ GFP_NOWARN_, "__GFP_NOWARN" },
	{ GFP_RETRY_MAYFAIL_, "__GFP_RETRY_MAYFAIL" },
	{ GFP_NOFAIL_, "__GFP_NOFAIL" },
	{ GFP_NORETRY_, "__GFP_NORETRY" },
	{ GFP_MEMALLOC_, "__GFP_MEMALLOC" },
	{ GFP_COMP_, "__GFP_COMP" },
	{ GFP_NOMEMALLOC_, "__GFP_NOMEMALLOC" },
	{ GFP_HARDWALL_, "__GFP_HARDWALL" },
	{ GFP_THISNODE_, "__GFP_THISNODE" },
	{ GFP_ACCOUNT_, "__GFP_ACCOUNT" },
	{ GFP_ZEROTAGS_, "__GFP_ZEROTAGS" },
	{ GFP_SKIP_ZERO_, "__GFP_SKIP_ZERO" },
	{ GFP_SKIP_KASAN_, "__GFP_SKIP_KASAN" },
	{ GFP_NO_OBJ_EXT_, "__GFP_NO_OBJ_EXT" },
};

/* %gr: the flags' names joined by '|', padded to the width as a string */
static void render_gfp(struct strbuf *out, const struct printf_spec *sp, uint64_t v)
{
	struct strbuf text = { 0 };
	uint64_t left = v;

	for (size_t k = 0; k < sizeof(gfp_names) / sizeof(gfp_names[0]) && left; k++)
		if ((left & gfp_names[k].mask) == gfp_names[k].mask) {
			sb_printf(&text, "%s%s", text.len ? "|" : "", gfp_names[k].name);
			left &= ~(uint64_t)gfp_names[k].mask;
		}
	if (left || !v)
		sb_printf(&text, v ? "%s0x%llx" : "0", text.len ? "|" : "", (unsigned long long)left);
	size_t pad = sp->width > 0 && (size_t)sp->width > text.len ? (size_t)sp->width - text.len : 0;
	if (!sp->left)
		sb_pad(out, ' ', pad);
	sb_putn(out, text.s, text.len);
	if (sp->left)
		sb_pad(out, ' ', pad);
	sb_free(&text);
}

static void render_int(struct strbuf *out, const struct printf_spec *sp, uint64_t v)
{
	switch (sp->conv) {
	case FMT_CONV_GR:
		render_gfp(out, sp, v);
		return;
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

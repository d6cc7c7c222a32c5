// SPDX-License-Identifier: MIT
#include "base/diag.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(struct diag *d, const struct source *src)
{
	*d = (struct diag){ .src = src };
}

void diag_free(struct diag *d)
{
	sb_free(&d->out);
}

static bool diag_suppressed(struct diag *d)
{
	int max = d->max_errors ? d->max_errors : 20;
	return d->errors > max;
}

/*
 * The message, its code at the end of its first line as a compiler puts
 * its warning flag ("... [E203]"): the line itself reads as bpftrace's, so
 * what users match in bpftrace's output ("ERROR: No matches for ...")
 * matches lantern's too.
 */
static void put_message(struct strbuf *out, enum diag_code code, const char *fmt, va_list ap)
{
	size_t start = out->len;
	sb_vprintf(out, fmt, ap);
	if (code == E_SCRIPT) {
		sb_putc(out, '\n');
		return;
	}
	if (out->len > start && sb_str(out)[out->len - 1] == '\n')
		sb_truncate(out, out->len - 1);
	const char *nl = memchr(sb_str(out) + start, '\n', out->len - start);
	if (!nl) {
		sb_printf(out, " [E%d]\n", code);
		return;
	}
	size_t cut = (size_t)(nl - sb_str(out));
	char *rest = util_xstrdup(sb_str(out) + cut);
	sb_truncate(out, cut);
	sb_printf(out, " [E%d]%s\n", code, rest);
	free(rest);
}

void diag_report(struct diag *d, enum diag_level lvl, struct span sp, enum diag_code code,
		 const char *fmt, ...)
{
	/* bpftrace's words: what its users' scripts look for */
	const char *what = lvl == DIAG_ERROR ? "ERROR" : "WARNING";
	uint32_t l1, c1, l2, c2, len, i;
	va_list ap;

	if (lvl == DIAG_WARNING && !span_is_none(sp)) {
		for (unsigned k = 0; k < d->nsaid && k < ARRAY_SIZE(d->said); k++)
			if (d->said[k].sp.lo == sp.lo && d->said[k].sp.hi == sp.hi &&
			    d->said[k].code == (int)code) {
				d->last_hidden = true;
				return;
			}
		d->said[d->nsaid++ % ARRAY_SIZE(d->said)] = (struct diag_said){ sp, (int)code };
	}
	if (lvl == DIAG_ERROR)
		d->errors++;
	else
		d->warnings++;
	d->last_hidden = diag_suppressed(d) || (lvl == DIAG_WARNING && d->no_warnings);
	if (d->last_hidden)
		return;
	if (!d->src || span_is_none(sp)) {
		if (d->src)
			sb_printf(&d->out, "%s: ", d->src->name);
		sb_printf(&d->out, "%s: ", what);
		va_start(ap, fmt);
		put_message(&d->out, code, fmt, ap);
		va_end(ap);
		return;
	}
	const char *name = source_name_at(d->src, sp.lo);

	source_pos(d->src, sp.lo, &l1, &c1);
	source_pos(d->src, sp.hi > sp.lo ? sp.hi - 1 : sp.lo, &l2, &c2);
	if (source_name_at(d->src, sp.hi > sp.lo ? sp.hi - 1 : sp.lo) != name)
		l2 = l1 + 1; /* a span across files (never made): shown from its start */
	if (l1 == l2 && c2 > c1)
		sb_printf(&d->out, "%s:%u:%u-%u: %s: ", name, l1, c1, c2 + 1, what);
	else
		sb_printf(&d->out, "%s:%u:%u: %s: ", name, l1, c1, what);
	va_start(ap, fmt);
	put_message(&d->out, code, fmt, ap);
	va_end(ap);

	/* The source line, then '~' under the span (to the line's end). */
	const char *line = source_line_at(d->src, sp.lo, &len);
	sb_putn(&d->out, line, len);
	sb_putc(&d->out, '\n');
	uint32_t last = l1 == l2 ? c2 : len;
	if (last < c1)
		last = c1;
	for (i = 1; i < c1; i++)
		sb_putc(&d->out, i <= len && line[i - 1] == '\t' ? '\t' : ' ');
	sb_pad(&d->out, '~', last - c1 + 1);
	sb_putc(&d->out, '\n');
}

void diag_hint(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d->last_hidden)
		return;
	sb_puts(&d->out, "HINT: "); /* bpftrace's word */
	va_start(ap, fmt);
	sb_vprintf(&d->out, fmt, ap);
	va_end(ap);
	sb_putc(&d->out, '\n');
}

void diag_flush(struct diag *d, FILE *f)
{
	if (d->out.len)
		fputs(sb_str(&d->out), f);
	sb_reset(&d->out);
}

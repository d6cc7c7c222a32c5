// SPDX-License-Identifier: MIT
/*
 * What every decoder builds on: the value writer (strace's text or JSON),
 * strings quoted as strace quotes them, flag sets and constants by name,
 * errno and signal names, signal sets and siginfo.
 */
#include "trace/decode.h"
#include "base/util.h"
#include "output/json.h"
#include "trace/kabi.h"
#include "trace/xlat_lists.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void trace_tw_init(struct tw *w, struct strbuf *sb, bool json)
{
	memset(w, 0, sizeof(*w));
	w->sb = sb;
	w->json = json;
	w->fset = -1;
	w->first[0] = true;
}

/* before a value: ", " between members, nothing after a field's name */
static void sep(struct tw *w)
{
	if (w->keyed) {
		w->keyed = false;
		return;
	}
	if (w->depth && !w->first[w->depth])
		sb_puts(w->sb, ", ");
	w->first[w->depth] = false;
}

void trace_tw_open(struct tw *w, char c)
{
	sep(w);
	sb_putc(w->sb, c);
	if (w->depth + 1 < TW_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

void trace_tw_close(struct tw *w, char c, bool more)
{
	if (more && !w->json)
		sb_puts(w->sb, w->first[w->depth] ? "..." : ", ...");
	if (w->depth)
		w->depth--;
	sb_putc(w->sb, c);
}

void trace_tw_field(struct tw *w, const char *name)
{
	sep(w);
	if (w->json) {
		out_json_string(w->sb, name, strlen(name));
		sb_puts(w->sb, ": ");
	} else {
		sb_printf(w->sb, "%s=", name);
	}
	w->keyed = true;
}

void trace_tw_int(struct tw *w, int64_t v)
{
	sep(w);
	sb_printf(w->sb, "%lld", (long long)v);
}

void trace_tw_uint(struct tw *w, uint64_t v)
{
	sep(w);
	sb_printf(w->sb, "%llu", (unsigned long long)v);
}

void trace_tw_hex(struct tw *w, uint64_t v)
{
	sep(w);
	sb_printf(w->sb, w->json ? "%llu" : "%#llx", (unsigned long long)v);
}

void trace_tw_octal(struct tw *w, uint64_t v)
{
	sep(w);
	sb_printf(w->sb, w->json ? "%llu" : "%#03llo", (unsigned long long)v);
}

void trace_tw_ptr(struct tw *w, uint64_t v)
{
	sep(w);
	if (!v)
		sb_puts(w->sb, w->json ? "null" : "NULL");
	else
		sb_printf(w->sb, w->json ? "\"%#llx\"" : "%#llx", (unsigned long long)v);
}

void trace_tw_name(struct tw *w, const char *name)
{
	sep(w);
	if (w->json)
		out_json_string(w->sb, name, strlen(name));
	else
		sb_puts(w->sb, name);
}

void trace_tw_bool(struct tw *w, bool v)
{
	if (!w->json)
		return;
	sep(w);
	sb_puts(w->sb, v ? "true" : "false");
}

void trace_tw_quoted(struct tw *w, const uint8_t *p, size_t n, size_t max, bool more, int hex)
{
	sep(w);
	if (w->json)
		out_json_string(w->sb, (const char *)p, MIN(n, max));
	else
		trace_put_quoted(w->sb, p, n, max, more, hex);
}

void trace_tw_text(struct tw *w, const char *fmt, ...)
{
	va_list ap;

	if (w->json)
		return;
	sep(w);
	va_start(ap, fmt);
	sb_vprintf(w->sb, fmt, ap);
	va_end(ap);
}

void trace_tw_note(struct tw *w, const char *fmt, ...)
{
	va_list ap;

	if (w->json)
		return;
	va_start(ap, fmt);
	sb_vprintf(w->sb, fmt, ap);
	va_end(ap);
}

void trace_tw_json(struct tw *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->json)
		return;
	sep(w);
	va_start(ap, fmt);
	sb_vprintf(w->sb, fmt, ap);
	va_end(ap);
}

const char *trace_xlat_name(const struct xlat *x, int64_t v)
{
	for (size_t i = 0; i < x->n; i++)
		if ((int64_t)x->v[i].bit == v)
			return x->v[i].name;
	return NULL;
}

void trace_tw_const(struct tw *w, int64_t v, const struct xlat *x, bool hex)
{
	const char *n = trace_xlat_name(x, v);

	if (n)
		trace_tw_name(w, n);
	else if (hex)
		trace_tw_hex(w, (uint64_t)v);
	else
		trace_tw_int(w, v);
}

void trace_tw_fset_begin(struct tw *w)
{
	sep(w);
	if (w->json)
		sb_putc(w->sb, '[');
	w->fset = 0;
}

void trace_tw_fset_name(struct tw *w, const char *name)
{
	if (w->json) {
		if (w->fset)
			sb_puts(w->sb, ", ");
		out_json_string(w->sb, name, strlen(name));
	} else {
		if (w->fset)
			sb_putc(w->sb, '|');
		sb_puts(w->sb, name);
	}
	w->fset++;
}

void trace_tw_fset_bits(struct tw *w, uint64_t v, const struct xlat *x)
{
	for (size_t i = 0; i < x->n && v; i++) {
		if (!x->v[i].bit || (v & x->v[i].bit) != x->v[i].bit)
			continue;
		trace_tw_fset_name(w, x->v[i].name);
		v &= ~x->v[i].bit;
	}
	if (!v)
		return;
	if (w->json)
		sb_printf(w->sb, "%s%llu", w->fset ? ", " : "", (unsigned long long)v);
	else
		sb_printf(w->sb, "%s%#llx", w->fset ? "|" : "", (unsigned long long)v);
	w->fset++;
}

void trace_tw_fset_end(struct tw *w, const char *zero)
{
	if (!w->fset) {
		if (!w->json)
			sb_puts(w->sb, zero ? zero : "0");
		else if (zero && strcmp(zero, "0"))
			out_json_string(w->sb, zero, strlen(zero));
	}
	if (w->json)
		sb_putc(w->sb, ']');
	w->fset = -1;
}

void trace_tw_flags(struct tw *w, uint64_t v, const struct xlat *x, const char *zero)
{
	trace_tw_fset_begin(w);
	trace_tw_fset_bits(w, v, x);
	trace_tw_fset_end(w, zero);
}

void trace_put_quoted(struct strbuf *out, const uint8_t *p, size_t n, size_t max, bool more, int hex)
{
	size_t shown = MIN(n, max);

	sb_putc(out, '"');
	for (size_t i = 0; i < shown; i++) {
		uint8_t c = p[i];
		if (hex == 2 || (hex == 1 && (c < 0x20 || c > 0x7e))) {
			sb_printf(out, "\\x%02x", c);
			continue;
		}
		switch (c) {
		case '"':
			sb_puts(out, "\\\"");
			continue;
		case '\\':
			sb_puts(out, "\\\\");
			continue;
		case '\n':
			sb_puts(out, "\\n");
			continue;
		case '\t':
			sb_puts(out, "\\t");
			continue;
		case '\r':
			sb_puts(out, "\\r");
			continue;
		case '\v':
			sb_puts(out, "\\v");
			continue;
		case '\f':
			sb_puts(out, "\\f");
			continue;
		default:
			break;
		}
		if (c >= 0x20 && c <= 0x7e) {
			sb_putc(out, (char)c);
		} else if (i + 1 < shown && p[i + 1] >= '0' && p[i + 1] <= '7') {
			/* the next character is an octal digit: all three of ours */
			sb_printf(out, "\\%03o", c);
		} else {
			sb_printf(out, "\\%o", c);
		}
	}
	sb_putc(out, '"');
	if (n > max || more)
		sb_puts(out, "...");
}

const char *trace_errno_name(int e)
{
	/*
	 * The kernel's own, which no UAPI header has (include/linux/errno.h):
	 * a call interrupted by a signal, to be restarted
	 */
	static const struct flag kernel_only[] = {
		{ 512, "ERESTARTSYS" },	  { 513, "ERESTARTNOINTR" },	    { 514, "ERESTARTNOHAND" },
		{ 515, "ENOIOCTLCMD" },	  { 516, "ERESTART_RESTARTBLOCK" }, { 517, "EPROBE_DEFER" },
		{ 524, "ENOTSUPP" },
	};
	static const struct xlat kx = { kernel_only, ARRAY_SIZE(kernel_only) };
	const char *n = trace_xlat_name(&trace_xlat_errnos, e);

	return n ? n : trace_xlat_name(&kx, e);
}

/* The text after an error's name: glibc's, or strace's for the kernel's own */
const char *trace_errno_text(int e)
{
	switch (e) {
	case 512:
		return "To be restarted if SA_RESTART is set";
	case 513:
		return "To be restarted";
	case 514:
		return "To be restarted if no handler";
	case 515:
		return "No ioctl command";
	case 516:
		return "Interrupted by signal";
	default:
		return strerror(e);
	}
}

const char *trace_signal_name(int sig)
{
	static char rt[4][16];
	static int k;
	const char *n = trace_xlat_name(&trace_xlat_signals, sig);

	if (n)
		return n;
	if (sig == TRACE_KSIGRTMIN)
		return "SIGRTMIN"; /* the kernel's: glibc keeps the first ones for itself */
	if (sig > TRACE_KSIGRTMIN && sig <= 8 * TRACE_KSIGSET_SIZE) {
		char *b = rt[k++ % 4];
		snprintf(b, sizeof(rt[0]), "SIGRT_%d", sig - TRACE_KSIGRTMIN);
		return b;
	}
	return NULL;
}

void trace_tw_signal(struct tw *w, int64_t sig)
{
	const char *n = trace_signal_name((int)sig);

	if (n)
		trace_tw_name(w, n);
	else
		trace_tw_int(w, sig);
}

/* A set member's name, without "SIG" (strace: RTMIN, RT_1); JSON: the whole name */
static void put_set_member(struct tw *w, int sig, bool first)
{
	const char *n = trace_signal_name(sig);

	if (w->json) {
		sb_puts(w->sb, first ? "" : ", ");
		if (n)
			out_json_string(w->sb, n, strlen(n));
		else
			sb_printf(w->sb, "%d", sig);
		return;
	}
	if (!first)
		sb_putc(w->sb, ' ');
	if (sig == TRACE_KSIGRTMIN)
		sb_puts(w->sb, "RTMIN");
	else if (sig > TRACE_KSIGRTMIN)
		sb_printf(w->sb, "RT_%d", sig - TRACE_KSIGRTMIN);
	else if (n)
		sb_puts(w->sb, n + 3);
	else
		sb_printf(w->sb, "%d", sig);
}

void trace_tw_sigset(struct tw *w, const uint8_t *p, size_t n)
{
	uint64_t set = 0;
	int count = 0, bits = 8 * TRACE_KSIGSET_SIZE;
	bool inverted, first = true;

	memcpy(&set, p, MIN(n, sizeof(set)));
	for (int i = 0; i < bits; i++)
		count += (set >> i) & 1;
	/* strace: more than half the signals set prints the complement */
	inverted = count > bits / 2 && !w->json;
	sep(w);
	if (inverted) {
		set = ~set;
		sb_putc(w->sb, '~');
	}
	sb_putc(w->sb, '[');
	for (int i = 0; i < bits; i++)
		if ((set >> i) & 1) {
			put_set_member(w, i + 1, first);
			first = false;
		}
	sb_putc(w->sb, ']');
}

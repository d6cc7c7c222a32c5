// SPDX-License-Identifier: MIT
/*
 * The text writer: bpftrace 0.17's text output (FORMAT.md sections 1-8).
 *
 *   Attaching 2 probes...
 *   <printf and time() output as it is>
 *   @name[k1, k2]: value        one line per entry; "@name: value" without keys
 *   @name[k]: \n<bars>\n        hist and lhist: the histogram, then a blank line
 *   Lost 5 events
 *
 * A map without entries prints an empty line, and avg and stats maps end
 * with one.
 */
#include "output/tseries.h"
#include "output/hist.h"
#include "output/mapprint.h"
#include "output/pprof.h"
#include "output/writer.h"

static void text_attached(struct strbuf *out, const struct out_ctx *oc, int nprobes)
{
	sb_printf(out, "Attaching %d probe%s...\n", nprobes, nprobes == 1 ? "" : "s");
}

void out_text_text(struct strbuf *out, enum text_kind kind, const char *p, size_t n)
{
	sb_putn(out, p, n);
	if (kind == TEXT_JOIN)
		sb_putc(out, '\n');
}

void out_text_lost(struct strbuf *out, const struct out_ctx *oc, uint64_t n)
{
	sb_printf(out, "Lost %llu events\n", (unsigned long long)n);
}

void out_text_value(struct strbuf *out, const struct out_ctx *oc, const struct type *t,
		       const void *data)
{
	out_value_format(oc, out, t, data);
	sb_putc(out, '\n');
}

static void text_map_begin(struct map_walk *w)
{
}

static void text_map_entry(struct map_walk *w, const struct map_item *it)
{
	const struct type *t = w->m->value;
	struct strbuf *out = w->out;

	sb_printf(out, "@%s", w->m->name);
	if (it->key) {
		sb_putc(out, '[');
		out_map_key_format(w->oc, out, w->m, it->key, ", ");
		sb_putc(out, ']');
	}
	bool modern = w->oc->plan && w->oc->plan->modern;
	if (t->kind == TY_TSERIES) {
		sb_puts(out, ":\n");
		out_tseries_text(out, t, it->buckets, it->nbuckets, it->ts_first, it->ts_last);
		sb_putc(out, '\n');
		return;
	}
	if (t->kind == TY_HIST || t->kind == TY_LHIST) {
		/* 0.17 writes "@h: " before a histogram; today's bpftrace "@h:" */
		sb_puts(out, modern ? ":\n" : ": \n");
		if (modern || t->count) /* lhist ignores print()'s div */
			out_hist_modern_print(out, t, it->buckets, it->nbuckets,
					      t->kind == TY_HIST ? it->div : 1);
		else if (t->kind == TY_HIST)
			out_hist_print_div(out, it->buckets, it->div);
		else
			out_lhist_print(out, it->buckets, t->lmin, t->lmax, t->lstep);
		sb_putc(out, '\n');
		return;
	}
	sb_puts(out, ": ");
	out_value_format(w->oc, out, t, it->value);
	sb_putc(out, '\n');
}

static void text_map_end(struct map_walk *w)
{
	enum type_kind k = w->m->value->kind;

	if (w->oc->plan && w->oc->plan->modern)
		return; /* today's bpftrace: an empty map prints nothing */
	if (!w->n)
		sb_putc(w->out, '\n');
	if (k == TY_AVG || k == TY_STATS)
		sb_putc(w->out, '\n'); /* bpftrace 0.17's */
}

const struct writer out_text_writer = {
	.attached = text_attached,
	.text = out_text_text,
	.lost = out_text_lost,
	.value = out_text_value,
	.map_begin = text_map_begin,
	.map_entry = text_map_entry,
	.map_end = text_map_end,
};

const struct writer *out_writer_for(enum output_format f)
{
	switch (f) {
	case OUTPUT_JSON:
		return &out_json_writer;
	case OUTPUT_FOLDED:
		return &out_folded_writer;
	case OUTPUT_PROMETHEUS:
		return &out_prometheus_writer;
	case OUTPUT_PPROF:
		return &out_pprof_writer;
	default:
		return &out_text_writer;
	}
}

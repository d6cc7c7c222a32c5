// SPDX-License-Identifier: MIT
/*
 * The Prometheus writer: maps in Prometheus's text exposition format
 * (version 0.0.4), for -f prometheus and the /metrics page of --metrics.
 *
 *   @syscalls[comm] = count()  ->  # HELP lantern_syscalls_total @syscalls: count() by comm
 *                                  # TYPE lantern_syscalls_total counter
 *                                  lantern_syscalls_total{comm="bash"} 42
 *
 * A map @name is the family lantern_name ("lantern_map" for @):
 *   count()                     counter  lantern_name_total
 *   sum, min, max, avg, ints    gauge    lantern_name (avg: the same integer as the text)
 *   stats()                     summary  lantern_name_sum, lantern_name_count
 *   hist(), lhist()             histogram lantern_name_bucket{le=...} (cumulative),
 *                                        lantern_name_sum, lantern_name_count
 * Other values (strings, stacks, tuples, structs) are not numbers: a
 * comment says the map is left out.
 *
 * Keys become labels, named after the builtin written at that position in
 * every access of the map (comm, pid, probe, kstack...), key0, key1...
 * otherwise. Stacks are label values folded (root first, ';' between
 * frames). hist buckets are exact: le="-1" for the negative values, "0",
 * then 2^k - 1, from the first to the last bucket holding a value; lhist
 * gives all its buckets, le = the bucket's last integer. Their _sum exists
 * because the programs keep it when this format or --metrics is asked for
 * (options_hist_sums()).
 */
#include "output/prometheus.h"
#include "output/escape.h"
#include "output/folded.h"
#include "output/hist.h"
#include "output/mapprint.h"
#include "output/stats.h"
#include "output/writer.h"
#include "maps/buckets.h"

#include <inttypes.h>
#include <string.h>

#define MAX_LABELS 32

enum family_kind { FAM_NONE, FAM_COUNTER, FAM_GAUGE, FAM_SUMMARY, FAM_HISTOGRAM };

static enum family_kind family_kind(const struct type *t)
{
	switch (t->kind) {
	case TY_COUNT:
		return FAM_COUNTER;
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_AVG:
	case TY_INT:
		return FAM_GAUGE;
	case TY_STATS:
		return FAM_SUMMARY;
	case TY_HIST:
	case TY_LHIST:
		return FAM_HISTOGRAM;
	default:
		return FAM_NONE;
	}
}

/* lantern_NAME: bytes a metric name cannot hold become '_' */
static void trace_family_name(struct strbuf *out, const struct map_info *m)
{
	sb_puts(out, "lantern_");
	if (!*m->name)
		sb_puts(out, "map");
	for (const char *c = m->name; *c; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || *c == '_';
		sb_putc(out, ok ? *c : '_');
	}
}

static bool label_name_ok(const char *s)
{
	if (!*s || (s[0] >= '0' && s[0] <= '9') || !strncmp(s, "__", 2))
		return false;
	for (const char *c = s; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_'))
			return false;
	/* the labels a histogram and a summary add themselves */
	return strcmp(s, "le") && strcmp(s, "quantile");
}

/* The label names of m's keys: its builtins where they are unique and valid, else keyN. */
static uint32_t label_names(const struct map_info *m, char names[][32])
{
	uint32_t n = m->key ? m->key->nfields : 0;

	if (n > MAX_LABELS)
		n = MAX_LABELS;
	for (uint32_t i = 0; i < n; i++) {
		const char *b = m->key_names ? m->key_names[i] : NULL;
		bool ok = b && strlen(b) < 32 && label_name_ok(b);
		for (uint32_t j = 0; ok && j < i; j++)
			ok = strcmp(names[j], b) != 0;
		if (ok)
			strcpy(names[i], b);
		else
			snprintf(names[i], 32, "key%u", i);
	}
	return n;
}

/* A label value: valid UTF-8 with \ " and newline escaped; other bytes become '?'. */
static void label_value(struct strbuf *out, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;

	for (size_t i = 0; i < n;) {
		if (p[i] == '\\' || p[i] == '"') {
			sb_putc(out, '\\');
			sb_putc(out, (char)p[i++]);
		} else if (p[i] == '\n') {
			sb_puts(out, "\\n");
			i++;
		} else if (p[i] >= 0x20 && p[i] < 0x7f) {
			sb_putc(out, (char)p[i++]);
		} else {
			size_t len = out_utf8_len(p + i, n - i);
			if (len)
				sb_putn(out, s + i, len);
			else
				sb_putc(out, '?');
			i += len ? len : 1;
		}
	}
}

/* {name="value",...} of an entry's key, and le="..." when le is given; nothing when empty. */
static void labels(struct map_walk *w, const struct map_item *it, const char *le)
{
	const struct map_info *m = w->m;
	char names[MAX_LABELS][32];
	uint32_t n = it->key ? label_names(m, names) : 0;
	struct strbuf v = { 0 };

	if (!n && !le)
		return;
	sb_putc(w->out, '{');
	for (uint32_t i = 0; i < n; i++) {
		const struct field *f = &m->key->fields[i];
		sb_reset(&v);
		if (f->type->kind == TY_STACK)
			out_stack_folded(w->oc, &v, f->type, it->key + f->offset, false);
		else
			out_key_field_format(w->oc, &v, f->type, it->key + f->offset);
		sb_printf(w->out, "%s%s=\"", i ? "," : "", names[i]);
		label_value(w->out, sb_str(&v), v.len);
		sb_putc(w->out, '"');
	}
	if (le)
		sb_printf(w->out, "%sle=\"%s\"", n ? "," : "", le);
	sb_putc(w->out, '}');
	sb_free(&v);
}

/* One sample: family + suffix, the labels, the value. */
static void sample(struct map_walk *w, const struct map_item *it, const char *suffix,
		   const char *le, const char *value)
{
	trace_family_name(w->out, w->m);
	sb_puts(w->out, suffix);
	labels(w, it, le);
	sb_printf(w->out, " %s\n", value);
}

static void sample_int(struct map_walk *w, const struct map_item *it, const char *suffix,
		       int64_t v, bool is_signed)
{
	char num[32];

	snprintf(num, sizeof(num), is_signed ? "%" PRId64 : "%" PRIu64, v);
	sample(w, it, suffix, NULL, num);
}

/* The largest integer bucket b of hist(v, k) holds, as text. */
static void hist_le(char *buf, size_t n, uint32_t b, const struct type *t)
{
	struct bucket_bounds bb;

	if (t->count) {
		out_hist_modern_bounds(t, b, &bb);
		if (bb.has_max)
			snprintf(buf, n, "%" PRId64, bb.max);
		else
			snprintf(buf, n, "%" PRIu64, UINT64_MAX);
	} else if (b == 0)
		snprintf(buf, n, "-1");
	else if (b >= 65)
		snprintf(buf, n, "%" PRIu64, UINT64_MAX);
	else
		snprintf(buf, n, "%" PRIu64, (UINT64_C(1) << (b - 1)) - 1);
}

static void histogram(struct map_walk *w, const struct map_item *it)
{
	const struct type *t = w->m->value;
	uint32_t first = 0, last = it->nbuckets ? it->nbuckets - 1 : 0;
	uint64_t cum = 0, total = out_hist_total(it->buckets, it->nbuckets);
	char le[32];

	if (t->kind == TY_HIST) {
		/* from le="0" (or "-1" when negatives came) to the last bucket used */
		first = it->buckets[0] ? 0 : 1;
		while (last > 1 && !it->buckets[last])
			last--;
	} else {
		last--; /* the bucket >= max is only in +Inf */
	}
	for (uint32_t b = 0; b <= last && b < it->nbuckets; b++) {
		cum += it->buckets[b];
		if (b < first)
			continue;
		if (t->kind == TY_HIST)
			hist_le(le, sizeof(le), b, t);
		else
			snprintf(le, sizeof(le), "%" PRId64, t->lmin + (int64_t)b * t->lstep - 1);
		char num[32];
		snprintf(num, sizeof(num), "%" PRIu64, cum);
		sample(w, it, "_bucket", le, num);
	}
	char num[32];
	snprintf(num, sizeof(num), "%" PRIu64, total);
	sample(w, it, "_bucket", "+Inf", num);
	if (it->has_sum)
		sample_int(w, it, "_sum", it->sum, true);
	sample(w, it, "_count", NULL, num);
}

static void prom_map_entry(struct map_walk *w, const struct map_item *it)
{
	const struct type *t = w->m->value;

	switch (family_kind(t)) {
	case FAM_COUNTER:
		sample_int(w, it, "_total", load_i64(it->value), false);
		break;
	case FAM_GAUGE:
		if (t->kind == TY_AVG)
			sample_int(w, it, "", out_avg_value(load_i64(it->value), load_i64(it->value + 8)), true);
		else if (t->kind == TY_INT)
			sample_int(w, it, "", out_value_int(t, it->value), t->is_signed);
		else
			sample_int(w, it, "", load_i64(it->value), t->kind != TY_SUM || t->is_signed);
		break;
	case FAM_SUMMARY:
		sample_int(w, it, "_sum", load_i64(it->value), t->is_signed);
		sample_int(w, it, "_count", load_i64(it->value + 8), false);
		break;
	case FAM_HISTOGRAM:
		histogram(w, it);
		break;
	case FAM_NONE:
		break;
	}
}

/* # HELP and # TYPE of the map's family, or why it is left out. */
static void prom_map_begin(struct map_walk *w)
{
	static const char *const type_names[] = {
		[FAM_COUNTER] = "counter",
		[FAM_GAUGE] = "gauge",
		[FAM_SUMMARY] = "summary",
		[FAM_HISTOGRAM] = "histogram",
	};
	const struct map_info *m = w->m;
	enum family_kind k = family_kind(m->value);
	const char *suffix = k == FAM_COUNTER ? "_total" : "";
	struct strbuf what = { 0 };
	char names[MAX_LABELS][32];
	uint32_t n = label_names(m, names);

	type_name(&what, m->value);
	if (k != FAM_NONE && m->value->kind != TY_INT && !strchr(sb_str(&what), '('))
		sb_puts(&what, "()"); /* count(), hist() */
	if (k == FAM_NONE) {
		sb_printf(w->out, "# lantern: @%s holds %s values, not numbers: not exported\n",
			  m->name, sb_str(&what));
		sb_free(&what);
		return;
	}
	sb_puts(w->out, "# HELP ");
	trace_family_name(w->out, m);
	sb_printf(w->out, "%s @%s: %s", suffix, m->name, sb_str(&what));
	for (uint32_t i = 0; i < n; i++)
		sb_printf(w->out, "%s%s", i ? ", " : " by ", names[i]);
	sb_puts(w->out, "\n# TYPE ");
	trace_family_name(w->out, m);
	sb_printf(w->out, "%s %s\n", suffix, type_names[k]);
	sb_free(&what);
}

static void prom_map_end(struct map_walk *w)
{
}

/* "Attaching N probes..." and lost events as comments, so the text still parses */
static void prom_attached(struct strbuf *out, const struct out_ctx *oc, int nprobes)
{
	sb_printf(out, "# Attaching %d probe%s...\n", nprobes, nprobes == 1 ? "" : "s");
}

static void prom_lost(struct strbuf *out, const struct out_ctx *oc, uint64_t n)
{
	sb_printf(out, "# Lost %" PRIu64 " events\n", n);
}

const struct writer out_prometheus_writer = {
	.attached = prom_attached,
	.text = out_text_text,
	.lost = prom_lost,
	.value = out_text_value,
	.map_begin = prom_map_begin,
	.map_entry = prom_map_entry,
	.map_end = prom_map_end,
};

void out_prometheus_page(const struct out_ctx *oc, uint64_t lost, struct strbuf *out)
{
	struct out_ctx poc = *oc;

	poc.writer = &out_prometheus_writer;
	out_maps_print_all(&poc, out);
	sb_printf(out,
		  "# HELP lantern_lost_events_total Events the ring buffer could not take.\n"
		  "# TYPE lantern_lost_events_total counter\n"
		  "lantern_lost_events_total %" PRIu64 "\n",
		  lost);
}

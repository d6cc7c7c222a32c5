// SPDX-License-Identifier: MIT
/*
 * The JSON writer: bpftrace 0.17's -f json output, one object per line.
 *
 *   {"type": "attached_probes", "data": {"probes": 2}}
 *   {"type": "printf", "data": "hello\n"}
 *   {"type": "time", "data": "10:46:27\n"}
 *   {"type": "lost_events", "data": {"events": 143}}
 *   {"type": "map", "data": {"@c": {"1,x": 5, "2,y": 6}}}
 *   {"type": "stats", "data": {"@st": {"count": 1, "average": 9, "total": 9}}}
 *   {"type": "hist", "data": {"@h": [{"max": -1, "count": 1}, {"min": 0, "max": 0, "count": 0}]}}
 *
 * The rules, and where lantern differs from 0.17, are in FORMAT.md
 * section 11.
 */
#include "output/tseries.h"
#include "output/json.h"
#include "output/escape.h"
#include "output/hist.h"
#include "output/mapprint.h"
#include "output/stats.h"
#include "output/value_text.h"
#include "output/writer.h"

#include <inttypes.h>
#include <string.h>

static const char hexdigits[] = "0123456789abcdef";

static void put_u00(struct strbuf *out, uint8_t b)
{
	char e[6] = { '\\', 'u', '0', '0', hexdigits[b >> 4], hexdigits[b & 15] };

	sb_putn(out, e, sizeof(e));
}

void out_json_string(struct strbuf *out, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0, run;

	sb_putc(out, '"');
	while (i < n) {
		/* plain ASCII runs in one go */
		for (run = i; run < n && p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' &&
			      p[run] != '\\';
		     run++)
			;
		sb_putn(out, s + i, run - i);
		if ((i = run) >= n)
			break;
		switch (p[i]) {
		case '"':
			sb_puts(out, "\\\"");
			break;
		case '\\':
			sb_puts(out, "\\\\");
			break;
		case '\n':
			sb_puts(out, "\\n");
			break;
		case '\r':
			sb_puts(out, "\\r");
			break;
		case '\t':
			sb_puts(out, "\\t");
			break;
		default:
			if (p[i] >= 0x80 && (run = out_utf8_len(p + i, n - i))) {
				sb_putn(out, s + i, run);
				i += run;
				continue;
			}
			put_u00(out, p[i]);
			break;
		}
		i++;
	}
	sb_putc(out, '"');
}

static void json_attached(struct strbuf *out, const struct out_ctx *oc, int nprobes)
{
	if (oc->plan && oc->plan->modern) /* today's bpftrace adds a count */
		sb_printf(out, "{\"type\": \"attached_probes\", \"count\": %d, \"data\": {\"probes\": %d}}\n",
			  nprobes, nprobes);
	else
		sb_printf(out, "{\"type\": \"attached_probes\", \"data\": {\"probes\": %d}}\n", nprobes);
}

static void json_text(struct strbuf *out, enum text_kind kind, const char *p, size_t n)
{
	/* bpftrace 0.17 calls system()'s record "syscall" */
	static const char *const types[] = {
		[TEXT_PRINTF] = "printf", [TEXT_TIME] = "time", [TEXT_JOIN] = "join",
		[TEXT_SYSTEM] = "syscall", [TEXT_CAT] = "cat",
	};

	sb_printf(out, "{\"type\": \"%s\", \"data\": ", types[kind]);
	out_json_string(out, p, n);
	sb_puts(out, "}\n");
}

static void json_lost(struct strbuf *out, const struct out_ctx *oc, uint64_t n)
{
	if (oc->plan && oc->plan->modern)
		sb_printf(out, "{\"type\": \"lost_events\", \"count\": %" PRIu64
			  ", \"data\": {\"events\": %" PRIu64 "}}\n", n, n);
	else
		sb_printf(out, "{\"type\": \"lost_events\", \"data\": {\"events\": %" PRIu64 "}}\n", n);
}

/* bpftrace's object for a helper's failure under -k */
static void json_helper_error(struct strbuf *out, const struct out_ctx *oc, const char *helper,
			      int64_t ret, const char *file, uint32_t line, uint32_t col)
{
	if (oc->plan && oc->plan->modern) { /* today's bpftrace adds the reason and the file */
		sb_puts(out, "{\"type\": \"helper_error\", \"msg\": ");
		const char *msg = ret ? strerror((int)-ret) : "not found";
		out_json_string(out, msg, strlen(msg));
		sb_printf(out, ", \"helper\": \"%s\", \"retcode\": %" PRId64 ", \"filename\": ", helper, ret);
		out_json_string(out, file, strlen(file));
		sb_printf(out, ", \"line\": %u, \"col\": %u}\n", line, col);
		return;
	}
	sb_printf(out,
		  "{\"type\": \"helper_error\", \"helper\": \"%s\", \"retcode\": %" PRId64
		  ", \"line\": %u, \"col\": %u}\n",
		  helper, ret, line, col);
}

static void json_value(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		       const uint8_t *p);

struct json_rec {
	const struct out_ctx *oc;
	struct strbuf *out;
	bool first;
};

/* "name": value of a struct's field */
static void json_field(void *arg, const struct field *f, const uint8_t *data)
{
	struct json_rec *jr = arg;

	sb_puts(jr->out, jr->first ? "" : ", ");
	jr->first = false;
	out_json_string(jr->out, f->name, strlen(f->name));
	sb_puts(jr->out, ": ");
	if (f->bit_size || f->type->kind == TY_PTR || f->type->kind == TY_INT)
		sb_printf(jr->out, f->type->is_signed || f->type->kind == TY_PTR ? "%lld" : "%llu",
			  (long long)out_field_int(f, data));
	else if (f->type->kind == TY_STR)
		out_json_string(jr->out, (const char *)data,
			    strnlen((const char *)data, f->read_size ? f->read_size : f->type->size));
	else
		json_value(jr->oc, jr->out, f->type, data);
}

/*
 * A value: numbers as the text shows them, strings quoted, tuples and
 * arrays as arrays, structs as objects ({ "a": 1, "b": "x" }, bpftrace's
 * spacing).
 */
static void json_value(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		       const uint8_t *p)
{
	struct strbuf tmp = { 0 };
	int64_t total, count;

	switch (t->kind) {
	case TY_PTR: { /* a number, not the text's 0x... (which is no JSON) */
		uint64_t u;
		memcpy(&u, p, sizeof(u));
		sb_printf(out, "%" PRIu64, u);
		break;
	}
	case TY_INT:
		if (t->en) { /* an enum's value as a number, as bpftrace keeps JSON */
			struct type plain = *t;
			plain.en = NULL;
			out_value_format(oc, out, &plain, p);
			break;
		}
		/* fallthrough */
	case TY_COUNT:
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_AVG:
		out_value_format(oc, out, t, p);
		break;
	case TY_STR:
		out_str_format(oc, &tmp, t, (const char *)p);
		out_json_string(out, sb_str(&tmp), tmp.len);
		break;
	case TY_PROBE:
	case TY_STACK:
	case TY_SYM:
	case TY_TIMESTAMP:
		out_value_format(oc, &tmp, t, p);
		out_json_string(out, sb_str(&tmp), tmp.len);
		break;
	case TY_TUPLE:
		if (type_is_named_tuple(t)) {
			/* a record (today's bpftrace): an object */
			sb_putc(out, '{');
			for (uint32_t i = 0; i < t->nfields; i++) {
				if (i)
					sb_puts(out, ", ");
				out_json_string(out, t->fields[i].name, strlen(t->fields[i].name));
				sb_puts(out, ": ");
				json_value(oc, out, t->fields[i].type, p + t->fields[i].offset);
			}
			sb_putc(out, '}');
			break;
		}
		sb_putc(out, '[');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				sb_putc(out, ',');
			json_value(oc, out, t->fields[i].type, p + t->fields[i].offset);
		}
		sb_putc(out, ']');
		break;
	case TY_RECORD: {
		/* { "m": 2 } in 0.17; today's bpftrace writes {"m": 2} */
		bool modern = oc->plan && oc->plan->modern;
		struct json_rec jr = { oc, out, true };
		sb_puts(out, modern ? "{" : "{ ");
		out_record_fields(t, p, json_field, &jr);
		sb_puts(out, modern ? "}" : " }");
		break;
	}
	case TY_ARRAY:
		sb_putc(out, '[');
		for (uint32_t i = 0; i < t->count; i++) {
			if (i)
				sb_putc(out, ',');
			json_value(oc, out, t->elem, p + i * t->elem->size);
		}
		sb_putc(out, ']');
		break;
	case TY_STATS:
		memcpy(&total, p, 8);
		memcpy(&count, p + 8, 8);
		sb_printf(out,
			  "{\"count\": %" PRIu64 ", \"average\": %" PRId64 ", \"total\": %" PRId64
			  "}",
			  (uint64_t)count, out_avg_value(total, (uint64_t)count), total);
		break;
	default:
		/* buf, ntop, macaddr, strerror...: their text, quoted */
		if (out_value_text_kind(t)) {
			out_value_format(oc, &tmp, t, p);
			out_json_string(out, sb_str(&tmp), tmp.len);
		} else {
			sb_puts(out, "null");
		}
		break;
	}
	sb_free(&tmp);
}

static void json_print_value(struct strbuf *out, const struct out_ctx *oc, const struct type *t,
			     const void *data)
{
	sb_puts(out, "{\"type\": \"value\", \"data\": ");
	json_value(oc, out, t, data);
	sb_puts(out, "}\n");
}

/* {"min": 4, "max": 7, "count": 1}; the open buckets have no min or no max */
static void json_bucket(struct strbuf *out, const struct type *t, uint32_t i, uint64_t count,
			bool exact)
{
	struct bucket_bounds bb;

	if (exact)
		out_hist_modern_bounds(t, i, &bb);
	else if (t->kind == TY_HIST)
		out_hist_bounds(i, &bb);
	else
		out_lhist_bounds(i, t->lmin, t->lmax, t->lstep, &bb);
	sb_putc(out, '{');
	if (bb.has_min)
		sb_printf(out, "\"min\": %" PRId64 ", ", bb.min);
	if (bb.has_max)
		sb_printf(out, "\"max\": %" PRId64 ", ", bb.max);
	sb_printf(out, "\"count\": %" PRIu64 "}", count);
}

/* [bucket, ...]: the buckets the text shows; [] when every count is 0 */
static void json_buckets(struct strbuf *out, const struct type *t, const struct map_item *it,
			 bool modern)
{
	uint64_t folded[HIST_LAST_BUCKET + 1];
	const uint64_t *b = it->buckets;
	uint32_t n = it->nbuckets, lo = 0, hi = 0;
	/* today's bpftrace's buckets are exact; 0.17 folds those from 2^31 up */
	bool exact = modern || t->count;

	if (t->kind == TY_HIST && !exact) {
		n = out_hist_fold(it->buckets, folded);
		b = folded;
	}
	sb_putc(out, '[');
	if (out_hist_range(b, n, &lo, &hi)) {
		for (uint32_t i = lo; i <= hi; i++) {
			if (i > lo)
				sb_puts(out, ", ");
			json_bucket(out, t, i, t->kind == TY_HIST ? b[i] / it->div : b[i], exact);
		}
	}
	sb_putc(out, ']');
}

static const char *map_type(const struct type *t)
{
	switch (t->kind) {
	case TY_HIST:
	case TY_LHIST:
		return "hist";
	case TY_AVG:
	case TY_STATS:
		return "stats";
	case TY_TSERIES:
		return "tseries";
	default:
		return "map";
	}
}

/* {"type": "map", "data": {"@name": {"key": value, ...}}}; nothing when empty */
static void json_map_begin(struct map_walk *w)
{
	struct strbuf name = { 0 };

	if (!w->n)
		return;
	sb_printf(&name, "@%s", w->m->name);
	sb_printf(w->out, "{\"type\": \"%s\", \"data\": {", map_type(w->m->value));
	out_json_string(w->out, sb_str(&name), name.len);
	sb_puts(w->out, w->m->key ? ": {" : ": ");
	sb_free(&name);
}

static void json_map_entry(struct map_walk *w, const struct map_item *it)
{
	const struct type *t = w->m->value;
	struct strbuf key = { 0 };

	if (it->key) {
		/* the key fields as the text writes them, joined by "," */
		out_map_key_format(w->oc, &key, w->m, it->key, ",");
		if (w->i)
			sb_puts(w->out, ", ");
		out_json_string(w->out, sb_str(&key), key.len);
		sb_puts(w->out, ": ");
		sb_free(&key);
	}
	if (t->kind == TY_TSERIES)
		out_tseries_json(w->out, t, it->buckets, it->nbuckets, it->ts_first, it->ts_last);
	else if (t->kind == TY_HIST || t->kind == TY_LHIST)
		json_buckets(w->out, t, it, w->oc->plan && w->oc->plan->modern);
	else
		json_value(w->oc, w->out, t, it->value);
}

static void json_map_end(struct map_walk *w)
{
	if (w->n)
		sb_puts(w->out, w->m->key ? "}}}\n" : "}}\n");
}

const struct writer out_json_writer = {
	.attached = json_attached,
	.text = json_text,
	.lost = json_lost,
	.helper_error = json_helper_error,
	.value = json_print_value,
	.map_begin = json_map_begin,
	.map_entry = json_map_entry,
	.map_end = json_map_end,
};

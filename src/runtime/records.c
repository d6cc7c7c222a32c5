// SPDX-License-Identifier: MIT
/* Record handlers, one per record kind: see records.h. */
#include "runtime/records.h"
#include "runtime/ustack.h"
#include "maps/mapread.h"
#include "output/printf.h"
#include "output/timefmt.h"
#include "output/writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A handler: 0, or -1 to stop reading records. */
typedef int (*record_fn)(struct loop *l, const struct record_desc *r, const uint8_t *data);

/* printf(), system(), cat(): the text the format makes of the record's arguments */
static void render_printf(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	const struct out_ctx *oc = &l->s->oc;
	struct fmt_value vals[64] = { 0 };
	struct strbuf tmp[64];
	uint32_t n = r->args->nfields;

	for (uint32_t i = 0; i < n; i++) {
		const struct field *f = &r->args->fields[i];
		const uint8_t *p = data + 8 + f->offset;
		struct type *t = f->type;
		uint64_t u;
		memset(&tmp[i], 0, sizeof(tmp[i]));
		vals[i].kind = out_fmt_kind_of(t);
		switch (t->kind) {
		case TY_INT:
		case TY_PTR:
			u = 0;
			memcpy(&u, p, t->size < 8 ? t->size : 8);
			if (t->size < 8 && t->is_signed && (u >> (t->size * 8 - 1)))
				u |= ~0ull << (t->size * 8);
			vals[i].u = u;
			if (t->en && r->fmt->specs[i].conv == FMT_CONV_S) {
				/* an enum's value for %s: its member's name, else the number */
				const char *m = type_enum_name(t->en, (int64_t)u);
				if (m)
					sb_puts(&tmp[i], m);
				else
					sb_printf(&tmp[i], "%lld", (long long)u);
				vals[i].kind = FMT_ARG_STR;
				vals[i].s.p = sb_str(&tmp[i]);
				vals[i].s.len = tmp[i].len;
			}
			vals[i].is_bool = t->is_bool;
			break;
		case TY_STR:
			vals[i].s.p = (const char *)p;
			vals[i].s.len = t->size;
			if (t->count) { /* a str() that may have been cut: its trailer */
				out_str_format(oc, &tmp[i], t, (const char *)p);
				vals[i].s.p = sb_str(&tmp[i]);
				vals[i].s.len = tmp[i].len;
			}
			break;
		case TY_BUF: /* buf(): the length, then the bytes */
			memcpy(&u, p, 8);
			vals[i].s.p = (const char *)p + 8;
			vals[i].s.len = u < t->count ? u : t->count;
			break;
		case TY_STACK:
			out_stack_format(oc, &tmp[i], t, p, "        ");
			vals[i].s.p = sb_str(&tmp[i]);
			vals[i].s.len = tmp[i].len;
			break;
		default:
			/* probe names, tuples: their text */
			out_value_format(oc, &tmp[i], t, p);
			vals[i].kind = FMT_ARG_STR;
			vals[i].s.p = sb_str(&tmp[i]);
			vals[i].s.len = tmp[i].len;
			break;
		}
	}
	out_printf_render(&l->text, r->fmt, vals);
	for (uint32_t i = 0; i < n; i++)
		sb_free(&tmp[i]);
}

static int rec_printf(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	render_printf(l, r, data);
	l->s->oc.writer->text(&l->line, TEXT_PRINTF, sb_str(&l->text), l->text.len);
	return 0;
}

static int rec_exit(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	int64_t code;

	if (r->args->nfields) { /* exit(code): lantern's exit status */
		memcpy(&code, data + 8 + r->args->fields[0].offset, 8);
		l->s->exit_code = (int)code;
	}
	l->exit_seen = true;
	l->s->done = true;
	return -1; /* stop here: what follows exit() is not printed */
}

static int rec_print_map(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	out_map_print(&l->s->oc, r->map, r->top, r->div, &l->line);
	return 0;
}

static int rec_print_value(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	const struct field *f = &r->args->fields[0];
	l->s->oc.writer->value(&l->line, &l->s->oc, f->type, data + 8 + f->offset);
	return 0;
}

static int rec_frontend(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	if (l->s->fe->record)
		l->s->fe->record(l->s, r, data, l->size);
	return 0;
}

static int rec_clear_map(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	maps_clear(&l->s->maps, r->map);
	if (r->map->array && l->s->maps.emptied && r->map->bpf_map >= 0)
		l->s->maps.emptied[r->map->bpf_map] = 1; /* its entry is gone (today's bpftrace) */
	return 0;
}

static int rec_zero_map(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	maps_zero(&l->s->maps, r->map);
	if (l->s->maps.emptied && r->map->bpf_map >= 0)
		l->s->maps.emptied[r->map->bpf_map] = 0; /* zero() keeps the entry */
	return 0;
}

static int rec_time(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	if (out_timefmt_time(&l->text, r->text, time(NULL)))
		l->s->oc.writer->text(&l->line, TEXT_TIME, sb_str(&l->text), l->text.len);
	else
		fprintf(stderr, "%s\n", TIMEFMT_ERROR);
	return 0;
}

static int rec_join(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	uint64_t n;

	memcpy(&n, data + 8, 8);
	for (uint64_t i = 0; i < n && i < JOIN_MAX_ARGS; i++) {
		const char *str = (const char *)data + 16 + i * JOIN_ARG_SIZE;
		if (i)
			sb_puts(&l->text, r->text);
		sb_putn(&l->text, str, strnlen(str, JOIN_ARG_SIZE));
	}
	l->s->oc.writer->text(&l->line, TEXT_JOIN, sb_str(&l->text), l->text.len);
	return 0;
}

/* At most max bytes of in, appended to out. */
static void read_stream(FILE *in, struct strbuf *out, uint64_t max)
{
	char buf[4096];
	size_t n;

	while (max && (n = fread(buf, 1, MIN(sizeof(buf), max), in)) > 0) {
		sb_putn(out, buf, n);
		max -= n;
	}
}

/*
 * system() and cat(): the text names a command to run or a file to print;
 * what it gives is printed in order with lantern's other output, as one
 * "syscall" or "cat" record in JSON (as bpftrace 0.17). cat() prints at
 * most BPFTRACE_CAT_BYTES_MAX bytes.
 */
static int rec_stream(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	bool cmd = r->kind == REC_SYSTEM;
	struct strbuf got = { 0 };
	const char *what;
	FILE *f;

	if (l->skip_commands) { /* Ctrl-C: what was queued is dropped, counted */
		l->skipped++;
		return 0;
	}
	render_printf(l, r, data);
	rt_out_flush(l->s);
	what = sb_str(&l->text);
	f = cmd ? popen(what, "r") : fopen(what, "re");
	if (!f) {
		if (cmd)
			fprintf(stderr, "ERROR: system(\"%s\"): %s\n", what, strerror(errno));
		else
			fprintf(stderr, "ERROR: failed to open file '%s': %s\n", what, strerror(errno));
	} else {
		read_stream(f, &got, cmd ? UINT64_MAX : l->s->plan.settings.v[SET_MAX_CAT_BYTES]);
		if (cmd)
			pclose(f);
		else
			fclose(f);
	}
	l->s->oc.writer->text(&l->line, cmd ? TEXT_SYSTEM : TEXT_CAT, sb_str(&got), got.len);
	sb_free(&got);
	return 0;
}

/* -k: a helper failed; a warning at its call in the script (as bpftrace) */
static int rec_helper_error(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	struct diag *d = &l->s->plan.diag;
	int64_t ret;

	memcpy(&ret, data + 8, 8);
	if (l->s->oc.writer->helper_error) { /* -f json: an object of the output */
		uint32_t line = 0, col = 0;
		const char *file = "stdin";
		if (d->src) {
			source_pos(d->src, r->span.lo, &line, &col);
			file = source_name_at(d->src, r->span.lo);
		}
		l->s->oc.writer->helper_error(&l->line, &l->s->oc, r->text, ret, file, line, col);
		return 0;
	}
	if (ret == 0) /* a lookup that found nothing (-kk): bpftrace's words */
		diag_warn(d, r->span, E_HELPER_FAILED, "Failed to %s: 0", r->text);
	else
		diag_warn(d, r->span, E_HELPER_FAILED, "Failed to %s: %s (%lld)", r->text,
			  strerror((int)-ret), (long long)ret);
	rt_out_flush(l->s);
	diag_flush(d, l->s->errout);
	return 0;
}

/* an index out of bounds, ...: a warning at its place in the script, each time (as bpftrace) */
static int rec_runtime_error(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	struct diag *d = &l->s->plan.diag;

	diag_warn(d, r->span, E_RUNTIME_CHECK, "%s", r->text);
	rt_out_flush(l->s);
	diag_flush(d, l->s->errout);
	return 0;
}

/* errorf(), warnf(): the text, as an error or warning at their place in the script */
static int rec_errorf(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	struct diag *d = &l->s->plan.diag;

	render_printf(l, r, data);
	if (l->text.len && l->text.s[l->text.len - 1] == '\n')
		l->text.s[--l->text.len] = 0;
	diag_report(d, r->kind == REC_ERRORF ? DIAG_ERROR : DIAG_WARNING, r->span, E_SCRIPT, "%s",
		    sb_str(&l->text));
	if (r->kind == REC_ERRORF)
		l->script_errors++;
	rt_out_flush(l->s);
	diag_flush(d, l->s->errout);
	return 0;
}

static int rec_ustack(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	rt_ustack_snapshot(l->s, r, data, l->size);
	return 0;
}

static int rec_ustack_update(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	rt_ustack_update(l->s, r, data);
	return 0;
}

/* unwatch(addr): every provider watching addresses forgets addr */
static int rec_unwatch(struct loop *l, const struct record_desc *r, const uint8_t *data)
{
	const struct type *t = r->args->fields[0].type;
	uint64_t addr = 0;

	memcpy(&addr, data + 8 + r->args->fields[0].offset, t->size < 8 ? t->size : 8);
	vec_foreach(&l->s->attach.watches, w)
	{
		if (w->unwatch)
			w->unwatch(w->arg, addr);
	}
	return 0;
}

static const record_fn handlers[REC_COUNT_] = {
	[REC_PRINTF] = rec_printf,	  [REC_EXIT] = rec_exit,   [REC_PRINT_MAP] = rec_print_map,
	[REC_CLEAR_MAP] = rec_clear_map, [REC_ZERO_MAP] = rec_zero_map, [REC_TIME] = rec_time,
	[REC_JOIN] = rec_join,		  [REC_SYSTEM] = rec_stream, [REC_CAT] = rec_stream,
	[REC_PRINT_VALUE] = rec_print_value, [REC_FRONTEND] = rec_frontend,
	[REC_HELPER_ERROR] = rec_helper_error, [REC_RUNTIME_ERROR] = rec_runtime_error,
	[REC_USTACK] = rec_ustack, [REC_USTACK_UPDATE] = rec_ustack_update,
	[REC_UNWATCH] = rec_unwatch,
	[REC_ERRORF] = rec_errorf, [REC_WARNF] = rec_errorf,
};

int rt_on_record(void *ctx, void *data, size_t size)
{
	struct loop *l = ctx;
	const struct plan *p = &l->s->plan;
	const struct record_desc *r;
	uint64_t id;
	int rc;

	if (l->discard || size < 8)
		return 0;
	memcpy(&id, data, 8);
	if (id >= p->records.len)
		return 0;
	r = p->records.data[id];
	if (size < r->size)
		return 0;
	l->size = size;
	sb_reset(&l->line);
	sb_reset(&l->text);
	rc = handlers[r->kind](l, r, data);
	if (l->line.len)
		fwrite(l->line.s, 1, l->line.len, l->s->out);
	/* under a flood of records, go back to the loop now and then: signals
	   (after every command: one may take a while) */
	bool slow = r->kind == REC_SYSTEM || r->kind == REC_CAT;
	if (rc == 0 && (!(++l->nrecords & 255) || slow) && util_now_ns() > l->deadline) {
		l->budget_spent = true;
		return -1;
	}
	return rc;
}

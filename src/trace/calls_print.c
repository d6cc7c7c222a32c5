// SPDX-License-Identifier: MIT
/*
 * --calls: library calls printed among the syscalls, ltrace-style:
 * "malloc(1024) = 0x55d0c8a2b2a0". A call's line stays open until it
 * returns, like a syscall's; what the task does in between (a syscall,
 * an inner call) ends it with " <unfinished ...>" and the return prints
 * "<... malloc resumed>) = ...".
 */
#include "trace/printer.h"
#include "base/util.h"
#include "output/json.h"
#include "types/type.h"

#include <stdlib.h>
#include <string.h>

/* v as its type says: signed or unsigned of its size, a pointer; unknown: hex */
static void put_value(struct strbuf *out, const struct type *t, int64_t v)
{
	if (!t || t->kind == TY_NONE) {
		sb_printf(out, "%#llx", (unsigned long long)v);
	} else if (t->kind == TY_PTR) {
		if (v)
			sb_printf(out, "%#llx", (unsigned long long)v);
		else
			sb_puts(out, "NULL");
	} else if (t->kind == TY_INT && t->is_signed) {
		int shift = 64 - 8 * (int)(t->size ? t->size : 8);
		sb_printf(out, "%lld", (long long)((uint64_t)v << shift) >> shift);
	} else if (t->kind == TY_INT) {
		uint64_t mask = t->size >= 8 ? ~0ull : (1ull << (8 * t->size)) - 1;
		sb_printf(out, "%llu", (unsigned long long)((uint64_t)v & mask));
	} else {
		sb_printf(out, "%#llx", (unsigned long long)v);
	}
}

static void put_args(struct strbuf *out, const struct trace_func *f, const int64_t *a)
{
	int n = f->nargs < 0 ? 6 : f->nargs;

	for (int i = 0; i < n; i++) {
		if (i)
			sb_puts(out, ", ");
		put_value(out, f->nargs < 0 ? NULL : f->types[i], a[i]);
	}
}

/* " = value" of f's return, as its type says ("<void>" for none) */
static void put_ret(struct strbuf *out, const struct trace_func *f, int64_t v)
{
	sb_puts(out, "= ");
	if (f->ret && f->ret->kind == TY_VOID)
		sb_puts(out, "<void>");
	else
		put_value(out, f->nargs < 0 ? NULL : f->ret, v);
}

static const struct trace_func *func_of(struct trace_printer *tp, uint32_t k)
{
	return tp->funcs && k < tp->funcs->len ? &tp->funcs->data[k] : NULL;
}

void trace_on_libcall(struct trace_printer *tp, const struct trace_hdr *h)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);
	const struct trace_func *f = func_of(tp, h->nr);
	struct tcall *c;
	struct tout *to;

	if (!f)
		return;
	t->pid = (pid_t)h->pid;
	memcpy(t->comm, h->comm, sizeof(t->comm));
	if (t->ncalls == t->calls_cap) {
		t->calls_cap = t->calls_cap ? 2 * t->calls_cap : 8;
		t->calls = util_xrealloc(t->calls, (size_t)t->calls_cap * sizeof(*t->calls));
	}
	c = &t->calls[t->ncalls++];
	c->fn = h->nr;
	c->ts = h->ts;
	memcpy(c->a, h->a, sizeof(c->a));
	if (tp->o->json)
		return;
	to = trace_out_of(tp, t);
	trace_leader(tp, to, t, h->ts);
	sb_printf(&to->line, "%s(", f->name);
	put_args(&to->line, f, h->a);
	to->open = t;
	to->open_call = true;
}

static void json_libcall(struct trace_printer *tp, struct ttask *t, const struct trace_func *f,
			 const struct tcall *c, int64_t ret, uint64_t ts)
{
	struct strbuf b = { 0 }, v = { 0 };
	int n = f->nargs < 0 ? 6 : f->nargs;

	sb_printf(&b, "{\"time\": %.6f, \"pid\": %d, \"tid\": %d, \"call\": ",
		  (double)(c->ts + (uint64_t)tp->real_off) / 1e9, t->pid, t->tid);
	out_json_string(&b, f->name, strlen(f->name));
	sb_puts(&b, ", \"args\": [");
	for (int i = 0; i < n; i++) {
		sb_reset(&v);
		put_value(&v, f->nargs < 0 ? NULL : f->types[i], c->a[i]);
		sb_printf(&b, "%s", i ? ", " : "");
		out_json_string(&b, v.s, v.len);
	}
	sb_reset(&v);
	put_ret(&v, f, ret);
	sb_puts(&b, "], \"return\": ");
	out_json_string(&b, v.s + 2, v.len - 2);
	sb_printf(&b, ", \"duration\": %.9f}\n", (double)(ts - c->ts) / 1e9);
	fwrite(b.s, 1, b.len, tp->main.f);
	sb_free(&b);
	sb_free(&v);
}

void trace_on_libreturn(struct trace_printer *tp, const struct trace_hdr *h)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);
	const struct trace_func *f = func_of(tp, h->nr);
	struct tout *to;
	struct tcall c;

	/* the innermost call of that function (a longjmp may have skipped others) */
	while (t->ncalls && t->calls[t->ncalls - 1].fn != h->nr)
		t->ncalls--;
	if (!f || !t->ncalls)
		return;
	c = t->calls[--t->ncalls];
	if (tp->o->json) {
		json_libcall(tp, t, f, &c, h->ret, h->ts);
		return;
	}
	to = trace_out_of(tp, t);
	if (to->open == t && to->open_call) {
		sb_puts(&to->line, ") ");
	} else {
		trace_leader(tp, to, t, h->ts);
		sb_printf(&to->line, "<... %s resumed>) ", f->name);
	}
	to->open = NULL;
	trace_pad_to_column(&to->line);
	put_ret(&to->line, f, h->ret);
	if (tp->o->durations)
		sb_printf(&to->line, " <%llu.%06llu>", (unsigned long long)((h->ts - c.ts) / 1000000000),
			  (unsigned long long)((h->ts - c.ts) % 1000000000 / 1000));
	sb_putc(&to->line, '\n');
	trace_flush_line(to);
}

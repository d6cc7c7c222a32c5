// SPDX-License-Identifier: MIT
/*
 * The top level of a script, and the parser's token and error helpers.
 *
 *   program   := (directive | cdef | probe)*
 *   directive := '#' ... end of line            (#include, #define, #ifdef...)
 *   cdef      := (struct | union | enum) ... ';' (kept verbatim)
 *   probe     := attach_point (',' attach_point)* ['/' expr '/'] block
 *
 * The top level is read as raw text (attach points are not tokens); the
 * lexer switches to tokens for the predicate and the body.
 */
#include "parse/parse_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void parse_fail(struct parser *p)
{
	longjmp(p->fail, 1);
}

void parse_error(struct parser *p, struct span sp, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(p->d, sp, E_SYNTAX, "%s", msg);
	parse_fail(p);
}

/* Where to point at the current token; at end of input, just after the last one. */
static struct span tok_span(const struct parser *p)
{
	if (p->tok.kind == TOK_EOF && p->prev.span.hi > 0)
		return SPAN(p->prev.span.hi, p->prev.span.hi + 1);
	return p->tok.span;
}

void parse_unexpected(struct parser *p, const char *what)
{
	char buf[64];

	parse_error(p, tok_span(p), "unexpected %s, expected %s",
		    lex_tok_describe(&p->lx, &p->tok, buf, sizeof(buf)), what);
}

void parse_next(struct parser *p)
{
	p->prev = p->tok;
	p->tok = lex_next(&p->lx);
	if (p->tok.kind == TOK_ERROR)
		parse_fail(p);
}

struct token parse_expect(struct parser *p, enum tok_kind k, const char *what)
{
	struct token t = p->tok;

	if (t.kind != k)
		parse_unexpected(p, what);
	parse_next(p);
	return t;
}

void parse_enter(struct parser *p, int w)
{
	p->depth += w;
	if (p->depth > DEPTH_MAX) {
		diag_error(p->d, tok_span(p), E_TOO_DEEP,
			   "too deeply nested: more than %d levels of nesting or a chain of "
			   "more than %d operators",
			   DEPTH_MAX / DEPTH_NEST, DEPTH_MAX);
		diag_hint(p->d, "split the expression using variables");
		parse_fail(p);
	}
}

void *parse_grow(struct parser *p, void *old, uint32_t n, uint32_t *cap, size_t elem)
{
	uint32_t c = *cap ? *cap * 2 : 4;
	void *v = arena_alloc(p->a, elem * c);

	if (n)
		memcpy(v, old, elem * n);
	*cap = c;
	return v;
}

/* The raw scanners report their own errors. */
static void raw_ok(struct parser *p, bool ok)
{
	if (!ok)
		parse_fail(p);
}

static void after_attach_point_error(struct parser *p)
{
	char buf[48];
	struct span sp;

	lex_raw_describe(&p->lx, p->lx.pos, &sp, buf, sizeof(buf));
	diag_error(p->d, sp, E_SYNTAX,
		   "unexpected %s after the attach point, expected ',', a predicate '/.../' or '{'",
		   buf);
	if (p->lx.pos < p->lx.len && memchr(p->lx.text + sp.lo, ':', sp.hi - sp.lo))
		diag_hint(p->d, "separate attach points with ','");
	parse_fail(p);
}

struct top {
	struct preamble **pre;
	uint32_t npre, pre_cap;
	struct probe **probes;
	uint32_t nprobes, probe_cap;
};

static void add_preamble(struct parser *p, struct top *top, enum preamble_kind kind, struct span sp)
{
	struct preamble *pre = ARENA_NEW(p->a, struct preamble);

	pre->kind = kind;
	pre->span = sp;
	pre->text = arena_strndup(p->a, p->lx.text + sp.lo, sp.hi - sp.lo);
	PUSH(p, top->pre, top->npre, top->pre_cap, pre);
}

static void parse_directive(struct parser *p, struct top *top)
{
	struct lexer *lx = &p->lx;
	uint32_t i, end;
	struct span sp;
	bool include;

	/* "#!/usr/bin/env bpftrace" on the first line is a comment. */
	if (lx->pos == 0 && lex_peek(lx, 1) == '!') {
		while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
			lx->pos++;
		return;
	}
	raw_ok(p, lex_directive(lx, &sp));
	/* "#include" or "# include" */
	for (i = sp.lo + 1; i < sp.hi && (lx->text[i] == ' ' || lx->text[i] == '\t'); i++)
		;
	end = lx->pos;
	lx->pos = i;
	include = lex_at_word(lx, "include");
	lx->pos = end;
	add_preamble(p, top, include ? PRE_INCLUDE : PRE_DEFINE, sp);
}

static void parse_probe(struct parser *p, struct top *top)
{
	struct lexer *lx = &p->lx;
	struct probe *pr = ARENA_NEW(p->a, struct probe);
	uint32_t cap = 0;

	for (;;) {
		struct attach_point *ap = ARENA_NEW(p->a, struct attach_point);

		raw_ok(p, lex_attach_point(lx, ap));
		PUSH(p, pr->aps, pr->naps, cap, ap);
		raw_ok(p, lex_skip_space(lx));
		if (lex_peek(lx, 0) != ',')
			break;
		lx->pos++;
		raw_ok(p, lex_skip_space(lx));
	}
	pr->span = span_join(pr->aps[0]->span, pr->aps[pr->naps - 1]->span);
	/* So that "unexpected end of input" points just after the attach points. */
	p->tok = (struct token){ .kind = TOK_EOF, .span = pr->span };

	if (lex_peek(lx, 0) == '/') {
		lx->pos++;
		lx->predicate = true;
		parse_next(p);
		pr->pred = parse_expr(p);
		if (p->tok.kind != TOK_PRED_END)
			parse_unexpected(p, "'/' to close the predicate");
		lx->predicate = false;
		parse_next(p);
		if (p->tok.kind != TOK_LBRACE)
			parse_unexpected(p, "'{' after the predicate");
	} else if (lex_peek(lx, 0) == '{') {
		parse_next(p);
	} else {
		after_attach_point_error(p);
	}
	pr->body = parse_block(p, true);
	pr->index = top->nprobes;
	PUSH(p, top->probes, top->nprobes, top->probe_cap, pr);
}

static void parse_top(struct parser *p, struct top *top)
{
	struct lexer *lx = &p->lx;

	for (;;) {
		struct span sp;

		raw_ok(p, lex_skip_space(lx));
		if (lx->pos >= lx->len)
			return;
		if (lex_peek(lx, 0) == '#') {
			parse_directive(p, top);
		} else if (lex_at_word(lx, "struct") || lex_at_word(lx, "union") ||
			   lex_at_word(lx, "enum") || lex_at_word(lx, "typedef")) {
			raw_ok(p, lex_cdef(lx, &sp));
			add_preamble(p, top, PRE_CDEF, sp);
		} else {
			parse_probe(p, top);
		}
	}
}

struct program *parse_program(struct arena *a, const struct source *src, struct diag *d)
{
	struct parser p = { .a = a, .d = d };
	struct top top = { 0 };
	struct program *prog;

	lex_init(&p.lx, src, a, d);
	if (setjmp(p.fail))
		return NULL;
	parse_top(&p, &top);
	prog = ARENA_NEW(a, struct program);
	prog->pre = top.pre;
	prog->npre = top.npre;
	prog->probes = top.probes;
	prog->nprobes = top.nprobes;
	return prog;
}

struct expr *parse_expression(struct arena *a, const struct source *src, struct span range,
			      struct diag *d)
{
	struct parser p = { .a = a, .d = d };
	struct expr *e;

	lex_init(&p.lx, src, a, d);
	if (range.hi > src->len)
		range.hi = src->len;
	p.lx.pos = range.lo < range.hi ? range.lo : range.hi;
	p.lx.len = range.hi;
	p.prev.span = SPAN(p.lx.pos, p.lx.pos);
	if (setjmp(p.fail))
		return NULL;
	parse_next(&p);
	e = parse_expr(&p);
	if (p.tok.kind != TOK_EOF)
		parse_unexpected(&p, "the end of the expression");
	return e;
}

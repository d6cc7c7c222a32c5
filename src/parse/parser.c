// SPDX-License-Identifier: MIT
/*
 * The top level of a script, and the parser's token and error helpers.
 *
 *   program   := (directive | cdef | config | map_decl | probe)*
 *   directive := '#' ... end of line            (#include, #define, #ifdef...)
 *   cdef      := (struct | union | enum) ... ';' (kept verbatim)
 *   probe     := attach_point (',' attach_point)* ['/' expr '/'] block
 *
 * and today's bpftrace's:
 *
 *   config    := config '=' '{' (name '=' value ';')* '}'
 *   map_decl  := let @name '=' (hash | lruhash | percpuhash | percpulruhash) '(' N ')' [';']
 *   import, macro, fn (parse_macro.c); imports come before the probes,
 *   macros, functions and map declarations
 *   attach_point may start with `name=` (a name for the probe)
 *
 * The top level is read as raw text (attach points are not tokens); the
 * lexer switches to tokens for the predicate and the body, the config block
 * and map declarations.
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
	struct config_item *config;
	uint32_t nconfig, config_cap;
	struct map_decl *decls;
	uint32_t ndecls, decl_cap;
	struct macro_def **macros;
	uint32_t nmacros, macro_cap;
	struct fn_def **fns;
	uint32_t nfns, fn_cap;
	struct import_item *imports;
	uint32_t nimports, import_cap;
	bool has_config;
	struct span config_span;
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
	if (lx->pos == lx->start && lex_peek(lx, 1) == '!') {
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

/* `name=kprobe:f`: the probe's name (today's bpftrace) */
static void attach_point_name(struct parser *p, struct attach_point *ap)
{
	const char *eq = ap->nparts ? strchr(ap->parts[0], '=') : NULL;

	if (!eq || eq == ap->parts[0] || !eq[1])
		return;
	ap->user_name = arena_strndup(p->a, ap->parts[0], (size_t)(eq - ap->parts[0]));
	ap->parts[0] = eq + 1;
	parse_modern(p, ap->span, "a named probe");
}

static void parse_probe(struct parser *p, struct top *top)
{
	struct lexer *lx = &p->lx;
	struct probe *pr = ARENA_NEW(p->a, struct probe);
	uint32_t cap = 0;

	for (;;) {
		struct attach_point *ap = ARENA_NEW(p->a, struct attach_point);

		raw_ok(p, lex_attach_point(lx, ap));
		attach_point_name(p, ap);
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

/* Tokens from lx->pos on: the top level's config blocks and declarations. */
void parse_tokens_start(struct parser *p)
{
	p->prev.span = SPAN(p->lx.pos, p->lx.pos);
	parse_next(p);
}

/* One `name = value` of a config block; the current token is the name. */
static void config_item(struct parser *p, struct top *top)
{
	struct token name = parse_expect(p, TOK_IDENT, "a config variable's name");
	struct config_item it = { .name = name.str };
	struct token v;

	parse_expect(p, TOK_ASSIGN, "'=' after the config variable's name");
	v = p->tok;
	switch (v.kind) {
	case TOK_INT:
		it.kind = CFG_INT;
		it.value = arena_printf(p->a, "%llu", (unsigned long long)v.ival);
		break;
	case TOK_STR:
		it.kind = CFG_STR;
		it.value = v.str;
		break;
	case TOK_TRUE:
	case TOK_FALSE:
		it.kind = CFG_BOOL;
		it.value = v.kind == TOK_TRUE ? "true" : "false";
		break;
	case TOK_IDENT:
		it.kind = CFG_IDENT;
		it.value = v.str;
		break;
	default:
		parse_unexpected(p, "a number, a string, true, false or a name");
	}
	it.span = span_join(name.span, v.span);
	it.value_span = v.span;
	PUSH(p, top->config, top->nconfig, top->config_cap, it);
}

/* config = { name = value; ... } at lx->pos */
static void parse_config(struct parser *p, struct top *top)
{
	uint32_t lo = p->lx.pos;

	if (top->has_config || top->nprobes || top->ndecls || top->nmacros || top->nfns) {
		diag_error(p->d, SPAN(lo, lo + 6), E_SYNTAX,
			   top->has_config ? "a script has one config block"
					   : "the config block comes before the probes, macros, functions "
					     "and map declarations");
		diag_hint(p->d, "put every config variable in one config block at the top of the "
				"script, after #include and C definitions");
		parse_fail(p);
	}
	top->has_config = true;
	parse_tokens_start(p); /* config */
	top->config_span = p->tok.span;
	parse_next(p);
	parse_expect(p, TOK_ASSIGN, "'=' after 'config'");
	if (p->tok.kind != TOK_LBRACE)
		parse_unexpected(p, "'{' after 'config ='");
	parse_next(p);
	while (p->tok.kind != TOK_RBRACE) {
		if (p->tok.kind == TOK_SEMI) {
			parse_next(p);
			continue;
		}
		config_item(p, top);
		parse_next(p);
		if (p->tok.kind != TOK_SEMI && p->tok.kind != TOK_RBRACE)
			parse_unexpected(p, "';' or '}' after the config variable");
	}
	/* the '}' is the last token: the top level goes on as raw text after it */
	parse_modern(p, span_join(top->config_span, p->tok.span), "a config block");
}

/* let @name = hash(N); at lx->pos */
static void parse_map_decl(struct parser *p, struct top *top)
{
	static const char *const kinds[] = {
		[MAPDECL_HASH] = "hash",
		[MAPDECL_LRUHASH] = "lruhash",
		[MAPDECL_PERCPUHASH] = "percpuhash",
		[MAPDECL_PERCPULRUHASH] = "percpulruhash",
	};
	struct map_decl d = { 0 };
	struct token m, kind, n;
	size_t k;

	parse_tokens_start(p); /* let */
	d.span = p->tok.span;
	parse_next(p);
	m = parse_expect(p, TOK_MAP, "a map after 'let'");
	d.name = m.str;
	parse_expect(p, TOK_ASSIGN, "'=' after the map's name");
	kind = parse_expect(p, TOK_IDENT, "a map type: hash, lruhash, percpuhash or percpulruhash");
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (!strcmp(kinds[k], kind.str))
			break;
	if (k == ARRAY_SIZE(kinds)) {
		diag_error(p->d, kind.span, E_SYNTAX, "unknown map type '%s'", kind.str);
		diag_hint(p->d, "map types are hash, lruhash, percpuhash and percpulruhash");
		parse_fail(p);
	}
	d.kind = (enum map_decl_kind)k;
	d.kind_span = kind.span;
	parse_expect(p, TOK_LPAREN, "'(' after the map type");
	n = parse_expect(p, TOK_INT, "the map's number of entries");
	if (n.ival == 0 || n.ival > UINT32_MAX) {
		diag_error(p->d, n.span, E_TOO_BIG, "a map holds 1 to %u entries, not %llu",
			   UINT32_MAX, (unsigned long long)n.ival);
		parse_fail(p);
	}
	d.max_entries = n.ival;
	if (p->tok.kind != TOK_RPAREN)
		parse_unexpected(p, "')' after the number of entries");
	d.span = span_join(d.span, p->tok.span);
	for (uint32_t i = 0; i < top->ndecls; i++)
		if (!strcmp(top->decls[i].name, d.name)) {
			diag_error(p->d, d.span, E_SYNTAX, "@%s is declared twice", d.name);
			parse_fail(p);
		}
	/* the ')' is the last token; a ';' may follow */
	raw_ok(p, lex_skip_space(&p->lx));
	if (lex_peek(&p->lx, 0) == ';')
		p->lx.pos++;
	PUSH(p, top->decls, top->ndecls, top->decl_cap, d);
	parse_modern(p, d.span, "a map declaration");
}

/* `word` then (after blanks) c? (c 'a': a name) */
static bool word_then(const struct lexer *lx, const char *word, char c)
{
	struct lexer look = *lx;

	if (!lex_at_word(lx, word))
		return false;
	look.quiet = true;
	look.pos += (uint32_t)strlen(word);
	if (!lex_skip_space(&look))
		return false;
	return c == 'a' ? is_ident_start(lex_peek(&look, 0)) : lex_peek(&look, 0) == c;
}

/* import "path"; before the probes, macros, functions and map declarations */
static void top_import(struct parser *p, struct top *top)
{
	uint32_t lo = p->lx.pos;
	struct import_item it;

	if (top->nprobes || top->nmacros || top->nfns || top->ndecls) {
		diag_error(p->d, SPAN(lo, lo + 6), E_SYNTAX,
			   "imports come before the probes, macros, functions and map declarations");
		diag_hint(p->d, "put the import lines at the top of the script, after #include "
				"and C definitions");
		parse_fail(p);
	}
	it = parse_import(p);
	PUSH(p, top->imports, top->nimports, top->import_cap, it);
}

/*
 * In an imported header, a C declaration lantern has no use for (a
 * function's prototype or body, a variable): skipped up to its ';' or its
 * body's '}'.
 */
static void skip_c_decl(struct parser *p)
{
	struct lexer *lx = &p->lx;
	int depth = 0;

	while (lx->pos < lx->len) {
		int c = lex_peek(lx, 0);
		if ((c == '/' && (lex_peek(lx, 1) == '/' || lex_peek(lx, 1) == '*')) || c == ' ' ||
		    c == '\t' || c == '\n') {
			raw_ok(p, lex_skip_space(lx));
			continue;
		}
		lx->pos++;
		if (c == '"' || c == '\'') {
			while (lx->pos < lx->len && lex_peek(lx, 0) != c && lex_peek(lx, 0) != '\n')
				lx->pos += lex_peek(lx, 0) == '\\' ? 2 : 1;
			lx->pos++;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && depth > 0 && --depth == 0) {
			raw_ok(p, lex_skip_space(lx));
			if (lex_peek(lx, 0) == ';')
				lx->pos++;
			return;
		} else if (c == ';' && depth == 0) {
			return;
		}
	}
	if (lx->pos > lx->len)
		lx->pos = lx->len;
}

static void parse_top(struct parser *p, struct top *top, bool header)
{
	struct lexer *lx = &p->lx;

	for (;;) {
		struct span sp;

		raw_ok(p, lex_skip_space(lx));
		if (lx->pos >= lx->len)
			return;
		if (header && lex_peek(lx, 0) != '#' && !lex_at_word(lx, "struct") &&
		    !lex_at_word(lx, "union") && !lex_at_word(lx, "enum") &&
		    !lex_at_word(lx, "typedef")) {
			skip_c_decl(p);
			continue;
		}
		if (word_then(lx, "config", '=')) {
			parse_config(p, top);
		} else if (word_then(lx, "let", '@')) {
			parse_map_decl(p, top);
		} else if (word_then(lx, "macro", 'a')) {
			struct macro_def *m = parse_macro_def(p);
			PUSH(p, top->macros, top->nmacros, top->macro_cap, m);
		} else if (word_then(lx, "fn", 'a')) {
			struct fn_def *f = parse_fn_def(p);
			PUSH(p, top->fns, top->nfns, top->fn_cap, f);
		} else if (word_then(lx, "import", '"')) {
			top_import(p, top);
		} else if (lex_peek(lx, 0) == '#') {
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
	return parse_program_at(a, src, SPAN(0, src->len), PARSE_SCRIPT, d);
}

struct program *parse_program_at(struct arena *a, const struct source *src, struct span range,
			   enum parse_mode mode, struct diag *d)
{
	struct parser p = { .a = a, .d = d };
	struct top top = { 0 };
	struct program *prog;

	lex_init(&p.lx, src, a, d);
	if (range.hi > src->len)
		range.hi = src->len;
	p.lx.pos = range.lo < range.hi ? range.lo : range.hi;
	p.lx.len = range.hi;
	p.lx.start = p.lx.pos;
	if (setjmp(p.fail))
		return NULL;
	parse_top(&p, &top, mode == PARSE_HEADER);
	prog = ARENA_NEW(a, struct program);
	prog->pre = top.pre;
	prog->npre = top.npre;
	prog->probes = top.probes;
	prog->nprobes = top.nprobes;
	prog->config = top.config;
	prog->nconfig = top.nconfig;
	prog->decls = top.decls;
	prog->ndecls = top.ndecls;
	prog->macros = top.macros;
	prog->nmacros = top.nmacros;
	prog->fns = top.fns;
	prog->nfns = top.nfns;
	prog->imports = top.imports;
	prog->nimports = top.nimports;
	if (p.modern_what)
		ast_note_modern(prog, p.modern_span, p.modern_what);
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

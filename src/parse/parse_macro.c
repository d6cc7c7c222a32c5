// SPDX-License-Identifier: MIT
/*
 * Today's bpftrace's top-level definitions besides probes:
 *
 *   macro  := macro name '(' [param (',' param)*] ')' block      param: $x | @m | x
 *   fn     := fn name '(' [$x ':' type (',' $x ':' type)*] ')' ':' type block
 *   import := import "path" ';'
 *
 * A macro's block may end in an expression without ';', its value. The
 * bodies are read as tokens up to their '}', after which the top level
 * goes on as raw text (parser.c).
 */
#include "parse/parse_internal.h"

#include <string.h>

static struct macro_param macro_param(struct parser *p, struct macro_def *m)
{
	struct token t = p->tok;
	struct macro_param mp = { .span = t.span };

	switch (t.kind) {
	case TOK_VAR:
		mp.kind = MP_VAR;
		break;
	case TOK_MAP:
		mp.kind = MP_MAP;
		break;
	case TOK_IDENT:
		mp.kind = MP_EXPR;
		if (parse_is_builtin_var(t.str, t.len))
			parse_error(p, t.span, "the builtin '%s' cannot be a macro's parameter", t.str);
		break;
	default:
		parse_unexpected(p, "a macro parameter: $variable, @map or a name");
	}
	mp.name = t.str;
	for (uint32_t i = 0; i < m->nparams; i++)
		if (m->params[i].kind == mp.kind && !strcmp(m->params[i].name, mp.name))
			parse_error(p, t.span, "macro %s has two parameters named %s%s", m->name,
				    mp.kind == MP_VAR ? "$" : mp.kind == MP_MAP ? "@" : "", mp.name);
	parse_next(p);
	return mp;
}

struct macro_def *parse_macro_def(struct parser *p)
{
	struct macro_def *m = ARENA_NEW(p->a, struct macro_def);
	struct token kw, name;
	uint32_t cap = 0;
	struct expr *body;

	parse_tokens_start(p);
	kw = p->tok;
	parse_next(p);
	name = parse_expect(p, TOK_IDENT, "the macro's name");
	m->name = name.str;
	m->name_span = name.span;
	parse_expect(p, TOK_LPAREN, "'(' after the macro's name");
	while (p->tok.kind != TOK_RPAREN) {
		struct macro_param mp = macro_param(p, m);
		PUSH(p, m->params, m->nparams, cap, mp);
		if (p->tok.kind == TOK_COMMA)
			parse_next(p);
		else if (p->tok.kind != TOK_RPAREN)
			parse_unexpected(p, "',' or ')' in the macro's parameters");
	}
	parse_next(p);
	if (p->tok.kind != TOK_LBRACE)
		parse_unexpected(p, "'{' to start the macro's body");
	body = ARENA_NEW(p->a, struct expr);
	body->kind = EXPR_BLOCK;
	body->u.blk.body = parse_block_full(p, true, &body->u.blk.value);
	body->span = body->u.blk.body->span;
	m->body = body;
	m->span = span_join(kw.span, body->span);
	parse_modern(p, span_join(kw.span, name.span), "a macro");
	return m;
}

struct fn_def *parse_fn_def(struct parser *p)
{
	struct fn_def *f = ARENA_NEW(p->a, struct fn_def);
	struct token kw, name;
	uint32_t cap = 0;

	parse_tokens_start(p);
	kw = p->tok;
	parse_next(p);
	name = parse_expect(p, TOK_IDENT, "the function's name");
	f->name = name.str;
	f->name_span = name.span;
	parse_expect(p, TOK_LPAREN, "'(' after the function's name");
	while (p->tok.kind != TOK_RPAREN) {
		struct token v = parse_expect(p, TOK_VAR, "a parameter ($name: type)");
		struct fn_param fp = { ARENA_NEW(p->a, struct expr), { 0 } };
		fp.var->kind = EXPR_VAR;
		fp.var->span = v.span;
		fp.var->u.name = v.str;
		for (uint32_t i = 0; i < f->nparams; i++)
			if (!strcmp(f->params[i].var->u.name, v.str))
				parse_error(p, v.span, "function %s has two parameters named $%s",
					    f->name, v.str);
		parse_expect(p, TOK_COLON, "':' and the parameter's type");
		fp.type = parse_typename(p);
		PUSH(p, f->params, f->nparams, cap, fp);
		if (p->tok.kind == TOK_COMMA)
			parse_next(p);
		else if (p->tok.kind != TOK_RPAREN)
			parse_unexpected(p, "',' or ')' in the function's parameters");
	}
	parse_next(p);
	parse_expect(p, TOK_COLON, "':' and the function's return type (void: none)");
	f->ret = parse_typename(p);
	if (p->tok.kind != TOK_LBRACE)
		parse_unexpected(p, "'{' to start the function's body");
	f->body = parse_block_full(p, true, NULL);
	f->span = span_join(kw.span, f->body->span);
	parse_modern(p, span_join(kw.span, name.span), "a function (fn)");
	return f;
}

struct import_item parse_import(struct parser *p)
{
	struct import_item it;
	struct token kw, path;

	parse_tokens_start(p);
	kw = p->tok;
	parse_next(p);
	path = p->tok;
	if (path.kind != TOK_STR)
		parse_unexpected(p, "a path in quotes after 'import'");
	if (memchr(path.str, 0, path.len))
		parse_error(p, path.span, "an import's path holds no NUL byte");
	parse_next(p);
	if (p->tok.kind != TOK_SEMI)
		parse_unexpected(p, "';' after the import");
	/* the ';' is the last token: the top level goes on as raw text after it */
	it.path = path.str;
	it.span = span_join(kw.span, path.span);
	parse_modern(p, it.span, "an import");
	return it;
}

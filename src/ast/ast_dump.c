// SPDX-License-Identifier: MIT
/*
 * The `-d ast` dump: one node per line, children indented one space deeper.
 * Golden tests depend on it; change it only on purpose.
 *
 *   program
 *    include #include <linux/sched.h>        preamble: include|define|cdef, text escaped
 *    probe kprobe:a, kprobe:b                 attach points as written
 *     predicate
 *      == ...
 *     <statements of the body>
 *
 * Statements: "=" / "+=" ... (target, value), "if" (cond, "then", "else"),
 * "while" (cond, "body"), "unroll" (count, "body"), "return", "break",
 * "continue", "block". An expression statement is its expression.
 *
 * Expressions: "int 42", "string \"a\\n\"", "builtin pid", "ident FOO",
 * "positional $1", "poscount $#", "var $x", "map @m" (keys as children),
 * "call f" (arguments), "unary -", "pre ++", "post --", binary operators
 * by their spelling, "?:", "field . name" / "field -> name", "index",
 * "tuple", "cast struct task_struct *", "sizeof uint32" or "sizeof" with
 * the expression as child.
 *
 * Today's bpftrace: "config" (its "name = value" items), "let @m = hash(N)"
 * map declarations, "probe NAME = ..." for a named attach point; "let $x"
 * (": type", then the value), "for $x : @m" / "for $x : range" (lo, hi),
 * then "body"; "bool true", "?:" with two children for `a ?: b`, "block"
 * (statements, then "value" and the value), "record" (its "name =" items);
 * "import \"path\"", "macro NAME($a, @m, x)" (its body a block), "fn
 * NAME($a: T): R" (its body), "comptime", "if" for an if expression (cond,
 * then, else), "discard" (`_ = e`), types with "typeof", "[N]" and "*" as
 * written, "offsetof" with an expression.
 */
#include "ast/ast.h"

#include <string.h>

static void indent(struct strbuf *out, int depth)
{
	sb_pad(out, ' ', (size_t)depth);
}

/* Bytes with C escapes, so that every node stays on one line. */
static void put_escaped(struct strbuf *out, const char *s, size_t n, bool quote)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '\n':
			sb_puts(out, "\\n");
			break;
		case '\t':
			sb_puts(out, "\\t");
			break;
		case '\r':
			sb_puts(out, "\\r");
			break;
		case '\\':
			sb_puts(out, "\\\\");
			break;
		case '"':
			sb_puts(out, quote ? "\\\"" : "\"");
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				sb_printf(out, "\\x%02x", c);
			else
				sb_putc(out, (char)c);
		}
	}
}

static void dump_expr(const struct expr *e, int depth, struct strbuf *out);

static void put_type(struct strbuf *out, const struct ast_typename *t)
{
	static const char *const tags[] = { "", "struct ", "union ", "enum " };

	sb_printf(out, "%s%s", tags[t->tag], t->name ? t->name : "?");
	if (t->ptr_depth) {
		sb_putc(out, ' ');
		sb_pad(out, '*', t->ptr_depth);
	}
	for (uint32_t i = 0; i < t->nmods; i++) {
		if (!t->mods[i].array)
			sb_putc(out, '*');
		else if (t->mods[i].len)
			sb_printf(out, "[%u]", t->mods[i].len);
		else
			sb_puts(out, "[]");
	}
}

/* typeof(e): e under the line that named the type */
static void dump_typeof(const struct ast_typename *t, int depth, struct strbuf *out)
{
	if (t->of)
		dump_expr(t->of, depth, out);
}
static void dump_stmt(const struct stmt *s, int depth, struct strbuf *out);
static void dump_body(const struct stmt *s, int depth, struct strbuf *out);

static void dump_list(const struct expr_list *l, int depth, struct strbuf *out)
{
	for (uint32_t i = 0; i < l->n; i++)
		dump_expr(l->v[i], depth, out);
}

static void dump_expr(const struct expr *e, int depth, struct strbuf *out)
{
	indent(out, depth);
	if (!e) {
		sb_puts(out, "(null)\n");
		return;
	}
	switch (e->kind) {
	case EXPR_INT:
		sb_printf(out, "int %llu\n", (unsigned long long)e->u.ival);
		break;
	case EXPR_STR:
		sb_puts(out, "string \"");
		put_escaped(out, e->u.str, e->u.len, true);
		sb_puts(out, "\"\n");
		break;
	case EXPR_BUILTIN:
		sb_printf(out, "builtin %s\n", e->u.name);
		break;
	case EXPR_IDENT:
		sb_printf(out, "ident %s\n", e->u.name);
		break;
	case EXPR_POSITIONAL:
		sb_printf(out, "positional $%u\n", e->u.num);
		break;
	case EXPR_POSCOUNT:
		sb_puts(out, "poscount $#\n");
		break;
	case EXPR_VAR:
		sb_printf(out, "var $%s\n", e->u.name);
		break;
	case EXPR_MAP:
		sb_printf(out, "map @%s\n", e->u.map.name);
		dump_list(&e->u.map.keys, depth + 1, out);
		break;
	case EXPR_CALL:
		sb_printf(out, "call %s\n", e->u.call.name);
		dump_list(&e->u.call.args, depth + 1, out);
		break;
	case EXPR_UNARY:
		switch (e->u.unary.op) {
		case OP_PREINC:
		case OP_PREDEC:
			sb_printf(out, "pre %s\n", ast_op_str(e->u.unary.op));
			break;
		case OP_POSTINC:
		case OP_POSTDEC:
			sb_printf(out, "post %s\n", ast_op_str(e->u.unary.op));
			break;
		default:
			sb_printf(out, "unary %s\n", ast_op_str(e->u.unary.op));
		}
		dump_expr(e->u.unary.operand, depth + 1, out);
		break;
	case EXPR_BINARY:
		sb_printf(out, "%s\n", ast_op_str(e->u.binary.op));
		dump_expr(e->u.binary.lhs, depth + 1, out);
		dump_expr(e->u.binary.rhs, depth + 1, out);
		break;
	case EXPR_TERNARY:
		sb_puts(out, e->u.ternary.is_if ? "if\n" : "?:\n");
		dump_expr(e->u.ternary.cond, depth + 1, out);
		if (e->u.ternary.then) /* `a ?: b` has none */
			dump_expr(e->u.ternary.then, depth + 1, out);
		dump_expr(e->u.ternary.otherwise, depth + 1, out);
		break;
	case EXPR_BOOL:
		sb_printf(out, "bool %s\n", e->u.ival ? "true" : "false");
		break;
	case EXPR_BLOCK:
		sb_puts(out, "block\n");
		dump_body(e->u.blk.body, depth + 1, out);
		if (e->u.blk.value) {
			indent(out, depth + 1);
			sb_puts(out, "value\n");
			dump_expr(e->u.blk.value, depth + 2, out);
		}
		break;
	case EXPR_RECORD:
		sb_puts(out, "record\n");
		for (uint32_t i = 0; i < e->u.record.vals.n; i++) {
			indent(out, depth + 1);
			sb_printf(out, "%s =\n", e->u.record.names[i]);
			dump_expr(e->u.record.vals.v[i], depth + 2, out);
		}
		break;
	case EXPR_FIELD:
		sb_printf(out, "field %s %s\n", e->u.field.arrow ? "->" : ".", e->u.field.name);
		dump_expr(e->u.field.base, depth + 1, out);
		break;
	case EXPR_INDEX:
		sb_puts(out, "index\n");
		dump_expr(e->u.index.base, depth + 1, out);
		dump_expr(e->u.index.index, depth + 1, out);
		break;
	case EXPR_TUPLE:
		sb_puts(out, "tuple\n");
		dump_list(&e->u.list, depth + 1, out);
		break;
	case EXPR_CAST:
		sb_puts(out, "cast ");
		put_type(out, &e->u.cast.type);
		sb_putc(out, '\n');
		dump_typeof(&e->u.cast.type, depth + 1, out);
		dump_expr(e->u.cast.operand, depth + 1, out);
		break;
	case EXPR_SIZEOF:
		if (e->u.size_of.type.name) {
			sb_puts(out, "sizeof ");
			put_type(out, &e->u.size_of.type);
			sb_putc(out, '\n');
			dump_typeof(&e->u.size_of.type, depth + 1, out);
		} else {
			sb_puts(out, "sizeof\n");
			dump_expr(e->u.size_of.operand, depth + 1, out);
		}
		break;
	case EXPR_OFFSETOF:
		if (e->u.offset_of.operand) {
			sb_printf(out, "offsetof %s\n", e->u.offset_of.field);
			dump_expr(e->u.offset_of.operand, depth + 1, out);
			break;
		}
		sb_puts(out, "offsetof ");
		put_type(out, &e->u.offset_of.type);
		sb_printf(out, " %s\n", e->u.offset_of.field);
		dump_typeof(&e->u.offset_of.type, depth + 1, out);
		break;
	case EXPR_COMPTIME:
		sb_puts(out, "comptime\n");
		dump_expr(e->u.unary.operand, depth + 1, out);
		break;
	default:
		sb_printf(out, "expr kind %d\n", (int)e->kind);
	}
}

/* The statements of a block as children of the line above. */
static void dump_body(const struct stmt *s, int depth, struct strbuf *out)
{
	if (s && s->kind == STMT_BLOCK) {
		for (uint32_t i = 0; i < s->u.block.n; i++)
			dump_stmt(s->u.block.v[i], depth, out);
	} else if (s) {
		dump_stmt(s, depth, out);
	}
}

static void dump_stmt(const struct stmt *s, int depth, struct strbuf *out)
{
	switch (s->kind) {
	case STMT_EXPR:
		dump_expr(s->u.expr, depth, out);
		return;
	case STMT_DISCARD:
		indent(out, depth);
		sb_puts(out, "discard\n");
		dump_expr(s->u.expr, depth + 1, out);
		return;
	case STMT_ASSIGN:
		indent(out, depth);
		sb_printf(out, "%s=\n", ast_op_str(s->u.assign.op));
		dump_expr(s->u.assign.target, depth + 1, out);
		dump_expr(s->u.assign.value, depth + 1, out);
		return;
	case STMT_IF:
		indent(out, depth);
		sb_puts(out, "if\n");
		dump_expr(s->u.if_.cond, depth + 1, out);
		indent(out, depth + 1);
		sb_puts(out, "then\n");
		dump_body(s->u.if_.then, depth + 2, out);
		if (s->u.if_.otherwise) {
			indent(out, depth + 1);
			sb_puts(out, "else\n");
			dump_body(s->u.if_.otherwise, depth + 2, out);
		}
		return;
	case STMT_UNROLL:
	case STMT_WHILE:
		indent(out, depth);
		sb_puts(out, s->kind == STMT_WHILE ? "while\n" : "unroll\n");
		dump_expr(s->kind == STMT_WHILE ? s->u.while_.cond : s->u.unroll.count, depth + 1,
			  out);
		indent(out, depth + 1);
		sb_puts(out, "body\n");
		dump_body(s->kind == STMT_WHILE ? s->u.while_.body : s->u.unroll.body, depth + 2,
			  out);
		return;
	case STMT_RETURN:
		indent(out, depth);
		sb_puts(out, "return\n");
		if (s->u.ret)
			dump_expr(s->u.ret, depth + 1, out);
		return;
	case STMT_BREAK:
		indent(out, depth);
		sb_puts(out, "break\n");
		return;
	case STMT_CONTINUE:
		indent(out, depth);
		sb_puts(out, "continue\n");
		return;
	case STMT_BLOCK:
		indent(out, depth);
		sb_puts(out, "block\n");
		dump_body(s, depth + 1, out);
		return;
	case STMT_LET:
		indent(out, depth);
		sb_printf(out, "let $%s", s->u.let.var->u.name);
		if (s->u.let.type.name) {
			sb_puts(out, ": ");
			put_type(out, &s->u.let.type);
		}
		sb_putc(out, '\n');
		dump_typeof(&s->u.let.type, depth + 1, out);
		if (s->u.let.value)
			dump_expr(s->u.let.value, depth + 1, out);
		return;
	case STMT_FOR:
		indent(out, depth);
		if (s->u.for_.map) {
			sb_printf(out, "for $%s : @%s\n", s->u.for_.var->u.name,
				  s->u.for_.map->u.map.name);
		} else {
			sb_printf(out, "for $%s : range\n", s->u.for_.var->u.name);
			dump_expr(s->u.for_.lo, depth + 1, out);
			dump_expr(s->u.for_.hi, depth + 1, out);
		}
		indent(out, depth + 1);
		sb_puts(out, "body\n");
		dump_body(s->u.for_.body, depth + 2, out);
		return;
	}
	indent(out, depth);
	sb_printf(out, "stmt kind %d\n", (int)s->kind);
}

static void dump_macro(const struct macro_def *m, struct strbuf *out)
{
	static const char *const sigil[] = { [MP_EXPR] = "", [MP_VAR] = "$", [MP_MAP] = "@" };

	sb_printf(out, " macro %s(", m->name);
	for (uint32_t i = 0; i < m->nparams; i++)
		sb_printf(out, "%s%s%s", i ? ", " : "", sigil[m->params[i].kind], m->params[i].name);
	sb_puts(out, ")\n");
	dump_expr(m->body, 2, out);
}

static void dump_fn(const struct fn_def *f, struct strbuf *out)
{
	sb_printf(out, " fn %s(", f->name);
	for (uint32_t i = 0; i < f->nparams; i++) {
		sb_printf(out, "%s$%s: ", i ? ", " : "", f->params[i].var->u.name);
		put_type(out, &f->params[i].type);
	}
	sb_puts(out, "): ");
	put_type(out, &f->ret);
	sb_putc(out, '\n');
	for (uint32_t i = 0; i < f->nparams; i++)
		dump_typeof(&f->params[i].type, 2, out);
	dump_typeof(&f->ret, 2, out);
	dump_body(f->body, 2, out);
}

void ast_dump(const struct program *prog, struct strbuf *out)
{
	static const char *const pre_names[] = {
		[PRE_INCLUDE] = "include",
		[PRE_DEFINE] = "define",
		[PRE_CDEF] = "cdef",
	};

	static const char *const decl_kinds[] = {
		[MAPDECL_HASH] = "hash",
		[MAPDECL_LRUHASH] = "lruhash",
		[MAPDECL_PERCPUHASH] = "percpuhash",
		[MAPDECL_PERCPULRUHASH] = "percpulruhash",
	};

	sb_puts(out, "program\n");
	for (uint32_t i = 0; i < prog->npre; i++) {
		const struct preamble *pre = prog->pre[i];
		const char *text = pre->text ? pre->text : "";

		sb_printf(out, " %s ", pre->kind <= PRE_CDEF ? pre_names[pre->kind] : "preamble");
		put_escaped(out, text, strlen(text), false);
		sb_putc(out, '\n');
	}
	if (prog->nconfig)
		sb_puts(out, " config\n");
	for (uint32_t i = 0; i < prog->nconfig; i++) {
		const struct config_item *it = &prog->config[i];
		sb_printf(out, "  %s = %s", it->name, it->kind == CFG_STR ? "\"" : "");
		put_escaped(out, it->value, strlen(it->value), true);
		sb_puts(out, it->kind == CFG_STR ? "\"\n" : "\n");
	}
	for (uint32_t i = 0; i < prog->nimports; i++) {
		sb_puts(out, " import \"");
		put_escaped(out, prog->imports[i].path, strlen(prog->imports[i].path), true);
		sb_puts(out, "\"\n");
	}
	for (uint32_t i = 0; i < prog->nmacros; i++)
		dump_macro(prog->macros[i], out);
	for (uint32_t i = 0; i < prog->nfns; i++)
		dump_fn(prog->fns[i], out);
	for (uint32_t i = 0; i < prog->ndecls; i++)
		sb_printf(out, " let @%s = %s(%llu)\n", prog->decls[i].name,
			  decl_kinds[prog->decls[i].kind],
			  (unsigned long long)prog->decls[i].max_entries);
	for (uint32_t i = 0; i < prog->nprobes; i++) {
		const struct probe *pr = prog->probes[i];

		sb_puts(out, " probe ");
		for (uint32_t j = 0; j < pr->naps; j++)
			sb_printf(out, "%s%s", j ? ", " : "", pr->aps[j]->text);
		sb_putc(out, '\n');
		if (pr->pred) {
			sb_puts(out, "  predicate\n");
			dump_expr(pr->pred, 3, out);
		}
		dump_body(pr->body, 2, out);
	}
}

// SPDX-License-Identifier: MIT
/* Integer constant expressions of C headers: see cexpr.h. A precedence climber. */
#include "types/cexpr.h"
#include "types/env.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct ce {
	const char *p;
	cexpr_name_fn names;
	void *ctx;
	bool bad;
	int depth;
};

static void skip(struct ce *c)
{
	while (isspace((unsigned char)*c->p))
		c->p++;
}

static int64_t parse(struct ce *c, int prec);

static bool eat(struct ce *c, const char *tok)
{
	size_t n = strlen(tok);

	skip(c);
	if (strncmp(c->p, tok, n))
		return false;
	c->p += n;
	return true;
}

static int64_t number(struct ce *c)
{
	char *end;
	uint64_t v;

	if (*c->p == '\'') {
		/* 'c' and the simple escapes */
		const char *q = c->p + 1;
		int ch = *q == '\\' ? (q[1] == 'n' ? '\n' : q[1] == 't' ? '\t' : q[1] == '0' ? 0 : q[1]) : *q;
		q += *q == '\\' ? 2 : 1;
		if (*q != '\'') {
			c->bad = true;
			return 0;
		}
		c->p = q + 1;
		return ch;
	}
	v = strtoull(c->p, &end, 0);
	c->p = end;
	while (*c->p == 'u' || *c->p == 'U' || *c->p == 'l' || *c->p == 'L')
		c->p++;
	return (int64_t)v;
}

/* "(unsigned long)": a cast to an integer type, skipped */
static bool cast(struct ce *c)
{
	const char *save = c->p, *q;
	char name[64];
	size_t n;

	if (!eat(c, "("))
		return false;
	skip(c);
	for (q = c->p; isalnum((unsigned char)*q) || *q == '_' || *q == ' '; q++)
		;
	n = q - c->p;
	while (n && c->p[n - 1] == ' ')
		n--;
	if (*q == ')' && n && n < sizeof(name)) {
		memcpy(name, c->p, n);
		name[n] = 0;
		if (type_base(name)) {
			c->p = q + 1;
			return true;
		}
	}
	c->p = save;
	return false;
}

static int64_t primary(struct ce *c)
{
	skip(c);
	if (eat(c, "-")) /* in two's complement, as the C compiler folds it: -INT64_MIN too */
		return (int64_t)(0 - (uint64_t)primary(c));
	if (eat(c, "+"))
		return primary(c);
	if (eat(c, "~"))
		return ~primary(c);
	if (eat(c, "!"))
		return !primary(c);
	if (cast(c))
		return primary(c);
	if (eat(c, "(")) {
		int64_t v = parse(c, 0);
		if (!eat(c, ")"))
			c->bad = true;
		return v;
	}
	if (isdigit((unsigned char)*c->p) || *c->p == '\'')
		return number(c);
	if (isalpha((unsigned char)*c->p) || *c->p == '_') {
		char name[128];
		size_t n = 0;
		int64_t v = 0;
		while ((isalnum((unsigned char)*c->p) || *c->p == '_') && n + 1 < sizeof(name))
			name[n++] = *c->p++;
		name[n] = 0;
		if (++c->depth > 32 || !c->names || !c->names(c->ctx, name, &v))
			c->bad = true;
		c->depth--;
		return v;
	}
	c->bad = true;
	return 0;
}

static const struct {
	const char *op;
	int prec;
} binops[] = {
	{ "||", 1 }, { "&&", 2 }, { "|", 3 },	 { "^", 4 },  { "&", 5 },  { "==", 6 },
	{ "!=", 6 }, { "<=", 7 }, { ">=", 7 },	 { "<<", 8 }, { ">>", 8 }, { "<", 7 },
	{ ">", 7 },  { "+", 9 },  { "-", 9 },	 { "*", 10 }, { "/", 10 }, { "%", 10 },
};

static int64_t apply(struct ce *c, const char *op, int64_t a, int64_t b)
{
	switch (op[0]) {
	case '|':
		return op[1] ? (a || b) : (a | b);
	case '&':
		return op[1] ? (a && b) : (a & b);
	case '^':
		return a ^ b;
	case '=':
		return a == b;
	case '!':
		return a != b;
	case '<':
		return op[1] == '<' ? (int64_t)((uint64_t)a << (b & 63)) : op[1] == '=' ? a <= b : a < b;
	case '>':
		return op[1] == '>' ? a >> (b & 63) : op[1] == '=' ? a >= b : a > b;
	case '+':
		return (int64_t)((uint64_t)a + (uint64_t)b);
	case '-':
		return (int64_t)((uint64_t)a - (uint64_t)b);
	case '*':
		return (int64_t)((uint64_t)a * (uint64_t)b);
	default:
		if (!b) {
			c->bad = true;
			return 0;
		}
		if (b == -1) /* INT64_MIN / -1 overflows: wrapped, as for -a */
			return op[0] == '/' ? (int64_t)(0 - (uint64_t)a) : 0;
		return op[0] == '/' ? a / b : a % b;
	}
}

static int64_t parse(struct ce *c, int prec)
{
	int64_t v = primary(c);

	for (;;) {
		size_t i;
		skip(c);
		if (prec == 0 && eat(c, "?")) {
			int64_t a = parse(c, 0), b;
			if (!eat(c, ":"))
				c->bad = true;
			b = parse(c, 0);
			v = v ? a : b;
			continue;
		}
		for (i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
			if (!strncmp(c->p, binops[i].op, strlen(binops[i].op)))
				break;
		if (i == sizeof(binops) / sizeof(binops[0]) || binops[i].prec <= prec || c->bad)
			return v;
		c->p += strlen(binops[i].op);
		v = apply(c, binops[i].op, v, parse(c, binops[i].prec));
	}
}

bool types_cexpr_eval(const char *text, cexpr_name_fn names, void *ctx, int64_t *value)
{
	struct ce c = { .p = text, .names = names, .ctx = ctx };

	skip(&c);
	if (!*c.p)
		return false;
	*value = parse(&c, 0);
	skip(&c);
	return !c.bad && !*c.p;
}

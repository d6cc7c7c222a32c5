// SPDX-License-Identifier: MIT
/* C definitions of a script's preamble: see cdef.h. A small recursive descent. */
#include "types/cdef.h"
#include "base/util.h"
#include "types/cexpr.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cp {
	struct type_env *env;
	struct diag *d;
	const char *text;
	uint32_t lo, pos, len;
	bool plain_char; /* the last type parsed was `char`: char[N] is a string */
	int depth;	 /* structs and unions being defined, one inside the other */
	jmp_buf fail;
};

/* As deep as the script's own nesting goes (parse_enter()'s 200 levels) */
#define CDEF_DEPTH_MAX 200

/* One member before layout: its name, type, bit width (-1: not a bitfield). */
struct member {
	const char *name;
	struct type *type;
	uint32_t read_size;
	int bits;
	uint32_t pos; /* for errors */
};

static void cp_error(struct cp *c, uint32_t at, uint32_t end, const char *fmt, const char *arg)
{
	diag_error(c->d, SPAN(c->lo + at, c->lo + (end > at ? end : at + 1)), E_SYNTAX, fmt, arg);
	longjmp(c->fail, 1);
}

static void skip_space(struct cp *c)
{
	for (;;) {
		while (c->pos < c->len && isspace((unsigned char)c->text[c->pos]))
			c->pos++;
		if (c->pos + 1 < c->len && c->text[c->pos] == '/' && c->text[c->pos + 1] == '/') {
			while (c->pos < c->len && c->text[c->pos] != '\n')
				c->pos++;
		} else if (c->pos + 1 < c->len && c->text[c->pos] == '/' && c->text[c->pos + 1] == '*') {
			const char *end = strstr(c->text + c->pos + 2, "*/");
			c->pos = end ? (uint32_t)(end - c->text) + 2 : c->len;
		} else {
			return;
		}
	}
}

static char peek(struct cp *c)
{
	skip_space(c);
	return c->pos < c->len ? c->text[c->pos] : 0;
}

static bool eat(struct cp *c, char ch)
{
	if (peek(c) != ch)
		return false;
	c->pos++;
	return true;
}

static void expect(struct cp *c, char ch)
{
	char what[8] = { '\'', ch, '\'', 0 };

	if (!eat(c, ch))
		cp_error(c, c->pos, c->pos + 1, "expected %s in the C definition", what);
}

/* An identifier at the current position (NULL if none), consumed. */
static const char *ident(struct cp *c)
{
	uint32_t start;

	skip_space(c);
	start = c->pos;
	if (c->pos >= c->len || !(isalpha((unsigned char)c->text[c->pos]) || c->text[c->pos] == '_'))
		return NULL;
	while (c->pos < c->len && (isalnum((unsigned char)c->text[c->pos]) || c->text[c->pos] == '_'))
		c->pos++;
	return arena_strndup(c->env->arena, c->text + start, c->pos - start);
}

static bool at_word(struct cp *c, const char *w)
{
	size_t n = strlen(w);

	skip_space(c);
	return c->pos + n <= c->len && !strncmp(c->text + c->pos, w, n) &&
	       (c->pos + n == c->len || !(isalnum((unsigned char)c->text[c->pos + n]) || c->text[c->pos + n] == '_'));
}

static bool eat_word(struct cp *c, const char *w)
{
	if (!at_word(c, w))
		return false;
	c->pos += strlen(w);
	return true;
}

static bool env_name(void *ctx, const char *name, int64_t *value)
{
	const struct constant *k = type_env_constant(ctx, name);

	if (k && !k->str)
		*value = k->value;
	return k && !k->str;
}

/* Comments in s, spaces now */
static void strip_comments(char *s)
{
	for (char *p = s; *p; p++) {
		char *end;
		if (p[0] == '/' && p[1] == '/') {
			end = p + strlen(p);
		} else if (p[0] == '/' && p[1] == '*') {
			end = strstr(p + 2, "*/");
			end = end ? end + 2 : p + strlen(p);
		} else {
			continue;
		}
		memset(p, ' ', end - p);
		p = end - 1;
	}
}

/* A constant expression up to (not including) one of the stop characters. */
static int64_t const_expr(struct cp *c, const char *stops)
{
	uint32_t start, depth = 0;
	char buf[256];
	int64_t v;

	skip_space(c);
	start = c->pos;
	while (c->pos < c->len && (depth || !strchr(stops, c->text[c->pos]))) {
		depth += c->text[c->pos] == '(';
		depth -= c->text[c->pos] == ')' && depth;
		c->pos++;
	}
	if (c->pos - start >= sizeof(buf))
		cp_error(c, start, c->pos, "%s is too long for a constant expression", "this");
	memcpy(buf, c->text + start, c->pos - start);
	buf[c->pos - start] = 0;
	strip_comments(buf); /* #define AF_INET 2 // IPv4 */
	if (!types_cexpr_eval(buf, env_name, c->env, &v))
		cp_error(c, start, c->pos, "'%s' is not a constant lantern can compute", buf);
	return v;
}

static struct type *parse_type(struct cp *c, const char **record_tag);
static void parse_declarator(struct cp *c, struct type *base, struct member *m);

static void skip_qualifiers(struct cp *c)
{
	while (eat_word(c, "const") || eat_word(c, "volatile") || eat_word(c, "restrict") ||
	       eat_word(c, "__restrict") || eat_word(c, "static") || eat_word(c, "extern"))
		;
}

/* A struct, union or enum that is not known yet: its type, to be filled by a later definition. */
static struct type *forward(struct cp *c, const char *tag, const char *name)
{
	struct type *t = type_record(c->env->arena, arena_printf(c->env->arena, "%s %s", tag, name), 0, 1, 0);

	type_env_add_type(c->env, tag, name, t);
	return t;
}

static uint32_t align_of(const struct type *t)
{
	return t->align ? t->align : 1;
}

/* A record's __attribute__((packed)) and __attribute__((aligned(N))) */
struct attrs {
	bool packed;
	uint32_t aligned; /* 0: its members' */
};

/* __attribute__((a, b(x))) ...: the ones lantern lays records out by, others skipped */
static void attributes(struct cp *c, struct attrs *at)
{
	while (eat_word(c, "__attribute__") || eat_word(c, "__attribute")) {
		expect(c, '(');
		expect(c, '(');
		while (!eat(c, ')')) {
			const char *w = ident(c);
			if (!w)
				cp_error(c, c->pos, c->pos + 1, "expected an attribute's name%s", "");
			if (at && (!strcmp(w, "packed") || !strcmp(w, "__packed__")))
				at->packed = true;
			if (eat(c, '(')) {
				int64_t v = const_expr(c, ")");
				expect(c, ')');
				if (at && (!strcmp(w, "aligned") || !strcmp(w, "__aligned__")) && v > 0 &&
				    v <= 4096 && !(v & (v - 1)))
					at->aligned = (uint32_t)v;
			}
			eat(c, ',');
		}
		expect(c, ')');
	}
}

/* Offsets, size and alignment of a struct or union from its members, as C lays them out. */
static void layout(struct cp *c, struct type *t, struct member *ms, uint32_t n, bool is_union,
		   const struct attrs *at)
{
	uint64_t bit = 0, size = 0;
	uint32_t align = 1;

	t->fields = ARENA_ARRAY(c->env->arena, struct field, n ? n : 1);
	t->nfields = n;
	for (uint32_t i = 0; i < n; i++) {
		struct member *m = &ms[i];
		struct field *f = &t->fields[i];
		/* a char array is a string of read_size bytes in place */
		uint32_t extent = m->read_size ? m->read_size : m->type->size;
		uint32_t a = m->read_size || at->packed ? 1 : align_of(m->type);
		uint32_t unit = 8 * (extent ? extent : 1);
		f->name = m->name ? m->name : "";
		f->type = m->type;
		f->read_size = m->read_size;
		align = MAX(align, a);
		if (is_union)
			bit = 0;
		if (m->bits >= 0) {
			/* a bitfield: in the next unit of its type when it would straddle one */
			if (m->bits == 0 || (!at->packed && bit / unit != (bit + m->bits - 1) / unit))
				bit = ALIGN_UP(bit, unit);
			f->offset = (uint32_t)(bit / 8);
			f->bit_off = bit % 8;
			f->bit_size = (uint8_t)m->bits;
			bit += m->bits;
		} else {
			bit = ALIGN_UP(bit, 8 * (uint64_t)a);
			f->offset = (uint32_t)(bit / 8);
			bit += 8 * (uint64_t)extent;
		}
		size = MAX(size, (bit + 7) / 8);
	}
	if (at->aligned)
		align = MAX(at->aligned, at->packed ? 1 : align);
	t->align = align;
	t->size = (uint32_t)ALIGN_UP(size, align);
}

/* members in the arena: an error longjmps out of any depth of nesting */
struct members {
	struct member *v;
	uint32_t n, cap;
};

static void push_member(struct cp *c, struct members *ms, struct member m)
{
	if (ms->n == ms->cap) {
		struct member *v = ARENA_ARRAY(c->env->arena, struct member, ms->cap ? 2 * ms->cap : 8);
		if (ms->n)
			memcpy(v, ms->v, sizeof(*v) * ms->n);
		ms->v = v;
		ms->cap = ms->cap ? 2 * ms->cap : 8;
	}
	ms->v[ms->n++] = m;
}

/* A bitfield's width: as C has it, an integer's, at most its type's bits */
static int bit_width(struct cp *c, const struct member *m)
{
	uint32_t at;
	int64_t bits;
	char what[200];

	skip_space(c);
	at = c->pos;
	bits = const_expr(c, ",;}");
	if (m->type->kind != TY_INT)
		cp_error(c, m->pos, c->pos, "bitfield '%s' is not an integer", m->name);
	if (bits < 0 || bits > 8 * (int64_t)m->type->size) {
		snprintf(what, sizeof(what), "bitfield '%.100s' is %lld bits wide: its type has %u",
			 m->name, (long long)bits, 8 * m->type->size);
		cp_error(c, at, c->pos, "%s", what);
	}
	return (int)bits;
}

static void parse_members(struct cp *c, struct type *t, bool is_union, struct attrs *attr)
{
	struct members ms = { 0 };

	expect(c, '{');
	while (!eat(c, '}')) {
		const char *tag = NULL;
		uint32_t at = c->pos;
		struct type *base = parse_type(c, &tag);
		if (eat(c, ';')) {
			/* an anonymous struct or union: its members are the record's */
			struct member m = { .type = base, .bits = -1, .pos = at };
			if (!tag)
				cp_error(c, at, c->pos, "a member needs a name%s", "");
			push_member(c, &ms, m);
			continue;
		}
		do {
			struct member m = { .bits = -1, .pos = c->pos };
			parse_declarator(c, base, &m);
			if (eat(c, ':'))
				m.bits = bit_width(c, &m);
			attributes(c, NULL); /* a member's own: not laid out by lantern */
			if (m.type->kind == TY_VOID || (m.type->kind == TY_RECORD && !m.type->size))
				cp_error(c, m.pos, c->pos, "member '%s' has an incomplete type: a struct "
					 "defined nowhere (not in the script, not in the kernel's BTF)", m.name);
			push_member(c, &ms, m);
		} while (eat(c, ','));
		/* the last member's ';' may be left out before '}' (clang takes it, with a warning) */
		if (peek(c) != '}')
			expect(c, ';');
	}
	/* struct x { ... } __attribute__((packed)) */
	attributes(c, attr);
	layout(c, t, ms.v, ms.n, is_union, attr);
}

static struct type *parse_enum(struct cp *c, const char *name)
{
	struct arena *a = c->env->arena;
	struct enum_info *en;
	struct type *t;
	int64_t next = 0;
	uint32_t cap = 8;

	if (!eat(c, '{')) {
		t = name ? type_env_lookup(c->env, "enum", name) : NULL;
		return t ? t : &ty_u32;
	}
	/* its members, by which its values print (today's bpftrace) */
	en = ARENA_NEW(a, struct enum_info);
	en->name = name ? arena_printf(a, "enum %s", name) : "enum";
	en->names = ARENA_ARRAY(a, const char *, cap);
	en->values = ARENA_ARRAY(a, int64_t, cap);
	t = type_enum(a, 4, false, en);
	if (name)
		type_env_add_type(c->env, "enum", name, t);
	while (!eat(c, '}')) {
		const char *k = ident(c);
		if (!k)
			cp_error(c, c->pos, c->pos + 1, "expected an enumerator name%s", "");
		if (eat(c, '='))
			next = const_expr(c, ",}");
		if (en->n == cap) {
			const char **nn = ARENA_ARRAY(a, const char *, cap * 2);
			int64_t *nv = ARENA_ARRAY(a, int64_t, cap * 2);
			memcpy(nn, en->names, cap * sizeof(*nn));
			memcpy(nv, en->values, cap * sizeof(*nv));
			en->names = nn;
			en->values = nv;
			cap *= 2;
		}
		en->names[en->n] = k;
		en->values[en->n++] = next;
		type_env_add_enum_const(c->env, k, next++, t);
		if (!eat(c, ',')) {
			expect(c, '}');
			break;
		}
	}
	return t;
}

/* struct/union NAME? { ... }?: *record_tag says it is one (anonymous members) */
static struct type *parse_record(struct cp *c, const char *tag)
{
	struct attrs at = { 0 };
	const char *name;
	struct type *t = NULL;

	attributes(c, &at); /* struct __attribute__((packed)) x { ... } */
	name = ident(c);
	if (name && peek(c) != '{') {
		/* a use: struct foo, maybe only declared so far */
		t = type_env_lookup(c->env, tag, name);
		return t ? t : forward(c, tag, name);
	}
	if (name) {
		/* its definition: a forward declaration of the same name takes it */
		vec_foreach(&c->env->types, nt)
		{
			if (nt->tag && !strcmp(nt->tag, tag) && !strcmp(nt->name, name) &&
			    nt->type->kind == TY_RECORD && !nt->type->size)
				t = nt->type;
		}
		if (!t) {
			t = type_record(c->env->arena, arena_printf(c->env->arena, "%s %s", tag, name), 0, 1, 0);
			type_env_add_type(c->env, tag, name, t);
		}
	} else {
		t = type_record(c->env->arena, arena_printf(c->env->arena, "%s (anonymous)", tag), 0, 1, 0);
	}
	if (++c->depth > CDEF_DEPTH_MAX) {
		diag_error(c->d, SPAN(c->lo + c->pos, c->lo + c->pos + 1), E_TOO_DEEP,
			   "C definitions nest more than %d deep", CDEF_DEPTH_MAX);
		longjmp(c->fail, 1);
	}
	parse_members(c, t, !strcmp(tag, "union"), &at);
	c->depth--;
	return t;
}

static struct type *parse_type(struct cp *c, const char **record_tag)
{
	char words[128] = "";
	const char *w;
	struct type *t;
	uint32_t at;

	skip_qualifiers(c);
	at = c->pos;
	c->plain_char = false;
	if (eat_word(c, "struct") || eat_word(c, "union")) {
		const char *tag = c->text[at] == 's' ? "struct" : "union";
		*record_tag = tag;
		t = parse_record(c, tag);
		skip_qualifiers(c);
		return t;
	}
	if (eat_word(c, "enum")) {
		t = parse_enum(c, ident(c));
		skip_qualifiers(c);
		return t;
	}
	/* base type words ("unsigned long long"), or one typedef name */
	while ((w = ident(c))) {
		size_t n = strlen(words);
		bool word = !strcmp(w, "unsigned") || !strcmp(w, "signed") || !strcmp(w, "long") ||
			    !strcmp(w, "short") || !strcmp(w, "int") || !strcmp(w, "char");
		if (!strcmp(w, "const") || !strcmp(w, "volatile"))
			continue;
		if (!word && *words) {
			c->pos -= strlen(w); /* the member's name */
			break;
		}
		snprintf(words + n, sizeof(words) - n, "%s%s", n ? " " : "", w);
		if (!word)
			break;
	}
	if (!*words)
		cp_error(c, at, at + 1, "expected a type in the C definition%s", "");
	t = type_env_lookup(c->env, NULL, words);
	c->plain_char = !strcmp(words, "char");
	if (!t)
		cp_error(c, at, c->pos, "unknown type '%s': not in the script's definitions, nor a base type, nor in the kernel's BTF", words);
	skip_qualifiers(c);
	return t;
}

/* '*'... NAME ('[' N ']')..., or a function pointer "(*NAME)(...)" */
static void parse_declarator(struct cp *c, struct type *base, struct member *m)
{
	struct type *t = base;
	uint32_t dims[8], ndims = 0;

	while (eat(c, '*')) {
		t = type_ptr(c->env->arena, t, false);
		skip_qualifiers(c);
	}
	if (eat(c, '(')) {
		/* a function pointer: a pointer lantern does not follow */
		while (eat(c, '*'))
			;
		m->name = ident(c);
		if (!m->name)
			cp_error(c, c->pos, c->pos + 1, "expected a member name%s", "");
		expect(c, ')');
		expect(c, '(');
		for (int depth = 1; depth && c->pos < c->len; c->pos++)
			depth += (c->text[c->pos] == '(') - (c->text[c->pos] == ')');
		m->type = type_ptr(c->env->arena, &ty_void, false);
		return;
	}
	m->name = ident(c);
	if (!m->name)
		cp_error(c, c->pos, c->pos + 1, "expected a member name%s", "");
	while (eat(c, '[')) {
		if (ndims == ARRAY_SIZE(dims))
			cp_error(c, c->pos, c->pos + 1, "too many array dimensions%s", "");
		dims[ndims++] = peek(c) == ']' ? 0 : (uint32_t)const_expr(c, "]");
		expect(c, ']');
	}
	if (ndims == 1 && c->plain_char && t == base) {
		/* char[N]: a string, as bpftrace reads it */
		m->read_size = dims[0];
		m->type = type_str(c->env->arena, dims[0] + 1);
		return;
	}
	for (uint32_t i = ndims; i-- > 0;)
		t = type_array(c->env->arena, t, dims[i]);
	m->type = t;
}

int types_cdef_parse(struct type_env *env, const char *text, uint32_t lo, struct diag *d)
{
	struct cp c = { .env = env, .d = d, .text = text, .lo = lo, .len = (uint32_t)strlen(text) };
	const char *tag = NULL;

	if (setjmp(c.fail))
		return -1;
	while (peek(&c)) {
		if (eat_word(&c, "typedef")) {
			struct member m = { .bits = -1 };
			struct type *base = parse_type(&c, &tag);
			parse_declarator(&c, base, &m);
			type_env_add_type(env, NULL, m.name, m.type);
		} else {
			parse_type(&c, &tag);
		}
		if (!eat(&c, ';') && peek(&c))
			cp_error(&c, c.pos, c.pos + 1, "expected ';' after the C definition%s", "");
	}
	return 0;
}

int types_cdef_define(struct type_env *env, const char *text, uint32_t lo, struct diag *d)
{
	struct cp c = { .env = env, .d = d, .text = text, .lo = lo, .len = (uint32_t)strlen(text) };
	const char *name;
	int64_t v;

	if (setjmp(c.fail))
		return -1;
	if (!(name = ident(&c)))
		cp_error(&c, c.pos, c.pos + 1, "expected a name after #define%s", "");
	if (c.pos < c.len && c.text[c.pos] == '(')
		cp_error(&c, c.pos, c.len, "function-like macros are not supported%s", "");
	if (peek(&c) == '"') {
		const char *end = strrchr(c.text + c.pos + 1, '"');
		if (!end)
			cp_error(&c, c.pos, c.len, "an unterminated string%s", "");
		type_env_add_const(env, name, 0,
				   arena_strndup(env->arena, c.text + c.pos + 1, end - (c.text + c.pos + 1)));
		return 0;
	}
	if (!peek(&c)) {
		type_env_add_const(env, name, 1, NULL); /* "#define X": defined, worth 1 */
		return 0;
	}
	v = const_expr(&c, "");
	type_env_add_const(env, name, v, NULL);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Literals: integers (decimal, 0x hex, 0-prefixed octal, '_' separators,
 * 1e6 exponents, C suffixes u/l/ul/ll/ull which change nothing, and
 * today's bpftrace's durations 10ms, 1s, ... in nanoseconds), strings and
 * character constants with C escapes.
 */
#include "lex/lex_internal.h"

#include <string.h>

static int digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

struct numscan {
	const char *s;
	uint32_t n, i;
	uint64_t v;
	bool overflow;
	char bad; /* the 8 or 9 in an octal number */
};

/*
 * Digits of base b with '_' separators from ns->i on. Returns NULL or an
 * error message.
 */
static const char *scan_digits(struct numscan *ns, unsigned b)
{
	uint32_t first = ns->i;
	bool last_digit = false;

	while (ns->i < ns->n) {
		int c = (unsigned char)ns->s[ns->i];
		unsigned d = (unsigned)digit_value(c);

		if (c == '_') {
			if (ns->i == first)
				return "digit separator '_' must be between digits";
			last_digit = false;
		} else if (d < b) {
			if (ns->v > (UINT64_MAX - d) / b)
				ns->overflow = true;
			ns->v = ns->v * b + d;
			last_digit = true;
		} else if (b == 8 && d < 10) {
			ns->bad = (char)c;
			return "invalid digit in octal number";
		} else {
			break;
		}
		ns->i++;
	}
	if (ns->i == first)
		return b == 16 ? "expected hexadecimal digits after '0x'" : "expected digits";
	if (!last_digit)
		return "digit separator '_' must be between digits";
	return NULL;
}

static bool valid_suffix(const char *s, uint32_t n)
{
	static const char *const ok[] = { "", "u", "l", "ul", "lu", "ll", "ull", "llu" };
	char low[4];

	if (n > 3)
		return false;
	for (uint32_t i = 0; i < n; i++)
		low[i] = (char)(s[i] | 0x20);
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (strlen(ok[i]) == n && !memcmp(ok[i], low, n))
			return true;
	return false;
}

/* Today's bpftrace's durations: a decimal number of these, in nanoseconds. */
static const struct {
	const char *suffix;
	uint64_t ns;
} durations[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "ms", 1000000 },
	{ "s", 1000000000ull },
	{ "m", 60 * 1000000000ull },
	{ "h", 3600 * 1000000000ull },
	{ "d", 86400 * 1000000000ull },
};

/* The nanoseconds of duration suffix s (n bytes), or 0 when it is none. */
static uint64_t duration_ns(const char *s, uint32_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(durations); i++)
		if (strlen(durations[i].suffix) == n && !memcmp(durations[i].suffix, s, n))
			return durations[i].ns;
	return 0;
}

static struct token number_error(struct lexer *lx, struct token t, const struct numscan *ns,
				 const char *msg)
{
	if (ns && ns->bad) {
		lex_error(lx, t.span, E_BAD_NUMBER, "invalid digit '%c' in octal number", ns->bad);
		lex_hint(lx, "a leading 0 makes a number octal; write it without the 0");
	} else {
		lex_error(lx, t.span, E_BAD_NUMBER, "%s", msg);
	}
	t.kind = TOK_ERROR;
	return t;
}

struct token lex_number(struct lexer *lx, struct token t)
{
	uint32_t lo = t.span.lo, end = lo;
	struct numscan ns = { .s = lx->text + lo };
	const char *err;
	unsigned base = 10;

	while (end < lx->len && is_ident_char((unsigned char)lx->text[end]))
		end++;
	/* "1.5", but not the "0" of a tuple field "$t.0.1". */
	if (end + 1 < lx->len && lx->text[end] == '.' && lx->text[end + 1] >= '0' &&
	    lx->text[end + 1] <= '9' && !(lo > 0 && lx->text[lo - 1] == '.')) {
		end++;
		while (end < lx->len && is_ident_char((unsigned char)lx->text[end]))
			end++;
		lx->pos = end;
		t.span.hi = end;
		return number_error(lx, t, NULL, "floating-point numbers are not supported");
	}
	lx->pos = end;
	t.span.hi = end;
	ns.n = end - lo;

	if (ns.n >= 2 && ns.s[0] == '0' && (ns.s[1] == 'x' || ns.s[1] == 'X')) {
		base = 16;
		ns.i = 2;
	} else if (ns.n >= 2 && ns.s[0] == '0' && (digit_value(ns.s[1]) < 10 || ns.s[1] == '_')) {
		base = 8; /* the leading 0 is a digit: "0_7" is 7 */
	}
	err = scan_digits(&ns, base);
	if (err)
		return number_error(lx, t, &ns, err);

	/* A decimal exponent: 1e6. */
	if (base == 10 && ns.i + 1 < ns.n && (ns.s[ns.i] == 'e' || ns.s[ns.i] == 'E') &&
	    digit_value(ns.s[ns.i + 1]) < 10) {
		uint64_t mant = ns.v;

		ns.v = 0;
		ns.i++;
		err = scan_digits(&ns, 10);
		if (err)
			return number_error(lx, t, &ns, err);
		if (mant != 0 && (ns.overflow || ns.v > 19)) {
			ns.overflow = true;
		} else if (mant != 0) {
			for (uint64_t e = ns.v; e > 0; e--) {
				if (mant > UINT64_MAX / 10)
					ns.overflow = true;
				mant *= 10;
			}
		} else {
			ns.overflow = false;
		}
		ns.v = mant;
	}
	uint64_t unit = base == 10 && ns.i < ns.n ? duration_ns(ns.s + ns.i, ns.n - ns.i) : 0;
	if (unit) {
		if (ns.v > UINT64_MAX / unit)
			ns.overflow = true;
		ns.v *= unit;
		t.flags |= TOKF_DURATION;
	} else if (!valid_suffix(ns.s + ns.i, ns.n - ns.i)) {
		lex_error(lx, t.span, E_BAD_NUMBER, "invalid suffix '%.*s' on number",
			  (int)(ns.n - ns.i), ns.s + ns.i);
		t.kind = TOK_ERROR;
		return t;
	}
	if (ns.overflow) {
		lex_error(lx, t.span, E_BAD_NUMBER, "number '%.*s' does not fit in 64 bits",
			  (int)ns.n, ns.s);
		t.kind = TOK_ERROR;
		return t;
	}
	t.kind = TOK_INT;
	t.ival = ns.v;
	return t;
}

/*
 * One escape sequence at text[*i] == '\\'. Stores its byte in *out,
 * advances *i past it. False after reporting an error.
 */
static bool decode_escape(struct lexer *lx, uint32_t *i, char *out)
{
	const char *s = lx->text;
	uint32_t lo = *i, p = lo + 1;
	int c = (unsigned char)s[p];
	unsigned v = 0, k;

	switch (c) {
	case 'n':
		v = '\n';
		p++;
		break;
	case 't':
		v = '\t';
		p++;
		break;
	case 'r':
		v = '\r';
		p++;
		break;
	case '\\':
	case '"':
	case '\'':
		v = (unsigned)c;
		p++;
		break;
	case 'x':
		p++;
		for (k = 0; k < 2 && digit_value(s[p]) < 16; k++, p++)
			v = v * 16 + (unsigned)digit_value(s[p]);
		if (k == 0) {
			lex_error(lx, SPAN(lo, p), E_BAD_ESCAPE,
				  "'\\x' must be followed by one or two hexadecimal digits");
			return false;
		}
		break;
	default:
		if (c >= '0' && c <= '7') {
			for (k = 0; k < 3 && s[p] >= '0' && s[p] <= '7'; k++, p++)
				v = v * 8 + (unsigned)(s[p] - '0');
			if (v > 255) {
				lex_error(lx, SPAN(lo, p), E_BAD_ESCAPE,
					  "octal escape '\\%.*s' is out of range (at most \\377)",
					  (int)(p - lo - 1), s + lo + 1);
				return false;
			}
			break;
		}
		char buf[32];

		if (c > 0x20 && c < 0x7f)
			lex_error(lx, SPAN(lo, p + 1), E_BAD_ESCAPE,
				  "unknown escape sequence '\\%c'", c);
		else
			lex_error(lx, SPAN(lo, p + 1), E_BAD_ESCAPE,
				  "unknown escape sequence: '\\' followed by %s",
				  lex_char_str(c, buf, sizeof(buf)));
		lex_hint(lx, "valid escapes are \\n \\t \\r \\\\ \\\" \\' \\xNN and octal \\NNN "
			     "(\\0 for NUL)");
		return false;
	}
	*out = (char)v;
	*i = p;
	return true;
}

struct token lex_quoted(struct lexer *lx, struct token t)
{
	const char *s = lx->text;
	char q = s[t.span.lo];
	uint32_t p = t.span.lo + 1, i, n = 0;
	char *buf;

	/*
	 * Find the closing quote. A string may span lines, as bpftrace's
	 * (the newline is its own character); a character literal may not.
	 */
	while (p < lx->len && s[p] != q && (q == '"' || s[p] != '\n')) {
		if (s[p] == '\\' && p + 1 < lx->len && s[p + 1] != '\n')
			p++;
		p++;
	}
	if (p >= lx->len || s[p] != q) {
		/* underlined to the end of its first line */
		uint32_t end = t.span.lo + 1;
		while (end < p && s[end] != '\n')
			end++;
		t.kind = TOK_ERROR;
		t.span.hi = end;
		lx->pos = p;
		lex_error(lx, t.span, E_UNTERMINATED_STRING, "unterminated %s literal",
			  q == '"' ? "string" : "character");
		if (q == '"' && end < p)
			lex_hint(lx, "no '\"' closes it before the end of the script (a string may "
				     "span lines, as in bpftrace)");
		return t;
	}
	lx->pos = p + 1;
	t.span.hi = p + 1;
	t.kind = q == '"' ? TOK_STR : TOK_INT;
	if (lx->quiet)
		return t;

	/* Decode: never longer than the raw text. */
	buf = arena_alloc(lx->arena, p - t.span.lo);
	for (i = t.span.lo + 1; i < p;) {
		if (s[i] != '\\') {
			buf[n++] = s[i++];
		} else if (!decode_escape(lx, &i, &buf[n++])) {
			t.kind = TOK_ERROR;
			return t;
		}
	}
	buf[n] = '\0';
	if (q == '"') {
		t.str = buf;
		t.len = n;
		return t;
	}
	if (n != 1) {
		lex_error(lx, t.span, E_BAD_CHAR,
			  n == 0 ? "empty character literal"
				 : "a character literal holds exactly one character");
		if (n > 1)
			lex_hint(lx, "use double quotes for a string");
		t.kind = TOK_ERROR;
		return t;
	}
	t.ival = (unsigned char)buf[0];
	return t;
}

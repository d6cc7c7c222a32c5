// SPDX-License-Identifier: MIT
/*
 * Top-level raw text: attach points, preprocessor lines, C definitions.
 *
 * An attach point is a run of bytes up to a blank, ',', '{', '}', ';' or a
 * '/' that opens the predicate. A '/' belongs to the attach point when it
 * directly follows ':', when the current ':'-separated part began with
 * '/' or '.' (a path: "uprobe:/bin/bash:readline", "uprobe:./a.out:main"),
 * or when it is the file part of a uprobe or USDT probe
 * ("uprobe:build/a.out:main", as bpftrace reads it).
 * Double-quoted pieces may hold anything but a newline:
 * uprobe:"/path with space":"ns::func".
 */
#include "lex/lex_internal.h"

#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

bool lex_at_word(const struct lexer *lx, const char *w)
{
	uint32_t n = (uint32_t)strlen(w);

	return lx->pos + n <= lx->len && !memcmp(lx->text + lx->pos, w, n) &&
	       !is_ident_char(lex_peek(lx, n));
}

static bool ends_attach_point(int c)
{
	return c <= ' ' || c == 0x7f || c == ',' || c == '{' || c == '}' || c == ';' || c == '(' ||
	       c == ')';
}

/* End of input: point just after the last non-blank byte, not at an empty last line. */
static struct span eof_span(const struct lexer *lx)
{
	uint32_t p = lx->len;

	while (p > 0 && (lx->text[p - 1] == ' ' || lx->text[p - 1] == '\t' ||
			 lx->text[p - 1] == '\n' || lx->text[p - 1] == '\r'))
		p--;
	return SPAN(p, p + 1);
}

const char *lex_raw_describe(const struct lexer *lx, uint32_t at, struct span *sp, char *buf,
			     size_t size)
{
	uint32_t end = at;

	if (at >= lx->len) {
		*sp = eof_span(lx);
		snprintf(buf, size, "end of input");
		return buf;
	}
	while (end < lx->len && end - at < 32 && !ends_attach_point((unsigned char)lx->text[end]) &&
	       lx->text[end] != '/' && lx->text[end] != '"' && (unsigned char)lx->text[end] < 0x80)
		end++;
	if (end == at) {
		*sp = SPAN(at, at + 1);
		return lex_char_str((unsigned char)lx->text[at], buf, size);
	}
	*sp = SPAN(at, end);
	snprintf(buf, size, "'%.*s'", (int)(end - at), lx->text + at);
	return buf;
}

/* Is the part being read the file of a probe type that takes one (uprobe:FILE:...)? */
static bool in_file_part(const struct attach_point *ap)
{
	static const char *const file_types[] = { "uprobe", "uretprobe", "usdt", "u", "ur", "U" };

	if (ap->nparts != 1 || !ap->parts[0])
		return false;
	for (size_t i = 0; i < sizeof(file_types) / sizeof(file_types[0]); i++)
		if (!strcmp(ap->parts[0], file_types[i]))
			return true;
	return false;
}

static void push_part(struct lexer *lx, struct attach_point *ap, struct strbuf *part)
{
	if (ap->nparts < AP_MAX_PARTS)
		ap->parts[ap->nparts] = arena_strndup(lx->arena, part->s ? part->s : "", part->len);
	ap->nparts++;
	sb_reset(part);
}

bool lex_attach_point(struct lexer *lx, struct attach_point *ap)
{
	uint32_t start = lx->pos;
	struct strbuf part = { 0 };
	int first = -1; /* first byte of the current part, -1 while empty */
	bool ok = true;

	*ap = (struct attach_point){ 0 };
	while (lx->pos < lx->len) {
		int c = lex_peek(lx, 0);

		if (c == '"') {
			uint32_t q = lx->pos++;

			while (lx->pos < lx->len && lx->text[lx->pos] != '"' &&
			       lx->text[lx->pos] != '\n') {
				if (lx->text[lx->pos] == '\\' &&
				    (lex_peek(lx, 1) == '"' || lex_peek(lx, 1) == '\\'))
					lx->pos++;
				if (first < 0)
					first = (unsigned char)lx->text[lx->pos];
				sb_putc(&part, lx->text[lx->pos++]);
			}
			if (lex_peek(lx, 0) != '"') {
				lex_error(lx, SPAN(q, lx->pos), E_UNTERMINATED_STRING,
					  "unterminated quoted part of an attach point");
				ok = false;
				goto out;
			}
			lx->pos++;
			if (first < 0)
				first = 0; /* "" is a (quoted, empty) part */
			continue;
		}
		if (c == ':') {
			push_part(lx, ap, &part);
			first = -1;
			lx->pos++;
			continue;
		}
		if (c == '/') {
			bool after_colon = lx->pos > start && lx->text[lx->pos - 1] == ':';

			if (!after_colon && first != '/' && first != '.' && !in_file_part(ap))
				break;
		} else if (ends_attach_point(c)) {
			break;
		}
		if (first < 0)
			first = c;
		sb_putc(&part, (char)c);
		lx->pos++;
	}

	if (lx->pos == start) {
		char buf[48];
		struct span sp;

		lex_raw_describe(lx, start, &sp, buf, sizeof(buf));
		lex_error(lx, sp, E_SYNTAX,
			  "unexpected %s, expected an attach point such as BEGIN or kprobe:func",
			  buf);
		ok = false;
		goto out;
	}
	push_part(lx, ap, &part);
	ap->span = SPAN(start, lx->pos);
	ap->text = arena_strndup(lx->arena, lx->text + start, lx->pos - start);
	if (ap->nparts > AP_MAX_PARTS) {
		lex_error(lx, ap->span, E_BAD_ATTACH_POINT,
			  "attach point has %u ':'-separated parts, at most %d are allowed",
			  ap->nparts, AP_MAX_PARTS);
		ap->nparts = AP_MAX_PARTS;
		ok = false;
	}
out:
	sb_free(&part);
	return ok;
}

bool lex_directive(struct lexer *lx, struct span *out)
{
	uint32_t start = lx->pos, end;

	while (lx->pos < lx->len && lx->text[lx->pos] != '\n') {
		/* A backslash before the newline continues the line. */
		if (lx->text[lx->pos] == '\\' &&
		    (lex_peek(lx, 1) == '\n' ||
		     (lex_peek(lx, 1) == '\r' && lex_peek(lx, 2) == '\n')))
			lx->pos += lex_peek(lx, 1) == '\r' ? 2 : 1;
		lx->pos++;
	}
	end = lx->pos;
	while (end > start &&
	       (lx->text[end - 1] == '\r' || lx->text[end - 1] == ' ' || lx->text[end - 1] == '\t'))
		end--;
	*out = SPAN(start, end);
	return true;
}

/* Skip a comment or a quoted C literal at lx->pos; false if there is none. */
static bool skip_c_token(struct lexer *lx, bool *ok)
{
	int c = lex_peek(lx, 0);

	if (c == '/' && (lex_peek(lx, 1) == '/' || lex_peek(lx, 1) == '*')) {
		*ok = lex_skip_space(lx);
		return true;
	}
	if (c == '"' || c == '\'') {
		uint32_t lo = lx->pos++;

		while (lx->pos < lx->len && lx->text[lx->pos] != c && lx->text[lx->pos] != '\n') {
			if (lx->text[lx->pos] == '\\' && lx->pos + 1 < lx->len)
				lx->pos++;
			lx->pos++;
		}
		if (lex_peek(lx, 0) != c) {
			lex_error(lx, SPAN(lo, lx->pos), E_UNTERMINATED_STRING,
				  "unterminated literal in C definition");
			*ok = false;
		} else {
			lx->pos++;
		}
		return true;
	}
	return false;
}

/* After a definition's '}': its __attribute__((...)) (*end moves past them) */
static bool attributes(struct lexer *lx, uint32_t *end)
{
	while (lex_at_word(lx, "__attribute__") || lex_at_word(lx, "__attribute")) {
		int depth = 0;
		while (lx->pos < lx->len && lex_peek(lx, 0) != '(')
			lx->pos++;
		do {
			depth += lex_peek(lx, 0) == '(';
			depth -= lex_peek(lx, 0) == ')';
			lx->pos++;
		} while (depth > 0 && lx->pos < lx->len);
		*end = lx->pos;
		if (!lex_skip_space(lx))
			return false;
	}
	return true;
}

bool lex_cdef(struct lexer *lx, struct span *out)
{
	uint32_t start = lx->pos, open = 0;
	int depth = 0;
	bool ok = true, typedef_ = lex_at_word(lx, "typedef");

	/*
	 * The keyword, then anything but braces until '{' or ';'. A struct,
	 * union or enum definition ends at its closing '}' (a ';' after it is
	 * taken too, as bpftrace allows both); a typedef ends at its ';'.
	 */
	while (lx->pos < lx->len) {
		if (skip_c_token(lx, &ok)) {
			if (!ok)
				return false;
			continue;
		}
		int c = lex_peek(lx, 0);

		if (c == ';' && depth == 0) {
			lx->pos++;
			*out = SPAN(start, lx->pos);
			return true;
		}
		if (c == '{') {
			if (depth == 0)
				open = lx->pos;
			depth++;
		} else if (c == '}') {
			if (depth == 0) {
				lex_error(lx, SPAN(lx->pos, lx->pos + 1), E_SYNTAX,
					  "unexpected '}' in C definition");
				return false;
			}
			if (--depth == 0 && !typedef_) {
				uint32_t end = ++lx->pos;
				if (!lex_skip_space(lx) || !attributes(lx, &end))
					return false;
				if (lex_peek(lx, 0) == ';')
					end = ++lx->pos;
				else
					lx->pos = end;
				*out = SPAN(start, end);
				return true;
			}
		}
		lx->pos++;
	}
	if (depth > 0)
		lex_error(lx, SPAN(open, open + 1), E_SYNTAX,
			  "unterminated C definition: this '{' is never closed");
	else
		lex_error(lx, eof_span(lx), E_SYNTAX,
			  "unexpected end of input, expected ';' after the C definition");
	return false;
}

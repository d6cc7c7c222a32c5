// SPDX-License-Identifier: MIT
/* The lexer on its own: token kinds, values, spans, modes and errors. */
#include "parse_util.h"

#include "lex/lexer.h"

struct lexed {
	char *tokens; /* "INT(42) '+' IDENT(x) EOF" */
	char *errors; /* the diagnostics */
};

static void put_token(struct strbuf *sb, const struct token *t)
{
	switch (t->kind) {
	case TOK_INT:
		sb_printf(sb, "INT(%llu)", (unsigned long long)t->ival);
		break;
	case TOK_STR:
		sb_puts(sb, "STR(");
		for (uint32_t i = 0; i < t->len; i++) {
			unsigned char c = (unsigned char)t->str[i];

			if (c < 0x20 || c >= 0x7f || c == '\\')
				sb_printf(sb, "\\x%02x", c);
			else
				sb_putc(sb, (char)c);
		}
		sb_putc(sb, ')');
		break;
	case TOK_IDENT:
		sb_printf(sb, "IDENT(%s)", t->str);
		break;
	case TOK_VAR:
		sb_printf(sb, "VAR(%s)", t->str);
		break;
	case TOK_MAP:
		sb_printf(sb, "MAP(%s)", t->str);
		break;
	case TOK_POSITIONAL:
		sb_printf(sb, "POS(%u)", t->num);
		break;
	case TOK_EOF:
		sb_puts(sb, "EOF");
		break;
	case TOK_ERROR:
		sb_puts(sb, "ERROR");
		break;
	default:
		sb_puts(sb, lex_tok_kind_str(t->kind));
	}
}

static struct lexed lex_all(const char *text, bool predicate)
{
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct lexer lx;
	struct strbuf sb = { 0 };
	struct lexed r;
	struct token t;

	source_init(&src, "stdin", text, strlen(text));
	diag_init(&d, &src);
	lex_init(&lx, &src, &a, &d);
	lx.predicate = predicate;
	do {
		t = lex_next(&lx);
		if (sb.len)
			sb_putc(&sb, ' ');
		put_token(&sb, &t);
		assert_true(t.span.lo <= t.span.hi && t.span.hi <= src.len);
	} while (t.kind != TOK_EOF && t.kind != TOK_ERROR);
	r.tokens = util_xstrdup(sb_str(&sb));
	r.errors = util_xstrdup(sb_str(&d.out));
	sb_free(&sb);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
	return r;
}

static void check_lex(const char *text, const char *want)
{
	struct lexed r = lex_all(text, false);

	if (strcmp(r.tokens, want))
		fail_msg("lexing '%s'\n want: %s\n  got: %s\n%s", text, want, r.tokens, r.errors);
	free(r.tokens);
	free(r.errors);
}

static void check_lex_error(const char *text, const char *want_errors)
{
	struct lexed r = lex_all(text, false);

	if (strcmp(r.errors, want_errors))
		fail_msg("lexing '%s'\n want:\n%s  got:\n%s", text, want_errors, r.errors);
	assert_non_null(strstr(r.tokens, "ERROR"));
	free(r.tokens);
	free(r.errors);
}

static void test_operators(void **state)
{
	(void)state;
	check_lex("+ - * / % & | ^ ~ ! < > = . , ; : ? ( ) [ ] { }",
		  "'+' '-' '*' '/' '%' '&' '|' '^' '~' '!' '<' '>' '=' '.' ',' ';' ':' '?' '(' ')' "
		  "'[' ']' '{' '}' EOF");
	check_lex("== != <= >= << >> && || ++ -- ->",
		  "'==' '!=' '<=' '>=' '<<' '>>' '&&' '||' '++' '--' '->' EOF");
	check_lex("+= -= *= /= %= &= |= ^= <<= >>=",
		  "'+=' '-=' '*=' '/=' '%=' '&=' '|=' '^=' '<<=' '>>=' EOF");
	/* Longest match, C style. */
	check_lex("a+++b", "IDENT(a) '++' '+' IDENT(b) EOF");
	check_lex("a<<=b>>c->d", "IDENT(a) '<<=' IDENT(b) '>>' IDENT(c) '->' IDENT(d) EOF");
	check_lex("x--->y", "IDENT(x) '--' '->' IDENT(y) EOF");
	check_lex("!==", "'!=' '=' EOF");
}

static void test_words(void **state)
{
	(void)state;
	check_lex("if else unroll while return break continue sizeof struct union enum",
		  "'if' 'else' 'unroll' 'while' 'return' 'break' 'continue' 'sizeof' 'struct' "
		  "'union' 'enum' EOF");
	check_lex("iff _if if_ If elsewhere pid comm arg0 _",
		  "IDENT(iff) IDENT(_if) IDENT(if_) IDENT(If) IDENT(elsewhere) IDENT(pid) "
		  "IDENT(comm) IDENT(arg0) IDENT(_) EOF");
	check_lex("$x $_y1 $1 $42 $# $0", "VAR(x) VAR(_y1) POS(1) POS(42) '$#' POS(0) EOF");
	check_lex("@ @x @_a1 @[1]", "MAP() MAP(x) MAP(_a1) MAP() '[' INT(1) ']' EOF");
	check_lex("@1", "MAP() INT(1) EOF");
}

static void test_numbers(void **state)
{
	(void)state;
	check_lex("0 7 42 1234567890", "INT(0) INT(7) INT(42) INT(1234567890) EOF");
	check_lex("0x0 0x2a 0X2A 0xdeadBEEF 0xffffffffffffffff",
		  "INT(0) INT(42) INT(42) INT(3735928559) INT(18446744073709551615) EOF");
	check_lex("00 052 0777 0_7", "INT(0) INT(42) INT(511) INT(7) EOF");
	check_lex("1_000_000 1__0 0xff_ff", "INT(1000000) INT(10) INT(65535) EOF");
	check_lex("1e6 2E3 0e99 1e0 1_8e1_8 18446744073709551615",
		  "INT(1000000) INT(2000) INT(0) INT(1) INT(18000000000000000000) "
		  "INT(18446744073709551615) EOF");
	check_lex("1u 2U 3l 4L 5ul 6lu 7ll 8ULL 9llu", "INT(1) INT(2) INT(3) INT(4) INT(5) INT(6) "
						       "INT(7) INT(8) INT(9) EOF");
	/* A tuple index is not a float. */
	check_lex("$t.0.1", "VAR(t) '.' INT(0) '.' INT(1) EOF");
	check_lex("1.", "INT(1) '.' EOF");
}

static void test_number_errors(void **state)
{
	(void)state;
	check_lex_error(
		"18446744073709551616",
		"stdin:1:1-21: ERROR: number '18446744073709551616' does not fit in 64 "
		"bits [E103]\n18446744073709551616\n~~~~~~~~~~~~~~~~~~~~\n");
	check_lex_error("2e19", "stdin:1:1-5: ERROR: number '2e19' does not fit in 64 bits [E103]\n"
				"2e19\n~~~~\n");
	check_lex_error("1e99999999999999999999",
			"stdin:1:1-23: ERROR: number '1e99999999999999999999' does not fit in "
			"64 bits [E103]\n1e99999999999999999999\n~~~~~~~~~~~~~~~~~~~~~~\n");
	check_lex_error("09", "stdin:1:1-3: ERROR: invalid digit '9' in octal number [E103]\n09\n~~\n"
			      "HINT: a leading 0 makes a number octal; write it without the 0\n");
	check_lex_error("0b101", "stdin:1:1-6: ERROR: invalid suffix 'b101' on number [E103]\n"
				 "0b101\n~~~~~\n");
	check_lex_error("1e", "stdin:1:1-3: ERROR: invalid suffix 'e' on number [E103]\n1e\n~~\n");
	check_lex_error("0x_1", "stdin:1:1-5: ERROR: digit separator '_' must be between "
				"digits [E103]\n0x_1\n~~~~\n");
	check_lex_error("1uu",
			"stdin:1:1-4: ERROR: invalid suffix 'uu' on number [E103]\n1uu\n~~~\n");
	check_lex_error("3.14", "stdin:1:1-5: ERROR: floating-point numbers are not "
				"supported [E103]\n3.14\n~~~~\n");
	check_lex_error("$99999999999", "stdin:1:1-13: ERROR: positional parameter number is "
					"too large [E103]\n$99999999999\n~~~~~~~~~~~~\n");
}

static void test_strings(void **state)
{
	(void)state;
	check_lex("\"\" \"a b\" \"tab\\there\"", "STR() STR(a b) STR(tab\\x09here) EOF");
	check_lex("\"\\n\\t\\r\\\\\\\"\\'\"", "STR(\\x0a\\x09\\x0d\\x5c\"') EOF");
	check_lex("\"\\0\\7\\101\\1011\\x41\\x4\\x4g\"", "STR(\\x00\\x07AA1A\\x04\\x04g) EOF");
	check_lex("\"\\377\"", "STR(\\xff) EOF");
	check_lex("\"// no /* comment */\"", "STR(// no /* comment */) EOF");
	check_lex("'a' '\\n' '\\'' '\"' '\\x41' '\\0'",
		  "INT(97) INT(10) INT(39) INT(34) INT(65) INT(0) EOF");
}

static void test_string_errors(void **state)
{
	(void)state;
	check_lex_error("\"abc",
			"stdin:1:1-5: ERROR: unterminated string literal [E101]\n\"abc\n~~~~\n");
	check_lex_error("\"abc\\", "stdin:1:1-6: ERROR: unterminated string literal [E101]\n"
				   "\"abc\\\n~~~~~\n");
	/* a string may span lines, as bpftrace's; one that no quote closes is said at its first line */
	check_lex("\"a\nb\"", "STR(a\\x0ab) EOF");
	check_lex_error("\"a\nb",
			"stdin:1:1-3: ERROR: unterminated string literal [E101]\n\"a\n~~\n"
			"HINT: no '\"' closes it before the end of the script (a string may span lines, "
			"as in bpftrace)\n");
	check_lex_error("'a", "stdin:1:1-3: ERROR: unterminated character literal [E101]\n'a\n~~\n");
	check_lex_error("\"\\e\"", "stdin:1:2-4: ERROR: unknown escape sequence '\\e' [E102]\n"
				   "\"\\e\"\n ~~\nHINT: valid escapes are \\n \\t \\r \\\\ \\\" "
				   "\\' \\xNN and octal \\NNN (\\0 for NUL)\n");
	check_lex_error("\"\\8\"", "stdin:1:2-4: ERROR: unknown escape sequence '\\8' [E102]\n"
				   "\"\\8\"\n ~~\nHINT: valid escapes are \\n \\t \\r \\\\ \\\" "
				   "\\' \\xNN and octal \\NNN (\\0 for NUL)\n");
	check_lex_error("\"\\777\"",
			"stdin:1:2-6: ERROR: octal escape '\\777' is out of range "
			"(at most \\377) [E102]\n\"\\777\"\n ~~~~\n");
	check_lex_error("\"\\x\"", "stdin:1:2-4: ERROR: '\\x' must be followed by one or two "
				   "hexadecimal digits [E102]\n\"\\x\"\n ~~\n");
}

static void test_comments(void **state)
{
	(void)state;
	check_lex("a // comment\nb /* multi\nline */ c /**/ d /* ** / */ e //",
		  "IDENT(a) IDENT(b) IDENT(c) IDENT(d) IDENT(e) EOF");
	check_lex("a/**/b", "IDENT(a) IDENT(b) EOF");
	check_lex("a / b", "IDENT(a) '/' IDENT(b) EOF");
	check_lex_error("a /* open", "stdin:1:3-5: ERROR: unterminated comment: '/*' has no "
				     "matching '*/' [E104]\na /* open\n  ~~\n");
	check_lex_error("/*/",
			"stdin:1:1-3: ERROR: unterminated comment: '/*' has no matching "
			"'*/' [E104]\n/*/\n~~\n");
}

static void test_bad_chars(void **state)
{
	(void)state;
	check_lex_error("a ` b", "stdin:1:3: ERROR: unexpected character '`' [E100]\na ` b\n  ~\n");
	check_lex_error("\\", "stdin:1:1: ERROR: unexpected character '\\' [E100]\n\\\n~\n");
	check_lex_error("#", "stdin:1:1: ERROR: unexpected character '#' [E100]\n#\n~\n"
			     "HINT: #include, #define and C definitions belong at the top level, "
			     "outside probes\n");
	check_lex_error("\x01", "stdin:1:1: ERROR: unexpected character byte 0x01 [E100]\n\x01\n~\n");
	check_lex_error("$", "stdin:1:1: ERROR: '$' must be followed by a variable name, a "
			     "number or '#' [E100]\n$\n~\n");
	check_lex_error("'ab'", "stdin:1:1-5: ERROR: a character literal holds exactly one "
				"character [E100]\n'ab'\n~~~~\nHINT: use double quotes for a string\n");
}

/* A NUL byte inside the text is an error, not the end of input. */
static void test_embedded_nul(void **state)
{
	static const char text[] = "a \0 b";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct lexer lx;
	struct token t;
	(void)state;

	source_init(&src, "stdin", text, sizeof(text) - 1);
	diag_init(&d, &src);
	lex_init(&lx, &src, &a, &d);
	assert_int_equal(lex_next(&lx).kind, TOK_IDENT);
	t = lex_next(&lx);
	assert_int_equal(t.kind, TOK_ERROR);
	assert_int_equal(t.span.lo, 2);
	assert_int_equal(d.errors, 1);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

/* In a predicate, a '/' followed by '{' closes it; other '/' divide. */
static void test_predicate_mode(void **state)
{
	struct lexed r;
	(void)state;

	r = lex_all("a / b / { c / d", true);
	assert_string_equal(r.tokens, "IDENT(a) '/' IDENT(b) '/' '{' IDENT(c) '/' IDENT(d) EOF");
	free(r.tokens);
	free(r.errors);
	r = lex_all("a / b /\n // x\n /* y */ {", true);
	assert_string_equal(r.tokens, "IDENT(a) '/' IDENT(b) '/' '{' EOF");
	free(r.tokens);
	free(r.errors);
	r = lex_all("a / b / {", false);
	assert_string_equal(r.tokens, "IDENT(a) '/' IDENT(b) '/' '{' EOF");
	free(r.tokens);
	free(r.errors);
}

/* The two '/' above print alike: tell TOK_PRED_END apart by kind. */
static void test_predicate_kinds(void **state)
{
	const char *text = "x / 2 / {";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct lexer lx;
	(void)state;

	source_init(&src, "stdin", text, strlen(text));
	diag_init(&d, &src);
	lex_init(&lx, &src, &a, &d);
	lx.predicate = true;
	assert_int_equal(lex_next(&lx).kind, TOK_IDENT);
	assert_int_equal(lex_next(&lx).kind, TOK_SLASH);
	assert_int_equal(lex_next(&lx).kind, TOK_INT);
	assert_int_equal(lex_next(&lx).kind, TOK_PRED_END);
	assert_int_equal(lex_next(&lx).kind, TOK_LBRACE);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

/* Spans are byte ranges; quiet lexers report nothing and allocate no names. */
static void test_spans_and_quiet(void **state)
{
	const char *text = "  foo\t\"s\\n\" 0x10 \"bad\\q\"";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct lexer lx, look;
	struct token t;
	(void)state;

	source_init(&src, "stdin", text, strlen(text));
	diag_init(&d, &src);
	lex_init(&lx, &src, &a, &d);
	look = lx;
	look.quiet = true;
	t = lex_next(&look);
	assert_int_equal(t.kind, TOK_IDENT);
	assert_null(t.str);
	assert_int_equal(lex_next(&look).kind, TOK_STR);
	assert_int_equal(lex_next(&look).kind, TOK_INT);
	assert_int_equal(d.errors, 0);
	assert_int_equal(lx.pos, 0); /* the copy moved, not lx */

	t = lex_next(&lx);
	assert_int_equal(t.span.lo, 2);
	assert_int_equal(t.span.hi, 5);
	assert_string_equal(t.str, "foo");
	t = lex_next(&lx);
	assert_int_equal(t.span.lo, 6);
	assert_int_equal(t.span.hi, 11);
	assert_int_equal(t.len, 2);
	t = lex_next(&lx);
	assert_int_equal(t.span.lo, 12);
	assert_int_equal(t.span.hi, 16);
	assert_int_equal(t.ival, 16);
	t = lex_next(&lx);
	assert_int_equal(t.kind, TOK_ERROR);
	assert_int_equal(d.errors, 1);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

static void test_describe(void **state)
{
	const char *text = "foo $x @m 42 \"s\" } $3 if";
	const char *want[] = { "identifier 'foo'",
			       "variable '$x'",
			       "map '@m'",
			       "number '42'",
			       "string literal",
			       "'}'",
			       "positional parameter '$3'",
			       "'if'",
			       "end of input" };
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct lexer lx;
	char buf[64];
	(void)state;

	source_init(&src, "stdin", text, strlen(text));
	diag_init(&d, &src);
	lex_init(&lx, &src, &a, &d);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct token t = lex_next(&lx);

		assert_string_equal(lex_tok_describe(&lx, &t, buf, sizeof(buf)), want[i]);
	}
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operators),	cmocka_unit_test(test_words),
		cmocka_unit_test(test_numbers),		cmocka_unit_test(test_number_errors),
		cmocka_unit_test(test_strings),		cmocka_unit_test(test_string_errors),
		cmocka_unit_test(test_comments),	cmocka_unit_test(test_bad_chars),
		cmocka_unit_test(test_embedded_nul),	cmocka_unit_test(test_predicate_mode),
		cmocka_unit_test(test_predicate_kinds), cmocka_unit_test(test_spans_and_quiet),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

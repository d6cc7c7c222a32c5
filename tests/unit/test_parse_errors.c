// SPDX-License-Identifier: MIT
/*
 * Parser and lexer errors: the exact diagnostic text (code, position,
 * underline, hint) for bad scripts.
 */
#include "parse_util.h"

static const struct golden goldens[] = {
	{
		"missing_expr",
		"BEGIN { @x = ; }",
		"stdin:1:14: ERROR: unexpected ';', expected an expression [E110]\n"
		"BEGIN { @x = ; }\n"
		"             ~\n",
	},
	{
		"unclosed_block_eof",
		"BEGIN {\n"
		"  @x = 1;\n",
		"stdin:2:10: ERROR: unexpected end of input, expected '}' [E110]\n"
		"  @x = 1;\n"
		"         ~\n"
		"HINT: the '{' at line 1, column 7 is not closed\n",
	},
	{
		"unclosed_block_after_stmt",
		"BEGIN { @x = 1 ",
		"stdin:1:15: ERROR: unexpected end of input, expected '}' [E110]\n"
		"BEGIN { @x = 1 \n"
		"              ~\n"
		"HINT: the '{' at line 1, column 7 is not closed\n",
	},
	{
		"missing_semicolon",
		"BEGIN { @x = 1 @y = 2 }",
		"stdin:1:16-18: ERROR: unexpected map '@y', expected ';' or '}' after the "
		"statement [E110]\n"
		"BEGIN { @x = 1 @y = 2 }\n"
		"               ~~\n",
	},
	{
		"unknown_escape",
		"BEGIN { printf(\"a\\q\") }",
		"stdin:1:18-20: ERROR: unknown escape sequence '\\q' [E102]\n"
		"BEGIN { printf(\"a\\q\") }\n"
		"                 ~~\n"
		"HINT: valid escapes are \\n \\t \\r \\\\ \\\" \\' \\xNN and octal \\NNN (\\0 for "
		"NUL)\n",
	},
	{
		"bad_hex_escape",
		"BEGIN { printf(\"\\xg\") }",
		"stdin:1:17-19: ERROR: '\\x' must be followed by one or two hexadecimal "
		"digits [E102]\n"
		"BEGIN { printf(\"\\xg\") }\n"
		"                ~~\n",
	},
	{
		"octal_escape_range",
		"BEGIN { printf(\"\\400\") }",
		"stdin:1:17-21: ERROR: octal escape '\\400' is out of range (at most \\377) [E102]\n"
		"BEGIN { printf(\"\\400\") }\n"
		"                ~~~~\n",
	},
	{
		"unterminated_string",
		"BEGIN { printf(\"abc) }",
		"stdin:1:16-23: ERROR: unterminated string literal [E101]\n"
		"BEGIN { printf(\"abc) }\n"
		"               ~~~~~~~\n",
	},
	{
		/* a string may span lines (bpftrace's); this one is never closed */
		"string_newline",
		"BEGIN { printf(\"abc\n"
		") }",
		"stdin:1:16-20: ERROR: unterminated string literal [E101]\n"
		"BEGIN { printf(\"abc\n"
		"               ~~~~\n"
		"HINT: no '\"' closes it before the end of the script (a string may span lines, as "
		"in bpftrace)\n",
	},
	{
		"unterminated_comment",
		"BEGIN { @x = 1; } /* never\n"
		"closed",
		"stdin:1:19-21: ERROR: unterminated comment: '/*' has no matching '*/' [E104]\n"
		"BEGIN { @x = 1; } /* never\n"
		"                  ~~\n",
	},
	{
		"octal_digit",
		"BEGIN { @x = 08; }",
		"stdin:1:14-16: ERROR: invalid digit '8' in octal number [E103]\n"
		"BEGIN { @x = 08; }\n"
		"             ~~\n"
		"HINT: a leading 0 makes a number octal; write it without the 0\n",
	},
	{
		"number_too_big",
		"BEGIN { @x = 18446744073709551616; }",
		"stdin:1:14-34: ERROR: number '18446744073709551616' does not fit in 64 bits [E103]\n"
		"BEGIN { @x = 18446744073709551616; }\n"
		"             ~~~~~~~~~~~~~~~~~~~~\n",
	},
	{
		"hex_too_big",
		"BEGIN { @x = 0x10000000000000000; }",
		"stdin:1:14-33: ERROR: number '0x10000000000000000' does not fit in 64 bits [E103]\n"
		"BEGIN { @x = 0x10000000000000000; }\n"
		"             ~~~~~~~~~~~~~~~~~~~\n",
	},
	{
		"exponent_too_big",
		"BEGIN { @x = 2e19; }",
		"stdin:1:14-18: ERROR: number '2e19' does not fit in 64 bits [E103]\n"
		"BEGIN { @x = 2e19; }\n"
		"             ~~~~\n",
	},
	{
		"bad_suffix",
		"BEGIN { @x = 12abc; }",
		"stdin:1:14-19: ERROR: invalid suffix 'abc' on number [E103]\n"
		"BEGIN { @x = 12abc; }\n"
		"             ~~~~~\n",
	},
	{
		"trailing_separator",
		"BEGIN { @x = 1_000_; }",
		"stdin:1:14-20: ERROR: digit separator '_' must be between digits [E103]\n"
		"BEGIN { @x = 1_000_; }\n"
		"             ~~~~~~\n",
	},
	{
		"empty_hex",
		"BEGIN { @x = 0x; }",
		"stdin:1:14-16: ERROR: expected hexadecimal digits after '0x' [E103]\n"
		"BEGIN { @x = 0x; }\n"
		"             ~~\n",
	},
	{
		"float",
		"BEGIN { @x = 1.5; }",
		"stdin:1:14-17: ERROR: floating-point numbers are not supported [E103]\n"
		"BEGIN { @x = 1.5; }\n"
		"             ~~~\n",
	},
	{
		"bad_char",
		"BEGIN { @x = 1 ` 2; }",
		"stdin:1:16: ERROR: unexpected character '`' [E100]\n"
		"BEGIN { @x = 1 ` 2; }\n"
		"               ~\n",
	},
	{
		"hash_in_body",
		"BEGIN {\n"
		"#include <x.h>\n"
		"}",
		"stdin:2:1: ERROR: unexpected character '#' [E100]\n"
		"#include <x.h>\n"
		"~\n"
		"HINT: #include, #define and C definitions belong at the top level, outside "
		"probes\n",
	},
	{
		"non_ascii",
		"BEGIN { @x = é; }",
		"stdin:1:14-16: ERROR: unexpected character 'é' [E100]\n"
		"BEGIN { @x = é; }\n"
		"             ~~\n",
	},
	{
		"lone_dollar",
		"BEGIN { $ = 1; }",
		"stdin:1:9: ERROR: '$' must be followed by a variable name, a number or '#' [E100]\n"
		"BEGIN { $ = 1; }\n"
		"        ~\n",
	},
	{
		"bad_positional",
		"BEGIN { @x = $1a; }",
		"stdin:1:14-17: ERROR: invalid positional parameter '$1a': expected only "
		"digits after '$' [E103]\n"
		"BEGIN { @x = $1a; }\n"
		"             ~~~\n",
	},
	{
		"char_literal_two",
		"BEGIN { @x = 'ab'; }",
		"stdin:1:14-18: ERROR: a character literal holds exactly one character [E100]\n"
		"BEGIN { @x = 'ab'; }\n"
		"             ~~~~\n"
		"HINT: use double quotes for a string\n",
	},
	{
		"char_literal_empty",
		"BEGIN { @x = ''; }",
		"stdin:1:14-16: ERROR: empty character literal [E100]\n"
		"BEGIN { @x = ''; }\n"
		"             ~~\n",
	},
	{
		"assign_to_literal",
		"BEGIN { 1 = 2; }",
		"stdin:1:9: ERROR: cannot assign to a literal: only maps (@name) and "
		"variables ($name) can be assigned [E110]\n"
		"BEGIN { 1 = 2; }\n"
		"        ~\n",
	},
	{
		"assign_to_builtin",
		"BEGIN { pid = 2; }",
		"stdin:1:9-12: ERROR: cannot assign to a builtin: only maps (@name) and "
		"variables ($name) can be assigned [E110]\n"
		"BEGIN { pid = 2; }\n"
		"        ~~~\n",
	},
	{
		"assign_to_call",
		"BEGIN { count() = 2; }",
		"stdin:1:9-16: ERROR: cannot assign to a function call: only maps (@name) and "
		"variables ($name) can be assigned [E110]\n"
		"BEGIN { count() = 2; }\n"
		"        ~~~~~~~\n",
	},
	{
		"assign_to_field",
		"BEGIN { $x.y = 2; }",
		"stdin:1:9-13: ERROR: cannot assign to a field: only maps (@name) and "
		"variables ($name) can be assigned [E110]\n"
		"BEGIN { $x.y = 2; }\n"
		"        ~~~~\n",
	},
	{
		"assign_to_parens",
		"BEGIN { (@x + 1) = 3; }",
		"stdin:1:9-17: ERROR: cannot assign to this expression: only maps (@name) and "
		"variables ($name) can be assigned [E110]\n"
		"BEGIN { (@x + 1) = 3; }\n"
		"        ~~~~~~~~\n",
	},
	{
		"assign_to_tuple",
		"BEGIN { ($a, $b) = (1, 2); }",
		"stdin:1:9-17: ERROR: cannot assign to a tuple: only maps (@name) and "
		"variables ($name) can be assigned [E110]\n"
		"BEGIN { ($a, $b) = (1, 2); }\n"
		"        ~~~~~~~~\n",
	},
	{
		"chained_assign",
		"BEGIN { $x = $y = 1; }",
		"stdin:1:17: ERROR: unexpected '=', expected ';' or '}' after the statement [E110]\n"
		"BEGIN { $x = $y = 1; }\n"
		"                ~\n",
	},
	{
		"if_without_braces",
		"BEGIN { if (1) @x = 1; }",
		"stdin:1:16-18: ERROR: unexpected map '@x', expected '{' after the if "
		"condition [E110]\n"
		"BEGIN { if (1) @x = 1; }\n"
		"               ~~\n"
		"HINT: the bodies of if, else, while, for and unroll must be in braces\n",
	},
	{
		/* today's bpftrace takes `if $x {`, a unary condition, but not none */
		"if_without_condition",
		"BEGIN { if { } }",
		"stdin:1:12: ERROR: unexpected '{', expected '(' after 'if' [E110]\n"
		"BEGIN { if { } }\n"
		"           ~\n",
	},
	{
		"else_without_braces",
		"BEGIN { if (1) { } else @x = 1; }",
		"stdin:1:25-27: ERROR: unexpected map '@x', expected '{' or 'if' after "
		"'else' [E110]\n"
		"BEGIN { if (1) { } else @x = 1; }\n"
		"                        ~~\n"
		"HINT: the bodies of if, else, while, for and unroll must be in braces\n",
	},
	{
		"while_without_braces",
		"BEGIN { while ($i < 3) $i++; }",
		"stdin:1:24-26: ERROR: unexpected variable '$i', expected '{' after the while "
		"condition [E110]\n"
		"BEGIN { while ($i < 3) $i++; }\n"
		"                       ~~\n"
		"HINT: the bodies of if, else, while, for and unroll must be in braces\n",
	},
	{
		"stray_else",
		"BEGIN { else { } }",
		"stdin:1:9-13: ERROR: unexpected 'else', expected a statement [E110]\n"
		"BEGIN { else { } }\n"
		"        ~~~~\n",
	},
	{
		"unroll_binary_without_parens",
		"BEGIN { unroll 1 + 2 { } }",
		"stdin:1:18: ERROR: unexpected '+', expected '{' after the condition [E110]\n"
		"BEGIN { unroll 1 + 2 { } }\n"
		"                 ~\n"
		"HINT: without parentheses a condition is one operand ($x, !$x, f()): put a longer one in "
		"parentheses\n",
	},
	{
		"unclosed_paren",
		"BEGIN { @x = (1 + 2; }",
		"stdin:1:20: ERROR: unexpected ';', expected ')' or ',' [E110]\n"
		"BEGIN { @x = (1 + 2; }\n"
		"                   ~\n",
	},
	{
		"tuple_two_commas",
		"BEGIN { $x = (1,,); }",
		"stdin:1:17: ERROR: unexpected ',', expected an expression [E110]\n"
		"BEGIN { $x = (1,,); }\n"
		"                ~\n",
	},
	{
		"call_trailing_comma",
		"BEGIN { f(1,); }",
		"stdin:1:13: ERROR: unexpected ')', expected an expression [E110]\n"
		"BEGIN { f(1,); }\n"
		"            ~\n",
	},
	{
		"empty_map_key",
		"BEGIN { @x[] = 1; }",
		"stdin:1:12: ERROR: unexpected ']', expected a map key [E110]\n"
		"BEGIN { @x[] = 1; }\n"
		"           ~\n",
	},
	{
		"unclosed_map_key",
		"BEGIN { @x[1, 2 = 1; }",
		"stdin:1:17: ERROR: unexpected '=', expected ']' or ',' in the map keys [E110]\n"
		"BEGIN { @x[1, 2 = 1; }\n"
		"                ~\n",
	},
	{
		"ternary_missing_colon",
		"BEGIN { @x = $a ? 1; }",
		"stdin:1:20: ERROR: unexpected ';', expected ':' in the conditional "
		"expression [E110]\n"
		"BEGIN { @x = $a ? 1; }\n"
		"                   ~\n",
	},
	{
		"field_missing_name",
		"BEGIN { @x = args->; }",
		"stdin:1:20: ERROR: unexpected ';', expected a field name after '->' [E110]\n"
		"BEGIN { @x = args->; }\n"
		"                   ~\n",
	},
	{
		"cast_missing_operand",
		"BEGIN { $x = (uint8); }",
		"stdin:1:21: ERROR: unexpected ';', expected an expression [E110]\n"
		"BEGIN { $x = (uint8); }\n"
		"                    ~\n",
	},
	{
		"cast_bad_struct",
		"BEGIN { $x = (struct 1)0; }",
		"stdin:1:22: ERROR: unexpected number '1', expected a struct name after "
		"'struct' [E110]\n"
		"BEGIN { $x = (struct 1)0; }\n"
		"                     ~\n",
	},
	{
		"cast_unclosed",
		"BEGIN { $x = (struct task_struct * 0; }",
		"stdin:1:36: ERROR: unexpected number '0', expected ')' after the type name [E110]\n"
		"BEGIN { $x = (struct task_struct * 0; }\n"
		"                                   ~\n",
	},
	{
		"sizeof_without_parens",
		"BEGIN { $x = sizeof 1; }",
		"stdin:1:21: ERROR: unexpected number '1', expected '(' after 'sizeof' [E110]\n"
		"BEGIN { $x = sizeof 1; }\n"
		"                    ~\n",
	},
	{
		"predicate_unclosed",
		"kprobe:f /pid == 1 { }",
		"stdin:1:20: ERROR: unexpected '{', expected '/' to close the predicate [E110]\n"
		"kprobe:f /pid == 1 { }\n"
		"                   ~\n",
	},
	{
		"predicate_empty",
		"kprobe:f / / { }",
		"stdin:1:12: ERROR: unexpected '/', expected an expression [E110]\n"
		"kprobe:f / / { }\n"
		"           ~\n",
	},
	{
		"missing_attach_point",
		"{ @x = 1; }",
		"stdin:1:1: ERROR: unexpected '{', expected an attach point such as BEGIN or "
		"kprobe:func [E110]\n"
		"{ @x = 1; }\n"
		"~\n",
	},
	{
		"missing_comma_between_aps",
		"kprobe:a kprobe:b { }",
		"stdin:1:10-18: ERROR: unexpected 'kprobe:b' after the attach point, expected "
		"',', a predicate '/.../' or '{' [E110]\n"
		"kprobe:a kprobe:b { }\n"
		"         ~~~~~~~~\n"
		"HINT: separate attach points with ','\n",
	},
	{
		"attach_point_then_eof",
		"BEGIN\n",
		"stdin:1:6: ERROR: unexpected end of input after the attach point, expected "
		"',', a predicate '/.../' or '{' [E110]\n"
		"BEGIN\n"
		"     ~\n",
	},
	{
		"trailing_comma_in_list",
		"kprobe:a, { }",
		"stdin:1:11: ERROR: unexpected '{', expected an attach point such as BEGIN or "
		"kprobe:func [E110]\n"
		"kprobe:a, { }\n"
		"          ~\n",
	},
	{
		"stray_brace_top",
		"BEGIN { } }",
		"stdin:1:11: ERROR: unexpected '}', expected an attach point such as BEGIN or "
		"kprobe:func [E110]\n"
		"BEGIN { } }\n"
		"          ~\n",
	},
	{
		"stray_semicolon_top",
		"BEGIN { };",
		"stdin:1:10: ERROR: unexpected ';', expected an attach point such as BEGIN or "
		"kprobe:func [E110]\n"
		"BEGIN { };\n"
		"         ~\n",
	},
	{
		"unterminated_quote_ap",
		"uprobe:\"/bin/x:func { }",
		"stdin:1:8-24: ERROR: unterminated quoted part of an attach point [E101]\n"
		"uprobe:\"/bin/x:func { }\n"
		"       ~~~~~~~~~~~~~~~~\n",
	},
	{
		"cdef_typedef_missing_semicolon",
		"typedef unsigned int foo_t\n",
		"stdin:1:27: ERROR: unexpected end of input, expected ';' after the C definition [E110]\n"
		"typedef unsigned int foo_t\n"
		"                          ~\n",
	},
	{
		"cdef_unclosed",
		"struct foo {\n"
		"  int a;\n"
		"BEGIN { }",
		"stdin:1:12: ERROR: unterminated C definition: this '{' is never closed [E110]\n"
		"struct foo {\n"
		"           ~\n",
	},
	{
		"keyword_as_expr",
		"BEGIN { @x = while; }",
		"stdin:1:14-19: ERROR: unexpected 'while', expected an expression [E110]\n"
		"BEGIN { @x = while; }\n"
		"             ~~~~~\n",
	},
	{
		"eof_in_expr",
		"BEGIN { @x = 1 +",
		"stdin:1:17: ERROR: unexpected end of input, expected an expression [E110]\n"
		"BEGIN { @x = 1 +\n"
		"                ~\n",
	},
	{
		"eof_in_call",
		"BEGIN { printf(\"x\"",
		"stdin:1:19: ERROR: unexpected end of input, expected ')' or ',' in the "
		"arguments [E110]\n"
		"BEGIN { printf(\"x\"\n"
		"                  ~\n",
	},
	{
		"empty_script_brace",
		"}",
		"stdin:1:1: ERROR: unexpected '}', expected an attach point such as BEGIN or "
		"kprobe:func [E110]\n"
		"}\n"
		"~\n",
	},
};

static void test_error_goldens(void **state)
{
	(void)state;
	check_goldens(goldens, ARRAY_SIZE(goldens), false);
}

/* Exactly one error is reported: the parser stops at the first. */
static void test_one_error(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(goldens); i++) {
		const char *s = goldens[i].script;
		struct source src;
		struct diag d;
		struct arena a = { 0 };

		source_init(&src, "stdin", s, strlen(s));
		diag_init(&d, &src);
		assert_null(parse_program(&a, &src, &d));
		if (d.errors != 1)
			fail_msg("case '%s' reported %d errors", goldens[i].name, d.errors);
		diag_free(&d);
		arena_free(&a);
		source_free(&src);
	}
}

/* Hostile nesting gives E_TOO_DEEP, not a stack overflow. */
static void expect_too_deep(const char *prefix, const char *unit, int n, const char *suffix,
			    const char *close, int m)
{
	struct strbuf sb = { 0 };
	bool ok;
	char *out;

	sb_puts(&sb, prefix);
	for (int i = 0; i < n; i++)
		sb_puts(&sb, unit);
	sb_puts(&sb, suffix);
	for (int i = 0; i < m; i++)
		sb_puts(&sb, close);
	out = parse_text(sb_str(&sb), &ok);
	assert_false(ok);
	if (!strstr(out, "ERROR: too deeply nested"))
		fail_msg("no E112 for %s x %d: [E112]\n%.300s", unit, n, out);
	assert_non_null(strstr(out, "HINT: split the expression using variables\n"));
	free(out);
	sb_free(&sb);
}

static void test_too_deep(void **state)
{
	(void)state;
	expect_too_deep("BEGIN { @x = ", "(", 100000, "1", ")", 100000);
	expect_too_deep("BEGIN { @x = ", "!", 100000, "1; }", "", 0);
	expect_too_deep("BEGIN { @x = ", "- ", 300, "1; }", "", 0);
	expect_too_deep("BEGIN { @x = ", "(uint8)", 300, "1; }", "", 0);
	expect_too_deep("BEGIN { @x = ", "f(", 300, "1", ")", 300);
	expect_too_deep("BEGIN { @x = ", "@m[", 300, "1", "]", 300);
	expect_too_deep("BEGIN { @x = ", "1 ? 2 : ", 300, "3; }", "", 0);
	expect_too_deep("BEGIN { @x = ", "1 + ", 1100, "1; }", "", 0);
	expect_too_deep("BEGIN ", "{", 100000, "", "}", 100000);
	expect_too_deep("BEGIN { ", "if (1) { ", 300, "", "}", 301);
	expect_too_deep("BEGIN { ", "while (1) { ", 300, "", "}", 301);
}

/* Deep but reasonable nesting still parses. */
static void test_not_too_deep(void **state)
{
	struct strbuf sb = { 0 };
	bool ok;
	char *out;
	(void)state;

	/* 150 nested parentheses, a 900-term sum, 500 else-ifs, 50 nested ifs. */
	sb_puts(&sb, "BEGIN { @a = ");
	for (int i = 0; i < 150; i++)
		sb_putc(&sb, '(');
	sb_putc(&sb, '1');
	for (int i = 0; i < 150; i++)
		sb_putc(&sb, ')');
	sb_puts(&sb, "; @b = 1");
	for (int i = 0; i < 900; i++)
		sb_puts(&sb, " + 1");
	sb_puts(&sb, "; if (0) { }");
	for (int i = 0; i < 500; i++)
		sb_printf(&sb, " else if ($x == %d) { @c = %d; }", i, i);
	for (int i = 0; i < 50; i++)
		sb_puts(&sb, " if (1) {");
	for (int i = 0; i < 50; i++)
		sb_puts(&sb, " }");
	sb_puts(&sb, " }");
	out = parse_text(sb_str(&sb), &ok);
	if (!ok)
		fail_msg("%.500s", out);
	free(out);
	sb_free(&sb);
}

/* A file name other than stdin and a later line show up in the position. */
static void test_position_format(void **state)
{
	const char *s = "BEGIN {\n\t@x = 1;\n\t@y = ;\n}\n";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	(void)state;

	source_init(&src, "tools/x.bt", s, strlen(s));
	diag_init(&d, &src);
	assert_null(parse_program(&a, &src, &d));
	assert_string_equal(sb_str(&d.out),
			    "tools/x.bt:3:7: ERROR: unexpected ';', expected an expression [E110]\n"
			    "\t@y = ;\n"
			    "\t     ~\n");
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_goldens),	cmocka_unit_test(test_one_error),
		cmocka_unit_test(test_too_deep),	cmocka_unit_test(test_not_too_deep),
		cmocka_unit_test(test_position_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

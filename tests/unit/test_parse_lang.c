// SPDX-License-Identifier: MIT
/*
 * Today's bpftrace, part B, in the parser: macros, functions, imports,
 * comptime, if expressions, `_ = e`, (), (a,), &, postfix types, typeof,
 * offsetof of an expression; their `-d ast` dumps and syntax errors. The
 * grammar is bpftrace v0.26.1's (docs/language.md, docs/language_parsing.md).
 */
#include "parse_util.h"

static const struct golden goldens[] = {
	{
		"macros",
		"macro one() { 1 }\n"
		"macro add($a, @b, c) { $a += c; @b = 1; $a }\n"
		"begin { $x = add($x, @m, one); }",
		"program\n"
		" macro one()\n"
		"  block\n"
		"   value\n"
		"    int 1\n"
		" macro add($a, @b, c)\n"
		"  block\n"
		"   +=\n"
		"    var $a\n"
		"    ident c\n"
		"   =\n"
		"    map @b\n"
		"    int 1\n"
		"   value\n"
		"    var $a\n"
		" probe begin\n"
		"  =\n"
		"   var $x\n"
		"   call add\n"
		"    var $x\n"
		"    map @m\n"
		"    ident one\n",
	},
	{
		"macro_statements",
		"macro twice(x) { x; x; }\n"
		"begin { twice({ printf(\"hi\") }); }",
		"program\n"
		" macro twice(x)\n"
		"  block\n"
		"   ident x\n"
		"   ident x\n"
		" probe begin\n"
		"  call twice\n"
		"   block\n"
		"    value\n"
		"     call printf\n"
		"      string \"hi\"\n",
	},
	{
		"fn",
		"fn f($a: int64, $s: string[8]): int64 { if ($a > 0) { return $a; } return 0; }\n"
		"fn g(): void { return; }\n"
		"begin { $r = f(1, \"x\"); g(); }",
		"program\n"
		" fn f($a: int64, $s: string[8]): int64\n"
		"  if\n"
		"   >\n"
		"    var $a\n"
		"    int 0\n"
		"   then\n"
		"    return\n"
		"     var $a\n"
		"  return\n"
		"   int 0\n"
		" fn g(): void\n"
		"  return\n"
		" probe begin\n"
		"  =\n"
		"   var $r\n"
		"   call f\n"
		"    int 1\n"
		"    string \"x\"\n"
		"  call g\n",
	},
	{
		"imports",
		"import \"lib.bt\";\n"
		"import \"defs.h\";\n"
		"begin { }",
		"program\n"
		" import \"lib.bt\"\n"
		" import \"defs.h\"\n"
		" probe begin\n",
	},
	{
		"comptime",
		"begin { if comptime (sizeof(int64) == 8) { print(1); } else { print(2); } $k = comptime 1 + 2; }",
		"program\n"
		" probe begin\n"
		"  if\n"
		"   comptime\n"
		"    ==\n"
		"     sizeof int64\n"
		"     int 8\n"
		"   then\n"
		"    call print\n"
		"     int 1\n"
		"   else\n"
		"    call print\n"
		"     int 2\n"
		"  =\n"
		"   var $k\n"
		"   +\n"
		"    comptime\n"
		"     int 1\n"
		"    int 2\n",
	},
	{
		"if_expression",
		"begin { $e = if $c { 1 } else if (0) { 2 } else { 3 }; $f = if ($c) { 1 }; }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $e\n"
		"   if\n"
		"    var $c\n"
		"    block\n"
		"     value\n"
		"      int 1\n"
		"    if\n"
		"     int 0\n"
		"     block\n"
		"      value\n"
		"       int 2\n"
		"     block\n"
		"      value\n"
		"       int 3\n"
		"  =\n"
		"   var $f\n"
		"   if\n"
		"    var $c\n"
		"    block\n"
		"     value\n"
		"      int 1\n"
		"    block\n",
	},
	{
		"discard",
		"begin { _ = 1 + 1; }",
		"program\n"
		" probe begin\n"
		"  discard\n"
		"   +\n"
		"    int 1\n"
		"    int 1\n",
	},
	{
		"tuples",
		"begin { $t = (); $u = (1,); $v = (1, 2,); }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $t\n"
		"   tuple\n"
		"  =\n"
		"   var $u\n"
		"   tuple\n"
		"    int 1\n"
		"  =\n"
		"   var $v\n"
		"   tuple\n"
		"    int 1\n"
		"    int 2\n",
	},
	{
		"address_of",
		"begin { $a = &$x; $b = &@m; }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $a\n"
		"   unary &\n"
		"    var $x\n"
		"  =\n"
		"   var $b\n"
		"   unary &\n"
		"    map @m\n",
	},
	{
		"postfix_types",
		"begin { $a = (int32*[4])0; $b = (uint8[])1; $c = (struct task_struct*[2]*)0; let $s: string[64]; let $d: buffer[16]; $e = sizeof(int8[3]); }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $a\n"
		"   cast int32*[4]\n"
		"    int 0\n"
		"  =\n"
		"   var $b\n"
		"   cast uint8[]\n"
		"    int 1\n"
		"  =\n"
		"   var $c\n"
		"   cast struct task_struct*[2]*\n"
		"    int 0\n"
		"  let $s: string[64]\n"
		"  let $d: buffer[16]\n"
		"  =\n"
		"   var $e\n"
		"   sizeof int8[3]\n",
	},
	{
		"typeof",
		"begin { let $a: typeof($b); $c = (typeof(1 + 1))$d; $e = sizeof(typeof(uint64)); }",
		"program\n"
		" probe begin\n"
		"  let $a: typeof\n"
		"   var $b\n"
		"  =\n"
		"   var $c\n"
		"   cast typeof\n"
		"    +\n"
		"     int 1\n"
		"     int 1\n"
		"    var $d\n"
		"  =\n"
		"   var $e\n"
		"   sizeof uint64\n",
	},
	{
		"offsetof_expr",
		"begin { $o = offsetof($s, a.b); }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $o\n"
		"   offsetof a.b\n"
		"    var $s\n",
	},
	{
		"builtin_names",
		"begin { print(__builtin_comm); }",
		"program\n"
		" probe begin\n"
		"  call print\n"
		"   builtin comm\n",
	},
};

static const struct golden errors[] = {
	{
		"macro_builtin_param",
		"macro m(pid) { 1 } begin { }",
		"stdin:1:9-12: ERROR: the builtin 'pid' cannot be a macro's parameter [E110]\n"
		"macro m(pid) { 1 } begin { }\n"
		"        ~~~\n",
	},
	{
		"macro_param_twice",
		"macro m($x, $x) { 1 } begin { }",
		"stdin:1:13-15: ERROR: macro m has two parameters named $x [E110]\n"
		"macro m($x, $x) { 1 } begin { }\n"
		"            ~~\n",
	},
	{
		"macro_no_parens",
		"macro m { 1 } begin { }",
		"stdin:1:9: ERROR: unexpected '{', expected '(' after the macro's name [E110]\n"
		"macro m { 1 } begin { }\n"
		"        ~\n",
	},
	{
		"fn_without_return_type",
		"fn f($a: int64) { } begin { }",
		"stdin:1:17: ERROR: unexpected '{', expected ':' and the function's return type (void: none) [E110]\n"
		"fn f($a: int64) { } begin { }\n"
		"                ~\n",
	},
	{
		"fn_param_without_type",
		"fn f($a): void { } begin { }",
		"stdin:1:8: ERROR: unexpected ')', expected ':' and the parameter's type [E110]\n"
		"fn f($a): void { } begin { }\n"
		"       ~\n",
	},
	{
		"fn_param_twice",
		"fn f($a: int8, $a: int8): void { } begin { }",
		"stdin:1:16-18: ERROR: function f has two parameters named $a [E110]\n"
		"fn f($a: int8, $a: int8): void { } begin { }\n"
		"               ~~\n",
	},
	{
		"import_without_semicolon",
		"import \"a.bt\" begin { }",
		"stdin:1:15-20: ERROR: unexpected identifier 'begin', expected ';' after the import [E110]\n"
		"import \"a.bt\" begin { }\n"
		"              ~~~~~\n",
	},
	{
		"import_after_probe",
		"begin { } import \"a.bt\";",
		"stdin:1:11-17: ERROR: imports come before the probes, macros, functions and map declarations [E110]\n"
		"begin { } import \"a.bt\";\n"
		"          ~~~~~~\n"
		"HINT: put the import lines at the top of the script, after #include and C definitions\n",
	},
	{
		"import_in_block",
		"begin { import \"a.h\"; }",
		"stdin:1:9-21: ERROR: an import inside a block is not supported [E209]\n"
		"begin { import \"a.h\"; }\n"
		"        ~~~~~~~~~~~~\n"
		"HINT: bpftrace's standard library imports its C sources (.bpf.c) there, which need a C compiler; import scripts and headers at the top of the script\n",
	},
	{
		"array_of_zero",
		"begin { $a = (int8[0])1; }",
		"stdin:1:20: ERROR: an array has 1 to 4294967295 elements [E110]\n"
		"begin { $a = (int8[0])1; }\n"
		"                   ~\n",
	},
	{
		"typeof_unclosed",
		"begin { let $a: typeof($b; }",
		"stdin:1:26: ERROR: unexpected ';', expected ')' after typeof's operand [E110]\n"
		"begin { let $a: typeof($b; }\n"
		"                         ~\n",
	},
};

static void test_goldens(void **state)
{
	(void)state;
	check_goldens(goldens, ARRAY_SIZE(goldens), true);
}

static void test_errors(void **state)
{
	(void)state;
	check_goldens(errors, ARRAY_SIZE(errors), false);
}

/* Each construct makes the script today's bpftrace's */
static void test_modern_what(void **state)
{
	static const struct {
		const char *script, *what;
	} cases[] = {
		{ "macro m() { 1 } BEGIN { }", "a macro" },
		{ "fn f(): void { } BEGIN { }", "a function (fn)" },
		{ "import \"x.bt\"; BEGIN { }", "an import" },
		{ "BEGIN { _ = 1; }", "'_ = ...'" },
		{ "BEGIN { $x = comptime 1; }", "comptime" },
		{ "BEGIN { if comptime 1 { } }", "'if comptime'" },
		{ "BEGIN { $t = (); }", "the empty tuple ()" },
		{ "BEGIN { $t = (1,); }", "a tuple with a trailing ','" },
		{ "BEGIN { $x = if 1 { 2 } else { 3 }; }", "an if expression" },
		{ "BEGIN { $x = (int8[8])1; }", "a postfix type (T[N])" },
		{ "BEGIN { let $x: typeof(1); }", "typeof" },
		{ "BEGIN { $x = sizeof(typeof(1)); }", "typeof" },
		{ "BEGIN { $a = &$b; }", NULL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *s = cases[i].script;
		struct source src;
		struct diag d;
		struct arena a = { 0 };
		struct program *prog;

		source_init(&src, "stdin", s, strlen(s));
		diag_init(&d, &src);
		prog = parse_program(&a, &src, &d);
		if (!prog)
			fail_msg("case %zu does not parse: %s", i, sb_str(&d.out));
		if (!cases[i].what ? prog->modern_what != NULL
				   : !prog->modern_what || strcmp(prog->modern_what, cases[i].what))
			fail_msg("case %zu (%s): modern_what '%s', want '%s'", i, s,
				 prog->modern_what ? prog->modern_what : "(none)",
				 cases[i].what ? cases[i].what : "(none)");
		diag_free(&d);
		arena_free(&a);
		source_free(&src);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_modern_what),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

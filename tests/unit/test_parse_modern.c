// SPDX-License-Identifier: MIT
/*
 * Today's bpftrace (0.18 to 0.26) in the parser: its constructs' `-d ast`
 * dumps, its syntax errors, and which construct makes a script today's
 * (program.modern_what) while a 0.17 script stays 0.17's. The dumps were
 * checked against the grammar of bpftrace v0.26.1's docs/language.md.
 */
#include "parse_util.h"

static const struct golden goldens[] = {
	{
		"config_block",
		"config = { max_strlen = 100; stack_mode = perf; license = \"GPL\"; print_maps_on_exit = false }\n"
		"begin { }",
		"program\n"
		" config\n"
		"  max_strlen = 100\n"
		"  stack_mode = perf\n"
		"  license = \"GPL\"\n"
		"  print_maps_on_exit = false\n"
		" probe begin\n",
	},
	{
		"map_decls_named_probe",
		"let @a = lruhash(100);\n"
		"let @b = percpuhash(2)\n"
		"named=begin { }",
		"program\n"
		" let @a = lruhash(100)\n"
		" let @b = percpuhash(2)\n"
		" probe named=begin\n",
	},
	{
		"let",
		"begin { let $x; let $y = 1; let $z: uint16 = 2; let $s: string; let $p: struct task_struct * = curtask; }",
		"program\n"
		" probe begin\n"
		"  let $x\n"
		"  let $y\n"
		"   int 1\n"
		"  let $z: uint16\n"
		"   int 2\n"
		"  let $s: string\n"
		"  let $p: struct task_struct *\n"
		"   builtin curtask\n",
	},
	{
		"for_loops",
		"begin { for ($kv : @m) { print($kv.0); } for $i : 0..$n { break; } for ($j : (1 + 1)..@m[5]) { continue; } }",
		"program\n"
		" probe begin\n"
		"  for $kv : @m\n"
		"   body\n"
		"    call print\n"
		"     field . 0\n"
		"      var $kv\n"
		"  for $i : range\n"
		"   int 0\n"
		"   var $n\n"
		"   body\n"
		"    break\n"
		"  for $j : range\n"
		"   +\n"
		"    int 1\n"
		"    int 1\n"
		"   map @m\n"
		"    int 5\n"
		"   body\n"
		"    continue\n",
	},
	{
		"expressions",
		"begin { $a = true ?: false; $b = { let $q = 1; $q + 1 }; $c = (a=1, b=\"x\"); $d = 10ms + 1_000 + 2d; @m[(1, 2)] = comm(); }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $a\n"
		"   ?:\n"
		"    bool true\n"
		"    bool false\n"
		"  =\n"
		"   var $b\n"
		"   block\n"
		"    let $q\n"
		"     int 1\n"
		"    value\n"
		"     +\n"
		"      var $q\n"
		"      int 1\n"
		"  =\n"
		"   var $c\n"
		"   record\n"
		"    a =\n"
		"     int 1\n"
		"    b =\n"
		"     string \"x\"\n"
		"  =\n"
		"   var $d\n"
		"   +\n"
		"    +\n"
		"     int 10000000\n"
		"     int 1000\n"
		"    int 172800000000000\n"
		"  =\n"
		"   map @m\n"
		"    int 1\n"
		"    int 2\n"
		"   builtin comm\n",
	},
	{
		"conditions_without_parens",
		"begin { if $a { } else if !$b { } while !$b { continue; } unroll 3 { } }",
		"program\n"
		" probe begin\n"
		"  if\n"
		"   var $a\n"
		"   then\n"
		"   else\n"
		"    if\n"
		"     unary !\n"
		"      var $b\n"
		"     then\n"
		"  while\n"
		"   unary !\n"
		"    var $b\n"
		"   body\n"
		"    continue\n"
		"  unroll\n"
		"   int 3\n"
		"   body\n",
	},
	{
		"block_value_ternary",
		"begin { $x = { $a ? 1 : 2 }; { $y = 1; } }",
		"program\n"
		" probe begin\n"
		"  =\n"
		"   var $x\n"
		"   block\n"
		"    value\n"
		"     ?:\n"
		"      var $a\n"
		"      int 1\n"
		"      int 2\n"
		"  block\n"
		"   =\n"
		"    var $y\n"
		"    int 1\n",
	},
	{
		"case_of_providers",
		"BEGIN, End, Tracepoint:sched:sched_switch { }",
		"program\n"
		" probe BEGIN, End, Tracepoint:sched:sched_switch\n",
	},
};

static const struct golden errors[] = {
	{
		"let_map",
		"begin { let @x = 1; }",
		"stdin:1:13-15: ERROR: a map is declared before the probes: let @name = hash(N); [E110]\n"
		"begin { let @x = 1; }\n"
		"            ~~\n",
	},
	{
		"for_over_int",
		"begin { for ($i : 1) { } }",
		"stdin:1:19: ERROR: a for loop runs over a map (@name) or a range (lo..hi) [E110]\n"
		"begin { for ($i : 1) { } }\n"
		"                  ~\n"
		"HINT: for ($kv : @map) { ... } or for ($i : 0..10) { ... }\n",
	},
	{
		"for_without_braces",
		"begin { for $i : 0..3 print($i); }",
		"stdin:1:23-28: ERROR: unexpected identifier 'print', expected '{' after the for loop's head [E110]\n"
		"begin { for $i : 0..3 print($i); }\n"
		"                      ~~~~~\n"
		"HINT: the bodies of if, else, while, for and unroll must be in braces\n",
	},
	{
		"unknown_map_type",
		"let @a = hashh(1); begin { }",
		"stdin:1:10-15: ERROR: unknown map type 'hashh' [E110]\n"
		"let @a = hashh(1); begin { }\n"
		"         ~~~~~\n"
		"HINT: map types are hash, lruhash, percpuhash and percpulruhash\n",
	},
	{
		"map_decl_zero",
		"let @a = hash(0); begin { }",
		"stdin:1:15: ERROR: a map holds 1 to 4294967295 entries, not 0 [E306]\n"
		"let @a = hash(0); begin { }\n"
		"              ~\n",
	},
	{
		"config_after_probe",
		"begin { } config = { a = 1 }",
		"stdin:1:11-17: ERROR: the config block comes before the probes, macros, functions and map declarations [E110]\n"
		"begin { } config = { a = 1 }\n"
		"          ~~~~~~\n"
		"HINT: put every config variable in one config block at the top of the script, after #include and C definitions\n",
	},
	{
		"two_configs",
		"config = { a = 1 } config = { b = 1 } begin { }",
		"stdin:1:20-26: ERROR: a script has one config block [E110]\n"
		"config = { a = 1 } config = { b = 1 } begin { }\n"
		"                   ~~~~~~\n"
		"HINT: put every config variable in one config block at the top of the script, after #include and C definitions\n",
	},
	{
		"config_without_value",
		"config = { x = } begin {}",
		"stdin:1:16: ERROR: unexpected '}', expected a number, a string, true, false or a name [E110]\n"
		"config = { x = } begin {}\n"
		"               ~\n",
	},
	{
		"record_field_twice",
		"begin { $r = (a=1, a=2); }",
		"stdin:1:20: ERROR: the record has two fields named 'a' [E110]\n"
		"begin { $r = (a=1, a=2); }\n"
		"                   ~\n",
	},
	{
		"duration_overflow",
		"begin { $x = 1000000000d; }",
		"stdin:1:14-25: ERROR: number '1000000000d' does not fit in 64 bits [E103]\n"
		"begin { $x = 1000000000d; }\n"
		"             ~~~~~~~~~~~\n",
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

/* The parser notes the first construct of today's bpftrace; 0.17 scripts have none. */
static void test_modern_what(void **state)
{
	static const struct {
		const char *script, *what;
	} cases[] = {
		{ "BEGIN { $x = 1; if ($x) { printf(\"%d\\n\", $x ? 2 : 3); } }", NULL },
		{ "BEGIN { @[1, 2] = count(); $t = (1, \"a\"); print($t.1); while ($i < 3) { $i++; } }",
		  NULL },
		{ "kprobe:f { $x = 1_000 + 1e3; @ = stack; }", NULL },
		{ "config = { max_strlen = 8 } BEGIN { }", "a config block" },
		{ "let @m = hash(2); BEGIN { }", "a map declaration" },
		{ "BEGIN { let $x = 1; }", "'let'" },
		{ "BEGIN { for ($i : 0..2) { } }", "a for loop" },
		{ "BEGIN { $b = true; }", "'true'" },
		{ "BEGIN { $d = 5ms; }", "a duration" },
		{ "BEGIN { $e = 0 ?: 1; }", "'?:' without a middle operand" },
		{ "BEGIN { $f = { 1 }; }", "a block expression" },
		{ "BEGIN { if $x { } }", "a condition without parentheses" },
		{ "BEGIN { printf(\"%d\", pid()); }", "a builtin called as a function" },
		{ "BEGIN { $r = (a = 1); }", "a record" },
		{ "BEGIN { @m[(1, 2)] = 1; }", "a tuple as a map key" },
		{ "n=BEGIN { }", "a named probe" },
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

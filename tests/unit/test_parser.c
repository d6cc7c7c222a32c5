// SPDX-License-Identifier: MIT
/*
 * Parser goldens for the top level and statements (expressions are in
 * test_parse_expr.c): scripts and their `-d ast` dumps. The tree shapes were
 * checked against `bpftrace -d ast` (0.17) for what bpftrace accepts.
 */
#include "parse_util.h"

static const struct golden goldens[] = {
	{
		"brief_example",
		"tracepoint:syscalls:sys_enter_openat /pid == 1234/ { printf(\"%s %s\\n\", comm, "
		"str(args->filename)); }",
		"program\n"
		" probe tracepoint:syscalls:sys_enter_openat\n"
		"  predicate\n"
		"   ==\n"
		"    builtin pid\n"
		"    int 1234\n"
		"  call printf\n"
		"   string \"%s %s\\n\"\n"
		"   builtin comm\n"
		"   call str\n"
		"    field -> filename\n"
		"     builtin args\n",
	},
	{
		"empty_body",
		"BEGIN {}\n"
		"END { }",
		"program\n"
		" probe BEGIN\n"
		" probe END\n",
	},
	{
		"attach_list",
		"kprobe:do_sys_open+10,kprobe:vfs_*,\n"
		"  kretprobe:vfs_read , tracepoint:sched:sched* { @[probe] = count(); }",
		"program\n"
		" probe kprobe:do_sys_open+10, kprobe:vfs_*, kretprobe:vfs_read, "
		"tracepoint:sched:sched*\n"
		"  =\n"
		"   map @\n"
		"    builtin probe\n"
		"   call count\n",
	},
	{
		"attach_points",
		"interval:s:5 {} profile:hz:99 {} software:cpu-clock:1000 {} "
		"usdt:/usr/bin/x:prov:name {}\n"
		"uprobe:/bin/bash:readline {} uprobe:\"/path with space\":func {} "
		"uprobe:/bin/x:\"ns::f\" {}\n"
		"uprobe:$1:func {} t:syscalls:sys_enter_read {} uprobe:./a.out:main {}",
		"program\n"
		" probe interval:s:5\n"
		" probe profile:hz:99\n"
		" probe software:cpu-clock:1000\n"
		" probe usdt:/usr/bin/x:prov:name\n"
		" probe uprobe:/bin/bash:readline\n"
		" probe uprobe:\"/path with space\":func\n"
		" probe uprobe:/bin/x:\"ns::f\"\n"
		" probe uprobe:$1:func\n"
		" probe t:syscalls:sys_enter_read\n"
		" probe uprobe:./a.out:main\n",
	},
	{
		"predicate_division",
		"kprobe:f / 10 / 2 > pid / { }",
		"program\n"
		" probe kprobe:f\n"
		"  predicate\n"
		"   >\n"
		"    /\n"
		"     int 10\n"
		"     int 2\n"
		"    builtin pid\n",
	},
	{
		"predicate_no_space",
		"kprobe:f/pid/{} uprobe:/bin/bash:readline/tid/{}",
		"program\n"
		" probe kprobe:f\n"
		"  predicate\n"
		"   builtin pid\n"
		" probe uprobe:/bin/bash:readline\n"
		"  predicate\n"
		"   builtin tid\n",
	},
	{
		"predicate_comment",
		"BEGIN /pid/ /* why */ { exit(); }",
		"program\n"
		" probe BEGIN\n"
		"  predicate\n"
		"   builtin pid\n"
		"  call exit\n",
	},
	{
		"preamble",
		"#!/usr/bin/env bpftrace\n"
		"#include <linux/sched.h>\n"
		"#include \"x.h\"\n"
		"#define FOO(a) \\\n"
		"  ((a) + 1)\n"
		"#ifndef BPFTRACE_HAVE_BTF\n"
		"struct cfs_rq {\n"
		"\tstruct load_weight load; // { not a brace\n"
		"\tunsigned int nr_running;\n"
		"};\n"
		"#endif\n"
		"union u { int a; char b; };\n"
		"enum e { A, B = 2 };\n"
		"struct fwd;\n"
		"BEGIN { @x = FOO; }",
		"program\n"
		" include #include <linux/sched.h>\n"
		" include #include \"x.h\"\n"
		" define #define FOO(a) \\\\\\n  ((a) + 1)\n"
		" define #ifndef BPFTRACE_HAVE_BTF\n"
		" cdef struct cfs_rq {\\n\\tstruct load_weight load; // { not a "
		"brace\\n\\tunsigned int nr_running;\\n};\n"
		" define #endif\n"
		" cdef union u { int a; char b; };\n"
		" cdef enum e { A, B = 2 };\n"
		" cdef struct fwd;\n"
		" probe BEGIN\n"
		"  =\n"
		"   map @x\n"
		"   ident FOO\n",
	},
	{
		/* a definition may end at its '}' (no ';'), a typedef at its ';' */
		"cdef_without_semicolon",
		"struct s { int a; }\n"
		"typedef struct s s_t;\n"
		"enum e { A }\n"
		"BEGIN { }",
		"program\n"
		" cdef struct s { int a; }\n"
		" cdef typedef struct s s_t;\n"
		" cdef enum e { A }\n"
		" probe BEGIN\n",
	},
	{
		"preamble_between_probes",
		"BEGIN { }\n"
		"#define X 1\n"
		"struct s { int a; };\n"
		"END { }",
		"program\n"
		" define #define X 1\n"
		" cdef struct s { int a; };\n"
		" probe BEGIN\n"
		" probe END\n",
	},
	{
		"maps",
		"BEGIN { @x = 1; @ = 2; @[comm] = 3; @y[1, \"a\", $x] = 4; @z[(1, 2)] = 5; "
		"print(@y); delete(@y[1, \"a\", $x]); clear(@); }",
		"program\n"
		" probe BEGIN\n"
		"  =\n"
		"   map @x\n"
		"   int 1\n"
		"  =\n"
		"   map @\n"
		"   int 2\n"
		"  =\n"
		"   map @\n"
		"    builtin comm\n"
		"   int 3\n"
		"  =\n"
		"   map @y\n"
		"    int 1\n"
		"    string \"a\"\n"
		"    var $x\n"
		"   int 4\n"
		"  =\n"
		"   map @z\n"
		"    int 1\n"
		"    int 2\n"
		"   int 5\n"
		"  call print\n"
		"   map @y\n"
		"  call delete\n"
		"   map @y\n"
		"    int 1\n"
		"    string \"a\"\n"
		"    var $x\n"
		"  call clear\n"
		"   map @\n",
	},
	{
		"assign_ops",
		"BEGIN { $x = 1; $x += 1; $x -= 2; $x *= 3; $x /= 4; $x %= 5; $x &= 6; $x |= 7; $x "
		"^= 8; $x <<= 9; $x >>= 10; @m[1] += 2; }",
		"program\n"
		" probe BEGIN\n"
		"  =\n"
		"   var $x\n"
		"   int 1\n"
		"  +=\n"
		"   var $x\n"
		"   int 1\n"
		"  -=\n"
		"   var $x\n"
		"   int 2\n"
		"  *=\n"
		"   var $x\n"
		"   int 3\n"
		"  /=\n"
		"   var $x\n"
		"   int 4\n"
		"  %=\n"
		"   var $x\n"
		"   int 5\n"
		"  &=\n"
		"   var $x\n"
		"   int 6\n"
		"  |=\n"
		"   var $x\n"
		"   int 7\n"
		"  ^=\n"
		"   var $x\n"
		"   int 8\n"
		"  <<=\n"
		"   var $x\n"
		"   int 9\n"
		"  >>=\n"
		"   var $x\n"
		"   int 10\n"
		"  +=\n"
		"   map @m\n"
		"    int 1\n"
		"   int 2\n",
	},
	{
		"inc_dec",
		"BEGIN { @x++; ++@x; $y--; --$y; @m[pid]++; $z = $y++ + ++$y; }",
		"program\n"
		" probe BEGIN\n"
		"  post ++\n"
		"   map @x\n"
		"  pre ++\n"
		"   map @x\n"
		"  post --\n"
		"   var $y\n"
		"  pre --\n"
		"   var $y\n"
		"  post ++\n"
		"   map @m\n"
		"    builtin pid\n"
		"  =\n"
		"   var $z\n"
		"   +\n"
		"    post ++\n"
		"     var $y\n"
		"    pre ++\n"
		"     var $y\n",
	},
	{
		"if_else_chain",
		"BEGIN { if ($x) { @a = 1; } else if ($y > 2) { @b = 2 } else if (!$z) { } else { "
		"@c = 3; @d = 4 } if (1) { if (2) { @e = 5 } } }",
		"program\n"
		" probe BEGIN\n"
		"  if\n"
		"   var $x\n"
		"   then\n"
		"    =\n"
		"     map @a\n"
		"     int 1\n"
		"   else\n"
		"    if\n"
		"     >\n"
		"      var $y\n"
		"      int 2\n"
		"     then\n"
		"      =\n"
		"       map @b\n"
		"       int 2\n"
		"     else\n"
		"      if\n"
		"       unary !\n"
		"        var $z\n"
		"       then\n"
		"       else\n"
		"        =\n"
		"         map @c\n"
		"         int 3\n"
		"        =\n"
		"         map @d\n"
		"         int 4\n"
		"  if\n"
		"   int 1\n"
		"   then\n"
		"    if\n"
		"     int 2\n"
		"     then\n"
		"      =\n"
		"       map @e\n"
		"       int 5\n",
	},
	{
		"loops",
		"BEGIN { unroll (3) { @i++; } $i = 0; while ($i < 10) { $i++; if ($i == 5) { "
		"continue; } if ($i > 8) { break; } } return; }",
		"program\n"
		" probe BEGIN\n"
		"  unroll\n"
		"   int 3\n"
		"   body\n"
		"    post ++\n"
		"     map @i\n"
		"  =\n"
		"   var $i\n"
		"   int 0\n"
		"  while\n"
		"   <\n"
		"    var $i\n"
		"    int 10\n"
		"   body\n"
		"    post ++\n"
		"     var $i\n"
		"    if\n"
		"     ==\n"
		"      var $i\n"
		"      int 5\n"
		"     then\n"
		"      continue\n"
		"    if\n"
		"     >\n"
		"      var $i\n"
		"      int 8\n"
		"     then\n"
		"      break\n"
		"  return\n",
	},
	{
		"return_value",
		"BEGIN { return 1 + 2 } END { return }",
		"program\n"
		" probe BEGIN\n"
		"  return\n"
		"   +\n"
		"    int 1\n"
		"    int 2\n"
		" probe END\n"
		"  return\n",
	},
	{
		"nested_blocks_empty_stmts",
		"BEGIN { ;; { @x = 1; { } } ; @y = 2;; }",
		"program\n"
		" probe BEGIN\n"
		"  block\n"
		"   =\n"
		"    map @x\n"
		"    int 1\n"
		"   block\n"
		"  =\n"
		"   map @y\n"
		"   int 2\n",
	},
	{
		"no_semicolon_after_if",
		"BEGIN { if (1) { @x = 1 } @y = 2; while (0) { } @z = 3 }",
		"program\n"
		" probe BEGIN\n"
		"  if\n"
		"   int 1\n"
		"   then\n"
		"    =\n"
		"     map @x\n"
		"     int 1\n"
		"  =\n"
		"   map @y\n"
		"   int 2\n"
		"  while\n"
		"   int 0\n"
		"   body\n"
		"  =\n"
		"   map @z\n"
		"   int 3\n",
	},
	{
		"positional",
		"uprobe:$1:func /$2 == pid/ { @ = $#; @p[$3] = $10; }",
		"program\n"
		" probe uprobe:$1:func\n"
		"  predicate\n"
		"   ==\n"
		"    positional $2\n"
		"    builtin pid\n"
		"  =\n"
		"   map @\n"
		"   poscount $#\n"
		"  =\n"
		"   map @p\n"
		"    positional $3\n"
		"   positional $10\n",
	},
	{
		"comments",
		"// leading comment\n"
		"/* block\n"
		"   comment */ BEGIN // after attach point\n"
		"{ /* in body */ @x = /* mid */ 1; // trailing\n"
		"}\n"
		"// end",
		"program\n"
		" probe BEGIN\n"
		"  =\n"
		"   map @x\n"
		"   int 1\n",
	},
	{
		"whitespace_crlf",
		"BEGIN\r\n"
		"{\r\n"
		"\t@x = 1;\r\n"
		"}\r\n",
		"program\n"
		" probe BEGIN\n"
		"  =\n"
		"   map @x\n"
		"   int 1\n",
	},
};

static void test_goldens(void **state)
{
	(void)state;
	check_goldens(goldens, ARRAY_SIZE(goldens), true);
}

/* Attach point parts: split at ':' outside quotes, quotes removed. */
static void test_attach_point_parts(void **state)
{
	static const struct {
		const char *script;
		const char *parts[AP_MAX_PARTS];
		uint32_t nparts;
		uint32_t lo, hi;
	} cases[] = {
		{ "BEGIN {}", { "BEGIN" }, 1, 0, 5 },
		{ "tracepoint:syscalls:sys_enter_* {}",
		  { "tracepoint", "syscalls", "sys_enter_*" },
		  3,
		  0,
		  31 },
		{ "uprobe:/bin/bash:readline/pid/ {}",
		  { "uprobe", "/bin/bash", "readline" },
		  3,
		  0,
		  25 },
		{ "uprobe:\"/a b/c\":\"ns::f\" {}", { "uprobe", "/a b/c", "ns::f" }, 3, 0, 23 },
		{ "uprobe:/bin/x:\"a\\\"b\" {}", { "uprobe", "/bin/x", "a\"b" }, 3, 0, 20 },
		{ "uprobe:./a.out:main/1/ {}", { "uprobe", "./a.out", "main" }, 3, 0, 19 },
		{ "uprobe:build/a.out:main/1/ {}", { "uprobe", "build/a.out", "main" }, 3, 0, 23 },
		{ "usdt:lib/x.so:p:n {}", { "usdt", "lib/x.so", "p", "n" }, 4, 0, 17 },
		{ "kprobe:f/pid/ {}", { "kprobe", "f" }, 2, 0, 8 },
		{ "kprobe:do_sys_open+10 {}", { "kprobe", "do_sys_open+10" }, 2, 0, 21 },
		{ "usdt:/usr/bin/x:prov:name {}",
		  { "usdt", "/usr/bin/x", "prov", "name" },
		  4,
		  0,
		  25 },
		{ "uprobe:$1:func {}", { "uprobe", "$1", "func" }, 3, 0, 14 },
		{ "kprobe: {}", { "kprobe", "" }, 2, 0, 7 },
		{ "interval::5 {}", { "interval", "", "5" }, 3, 0, 11 },
		{ "  software:cpu-clock:1000{}", { "software", "cpu-clock", "1000" }, 3, 2, 25 },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct source src;
		struct diag d;
		struct arena a = { 0 };
		const char *s = cases[i].script;
		struct program *prog;
		struct attach_point *ap;

		source_init(&src, "stdin", s, strlen(s));
		diag_init(&d, &src);
		prog = parse_program(&a, &src, &d);
		if (!prog)
			fail_msg("'%s' failed:\n%s", s, sb_str(&d.out));
		assert_int_equal(prog->nprobes, 1);
		assert_int_equal(prog->probes[0]->naps, 1);
		ap = prog->probes[0]->aps[0];
		assert_int_equal(ap->nparts, cases[i].nparts);
		for (uint32_t k = 0; k < ap->nparts; k++)
			assert_string_equal(ap->parts[k], cases[i].parts[k]);
		assert_int_equal(ap->span.lo, cases[i].lo);
		assert_int_equal(ap->span.hi, cases[i].hi);
		assert_memory_equal(ap->text, s + ap->span.lo, ap->span.hi - ap->span.lo);
		assert_int_equal(strlen(ap->text), ap->span.hi - ap->span.lo);
		diag_free(&d);
		arena_free(&a);
		source_free(&src);
	}
}

/* Spans of nodes: what later stages underline in their errors. */
static void test_spans(void **state)
{
	const char *s =
		"kprobe:a,kprobe:b /pid > 1/ { @m[1, 2] = f(x, \"s\") + $y->z; if (1) { } }";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct program *prog;
	struct stmt *st;
	struct expr *e;
	(void)state;

#define TEXT(sp) arena_strndup(&a, s + (sp).lo, (sp).hi - (sp).lo)
	source_init(&src, "stdin", s, strlen(s));
	diag_init(&d, &src);
	prog = parse_program(&a, &src, &d);
	assert_non_null(prog);
	assert_string_equal(TEXT(prog->probes[0]->span), "kprobe:a,kprobe:b");
	assert_string_equal(TEXT(prog->probes[0]->pred->span), "pid > 1");
	assert_int_equal(prog->probes[0]->index, 0);
	st = prog->probes[0]->body->u.block.v[0];
	assert_int_equal(st->kind, STMT_ASSIGN);
	assert_int_equal(st->u.assign.op, OP_NONE);
	assert_string_equal(TEXT(st->span), "@m[1, 2] = f(x, \"s\") + $y->z");
	assert_string_equal(TEXT(st->u.assign.target->span), "@m[1, 2]");
	e = st->u.assign.value;
	assert_int_equal(e->kind, EXPR_BINARY);
	assert_string_equal(TEXT(e->u.binary.lhs->span), "f(x, \"s\")");
	assert_string_equal(TEXT(e->u.binary.lhs->u.call.name_span), "f");
	assert_int_equal(e->u.binary.lhs->u.call.args.n, 2);
	assert_int_equal(e->u.binary.lhs->u.call.args.v[1]->u.len, 1);
	assert_string_equal(TEXT(e->u.binary.rhs->span), "$y->z");
	assert_string_equal(TEXT(e->u.binary.rhs->u.field.name_span), "z");
	st = prog->probes[0]->body->u.block.v[1];
	assert_int_equal(st->kind, STMT_IF);
	assert_string_equal(TEXT(st->span), "if (1) { }");
	assert_string_equal(TEXT(prog->probes[0]->body->span), strchr(s, '{'));
#undef TEXT
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

/* Strings keep embedded NULs; len excludes the final NUL. */
static void test_string_bytes(void **state)
{
	const char *s = "BEGIN { printf(\"a\\0b\\x00\"); }";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct program *prog;
	struct expr *e;
	(void)state;

	source_init(&src, "stdin", s, strlen(s));
	diag_init(&d, &src);
	prog = parse_program(&a, &src, &d);
	assert_non_null(prog);
	e = prog->probes[0]->body->u.block.v[0]->u.expr->u.call.args.v[0];
	assert_int_equal(e->kind, EXPR_STR);
	assert_int_equal(e->u.len, 4);
	assert_memory_equal(e->u.str, "a\0b\0", 5);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

/* The parser must stay linear: a big script parses fast. */
static void test_speed(void **state)
{
	struct strbuf sb = { 0 };
	uint64_t t0, dt;
	bool ok;
	char *out;
	(void)state;

	for (int i = 0; i < 500; i++)
		sb_printf(
			&sb,
			"kprobe:f%d /pid == %d && comm == \"x\"/ { @m[tid, %d] = count(); "
			"$x = (struct task_struct *)curtask; printf(\"%%d\\n\", $x->pid + %d); }\n",
			i, i, i, i);
	t0 = util_now_ns();
	out = parse_text(sb_str(&sb), &ok);
	dt = util_now_ns() - t0;
	assert_true(ok);
	/* About 0.3 ms here; generous for slow CI machines and sanitizers. */
	if (dt > 200 * 1000 * 1000ull)
		fail_msg("parsing 500 probes took %llu us", (unsigned long long)(dt / 1000));
	free(out);
	sb_free(&sb);
}

/* parse_expression: one expression from a piece of the source (macro bodies). */
static void test_parse_expression(void **state)
{
	const char *s = "#define K (3 + 4) * $1\n#define BAD 1 2\n#define EMPTY\n";
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct program prog = { 0 };
	struct strbuf out = { 0 };
	struct probe pr = { 0 };
	struct stmt body = { .kind = STMT_BLOCK }, st = { .kind = STMT_EXPR };
	struct stmt *stp = &st;
	struct probe *prp = &pr;
	struct expr *e;
	(void)state;

	source_init(&src, "x.bt", s, strlen(s));
	diag_init(&d, &src);
	/* "(3 + 4) * $1" */
	e = parse_expression(&a, &src, SPAN(10, 22), &d);
	assert_non_null(e);
	assert_int_equal(e->kind, EXPR_BINARY);
	assert_int_equal(e->span.lo, 10);
	assert_int_equal(e->span.hi, 22);
	/* Dump it through a one-statement program. */
	st.u.expr = e;
	body.u.block.v = &stp;
	body.u.block.n = 1;
	pr.body = &body;
	pr.aps = NULL;
	prog.probes = &prp;
	prog.nprobes = 1;
	ast_dump(&prog, &out);
	assert_string_equal(sb_str(&out), "program\n"
					  " probe \n"
					  "  *\n"
					  "   +\n"
					  "    int 3\n"
					  "    int 4\n"
					  "   positional $1\n");
	sb_free(&out);

	/* "1 2" */
	assert_null(parse_expression(&a, &src, SPAN(35, 38), &d));
	assert_string_equal(sb_str(&d.out),
			    "x.bt:2:15: ERROR: unexpected number '2', expected the end of the "
			    "expression [E110]\n"
			    "#define BAD 1 2\n"
			    "              ~\n");
	sb_reset(&d.out);
	/* "" */
	assert_null(parse_expression(&a, &src, SPAN(52, 52), &d));
	assert_int_equal(d.errors, 2);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens), cmocka_unit_test(test_attach_point_parts),
		cmocka_unit_test(test_spans),	cmocka_unit_test(test_string_bytes),
		cmocka_unit_test(test_speed),	cmocka_unit_test(test_parse_expression),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

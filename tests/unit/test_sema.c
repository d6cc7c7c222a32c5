// SPDX-License-Identifier: MIT
/*
 * Type checking: each bad script gives exactly this diagnostic (code,
 * line:col, underline, hint), and nothing is generated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "compile_util.h"
#include "sema/sema.h"

struct sema_case {
	const char *script;
	const char *want;
	enum dialect dialect; /* --dialect (auto unless said) */
};

static const struct sema_case cases[] = {
	{ "BEGIN { @x = 1; @x = \"a\"; }",
	  "stdin:1:22-25: ERROR: type mismatch for @x: assigning a value of type string[2] to a map holding int64 [E301]\n"
		  "BEGIN { @x = 1; @x = \"a\"; }\n"
		  "                     ~~~\n"
		  "" },
	{ "BEGIN { @x[1] = 1; @x[\"a\"] = 1; }",
	  "stdin:1:20-27: ERROR: argument mismatch for @x: accessed with keys [string[2]] where the map has keys [int64] [E308]\n"
		  "BEGIN { @x[1] = 1; @x[\"a\"] = 1; }\n"
		  "                   ~~~~~~~\n"
		  "" },
	{ "BEGIN { $x = 1; $x = \"a\"; }",
	  "stdin:1:22-25: ERROR: type mismatch for $x: assigning string[2] to a variable holding int64 [E309]\n"
		  "BEGIN { $x = 1; $x = \"a\"; }\n"
		  "                     ~~~\n"
		  "" },
	{ "BEGIN { prinf(\"hi\"); }",
	  "stdin:1:9-14: ERROR: unknown function 'prinf' [E200]\n"
		  "BEGIN { prinf(\"hi\"); }\n"
		  "        ~~~~~\n"
		  "HINT: did you mean 'printf'?\n"
		  "" },
	{ "BEGIN { @x = count(1); }",
	  "stdin:1:14-22: ERROR: count() takes 0 arguments, 1 given [E302]\n"
		  "BEGIN { @x = count(1); }\n"
		  "             ~~~~~~~~\n"
		  "" },
	{ "BEGIN { count(); }",
	  "stdin:1:9-16: ERROR: count() must be assigned directly to a map [E304]\n"
		  "BEGIN { count(); }\n"
		  "        ~~~~~~~\n"
		  "HINT: write it as @name = count(...) or @name[key] = count(...)\n"
		  "" },
	{ "BEGIN { @c = count(); @d = @c + 1; }",
	  "stdin:1:28-34: ERROR: type mismatch for '+': comparing count with int64 [E300]\n"
		  "BEGIN { @c = count(); @d = @c + 1; }\n"
		  "                           ~~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d %d\\n\", 1); }",
	  "stdin:1:9-29: ERROR: printf: Not enough arguments for format string (1 supplied, 2 expected) [E305]\n"
		  "BEGIN { printf(\"%d %d\\n\", 1); }\n"
		  "        ~~~~~~~~~~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%s\\n\", 1); }",
	  "stdin:1:24: ERROR: printf: %s specifier expects a value of type string (integer supplied) [E305]\n"
		  "BEGIN { printf(\"%s\\n\", 1); }\n"
		  "                       ~\n"
		  "" },
	{ "BEGIN { printf(1); }",
	  "stdin:1:16: ERROR: printf's format must be a string literal [E305]\n"
		  "BEGIN { printf(1); }\n"
		  "               ~\n"
		  "" },
	{ "BEGIN { @l = lhist(1, 10, 0, 1); }",
	  "stdin:1:14-32: ERROR: lhist() min must be less than max (provided min 10 and max 0) [E303]\n"
		  "BEGIN { @l = lhist(1, 10, 0, 1); }\n"
		  "             ~~~~~~~~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", $y); }",
	  "stdin:1:24-26: ERROR: undefined variable $y [E205]\n"
		  "BEGIN { printf(\"%d\\n\", $y); }\n"
		  "                       ~~\n"
		  "HINT: assign it before use, e.g. $y = 0;\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", @nope); }",
	  "stdin:1:24-29: ERROR: @nope is read but never assigned a value [E312]\n"
		  "BEGIN { printf(\"%d\\n\", @nope); }\n"
		  "                       ~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", cpid); }",
	  "stdin:1:24-28: ERROR: cpid needs a child command [E208]\n"
		  "BEGIN { printf(\"%d\\n\", cpid); }\n"
		  "                       ~~~~\n"
		  "HINT: start one with -c CMD\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", args->x); }",
	  "stdin:1:24-28: ERROR: args is not available in BEGIN probes [E208]\n"
		  "BEGIN { printf(\"%d\\n\", args->x); }\n"
		  "                       ~~~~\n"
		  "HINT: args gives the fields of tracepoint probes\n"
		  "" },
	{ "bogus:foo { }",
	  "stdin:1:1-10: ERROR: unknown probe type 'bogus' [E202]\n"
		  "bogus:foo { }\n"
		  "~~~~~~~~~\n"
		  "HINT: probe types are BEGIN, END, tracepoint, interval, rawtracepoint, kprobe, kretprobe, uprobe, uretprobe, usdt, profile, software, hardware, kfunc, kretfunc, watchpoint, asyncwatchpoint, test, bench, self\n"
		  "" },
	{ "BEGIN { $s = str(\"a\", 1, 2); }",
	  "stdin:1:14-28: ERROR: str() takes 1 to 2 arguments, 3 given [E302]\n"
		  "BEGIN { $s = str(\"a\", 1, 2); }\n"
		  "             ~~~~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { unroll(101) { } }",
	  "stdin:1:16-19: ERROR: unroll maximum value is 100: the count is 101 [E306]\n"
		  "BEGIN { unroll(101) { } }\n"
		  "               ~~~\n"
		  "" },
	{ "BEGIN { break; }",
	  "stdin:1:9-14: ERROR: 'break' outside of a loop [E314]\n"
		  "BEGIN { break; }\n"
		  "        ~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", $1); }",
	  "stdin:1:24-26: ERROR: $1 is used as a number but is \"hello\" [E206]\n"
		  "BEGIN { printf(\"%d\\n\", $1); }\n"
		  "                       ~~\n"
		  "HINT: use str($1) to get it as a string\n"
		  "" },
	{ "struct s { int a; int bb; } BEGIN { $p = (struct s *)0; @x = $p->b; }",
	  "stdin:1:66: ERROR: struct s has no field 'b' [E204]\n"
		  "struct s { int a; int bb; } BEGIN { $p = (struct s *)0; @x = $p->b; }\n"
		  "                                                                 ~\n"
		  "HINT: did you mean 'a'?\n"
		  "" },
	{ "BEGIN { @x = 1; @x += \"a\"; }",
	  "stdin:1:23-26: ERROR: '+=' needs an integer, not string[2] [E307]\n"
		  "BEGIN { @x = 1; @x += \"a\"; }\n"
		  "                      ~~~\n"
		  "" },
	{ "BEGIN { @h = hist(\"a\"); }",
	  "stdin:1:19-22: ERROR: hist expects an integer, got string[2] [E303]\n"
		  "BEGIN { @h = hist(\"a\"); }\n"
		  "                  ~~~\n"
		  "" },
	{ "BEGIN { if (\"str\") { } }",
	  "stdin:1:13-18: ERROR: a condition must be an integer, not string[4] [E307]\n"
		  "BEGIN { if (\"str\") { } }\n"
		  "            ~~~~~\n"
		  "" },
	{ "BEGIN { @x = 1 + \"a\"; }",
	  "stdin:1:14-21: ERROR: type mismatch for '+': comparing int64 with string[2] [E300]\n"
		  "BEGIN { @x = 1 + \"a\"; }\n"
		  "             ~~~~~~~\n"
		  "" },
	{ "BEGIN { $t = (1, \"a\"); $t = (1, 2); }",
	  "stdin:1:29-35: ERROR: type mismatch for $t: assigning (int64, int64) to a variable holding (int64, string[2]) [E309]\n"
		  "BEGIN { $t = (1, \"a\"); $t = (1, 2); }\n"
		  "                            ~~~~~~\n"
		  "" },
	{ "BEGIN { clear(@x[1]); @x[1] = 1; }",
	  "stdin:1:15-20: ERROR: clear() expects a whole map, without a key [E303]\n"
		  "BEGIN { clear(@x[1]); @x[1] = 1; }\n"
		  "              ~~~~~\n"
		  "HINT: use clear(@x)\n"
		  "" },
	{ "BEGIN { delete(@x); @x[1] = 1; }",
	  "stdin:1:21-26: ERROR: argument mismatch for @x: accessed with keys [int64] where the map has keys [] [E308]\n"
		  "BEGIN { delete(@x); @x[1] = 1; }\n"
		  "                    ~~~~~\n"
		  "" },
	{ "BEGIN { exit(\"a\"); }",
	  "stdin:1:14-17: ERROR: exit() expects an integer, got string[2] [E303]\n"
		  "BEGIN { exit(\"a\"); }\n"
		  "             ~~~\n"
		  "" },
	{ "watchpoint:0x10000000:8:w { }",
	  "stdin:1:1-26: ERROR: 0x10000000 is a user-space address [E111]\n"
		  "watchpoint:0x10000000:8:w { }\n"
		  "~~~~~~~~~~~~~~~~~~~~~~~~~\n"
		  "HINT: watch a process's memory with -p PID or -c CMD\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", retval); }",
	  "stdin:1:24-30: ERROR: retval is not available in BEGIN probes [E208]\n"
		  "BEGIN { printf(\"%d\\n\", retval); }\n"
		  "                       ~~~~~~\n"
		  "HINT: retval is a function's return value in uretprobe and kretprobe probes\n" },
	{ "BEGIN { @x = hello; }",
	  "stdin:1:14-19: ERROR: unknown identifier 'hello' [E201]\n"
		  "BEGIN { @x = hello; }\n"
		  "             ~~~~~\n"
		  "HINT: constants come from the script's #define and enums, the kernel's enums (BTF) and the headers it #includes\n"
		  "" },
	{ "interval:s:0 { }",
	  "stdin:1:1-13: ERROR: invalid interval count '0' [E111]\n"
		  "interval:s:0 { }\n"
		  "~~~~~~~~~~~~\n"
		  "HINT: give a positive whole number, e.g. interval:s:1\n"
		  "" },
	{ "interval:parsec:1 { }",
	  "stdin:1:1-18: ERROR: unknown interval unit 'parsec' [E111]\n"
		  "interval:parsec:1 { }\n"
		  "~~~~~~~~~~~~~~~~~\n"
		  "HINT: units are s, ms, us and hz\n"
		  "" },
	{ "BEGIN { } BEGIN { }",
	  "stdin:1:11-16: ERROR: BEGIN is used twice [E111]\n"
		  "BEGIN { } BEGIN { }\n"
		  "          ~~~~~\n"
		  "HINT: put all of its statements in one BEGIN probe (today's bpftrace takes several)\n"
		  "", DIALECT_0_17 },
	{ "BEGIN { @ = 1 ? 2 : \"a\"; }",
	  "stdin:1:13-24: ERROR: the branches of '?:' have different types: int64 and string[2] [E300]\n"
		  "BEGIN { @ = 1 ? 2 : \"a\"; }\n"
		  "            ~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { @y = @x + 1; }",
	  "stdin:1:14-16: ERROR: @x is read but never assigned a value [E312]\n"
		  "BEGIN { @y = @x + 1; }\n"
		  "             ~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", bswap(\"a\")); }",
	  "stdin:1:30-33: ERROR: bswap() expects an integer, got string[2] [E303]\n"
		  "BEGIN { printf(\"%d\\n\", bswap(\"a\")); }\n"
		  "                             ~~~\n"
		  "" },
	{ "BEGIN { @x[1] = 1; $y = @x; }",
	  "stdin:1:25-27: ERROR: argument mismatch for @x: accessed with keys [] where the map has keys [int64] [E308]\n"
		  "BEGIN { @x[1] = 1; $y = @x; }\n"
		  "                        ~~\n"
		  "" },
	/* today's bpftrace (the dialect of scripts that use its constructs) */
	{ "begin { let $x = 1; let $x = 2; }",
	  "stdin:1:25-27: ERROR: $x is declared twice [E213]\n"
		  "begin { let $x = 1; let $x = 2; }\n"
		  "                        ~~\n"
		  "HINT: $x is declared at line 1, column 13; today's bpftrace lets no variable shadow another: choose another name\n" },
	{ "begin { if (1) { $y = 1; } print($y); }",
	  "stdin:1:34-36: ERROR: undefined variable $y [E205]\n"
		  "begin { if (1) { $y = 1; } print($y); }\n"
		  "                                 ~~\n"
		  "HINT: assign or declare it in this block or one around it, e.g. let $y = 0;\n" },
	{ "begin { $i = 1; for ($i : 0..2) { } }",
	  "stdin:1:22-24: ERROR: the loop's variable $i is declared already [E213]\n"
		  "begin { $i = 1; for ($i : 0..2) { } }\n"
		  "                     ~~\n"
		  "HINT: $i is declared at line 1, column 9; today's bpftrace lets no variable shadow another: choose another name\n" },
	{ "begin { @m[1] = 1; for ($kv : @m) { exit(); } }",
	  "stdin:1:37-43: ERROR: exit() cannot be called in a for loop [E314]\n"
		  "begin { @m[1] = 1; for ($kv : @m) { exit(); } }\n"
		  "                                    ~~~~~~\n"
		  "HINT: break out of the loop, then call exit()\n" },
	{ "begin { @c = count(); for ($kv : @c) { } }",
	  "stdin:1:34-36: ERROR: @c has no keys: a for loop runs over a map's keys [E307]\n"
		  "begin { @c = count(); for ($kv : @c) { } }\n"
		  "                                 ~~\n"
		  "HINT: give it keys, e.g. @c[pid] = ...\n" },
	{ "begin { @h[1] = hist(2); for ($kv : @h) { } }",
	  "stdin:1:37-39: ERROR: a for loop cannot run over @h: its values are hist, which hold several numbers each [E307]\n"
		  "begin { @h[1] = hist(2); for ($kv : @h) { } }\n"
		  "                                    ~~\n"
		  "HINT: loop over maps of count(), sum(), min(), max(), avg() or plain values; print(@h) shows the others\n" },
	{ "begin { for ($kv : @never) { } }",
	  "stdin:1:20-26: ERROR: @never is looped over but never assigned a value [E312]\n"
		  "begin { for ($kv : @never) { } }\n"
		  "                   ~~~~~~\n" },
	{ "begin { let $x: uint8 = \"a\"; }",
	  "stdin:1:25-28: ERROR: $x is declared uint8: it cannot hold string[2] [E309]\n"
		  "begin { let $x: uint8 = \"a\"; }\n"
		  "                        ~~~\n" },
	{ "begin { $t = (1, \"a\"); $i = 1; print($t[$i]); }",
	  "stdin:1:41-43: ERROR: a tuple's index must be a constant [E310]\n"
		  "begin { $t = (1, \"a\"); $i = 1; print($t[$i]); }\n"
		  "                                        ~~\n"
		  "HINT: its elements may have different types: which one is known when the script is compiled\n" },
	{ "begin { $t = (1, \"a\"); print($t[2]); }",
	  "stdin:1:33: ERROR: tuple index 2 is out of range [E307]\n"
		  "begin { $t = (1, \"a\"); print($t[2]); }\n"
		  "                                ~\n"
		  "HINT: the tuple (int64, string[2]) has 2 elements\n" },
	{ "begin { $r = (a = 1); print($r.b); }",
	  "stdin:1:32: ERROR: the record has no field 'b' [E204]\n"
		  "begin { $r = (a = 1); print($r.b); }\n"
		  "                               ~\n"
		  "HINT: its fields are: a\n" },
	{ "config = { bad_config = raw } begin {}",
	  "stdin:1:12-28: ERROR: unknown config variable 'bad_config' [E214]\n"
		  "config = { bad_config = raw } begin {}\n"
		  "           ~~~~~~~~~~~~~~~~\n"
		  "HINT: the config variables lantern knows: max_strlen, max_map_keys, max_cat_bytes, log_size, max_probes, print_maps_on_exit, cpp_demangle, stack_mode, missing_probes, str_trunc_trailer, ustack_unwind, ustack_snapshot\n" },
	{ "config = { max_strlenn = 1 } begin {}",
	  "stdin:1:12-27: ERROR: unknown config variable 'max_strlenn' [E214]\n"
		  "config = { max_strlenn = 1 } begin {}\n"
		  "           ~~~~~~~~~~~~~~~\n"
		  "HINT: did you mean 'max_strlen'?\n" },
	{ "config = { stack_mode = weird } begin {}",
	  "stdin:1:12-30: ERROR: stack_mode = weird: it is one of bpftrace, perf, raw, build_id [E306]\n"
		  "config = { stack_mode = weird } begin {}\n"
		  "           ~~~~~~~~~~~~~~~~~~\n" },
	{ "config = { btf = 1 } begin {}",
	  "stdin:1:12-19: ERROR: btf can only be set in the environment (BPFTRACE_BTF) [E214]\n"
		  "config = { btf = 1 } begin {}\n"
		  "           ~~~~~~~\n" },
	{ "let @a = percpuhash(4); begin { @a = 1; }",
	  "stdin:1:10-20: ERROR: @a is declared a percpuhash map, which cannot hold int64 [E301]\n"
		  "let @a = percpuhash(4); begin { @a = 1; }\n"
		  "         ~~~~~~~~~~\n"
		  "HINT: per-CPU maps hold aggregations (count(), sum(), hist(), ...); declare it hash or lruhash\n" },
	{ "let @a = hash(4); begin { @a = count(); }",
	  "stdin:1:10-14: ERROR: @a is declared a hash map, which cannot hold count [E301]\n"
		  "let @a = hash(4); begin { @a = count(); }\n"
		  "         ~~~~\n"
		  "HINT: aggregations (count(), sum(), hist(), ...) need a per-CPU map: declare it percpuhash or percpulruhash\n" },
	{ "begin { $x = \"a\" ?: 1; }",
	  "stdin:1:14-17: ERROR: the first operand of '?:' must be an integer or a pointer, not string[2] [E307]\n"
		  "begin { $x = \"a\" ?: 1; }\n"
		  "             ~~~\n" },
	{ "begin { for ($i : 0..\"a\") { } }",
	  "stdin:1:22-25: ERROR: a range's end expects an integer, got string[2] [E303]\n"
		  "begin { for ($i : 0..\"a\") { } }\n"
		  "                     ~~~\n" },
	/* --dialect 0.17: bpftrace 0.17's language only */
	{ "BEGIN { let $x = 1; }",
	  "stdin:1:9-19: ERROR: 'let' is today's bpftrace (0.18 to 0.26), not bpftrace 0.17 [E113]\n"
		  "BEGIN { let $x = 1; }\n"
		  "        ~~~~~~~~~~\n"
		  "HINT: --dialect 0.17 reads bpftrace 0.17's language only; leave it out (or give --dialect 0.26) to read today's\n",
	  DIALECT_0_17 },
	{ "BEGIN { @ = curtask.real_parent; }",
	  "stdin:1:13-32: ERROR: struct task_struct * is a pointer: read its fields with '->' [E307]\n"
		  "BEGIN { @ = curtask.real_parent; }\n"
		  "            ~~~~~~~~~~~~~~~~~~~\n",
	  DIALECT_0_17 },
	{ "BEGIN { @ = curtask->se->load; }",
	  "stdin:1:13-30: ERROR: struct sched_entity is not a pointer: read its fields with '.' [E307]\n"
		  "BEGIN { @ = curtask->se->load; }\n"
		  "            ~~~~~~~~~~~~~~~~~\n",
	  DIALECT_0_17 },
};

static void test_errors(void **state)
{
	char *params[] = { "hello" };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct compiled c;
		compile_script_in(&c, cases[i].script, params, 1, 0, cases[i].dialect);
		if (c.rc == 0 || strcmp(compiled_diag(&c), cases[i].want)) {
			print_error("script: %s\nwant:\n%sgot:\n%s", cases[i].script, cases[i].want,
				    compiled_diag(&c));
			fail();
		}
		compiled_free(&c);
	}
}

/* Scripts that must compile, with the map types they give. */
static void test_map_types(void **state)
{
	static const struct {
		const char *script, *types;
	} ok[] = {
		{ "BEGIN { @a = count(); @b[comm, pid] = sum(5); @c = 1; @c = 2; }",
		  "@a: count\n@b[string[16], uint64]: sum\n@c: int64\n" },
		/* string sizes unify to the largest */
		{ "BEGIN { @s = \"ab\"; @s = comm; @k[\"x\"] = 1; @k[comm] = 2; }",
		  "@s: string[16]\n@k[string[16]]: int64\n" },
		/* a map read in one probe and assigned in a later one */
		{ "interval:s:1 { @y = @x + 1; } BEGIN { @x = 5; }", "@y: int64\n@x: int64\n" },
		{ "BEGIN { @t = (1, \"a\"); @h[1] = hist(5); @l = lhist(1, 0, 10, 1); @p[probe] = count(); }",
		  "@t: (int64, string[2])\n@h[int64]: hist\n@l: lhist(0, 10, 1)\n@p[probe]: count\n" },
		/* a map read in its own assignment: an integer */
		{ "BEGIN { @x = @x + 1; @y[1] = @y[1] + 5; }", "@x: int64\n@y[int64]: int64\n" },
		/* values printed as text: buf, ntop, strerror, username, cgroup_path */
		{ "BEGIN { @b = buf(\"ab\", 2); @b = buf(\"abc\", 3); @n[ntop(1)] = strerror(2); "
		  "@u[username] = cgroup_path(1); @w = bswap((uint16)1); @p = pton(\"::1\"); }",
		  "@b: buf[3]\n@n[inet]: strerror\n@u[username]: cgroup_path\n@w: uint64\n"
		  "@p: uint8[16]\n" },
		/* today's bpftrace: comparisons are bools; records; tuple keys; for loops' (key, value) */
		{ "begin { @b = 1 < 2; @c[true] = !0; @r = (a = 1, b = \"x\"); @t[(1, \"a\")] = 1; "
		  "for ($kv : @t) { @k = $kv; } }",
		  "@b: bool\n@c[bool]: bool\n@r: (a=int64, b=string[2])\n@t[int64, string[2]]: int64\n"
		  "@k: ((int64, string[2]), int64)\n" },
		/* its strings: max_strlen 1024, str() a byte more (a trailer when cut) */
		{ "begin { let $s: string = \"a\"; @s = $s; @f = str(0); @d = (uint64)1 - (uint64)2; }",
		  "@s: string[1024]\n@f: string[1025]\n@d: int64\n" },
		/* bpftrace 0.17's: comparisons are int64, strings 64 bytes, differences of unsigned unsigned */
		{ "BEGIN { @b = 1 < 2; @f = str(0); @d = (uint64)1 - (uint64)2; }",
		  "@b: int64\n@f: string[64]\n@d: uint64\n" },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct compiled c;
		struct strbuf sb = { 0 };
		compile_script(&c, ok[i].script, NULL, 0);
		assert_string_equal(compiled_diag(&c), "");
		assert_int_equal(c.rc, 0);
		sema_dump_types(&c.plan, &sb);
		assert_string_equal(sb_str(&sb), ok[i].types);
		sb_free(&sb);
		compiled_free(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_map_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

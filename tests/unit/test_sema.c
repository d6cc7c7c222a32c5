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
	  "stdin:1:22-25: ERROR: E301: type mismatch for @x: assigning a value of type string[8] to a map holding int64\n"
		  "BEGIN { @x = 1; @x = \"a\"; }\n"
		  "                     ~~~\n"
		  "" },
	{ "BEGIN { @x[1] = 1; @x[\"a\"] = 1; }",
	  "stdin:1:20-27: ERROR: E308: argument mismatch for @x: accessed with keys [string[8]] where the map has keys [int64]\n"
		  "BEGIN { @x[1] = 1; @x[\"a\"] = 1; }\n"
		  "                   ~~~~~~~\n"
		  "" },
	{ "BEGIN { $x = 1; $x = \"a\"; }",
	  "stdin:1:22-25: ERROR: E309: type mismatch for $x: assigning string[8] to a variable holding int64\n"
		  "BEGIN { $x = 1; $x = \"a\"; }\n"
		  "                     ~~~\n"
		  "" },
	{ "BEGIN { prinf(\"hi\"); }",
	  "stdin:1:9-14: ERROR: E200: unknown function 'prinf'\n"
		  "BEGIN { prinf(\"hi\"); }\n"
		  "        ~~~~~\n"
		  "hint: did you mean 'printf'?\n"
		  "" },
	{ "BEGIN { @x = count(1); }",
	  "stdin:1:14-22: ERROR: E302: count() takes 0 arguments, 1 given\n"
		  "BEGIN { @x = count(1); }\n"
		  "             ~~~~~~~~\n"
		  "" },
	{ "BEGIN { count(); }",
	  "stdin:1:9-16: ERROR: E304: count() must be assigned directly to a map\n"
		  "BEGIN { count(); }\n"
		  "        ~~~~~~~\n"
		  "hint: write it as @name = count(...) or @name[key] = count(...)\n"
		  "" },
	{ "BEGIN { @c = count(); @d = @c + 1; }",
	  "stdin:1:28-34: ERROR: E300: type mismatch for '+': comparing count with int64\n"
		  "BEGIN { @c = count(); @d = @c + 1; }\n"
		  "                           ~~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d %d\\n\", 1); }",
	  "stdin:1:9-29: ERROR: E305: printf: Not enough arguments for format string (1 supplied, 2 expected)\n"
		  "BEGIN { printf(\"%d %d\\n\", 1); }\n"
		  "        ~~~~~~~~~~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%s\\n\", 1); }",
	  "stdin:1:24: ERROR: E305: printf: %s specifier expects a value of type string (integer supplied)\n"
		  "BEGIN { printf(\"%s\\n\", 1); }\n"
		  "                       ~\n"
		  "" },
	{ "BEGIN { printf(1); }",
	  "stdin:1:16: ERROR: E305: printf's format must be a string literal\n"
		  "BEGIN { printf(1); }\n"
		  "               ~\n"
		  "" },
	{ "BEGIN { @l = lhist(1, 10, 0, 1); }",
	  "stdin:1:14-32: ERROR: E303: lhist() min must be less than max (provided min 10 and max 0)\n"
		  "BEGIN { @l = lhist(1, 10, 0, 1); }\n"
		  "             ~~~~~~~~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", $y); }",
	  "stdin:1:24-26: ERROR: E205: undefined variable $y\n"
		  "BEGIN { printf(\"%d\\n\", $y); }\n"
		  "                       ~~\n"
		  "hint: assign it before use, e.g. $y = 0;\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", @nope); }",
	  "stdin:1:24-29: ERROR: E312: @nope is read but never assigned a value\n"
		  "BEGIN { printf(\"%d\\n\", @nope); }\n"
		  "                       ~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", cpid); }",
	  "stdin:1:24-28: ERROR: E208: cpid needs a child command\n"
		  "BEGIN { printf(\"%d\\n\", cpid); }\n"
		  "                       ~~~~\n"
		  "hint: start one with -c CMD\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", args->x); }",
	  "stdin:1:24-28: ERROR: E208: args is not available in BEGIN probes\n"
		  "BEGIN { printf(\"%d\\n\", args->x); }\n"
		  "                       ~~~~\n"
		  "hint: args gives the fields of tracepoint probes\n"
		  "" },
	{ "bogus:foo { }",
	  "stdin:1:1-10: ERROR: E202: unknown probe type 'bogus'\n"
		  "bogus:foo { }\n"
		  "~~~~~~~~~\n"
		  "hint: probe types are BEGIN, END, tracepoint, interval, rawtracepoint, kprobe, kretprobe, uprobe, uretprobe, usdt, profile, software, hardware, kfunc, kretfunc, watchpoint, asyncwatchpoint\n"
		  "" },
	{ "BEGIN { $s = str(\"a\", 1, 2); }",
	  "stdin:1:14-28: ERROR: E302: str() takes 1 to 2 arguments, 3 given\n"
		  "BEGIN { $s = str(\"a\", 1, 2); }\n"
		  "             ~~~~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { unroll(101) { } }",
	  "stdin:1:16-19: ERROR: E306: unroll's count must be between 1 and 100, not 101\n"
		  "BEGIN { unroll(101) { } }\n"
		  "               ~~~\n"
		  "" },
	{ "BEGIN { break; }",
	  "stdin:1:9-14: ERROR: E314: 'break' outside of a loop\n"
		  "BEGIN { break; }\n"
		  "        ~~~~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", $1); }",
	  "stdin:1:24-26: ERROR: E206: $1 is used as a number but is \"hello\"\n"
		  "BEGIN { printf(\"%d\\n\", $1); }\n"
		  "                       ~~\n"
		  "hint: use str($1) to get it as a string\n"
		  "" },
	{ "struct s { int a; int bb; } BEGIN { $p = (struct s *)0; @x = $p->b; }",
	  "stdin:1:66: ERROR: E204: struct s has no field 'b'\n"
		  "struct s { int a; int bb; } BEGIN { $p = (struct s *)0; @x = $p->b; }\n"
		  "                                                                 ~\n"
		  "hint: did you mean 'a'?\n"
		  "" },
	{ "BEGIN { @x = 1; @x += \"a\"; }",
	  "stdin:1:23-26: ERROR: E307: '+=' needs an integer, not string[8]\n"
		  "BEGIN { @x = 1; @x += \"a\"; }\n"
		  "                      ~~~\n"
		  "" },
	{ "BEGIN { @h = hist(\"a\"); }",
	  "stdin:1:19-22: ERROR: E303: hist expects an integer, got string[8]\n"
		  "BEGIN { @h = hist(\"a\"); }\n"
		  "                  ~~~\n"
		  "" },
	{ "BEGIN { if (\"str\") { } }",
	  "stdin:1:13-18: ERROR: E307: a condition must be an integer, not string[8]\n"
		  "BEGIN { if (\"str\") { } }\n"
		  "            ~~~~~\n"
		  "" },
	{ "BEGIN { @x = 1 + \"a\"; }",
	  "stdin:1:14-21: ERROR: E300: type mismatch for '+': comparing int64 with string[8]\n"
		  "BEGIN { @x = 1 + \"a\"; }\n"
		  "             ~~~~~~~\n"
		  "" },
	{ "BEGIN { $t = (1, \"a\"); $t = (1, 2); }",
	  "stdin:1:29-35: ERROR: E309: type mismatch for $t: assigning (int64, int64) to a variable holding (int64, string[8])\n"
		  "BEGIN { $t = (1, \"a\"); $t = (1, 2); }\n"
		  "                            ~~~~~~\n"
		  "" },
	{ "BEGIN { clear(@x[1]); @x[1] = 1; }",
	  "stdin:1:15-20: ERROR: E303: clear() expects a whole map, without a key\n"
		  "BEGIN { clear(@x[1]); @x[1] = 1; }\n"
		  "              ~~~~~\n"
		  "hint: use clear(@x)\n"
		  "" },
	{ "BEGIN { delete(@x); @x[1] = 1; }",
	  "stdin:1:21-26: ERROR: E308: argument mismatch for @x: accessed with keys [int64] where the map has keys []\n"
		  "BEGIN { delete(@x); @x[1] = 1; }\n"
		  "                    ~~~~~\n"
		  "" },
	{ "BEGIN { exit(\"a\"); }",
	  "stdin:1:14-17: ERROR: E303: exit() expects an integer, got string[8]\n"
		  "BEGIN { exit(\"a\"); }\n"
		  "             ~~~\n"
		  "" },
	{ "watchpoint:0x10000000:8:w { }",
	  "stdin:1:1-26: ERROR: E111: 0x10000000 is a user-space address\n"
		  "watchpoint:0x10000000:8:w { }\n"
		  "~~~~~~~~~~~~~~~~~~~~~~~~~\n"
		  "hint: watch a process's memory with -p PID or -c CMD\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", retval); }",
	  "stdin:1:24-30: ERROR: E208: retval is not available in BEGIN probes\n"
		  "BEGIN { printf(\"%d\\n\", retval); }\n"
		  "                       ~~~~~~\n"
		  "hint: retval is a function's return value in uretprobe and kretprobe probes\n" },
	{ "BEGIN { @x = hello; }",
	  "stdin:1:14-19: ERROR: E201: unknown identifier 'hello'\n"
		  "BEGIN { @x = hello; }\n"
		  "             ~~~~~\n"
		  "hint: constants come from the script's #define and enums, the kernel's enums (BTF) and the headers it #includes\n"
		  "" },
	{ "interval:s:0 { }",
	  "stdin:1:1-13: ERROR: E111: invalid interval count '0'\n"
		  "interval:s:0 { }\n"
		  "~~~~~~~~~~~~\n"
		  "hint: give a positive whole number, e.g. interval:s:1\n"
		  "" },
	{ "interval:parsec:1 { }",
	  "stdin:1:1-18: ERROR: E111: unknown interval unit 'parsec'\n"
		  "interval:parsec:1 { }\n"
		  "~~~~~~~~~~~~~~~~~\n"
		  "hint: units are s, ms, us and hz\n"
		  "" },
	{ "BEGIN { } BEGIN { }",
	  "stdin:1:11-16: ERROR: E111: BEGIN is used twice\n"
		  "BEGIN { } BEGIN { }\n"
		  "          ~~~~~\n"
		  "hint: put all of its statements in one BEGIN probe (today's bpftrace takes several)\n"
		  "", DIALECT_0_17 },
	{ "BEGIN { @ = 1 ? 2 : \"a\"; }",
	  "stdin:1:13-24: ERROR: E300: the branches of '?:' have different types: int64 and string[8]\n"
		  "BEGIN { @ = 1 ? 2 : \"a\"; }\n"
		  "            ~~~~~~~~~~~\n"
		  "" },
	{ "BEGIN { @y = @x + 1; }",
	  "stdin:1:14-16: ERROR: E312: @x is read but never assigned a value\n"
		  "BEGIN { @y = @x + 1; }\n"
		  "             ~~\n"
		  "" },
	{ "BEGIN { printf(\"%d\\n\", bswap(\"a\")); }",
	  "stdin:1:30-33: ERROR: E303: bswap() expects an integer, got string[8]\n"
		  "BEGIN { printf(\"%d\\n\", bswap(\"a\")); }\n"
		  "                             ~~~\n"
		  "" },
	{ "BEGIN { @x[1] = 1; $y = @x; }",
	  "stdin:1:25-27: ERROR: E308: argument mismatch for @x: accessed with keys [] where the map has keys [int64]\n"
		  "BEGIN { @x[1] = 1; $y = @x; }\n"
		  "                        ~~\n"
		  "" },
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
		  "@t: (int64, string[8])\n@h[int64]: hist\n@l: lhist(0, 10, 1)\n@p[probe]: count\n" },
		/* a map read in its own assignment: an integer */
		{ "BEGIN { @x = @x + 1; @y[1] = @y[1] + 5; }", "@x: int64\n@y[int64]: int64\n" },
		/* values printed as text: buf, ntop, strerror, username, cgroup_path */
		{ "BEGIN { @b = buf(\"ab\", 2); @b = buf(\"abc\", 3); @n[ntop(1)] = strerror(2); "
		  "@u[username] = cgroup_path(1); @w = bswap((uint16)1); @p = pton(\"::1\"); }",
		  "@b: buf[3]\n@n[inet]: strerror\n@u[username]: cgroup_path\n@w: uint64\n"
		  "@p: uint8[16]\n" },
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

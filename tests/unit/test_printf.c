// SPDX-License-Identifier: MIT
/*
 * printf engine. Every expected string below was printed by bpftrace 0.17
 * for the same format and arguments (bpftrace -e 'BEGIN { printf(...) }').
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "output/escape.h"
#include "output/printf.h"

/* clang-format off */
#define I64(v) { .kind = FMT_ARG_INT, .i = (v) }
#define U64(v) { .kind = FMT_ARG_UINT, .u = (v) }
#define STR(str) { .kind = FMT_ARG_STR, .s = { (str), sizeof(str) } }
#define BUF(b, n) { .kind = FMT_ARG_BUF, .s = { (b), (n) } }
/* clang-format on */

struct render_case {
	const char *fmt;
	struct fmt_value args[10];
	size_t nargs;
	const char *want;
};

/* clang-format off */
static const struct render_case render_cases[] = {
	/* today's bpftrace: %s of a bool is its word, %d its number */
	{ "[%s][%-6s][%d]\n",
	  { { .kind = FMT_ARG_UINT, .is_bool = true, .u = 1 }, { .kind = FMT_ARG_UINT, .is_bool = true, .u = 0 },
	    { .kind = FMT_ARG_UINT, .is_bool = true, .u = 1 } },
	  3, "[true][false ][1]\n" },
	{ "%d|%i\n",
	  { I64(5LL) },
	  1, "5|%i\n" },
	{ "[%d][%u][%x][%X][%o]\n",
	  { I64(4294967301LL), I64(4294967301LL), I64(4294967301LL), I64(4294967301LL), I64(4294967301LL) },
	  5, "[5][5][5][5][5]\n" },
	{ "[%ld][%lu][%lx][%lX][%lo]\n",
	  { I64(4294967301LL), I64(4294967301LL), I64(4294967301LL), I64(4294967301LL), I64(4294967301LL) },
	  5, "[4294967301][4294967301][100000005][100000005][40000000005]\n" },
	{ "[%d][%ld][%lld][%u][%lu][%llu]\n",
	  { I64(-1LL), I64(-1LL), I64(-1LL), I64(-1LL), I64(-1LL), I64(-1LL) },
	  6, "[-1][-1][-1][4294967295][18446744073709551615][18446744073709551615]\n" },
	{ "[%hd][%hu][%hx][%hhd][%hhu][%hhx]\n",
	  { I64(70000LL), I64(70000LL), I64(70000LL), I64(300LL), I64(300LL), I64(300LL) },
	  6, "[4464][4464][1170][44][44][2c]\n" },
	{ "[%hd][%hu][%hhd][%hhu]\n",
	  { I64(-1LL), I64(-1LL), I64(-1LL), I64(-1LL) },
	  4, "[-1][65535][-1][255]\n" },
	{ "[%zd][%zu][%jd][%ju][%td][%tu]\n",
	  { I64(-5LL), I64(-5LL), I64(-5LL), I64(-5LL), I64(-5LL), I64(-5LL) },
	  6, "[-5][18446744073709551611][-5][18446744073709551611][-5][18446744073709551611]\n" },
	{ "[%u][%lu][%d][%ld]\n",
	  { I64(-1LL), I64(-1LL), I64(9223372036854775807LL), I64(9223372036854775807LL) },
	  4, "[4294967295][18446744073709551615][-1][9223372036854775807]\n" },
	{ "[%ld][%lu][%lx]\n",
	  { I64(INT64_MIN), I64(INT64_MIN), I64(INT64_MIN) },
	  3, "[-9223372036854775808][9223372036854775808][8000000000000000]\n" },
	{ "[%c][%c][%5c][%-3c|][%05c]\n",
	  { I64(65LL), I64(321LL), I64(66LL), I64(67LL), I64(68LL) },
	  5, "[A][A][    B][C  |][    D]\n" },
	{ "[%c]",
	  { I64(0LL) },
	  1, "[]" },
	{ "[%-5c]{%5c}<%c%c>\n",
	  { I64(0LL), I64(0LL), I64(0LL), I64(65LL) },
	  4, "[]{    }<A>\n" },
	{ "(%c)",
	  { I64(256LL) },
	  1, "()" },
	{ "[%p][%p][%p][%p][%p]\n",
	  { I64(0LL), I64(1LL), I64(4294967295LL), I64(-1LL), I64(-131387261101056LL) },
	  5, "[(nil)][0x1][0xffffffff][0xffffffffffffffff][0xffff888104f95c00]\n" },
	{ "[%5p][%-20p][%020p][%.5p][%20.5p][%hhp][%lp]\n",
	  { I64(65LL), I64(65LL), I64(65LL), I64(65LL), I64(65LL), I64(65LL), I64(65LL) },
	  7, "[ 0x41][0x41                ][0x000000000000000041][0x00041][             0x00041][0x41][0x41]\n" },
	{ "[%p][%5p][%-6p][%08p]\n",
	  { I64(0LL), I64(0LL), I64(0LL), I64(0LL) },
	  4, "[(nil)][(nil)][(nil) ][   (nil)]\n" },
	{ "[%p][%p]\n",
	  { U64(4294967295ULL), I64(-1LL) },
	  2, "[0xffffffff][0xffffffffffffffff]\n" },
	{ "[%s][%10s][%-10s][%.3s][%8.3s][%-8.3s][%05s][%.0s][%.10s]\n",
	  { STR("hello"), STR("hello"), STR("hello"), STR("hello"), STR("hello"), STR("hello"), STR("hello"), STR("hello"), STR("hello") },
	  9, "[hello][     hello][hello     ][hel][     hel][hel     ][hello][][hello]\n" },
	{ "[%s][%5s]\n",
	  { STR(""), STR("") },
	  2, "[][     ]\n" },
	{ "[%5d][%-5d][%05d][%.5d][%8.5d][%-8.5d][%-08d][%012.5d]\n",
	  { I64(-42LL), I64(-42LL), I64(-42LL), I64(-42LL), I64(-42LL), I64(-42LL), I64(-42LL), I64(-42LL) },
	  8, "[  -42][-42  ][-0042][-00042][  -00042][-00042  ][-42     ][      -00042]\n" },
	{ "[%x][%X][%08x][%-8X][%.4x][%lx][%llX]\n",
	  { I64(255LL), I64(255LL), I64(255LL), I64(255LL), I64(255LL), I64(244837814094590LL), I64(244837814094590LL) },
	  7, "[ff][FF][000000ff][FF      ][00ff][deadbeefcafe][DEADBEEFCAFE]\n" },
	{ "[%o][%lo][%05o][%.0o]\n",
	  { I64(8LL), I64(INT64_MIN), I64(8LL), I64(0LL) },
	  4, "[10][1000000000000000000000][00010][]\n" },
	{ "[%.0d][%.0u][%.0x][%5.0d][%0.0d]\n",
	  { I64(0LL), I64(0LL), I64(0LL), I64(0LL), I64(0LL) },
	  5, "[][][][     ][]\n" },
	{ "[%.20d][%25.20ld]\n",
	  { I64(12345LL), I64(-12345LL) },
	  2, "[00000000000000012345][    -00000000000000012345]\n" },
	{ "[%-0d][%0d][%-d][%00005d][%-05d]\n",
	  { I64(65LL), I64(65LL), I64(65LL), I64(65LL), I64(65LL) },
	  5, "[65][65][65][00065][65   ]\n" },
	{ "[%hd][%hhd][%hx][%hhx][%hu]\n",
	  { I64(32768LL), I64(128LL), I64(-32769LL), I64(-129LL), I64(65536LL) },
	  5, "[-32768][-128][7fff][7f][0]\n" },
	{ "%d%d%d\n",
	  { I64(1LL), I64(2LL), I64(3LL) },
	  3, "123\n" },
	{ "[%s] [%d] [%s] [%x]\n",
	  { STR("a"), I64(1LL), STR("b"), I64(2LL) },
	  4, "[a] [1] [b] [2]\n" },
	{ "100%% %d%%\n",
	  { I64(5LL) },
	  1, "100% 5%%\n" },
	{ "%%d|\n",
	  { I64(7LL) },
	  1, "%d|\n" },
	{ "%%%d|\n",
	  { I64(7LL) },
	  1, "%7|\n" },
	{ "%%%%d|\n",
	  { I64(7LL) },
	  1, "%%d|\n" },
	{ "%%%%%d|\n",
	  { I64(7LL) },
	  1, "%%7|\n" },
	{ "%d %% %d %%|\n",
	  { I64(5LL), I64(6LL) },
	  2, "5 % 6 %%|\n" },
	{ "a%%b\n",
	  { { 0 } },
	  0, "a%%b\n" },
	{ "%i %f %%\n",
	  { { 0 } },
	  0, "%i %f %%\n" },
	{ "%d %i %5.2f %m %n|\n",
	  { I64(5LL) },
	  1, "5 %i %5.2f %m %n|\n" },
	{ "50%",
	  { { 0 } },
	  0, "50%" },
	{ "",
	  { { 0 } },
	  0, "" },
	/* today's bpftrace's %gr: GFP flags, compound masks first, the rest in hex */
	{ "[%gr][%gr][%gr][%30gr][%-12gr]\n",
	  { I64(1LL), I64(0xcc0LL), I64(0LL), I64(0x800400cc0LL), I64(0x100LL) },
	  5, "[GFP_DMA][GFP_KERNEL][0][GFP_KERNEL_ACCOUNT|0x800000000][__GFP_ZERO  ]\n" },
	{ "[%r][%rx][%rh]\n",
	  { BUF("abc\x01""\xff""", 5), BUF("abc\x01""\xff""", 5), BUF("abc\x01""\xff""", 5) },
	  3, "[abc\\x01\\xff][\\x61\\x62\\x63\\x01\\xff][61 62 63 01 ff]\n" },
	{ "[%r][%rx][%rh]\n",
	  { BUF("ab\x00""cd", 5), BUF("ab\x00""cd", 5), BUF("ab\x00""cd", 5) },
	  3, "[ab\\x00cd][\\x61\\x62\\x00\\x63\\x64][61 62 00 63 64]\n" },
	{ "[%r]\n",
	  { BUF("\n\t\x0d""\"\\\x7f""\x80"" ~\x00""", 10) },
	  1, "[\\x0a\\x09\\x0d\"\\\\x7f\\x80 ~\\x00]\n" },
	{ "[%5r] [%-5r] [%.2rx] %d\n",
	  { BUF("ab", 2), BUF("cd", 2), BUF("ef", 2), I64(7LL) },
	  4, "[%5r] [%-5r] [%.2rx] 7\n" },
	{ "[%rhx] [%rxh]\n",
	  { BUF("ab", 2), BUF("cd", 2) },
	  2, "[61 62x] [\\x63\\x64h]\n" },
	{ "%% %r|%% %rx|%% %rh|\n",
	  { BUF("ab", 2), BUF("cd", 2), BUF("ef", 2) },
	  3, "% ab|% \\x63\\x64|% 65 66|\n" },
	{ "[%%r][%%rx][%%rh][%%5r]\n",
	  { BUF("a", 1), BUF("b", 1), BUF("c", 1), BUF("d", 1) },
	  4, "[%s][%s][%s][%5r]\n" },
	{ "[%%%r]\n",
	  { BUF("a", 1) },
	  1, "[%a]\n" },
	{ "%-.3s|%-.3d|\n",
	  { STR("abcdef"), I64(5LL) },
	  2, "abc|005|\n" },
	{ "%%s|\n",
	  { STR("abcdef") },
	  1, "%s|\n" },
	{ "[%d][%u][%x][%p]\n",
	  { U64(65535ULL), U64(65535ULL), U64(65535ULL), U64(65535ULL) },
	  4, "[65535][65535][ffff][0xffff]\n" },
	{ "[%d][%u][%x][%p]\n",
	  { I64(-1LL), I64(-1LL), I64(-1LL), I64(-1LL) },
	  4, "[-1][4294967295][ffffffff][0xffffffffffffffff]\n" },
	{ "\t\"q\"\\ %s\n",
	  { STR("a\tb\x02""") },
	  1, "\t\"q\"\\ a\tb\x02""\n" },
	{ " %-05.10lx%.20s%-0ld]%r[",
	  { U64(250ULL), STR("a"), I64(-1LL), BUF("\xff""\x01"" ~\\\"", 6) },
	  4, " 00000000faa-1]\\xff\\x01 ~\\\"[" },
	{ "%%%-01.3tX%%",
	  { I64(-131387261101056LL) },
	  1, "%FFFF888104F95C00%%" },
	{ "%%%%%01.20s]%-s\t%.10llp\t",
	  { STR("a"), STR("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), I64(2147483648LL) },
	  3, "%%a]xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\t0x0080000000\t" },
	{ "%%%%%012.10s\t",
	  { STR("hello world") },
	  1, "%%  hello worl\t" },
	{ "]%-05hd]%0012.10tp]%0.10c\t",
	  { I64(0LL), I64(-129LL), U64(66ULL) },
	  3, "]0    ]0xffffffffffffff7f]B\t" },
	{ "x%%y%12.10s\t%rabc",
	  { STR("a"), BUF("a\x00""b", 3) },
	  2, "x%y           a\ta\\x00babc" },
	{ "%12.20u[",
	  { I64(65LL) },
	  1, "00000000000000000065[" },
	{ "|%012s=",
	  { STR("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx") },
	  1, "|xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx=" },
	{ "]%03tu %-01px%%y",
	  { U64(4294967295ULL), I64(-32769LL) },
	  2, "]4294967295 0xffffffffffff7fffx%%y" },
	{ "|%-05.10s\t%03.0ho%%%%",
	  { STR("hello"), I64(12345LL) },
	  2, "|hello\t30071%%%%" },
	{ "%%%%%03.1c%1.20s %1.10hhp=%20.1hd%i",
	  { I64(321LL), STR("%d%s%%"), I64(32767LL), I64(-1LL) },
	  4, "%%  A%d%s%% 0x0000007fff=                  -1%i" },
	{ "]%001u%%%%%-12.20X=%-0.20zX\t%-1.1hhp\t",
	  { I64(65LL), I64(INT64_MIN), I64(65LL), I64(0LL) },
	  4, "]65%%00000000000000000000=00000000000000000041\t(nil)\t" },
	{ "x%%y%-05.20xabc%-5.20x %0020.1tx%%",
	  { U64(65535ULL), I64(65LL), I64(-2257361998287929586LL) },
	  3, "x%y0000000000000000ffffabc00000000000000000041     e0ac3d38fa94ff0e%%" },
	{ "=%-020dabc%0003zX=%.20hho|",
	  { I64(-2LL), I64(1000000000000000000LL), I64(466487638220850419LL) },
	  3, "=-2                  abcDE0B6B3A7640000=00000000000000000363|" },
	{ "\t%20.3hhx|%05lo",
	  { I64(-129LL), I64(-128LL) },
	  2, "\t                 07f|1777777777777777777600" },
	{ "%.3s%%%5.0s%%%005.0jd\t%-20.10s ",
	  { STR("%d%s%%"), STR("a\tb"), I64(-3669748459491642709LL), STR("with space ") },
	  4, "%d%%     %-3669748459491642709\twith space           " },
	{ "]%0003jXabc%rx|%r|",
	  { I64(-131387261101056LL), BUF("ab", 2), BUF("\xff""\x01"" ~\\\"", 6) },
	  3, "]FFFF888104F95C00abc\\x61\\x62|\\xff\\x01 ~\\\"|" },
	{ "%-05.10hp\t%0012.20d|%003hhd=",
	  { I64(4294967295LL), I64(7011870274453429458LL), U64(250ULL) },
	  3, "0x00ffffffff\t00000000000938138834|-06=" },
	{ "]%1.20s=%20c%%%%%-1.1d%%",
	  { STR("hello world"), I64(321LL), I64(-32769LL) },
	  3, "]hello world=                   A%%-32769%%" },
	{ "%0.0jx]%03ju%-05s%i",
	  { I64(-300LL), I64(1373853371727423563LL), STR("") },
	  3, "fffffffffffffed4]1373853371727423563     %i" },
	{ "abc%-12hX%-12s%.1x%i",
	  { I64(65536LL), STR("a"), I64(-32769LL) },
	  3, "abc0           a           ffff7fff%i" },
	{ "|%020.10lX|%03.1hhu\t",
	  { I64(-300LL), I64(395820710665739820LL) },
	  2, "|    FFFFFFFFFFFFFED4| 44\t" },
	{ "%0012d %020.1sabc",
	  { U64(65535ULL), STR("") },
	  2, "000000065535                     abc" },
	{ "%-20.20hp %0012.20x%%%003d=%-12.3d%%",
	  { U64(18446744073709551615ULL), I64(-435429512083033563LL), I64(-2LL), U64(4294967295ULL) },
	  4, "0x0000ffffffffffffffff 0000000000006f91b225%-02=-001        %%" },
	{ "%%%1.0lx%%%%%-lx%%%%%-20jX|%-12.1zo]",
	  { I64(-42LL), I64(-42LL), I64(1000000000000000000LL), I64(9223372036854775807LL) },
	  4, "%ffffffffffffffd6%%ffffffffffffffd6%%DE0B6B3A7640000     |777777777777777777777]" },
	{ "x%%y%rh[%12tu %12hhx|%01.10jx\t",
	  { BUF("a\x00""b", 3), I64(-407852563982717885LL), I64(65536LL), I64(2147483648LL) },
	  4, "x%y61 00 62[18038891509726833731            0|0080000000\t" },
	{ "|%r%f",
	  { BUF("\xff""\x01"" ~\\\"", 6) },
	  1, "|\\xff\\x01 ~\\\"%f" },
	{ "]%-0sabc",
	  { STR("hello") },
	  1, "]helloabc" },
	{ "|%-0lp%%%%%hho]%1s[",
	  { I64(4294967301LL), U64(18446744073709551615ULL), STR("a") },
	  3, "|0x100000005%%377]a[" },
	{ "]%03.10ld",
	  { U64(18446744073709551615ULL) },
	  1, "]-0000000001" },
	{ "%%%%%.10zdx%%y%-05.1ho %001.1X%%%%",
	  { I64(4294967296LL), I64(-131387261101056LL), I64(2147483647LL) },
	  3, "%%4294967296x%y56000 7FFFFFFF%%%%" },
	{ "%%%%%003c%rhabc",
	  { I64(-191LL), BUF("0123456789", 10) },
	  2, "%%  A30 31 32 33 34 35 36 37 38 39abc" },
	{ "]%-0d %-05lXx%%y",
	  { U64(18446744073709551615ULL), I64(7LL) },
	  2, "]-1 7    x%%y" },
	{ "x%%y%12.1s%%",
	  { STR("a\tb") },
	  1, "x%y           a%%" },
	{ "=%.0zx|%005tu%%%001x%%%%%0012.3llp[",
	  { I64(8481022121179854676LL), I64(1000000000000000000LL), I64(32767LL), I64(-7496528021386668301LL) },
	  4, "=75b2a4af5127b754|1000000000000000000%7fff%%0x97f6fb7b9c7c56f3[" },
	{ "\t%012.20jo=%12.3txabc%-rhabc",
	  { U64(18446744073709551615ULL), I64(-1LL), BUF("", 0) },
	  3, "\t1777777777777777777777=ffffffffffffffffabc%-rhabc" },
	{ " %-0hX%001.3jp ",
	  { I64(-129LL), I64(4294967295LL) },
	  2, " FF7F0xffffffff " },
	{ "\t%012.3llo%%%20.10pabc%-012hhxabc%00s=",
	  { I64(9223372036854775807LL), I64(INT64_MIN), I64(65535LL), STR("%d%s%%") },
	  4, "\t777777777777777777777%  0x8000000000000000abcff          abc%d%s%%=" },
	{ "[%-05.10p100%%",
	  { I64(-300LL) },
	  1, "[0xfffffffffffffed4100%%" },
	{ "|%05.10jo%rabc%003sabc%20llo[",
	  { I64(-2LL), BUF("\xff""\x01"" ~\\\"", 6), STR("hello world"), I64(65536LL) },
	  4, "|1777777777777777777776\\xff\\x01 ~\\\"abchello worldabc              200000[" },
};
/* clang-format on */

/* Parse, check and render one case. */
static void run_case(const struct render_case *c, size_t want_len)
{
	struct printf_fmt f;
	struct printf_error err;
	struct strbuf out = {0}, msg = {0};

	if (!out_printf_parse(&f, c->fmt, strlen(c->fmt), &err))
		fail_msg("%s: parse error at %zu: %s", c->fmt, err.off, err.msg);
	assert_true(out_printf_check_count(&f, c->nargs, &msg));
	for (size_t k = 0; k < c->nargs; k++)
		assert_true(c->args[k].is_bool || /* sema takes %s of a bool */
			    out_printf_check_arg(&f.specs[k], c->args[k].kind, &msg));
	out_printf_render(&out, &f, c->args);
	if (out.len != want_len || memcmp(sb_str(&out), c->want, want_len))
		fail_msg("format \"%s\": got \"%s\", want \"%s\"", c->fmt, sb_str(&out), c->want);
	sb_free(&out);
	sb_free(&msg);
	out_printf_fmt_free(&f);
}

static void test_render_observed(void **state)
{
	for (size_t i = 0; i < sizeof(render_cases) / sizeof(render_cases[0]); i++) {
		const struct render_case *c = &render_cases[i];

		run_case(c, strlen(c->want));
	}
}

/* Strings need not be NUL-terminated; they stop at their length or a NUL. */
static void test_render_string_bounds(void **state)
{
	static const char raw[4] = {'a', 'b', 'c', 'd'};
	static const char early[8] = "ab\0cdef";
	struct fmt_value args[2] = {
		{.kind = FMT_ARG_STR, .s = {raw, 3}},
		{.kind = FMT_ARG_STR, .s = {early, 8}},
	};
	struct printf_fmt f;
	struct printf_error err;
	struct strbuf out = {0};

	assert_true(out_printf_parse(&f, "[%s][%-4s]", 10, &err));
	out_printf_render(&out, &f, args);
	assert_string_equal(sb_str(&out), "[abc][ab  ]");
	sb_free(&out);
	out_printf_fmt_free(&f);
}

static void test_spec_fields(void **state)
{
	const char *fmt = "x%-08.3lux%%y%5.2s%rx%%d";
	struct printf_fmt f;
	struct printf_error err;

	assert_true(out_printf_parse(&f, fmt, strlen(fmt), &err));
	assert_int_equal(f.nspecs, 4);
	assert_int_equal(f.specs[0].off, 1);
	assert_int_equal(f.specs[0].len, 8);
	assert_int_equal(f.specs[0].conv, FMT_CONV_U);
	assert_int_equal(f.specs[0].length, FMT_LEN_L);
	assert_true(f.specs[0].left);
	assert_true(f.specs[0].zero);
	assert_int_equal(f.specs[0].width, 8);
	assert_int_equal(f.specs[0].prec, 3);
	assert_int_equal(out_printf_spec_want(&f.specs[0]), FMT_WANT_INT);
	assert_int_equal(f.specs[1].conv, FMT_CONV_S);
	assert_int_equal(f.specs[1].width, 5);
	assert_int_equal(f.specs[1].prec, 2);
	assert_int_equal(out_printf_spec_want(&f.specs[1]), FMT_WANT_STR);
	assert_int_equal(f.specs[2].conv, FMT_CONV_RX);
	assert_int_equal(out_printf_spec_want(&f.specs[2]), FMT_WANT_BUF);
	/* "%%d": a conversion that takes an argument and prints "%d" */
	assert_int_equal(f.specs[3].conv, FMT_CONV_D);
	assert_true(f.specs[3].silent);
	assert_int_equal(f.tail_len, 0);
	assert_int_equal(f.tail_bad_off, SIZE_MAX);
	out_printf_fmt_free(&f);
}

/* Conversions bpftrace 0.17 does not know take no argument: counted as text. */
static void test_count_unknown(void **state)
{
	static const char *const zero_args[] = {
		"%i",	"%f",  "%e",  "%g",  "%a",  "%n",    "%m",  "%q",    "%*d",   "%#x",
		"%+d",	"% d", "%Lf", "%lc", "%ls", "%hhs",  "%lr", "%llld", "%0-5d", "%--5d",
		"%5.d", "%.d", "%%",  "%",   "%y",  "%hhhd", "%qd", "%Ld",
	};
	struct printf_fmt f;
	struct printf_error err;

	for (size_t i = 0; i < sizeof(zero_args) / sizeof(zero_args[0]); i++) {
		assert_true(out_printf_parse(&f, zero_args[i], strlen(zero_args[i]), &err));
		if (f.nspecs != 0)
			fail_msg("%s: %zu conversions", zero_args[i], f.nspecs);
		out_printf_fmt_free(&f);
	}
}

static void test_count_messages(void **state)
{
	struct printf_fmt f;
	struct printf_error err;
	struct strbuf msg = {0};

	assert_true(out_printf_parse(&f, "%s %d\n", 6, &err));
	assert_false(out_printf_check_count(&f, 1, &msg));
	assert_string_equal(sb_str(&msg),
			    "Not enough arguments for format string (1 supplied, 2 expected)");
	sb_reset(&msg);
	assert_false(out_printf_check_count(&f, 3, &msg));
	assert_string_equal(sb_str(&msg),
			    "Too many arguments for format string (3 supplied, 2 expected)");
	assert_true(out_printf_check_count(&f, 2, &msg));
	out_printf_fmt_free(&f);

	/* printf("hello\n", 1) */
	sb_reset(&msg);
	assert_true(out_printf_parse(&f, "hello\n", 6, &err));
	assert_false(out_printf_check_count(&f, 1, &msg));
	assert_string_equal(sb_str(&msg),
			    "Too many arguments for format string (1 supplied, 0 expected)");
	assert_false(out_printf_count_hint(&f, &msg));
	out_printf_fmt_free(&f);

	/* printf("[%i]\n", 65): 0 expected, with a hint at %i */
	sb_reset(&msg);
	assert_true(out_printf_parse(&f, "[%i]\n", 5, &err));
	assert_int_equal(f.nspecs, 0);
	assert_int_equal(f.tail_bad_off, 1);
	assert_int_equal(f.tail_bad_len, 2);
	assert_true(out_printf_count_hint(&f, &msg));
	assert_non_null(strstr(sb_str(&msg), "'%i'"));
	out_printf_fmt_free(&f);
	sb_free(&msg);
}

static void expect_arg_msg(const char *fmt, enum fmt_arg_kind kind, const char *want)
{
	struct printf_fmt f;
	struct printf_error err;
	struct strbuf msg = {0};

	assert_true(out_printf_parse(&f, fmt, strlen(fmt), &err));
	assert_int_equal(f.nspecs, 1);
	if (!want) {
		assert_true(out_printf_check_arg(&f.specs[0], kind, &msg));
	} else {
		assert_false(out_printf_check_arg(&f.specs[0], kind, &msg));
		assert_string_equal(sb_str(&msg), want);
	}
	sb_free(&msg);
	out_printf_fmt_free(&f);
}

/* Messages as bpftrace 0.17 words them (after its "printf: " prefix). */
static void test_arg_messages(void **state)
{
	expect_arg_msg("[%s]\n", FMT_ARG_INT,
		       "%s specifier expects a value of type string (integer supplied)");
	expect_arg_msg("[%d]\n", FMT_ARG_STR,
		       "%d specifier expects a value of type integer (string supplied)");
	expect_arg_msg("[%c]\n", FMT_ARG_STR,
		       "%c specifier expects a value of type integer (string supplied)");
	expect_arg_msg("[%p]\n", FMT_ARG_BUF,
		       "%p specifier expects a value of type integer (buffer supplied)");
	expect_arg_msg("[%r]\n", FMT_ARG_INT,
		       "%r specifier expects a value of type buffer (integer supplied)");
	expect_arg_msg("[%rx]\n", FMT_ARG_STR,
		       "%rx specifier expects a value of type buffer (string supplied)");
	expect_arg_msg("[%rh]\n", FMT_ARG_TUPLE,
		       "%rh specifier expects a value of type buffer (tuple supplied)");
	expect_arg_msg("[%s]\n", FMT_ARG_BUF,
		       "%s specifier expects a value of type string (buffer supplied)");
	expect_arg_msg("[%s]\n", FMT_ARG_RECORD,
		       "%s specifier expects a value of type string (record supplied)");
	expect_arg_msg("[%d]\n", FMT_ARG_ARRAY,
		       "%d specifier expects a value of type integer (array supplied)");
	expect_arg_msg("[%u]\n", FMT_ARG_NONE,
		       "%u specifier expects a value of type integer (none supplied)");
	/* flags and width are left out, the length modifier is kept */
	expect_arg_msg("%-5.2s", FMT_ARG_TUPLE,
		       "%s specifier expects a value of type string (tuple supplied)");
	expect_arg_msg("%ld", FMT_ARG_TUPLE,
		       "%ld specifier expects a value of type integer (tuple supplied)");
	expect_arg_msg("%08lx", FMT_ARG_TUPLE,
		       "%lx specifier expects a value of type integer (tuple supplied)");
	expect_arg_msg("%-5rx", FMT_ARG_TUPLE,
		       "%rx specifier expects a value of type buffer (tuple supplied)");
	expect_arg_msg("%hhp", FMT_ARG_TUPLE,
		       "%hhp specifier expects a value of type integer (tuple supplied)");
	expect_arg_msg("%d", FMT_ARG_UINT, NULL);
	expect_arg_msg("%c", FMT_ARG_INT, NULL);
	expect_arg_msg("%s", FMT_ARG_STR, NULL);
	expect_arg_msg("%5r", FMT_ARG_BUF, NULL);
}

static void expect_parse_error(const char *fmt, size_t off, size_t len, const char *msg)
{
	struct printf_fmt f;
	struct printf_error err;

	if (out_printf_parse(&f, fmt, strlen(fmt), &err))
		fail_msg("%s: parsed", fmt);
	if (err.off != off || err.len != len)
		fail_msg("%s: error at %zu+%zu (%s), want %zu+%zu", fmt, err.off, err.len, err.msg,
			 off, len);
	if (!strstr(err.msg, msg))
		fail_msg("%s: message \"%s\" lacks \"%s\"", fmt, err.msg, msg);
	assert_null(f.specs);
	out_printf_fmt_free(&f);
}

/*
 * A '%' that C printf would take as a directive before a conversion: bpftrace
 * 0.17 prints garbage or aborts there ("%i %d" printed "5 -1943535040").
 */
static void test_parse_errors(void **state)
{
	expect_parse_error("%i %d\n", 0, 2, "'%i'");
	expect_parse_error("ab %f %d\n", 3, 2, "floating-point");
	expect_parse_error("%+d %d\n", 0, 3, "flag '+'");
	expect_parse_error("x % d %d\n", 2, 3, "flag ' '");
	expect_parse_error("%#x %d\n", 0, 3, "flag '#'");
	expect_parse_error("%*d %d\n", 0, 3, "'*'");
	expect_parse_error("%n %d\n", 0, 2, "'%n'");
	expect_parse_error("%ls %s\n", 0, 3, "length modifier");
	expect_parse_error("50% done %d\n", 2, 3, "flag ' '");
	expect_parse_error("%d %q %d\n", 3, 2, "'%q'");
	expect_parse_error("%0-5d %d", 0, 5, "flags");
	expect_parse_error("%--5d %d", 0, 5, "flags");
	expect_parse_error("%5.d %d", 0, 4, "precision");
	expect_parse_error("%5.*d %d", 0, 5, "precision");
	expect_parse_error("a %5|%d", 2, 2, "incomplete");
	expect_parse_error("%10000000d", 0, 10, "too large");
	expect_parse_error("%.10000000s", 0, 11, "too large");
}

static void test_buf_styles(void **state)
{
	struct strbuf out = {0};

	out_fmt_buf(&out, "", 0, BUF_STYLE_RH);
	assert_string_equal(sb_str(&out), "");
	out_fmt_buf(&out, "a \\\x0a\xff", 5, BUF_STYLE_R);
	assert_string_equal(sb_str(&out), "a \\\\x0a\\xff");
	sb_reset(&out);
	out_fmt_buf(&out, "a \\\x0a\xff", 5, BUF_STYLE_RX);
	assert_string_equal(sb_str(&out), "\\x61\\x20\\x5c\\x0a\\xff");
	sb_reset(&out);
	out_fmt_buf(&out, "a \\\x0a\xff", 5, BUF_STYLE_RH);
	assert_string_equal(sb_str(&out), "61 20 5c 0a ff");
	sb_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_observed), cmocka_unit_test(test_render_string_bounds),
		cmocka_unit_test(test_spec_fields),	cmocka_unit_test(test_count_unknown),
		cmocka_unit_test(test_count_messages),	cmocka_unit_test(test_arg_messages),
		cmocka_unit_test(test_parse_errors),	cmocka_unit_test(test_buf_styles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

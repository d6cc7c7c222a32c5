// SPDX-License-Identifier: MIT
/* The SVG flame graph writer: the tree, the rects, colours, escaping, well-formedness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/flamegraph.h"

#define STACK(cnt, ...)                                                                            \
	{                                                                                          \
		(const char *const[]){__VA_ARGS__},                                                \
			sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *), (cnt)   \
	}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0, len = strlen(what);

	while ((s = strstr(s, what))) {
		n++;
		s += len;
	}
	return n;
}

/* The checks every document passes: one svg, balanced groups, one rect per drawn frame. */
static void check_doc(const struct strbuf *out, size_t drawn)
{
	const char *s = sb_str(out);
	size_t i;

	assert_true(drawn > 0);
	assert_true(!strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"", 36));
	assert_int_equal(count_of(s, "<svg "), 1);
	assert_int_equal(count_of(s, "</svg>"), 1);
	assert_non_null(strstr(s, "xmlns=\"http://www.w3.org/2000/svg\""));
	assert_true(out->len > 7 && !strcmp(s + out->len - 7, "</svg>\n"));
	assert_int_equal(count_of(s, "<g ") + count_of(s, "<g>"), count_of(s, "</g>"));
	assert_int_equal(count_of(s, "<rect"), drawn);
	assert_int_equal(count_of(s, "<g class=\"f\""), drawn);
	assert_int_equal(count_of(s, "<title>"), count_of(s, "</title>"));
	assert_int_equal(count_of(s, "<text"), count_of(s, "</text>"));
	assert_int_equal(count_of(s, "<![CDATA["), count_of(s, "]]>"));
	assert_int_equal(count_of(s, "<script"), 1);
	for (i = 0; i < out->len; i++) {
		unsigned char c = (unsigned char)s[i];

		assert_true(c >= 0x20 || c == '\n' || c == '\t');
		assert_true(c != 0x7f);
	}
}

static size_t render(struct strbuf *out, const struct fg_stack *st, size_t n)
{
	size_t drawn;

	sb_reset(out);
	drawn = out_flamegraph_svg(out, st, n, "test");
	check_doc(out, drawn);
	return drawn;
}

/* Where the title of the frame called name starts ("name (" after "<title>"). */
static const char *frame_at(const char *s, const char *name)
{
	char *want = NULL;
	const char *p;

	assert_true(asprintf(&want, "<title>%s (", name) > 0);
	p = strstr(s, want);
	free(want);
	assert_non_null(p);
	return p;
}

static void frame_fill(const char *s, const char *name, unsigned rgb[3])
{
	const char *p = strstr(frame_at(s, name), "fill=\"rgb(");

	assert_non_null(p);
	assert_int_equal(sscanf(p, "fill=\"rgb(%u,%u,%u)", &rgb[0], &rgb[1], &rgb[2]), 3);
}

static void test_empty(void **state)
{
	struct strbuf out = {0};
	struct fg_stack zero[] = {STACK(0, "main", "f"), STACK(0, "main")};

	assert_int_equal(out_flamegraph_svg(&out, NULL, 0, "t"), 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(out_flamegraph_svg(&out, zero, 2, "t"), 0);
	assert_int_equal(out.len, 0);
	sb_free(&out);
}

static void test_shared_prefix(void **state)
{
	struct strbuf out = {0};
	struct fg_stack st[] = {STACK(3, "main", "a", "b"), STACK(1, "main", "a", "c")};

	/* all, main, a, b, c */
	assert_int_equal(render(&out, st, 2), 5);
	assert_non_null(strstr(out.s, "<title>all (4 samples, 100.00%)</title>"));
	assert_non_null(strstr(out.s, "<title>a (4 samples, 100.00%)</title>"));
	assert_non_null(strstr(out.s, "<title>b (3 samples, 75.00%)</title>"));
	assert_non_null(strstr(out.s, "<title>c (1 samples, 25.00%)</title>"));
	assert_non_null(strstr(out.s, "data-x=\"3\" data-w=\"1\" data-d=\"3\"><title>c ("));
	/* four levels: 56 + 4 * 16 + 30 */
	assert_non_null(strstr(out.s, "height=\"150\""));
	/* root at the bottom, spanning the width */
	assert_non_null(strstr(out.s, "<rect x=\"10.00\" y=\"104\" width=\"1180.00\""));
	assert_non_null(strstr(out.s, "y=\"56\""));
	sb_free(&out);
}

static void test_merge_repeats(void **state)
{
	struct strbuf out = {0}, again = {0};
	struct fg_stack st[] = {STACK(2, "main", "f"), STACK(5, "main"), STACK(3, "main", "f")};
	struct fg_stack shuffled[] = {st[2], st[1], st[0]};
	struct fg_stack bare[] = {STACK(1, "main"), {NULL, 0, 1}};

	assert_int_equal(render(&out, st, 3), 3);
	assert_non_null(strstr(out.s, "<title>f (5 samples, 50.00%)</title>"));
	assert_non_null(strstr(out.s, "<title>main (10 samples, 100.00%)</title>"));
	assert_int_equal(count_of(out.s, "<title>f ("), 1);
	/* the order of the stacks does not matter */
	assert_int_equal(render(&again, shuffled, 3), 3);
	assert_string_equal(out.s, again.s);
	/* a stack without frames counts toward "all" only */
	assert_int_equal(render(&out, bare, 2), 2);
	assert_non_null(strstr(out.s, "<title>all (2 samples, 100.00%)</title>"));
	assert_non_null(strstr(out.s, "<title>main (1 samples, 50.00%)</title>"));
	sb_free(&out);
	sb_free(&again);
}

static void test_alphabetical(void **state)
{
	struct strbuf out = {0};
	struct fg_stack st[] = {STACK(1, "main", "zeta"), STACK(4, "main", "alpha"),
				STACK(2, "main", "Mid"), STACK(1, "b", "x"), STACK(1, "a")};
	const char *mid, *alpha, *zeta;

	assert_int_equal(render(&out, st, 5), 8);
	mid = frame_at(out.s, "Mid");
	alpha = frame_at(out.s, "alpha");
	zeta = frame_at(out.s, "zeta");
	/* byte order, as flamegraph.pl sorts: upper case first */
	assert_true(mid < alpha && alpha < zeta);
	assert_true(frame_at(out.s, "a") < frame_at(out.s, "b"));
	assert_true(frame_at(out.s, "b") < frame_at(out.s, "main"));
	/* offsets in samples, left to right: a 0, b 1, main 2; Mid 2, alpha 4, zeta 8 */
	assert_non_null(strstr(out.s, "data-x=\"2\" data-w=\"2\" data-d=\"2\"><title>Mid ("));
	assert_non_null(strstr(out.s, "data-x=\"4\" data-w=\"4\" data-d=\"2\"><title>alpha ("));
	assert_non_null(strstr(out.s, "data-x=\"8\" data-w=\"1\" data-d=\"2\"><title>zeta ("));
	sb_free(&out);
}

static void test_kernel(void **state)
{
	struct strbuf out = {0};
	struct fg_stack st[] = {STACK(3, "main", "read", "entry_SYSCALL_64_[k]", "ksys_read_[k]"),
				STACK(1, "main", "write")};
	unsigned rgb[3];

	assert_int_equal(render(&out, st, 2), 6);
	assert_null(strstr(out.s, "_[k]"));
	assert_non_null(strstr(out.s, "<title>ksys_read (3 samples, 75.00%)</title>"));
	assert_non_null(strstr(out.s, ">entry_SYSCALL_64</text>"));
	frame_fill(out.s, "ksys_read", rgb);
	assert_true(rgb[0] <= 90 && rgb[2] >= 180);
	frame_fill(out.s, "entry_SYSCALL_64", rgb);
	assert_true(rgb[0] <= 90 && rgb[2] >= 180);
	frame_fill(out.s, "read", rgb);
	assert_true(rgb[0] >= 205 && rgb[2] <= 55);
	frame_fill(out.s, "write", rgb);
	assert_true(rgb[0] >= 205 && rgb[2] <= 55);
	frame_fill(out.s, "all", rgb);
	assert_true(rgb[0] == rgb[1] && rgb[1] == rgb[2]);
	sb_free(&out);
}

static void test_escaping(void **state)
{
	struct strbuf out = {0};
	struct fg_stack st[] = {STACK(1, "a<&>\"'b"), STACK(1, "x\x01y\x7f"),
				STACK(1, "bad\xff\xc3(\xed\xa0\x80z"),
				STACK(1, "caf\xc3\xa9 \xe2\x82\xac")};

	assert_int_equal(render(&out, st, 4), 5);
	assert_non_null(strstr(out.s, "<title>a&lt;&amp;&gt;&quot;&#39;b (1 samples"));
	assert_non_null(strstr(out.s, ">a&lt;&amp;&gt;&quot;&#39;b</text>"));
	assert_null(strstr(out.s, "a<&"));
	assert_non_null(strstr(out.s, "<title>x\xef\xbf\xbdy\xef\xbf\xbd ("));
	/* a bad byte, a cut sequence and a surrogate (three bytes) */
	assert_non_null(strstr(out.s, "<title>bad\xef\xbf\xbd\xef\xbf\xbd("
				      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz ("));
	assert_non_null(strstr(out.s, "<title>caf\xc3\xa9 \xe2\x82\xac ("));
	assert_null(strstr(out.s, "\xff"));
	sb_reset(&out);
	assert_int_equal(out_flamegraph_svg(&out, st, 1, "<&>\x02"), 2);
	assert_non_null(strstr(out.s, ">&lt;&amp;&gt;\xef\xbf\xbd</text>"));
	sb_reset(&out);
	assert_int_equal(out_flamegraph_svg(&out, st, 1, NULL), 2);
	assert_non_null(strstr(out.s, ">Flame Graph</text>"));
	sb_free(&out);
}

static void test_labels_and_elision(void **state)
{
	struct strbuf out = {0};
	struct fg_stack st[] = {
		STACK(88, "main", "long_function_name"), STACK(5, "main", "mid_name_x"),
		STACK(5, "main", "narrow_name_that_is_long"), STACK(2, "main", "tiny_one")};
	struct fg_stack tiny[] = {STACK(1000000000, "main", "big"),
				  STACK(1, "main", "small", "deeper")};
	const char *p;

	/* 1180 px for 100 samples: 59 px hold 7 characters, 5 and ".." */
	assert_int_equal(render(&out, st, 4), 6);
	assert_non_null(strstr(out.s, ">long_function_name</text>"));
	assert_non_null(strstr(out.s, ">mid_n..</text>"));
	assert_non_null(strstr(out.s, ">narro..</text>"));
	/* 23.6 px: not even "x.." fits, the label is empty */
	p = strstr(frame_at(out.s, "tiny_one"), "</text>");
	assert_non_null(p);
	assert_true(p[-1] == '>');
	/* a node of 1 sample in 1e9 is far below 0.1 px: neither it nor its child is drawn */
	assert_int_equal(render(&out, tiny, 2), 3);
	assert_null(strstr(out.s, "small"));
	assert_null(strstr(out.s, "deeper"));
	assert_non_null(strstr(out.s, "height=\"134\""));
	sb_free(&out);
}

/* Many stacks, deep and overlapping: the checks of check_doc() hold. */
static void test_wide_and_deep(void **state)
{
	enum { N = 200, DEPTH = 40 };
	struct fg_stack *st = calloc(N, sizeof(*st));
	char(*buf)[DEPTH][16] = calloc(N, sizeof(*buf));
	const char **fr = calloc(N * DEPTH, sizeof(*fr));
	struct strbuf out = {0}, again = {0};
	size_t i, d;

	assert_non_null(st);
	assert_non_null(buf);
	assert_non_null(fr);
	for (i = 0; i < N; i++) {
		for (d = 0; d < DEPTH; d++) {
			snprintf(buf[i][d], sizeof(buf[i][d]), "f%zu_%zu%s", d, (i >> (d % 8)) % 3,
				 d > 30 ? "_[k]" : "");
			fr[i * DEPTH + d] = buf[i][d];
		}
		st[i].frames = &fr[i * DEPTH];
		st[i].nframes = 1 + i % DEPTH;
		st[i].count = 1 + i % 7;
	}
	assert_true(render(&out, st, N) > DEPTH);
	assert_true(out_flamegraph_svg(&again, st, N, "test") > DEPTH);
	assert_string_equal(out.s, again.s);
	free(fr);
	free(st);
	free(buf);
	sb_free(&out);
	sb_free(&again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_shared_prefix),
		cmocka_unit_test(test_merge_repeats),
		cmocka_unit_test(test_alphabetical),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_labels_and_elision),
		cmocka_unit_test(test_wide_and_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

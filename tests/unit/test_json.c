// SPDX-License-Identifier: MIT
/*
 * -f json: string escaping, bucket bounds and the records of the JSON
 * writer. Expected strings are what bpftrace 0.17 printed, except where a
 * comment says lantern differs on purpose (FORMAT.md section 11).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/hist.h"
#include "output/json.h"
#include "output/mapprint.h"
#include "output/writer.h"

static void check_string(const char *in, size_t n, const char *want)
{
	struct strbuf out = { 0 };

	out_json_string(&out, in, n);
	assert_string_equal(sb_str(&out), want);
	sb_free(&out);
}

#define CHECK(lit, want) check_string(lit, sizeof(lit) - 1, want)

static void test_json_string(void **state)
{
	CHECK("", "\"\"");
	CHECK("hello\n", "\"hello\\n\"");
	CHECK("a\tb\"c\\d/e", "\"a\\tb\\\"c\\\\d/e\"");
	CHECK("\r\b\f\v\x01\x1f\x7f", "\"\\r\\u0008\\u000c\\u000b\\u0001\\u001f\x7f\"");
	CHECK("a\0b", "\"a\\u0000b\"");
	CHECK(" ~<>&'", "\" ~<>&'\"");
	/* UTF-8 as it is (0.17: "\uffffffc3\uffffffa9") */
	CHECK("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	CHECK("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""); /* U+10FFFF */
	CHECK("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");	   /* U+D7FF */
	/* not UTF-8: every byte \u00XX */
	CHECK("\xff", "\"\\u00ff\"");
	CHECK("\xc3", "\"\\u00c3\"");				  /* truncated */
	CHECK("\xc3z", "\"\\u00c3z\"");				  /* bad continuation */
	CHECK("\xe2\x82", "\"\\u00e2\\u0082\"");		  /* truncated */
	CHECK("\xc0\xaf", "\"\\u00c0\\u00af\"");		  /* overlong */
	CHECK("\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"");	  /* overlong */
	CHECK("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");	  /* surrogate */
	CHECK("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\""); /* > U+10FFFF */
	CHECK("\x80\xbf", "\"\\u0080\\u00bf\"");		  /* lone continuations */
	CHECK("\xe9t\xc3\xa9", "\"\\u00e9t\xc3\xa9\"");
}

static void test_bucket_bounds(void **state)
{
	struct bucket_bounds bb;
	uint64_t b[HIST_NBUCKETS] = { 0 }, folded[HIST_LAST_BUCKET + 1];
	uint32_t lo, hi;

	out_hist_bounds(0, &bb);
	assert_false(bb.has_min);
	assert_true(bb.has_max);
	assert_int_equal(bb.max, -1);
	out_hist_bounds(1, &bb);
	assert_true(bb.has_min && bb.min == 0 && bb.max == 0);
	out_hist_bounds(2, &bb);
	assert_true(bb.min == 1 && bb.max == 1);
	out_hist_bounds(maps_hist_bucket(5), &bb);
	assert_true(bb.min == 4 && bb.max == 7);
	out_hist_bounds(maps_hist_bucket(1024), &bb);
	assert_true(bb.min == 1024 && bb.max == 2047);
	/* the last shown bucket: [2G, 4G), 0.17 says {"min": -2147483648, "max": 0} */
	out_hist_bounds(HIST_LAST_BUCKET, &bb);
	assert_true(bb.min == 2147483648LL && bb.max == 4294967295LL);

	/* lhist(x, 10, 20, 5): (..., 10), [10, 15), [15, 20), [20, ...) */
	out_lhist_bounds(0, 10, 20, 5, &bb);
	assert_true(!bb.has_min && bb.max == 9);
	out_lhist_bounds(2, 10, 20, 5, &bb);
	assert_true(bb.min == 15 && bb.max == 19);
	out_lhist_bounds(3, 10, 20, 5, &bb);
	assert_true(bb.has_min && !bb.has_max && bb.min == 20);
	/* lhist(x, 0, 10, 3): the partial step goes to [10, ...) */
	out_lhist_bounds(3, 0, 10, 3, &bb);
	assert_true(bb.min == 6 && bb.max == 8);
	out_lhist_bounds(4, 0, 10, 3, &bb);
	assert_true(bb.min == 10 && !bb.has_max);

	assert_false(out_hist_range(b, HIST_NBUCKETS, &lo, &hi));
	b[maps_hist_bucket(3)] = 1;
	b[maps_hist_bucket(INT64_MAX)] = 2;
	b[maps_hist_bucket(1LL << 40)] = 3;
	assert_int_equal(out_hist_fold(b, folded), HIST_LAST_BUCKET + 1);
	assert_true(out_hist_range(folded, HIST_LAST_BUCKET + 1, &lo, &hi));
	assert_int_equal(lo, maps_hist_bucket(3));
	assert_int_equal(hi, HIST_LAST_BUCKET);
	assert_int_equal(folded[HIST_LAST_BUCKET], 5);
}

static void test_records(void **state)
{
	struct strbuf out = { 0 };
	struct out_ctx oc = { 0 }; /* no plan: bpftrace 0.17's records */
	static struct plan modern = { .modern = true };
	struct out_ctx moc = { .plan = &modern };

	out_json_writer.attached(&out, &oc, 1);
	out_json_writer.attached(&out, &oc, 27);
	out_json_writer.text(&out, TEXT_PRINTF, "a\0\"\n", 4);
	out_json_writer.text(&out, TEXT_PRINTF, "", 0);
	out_json_writer.text(&out, TEXT_TIME, "10:46:27\n", 9);
	out_json_writer.lost(&out, &oc, 143);
	assert_string_equal(sb_str(&out),
			    "{\"type\": \"attached_probes\", \"data\": {\"probes\": 1}}\n"
			    "{\"type\": \"attached_probes\", \"data\": {\"probes\": 27}}\n"
			    "{\"type\": \"printf\", \"data\": \"a\\u0000\\\"\\n\"}\n"
			    "{\"type\": \"printf\", \"data\": \"\"}\n"
			    "{\"type\": \"time\", \"data\": \"10:46:27\\n\"}\n"
			    "{\"type\": \"lost_events\", \"data\": {\"events\": 143}}\n");
	sb_reset(&out);
	/* today's bpftrace adds a count */
	out_json_writer.attached(&out, &moc, 3);
	out_json_writer.lost(&out, &moc, 7);
	assert_string_equal(sb_str(&out),
			    "{\"type\": \"attached_probes\", \"count\": 3, \"data\": {\"probes\": 3}}\n"
			    "{\"type\": \"lost_events\", \"count\": 7, \"data\": {\"events\": 7}}\n");
	sb_reset(&out);
	out_text_writer.attached(&out, &oc, 1);
	out_text_writer.attached(&out, &oc, 2);
	out_text_writer.text(&out, TEXT_PRINTF, "x\n", 2);
	out_text_writer.lost(&out, &oc, 5);
	assert_string_equal(sb_str(&out),
			    "Attaching 1 probe...\nAttaching 2 probes...\nx\nLost 5 events\n");
	sb_free(&out);
}

/* A map walk by hand: begin, entries, end, as out_map_print() drives it. */
static void walk(const struct writer *wr, struct map_info *m, const uint8_t *keys, size_t ksize,
		 const uint8_t *values, size_t vsize, size_t n, struct strbuf *out)
{
	struct out_ctx oc = { .writer = wr };
	struct map_walk w = { .oc = &oc, .m = m, .out = out, .n = n };

	wr->map_begin(&w);
	for (w.i = 0; w.i < n; w.i++) {
		struct map_item it = { .key = keys ? keys + w.i * ksize : NULL,
				       .value = values + w.i * vsize,
				       .div = 1 };
		wr->map_entry(&w, &it);
	}
	wr->map_end(&w);
}

static void test_map_records(void **state)
{
	struct arena a = { 0 };
	struct type *kt[2] = { &ty_s64, type_str(&a, 8) };
	struct type *key = type_tuple(&a, kt, 2);
	struct type *stats = type_agg(&a, TY_STATS, true);
	struct map_info m = { .name = "c", .key = key, .value = &ty_count };
	uint8_t keys[2][16] = { { 0 } }, values[2][16] = { { 0 } };
	struct strbuf out = { 0 };
	int64_t k = -1;
	uint64_t v;

	memcpy(keys[0], &k, 8);
	memcpy(keys[0] + key->fields[1].offset, "x\"", 2);
	k = 2;
	memcpy(keys[1], &k, 8);
	memcpy(keys[1] + key->fields[1].offset, "y", 1);
	v = 5;
	memcpy(values[0], &v, 8);
	v = 6;
	memcpy(values[1], &v, 8);
	walk(&out_json_writer, &m, keys[0], 16, values[0], 16, 2, &out);
	assert_string_equal(sb_str(&out),
			    "{\"type\": \"map\", \"data\": "
			    "{\"@c\": {\"-1,x\\\"\": 5, \"2,y\": 6}}}\n");
	sb_reset(&out);
	walk(&out_text_writer, &m, keys[0], 16, values[0], 16, 2, &out);
	assert_string_equal(sb_str(&out), "@c[-1, x\"]: 5\n@c[2, y]: 6\n");
	sb_reset(&out);

	/* no entries: nothing in JSON, an empty line in text */
	walk(&out_json_writer, &m, NULL, 0, values[0], 16, 0, &out);
	assert_string_equal(sb_str(&out), "");
	walk(&out_text_writer, &m, NULL, 0, values[0], 16, 0, &out);
	assert_string_equal(sb_str(&out), "\n");
	sb_reset(&out);

	/* stats, unkeyed: total 7, count 3 */
	m.name = "st";
	m.key = NULL;
	m.value = stats;
	v = 7;
	memcpy(values[0], &v, 8);
	v = 3;
	memcpy(values[0] + 8, &v, 8);
	walk(&out_json_writer, &m, NULL, 0, values[0], 16, 1, &out);
	assert_string_equal(sb_str(&out), "{\"type\": \"stats\", \"data\": {\"@st\": "
					  "{\"count\": 3, \"average\": 2, "
					  "\"total\": 7}}}\n");
	sb_free(&out);
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_map_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

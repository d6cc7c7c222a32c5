// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: lantern trace's printer (src/trace/print.c and the
 * decoders, --json, --timeline, --calls' lines) fed arbitrary records, as
 * the session's ring buffer would hand them over: nothing in a record is
 * trusted, neither its lengths nor the order of entries and exits (lost
 * events drop records).
 *
 * The input: 4 bytes of options, then records, each a u16 length (little
 * endian) and that many bytes (fewer at the end of the input). A record's
 * first u64 is its id, the trace record kind (enum trace_rec) as in
 * trace_plan()'s table; an id past them is dropped, as the session drops
 * it; a record of length 0 stands for lost events.
 *
 *   byte 0  bit 0 -f, 1 -a, 2 -r, 3 -T, 4 --json, 5 --timeline (/dev/null),
 *           6 -o (a name only: -ff is not fuzzed), 7 a task traced from the start
 *   byte 1  bits 0-1 -t/-tt/-ttt, 2-3 status (mod 3), 4-5 -x/-xx (mod 3), 6-7 -q count
 *   byte 2  -s
 *   byte 3  bits 0-1 -y/-yy (mod 3)
 *
 * The syscall descriptions come from the fixture tracefs tree, so runs do
 * not depend on the machine's; output goes to /dev/null.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/record.h"
#include "sys/tracefs.h"
#include "trace/trace.h"
#include "types/type.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures/tpformat"
#endif

static FILE *devnull;
static struct record_desc descs[TREC_COUNT_];

/* --calls' functions: unknown arguments, typed ones, a void one */
static struct type ptr_void = {.kind = TY_PTR, .size = 8, .align = 8, .elem = &ty_void};
static struct trace_func func_list[] = {
	{.name = "strlen", .path = "libc", .nargs = -1},
	{.name = "malloc",
	 .path = "libc",
	 .nargs = 1,
	 .types = {&ty_u64},
	 .names = {"n"},
	 .ret = &ptr_void},
	{.name = "free",
	 .path = "libc",
	 .nargs = 1,
	 .types = {&ptr_void},
	 .names = {"p"},
	 .ret = &ty_void},
	{.name = "six",
	 .path = "libx",
	 .nargs = 6,
	 .types = {&ty_u8, &ty_s8, &ty_u16, &ty_s16, &ty_u32, &ty_s64},
	 .ret = &ty_s16},
};
static struct trace_funcs funcs = {func_list, sizeof(func_list) / sizeof(func_list[0]), 0};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sys_tracefs_set_path(FIXTURES);
	devnull = fopen("/dev/null", "we");
	for (int k = 0; k < TREC_COUNT_; k++)
		descs[k] = (struct record_desc){
			.kind = REC_FRONTEND, .top = k, .size = sizeof(struct trace_hdr)};
	return 0;
}

static void options(struct trace_opts *o, const uint8_t *b)
{
	memset(o, 0, sizeof(*o));
	o->follow = b[0] & 1;
	o->all = b[0] & 2;
	o->relative = b[0] & 4;
	o->durations = b[0] & 8;
	o->json = b[0] & 16;
	o->timeline = b[0] & 32 ? "/dev/null" : NULL;
	o->output = b[0] & 64 ? "out" : NULL;
	o->timestamps = b[1] & 3;
	o->status = (b[1] >> 2 & 3) % 3;
	o->hex = (b[1] >> 4 & 3) % 3;
	o->qq = b[1] >> 6;
	o->quiet = true; /* "Process N attached" goes to stderr: not into the fuzzer's log */
	o->strsize = b[2];
	o->paths = (b[3] & 3) % 3;
	o->select_all = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_printer *tp;
	struct trace_opts o;
	size_t off = 4;

	if (size < 4)
		return 0;
	options(&o, data);
	tp = trace_printer_new(&o, devnull, &funcs);
	if (o.timeline)
		trace_printer_timeline(tp, o.timeline);
	if (data[0] & 128)
		trace_printer_add_task(tp, 4242, 4242);
	while (off + 2 <= size) {
		size_t len = (size_t)data[off] | (size_t)data[off + 1] << 8;
		uint64_t id = 0;
		uint8_t *rec;

		off += 2;
		if (len > size - off)
			len = size - off;
		if (!len) {
			trace_printer_lost(tp, 1);
			continue;
		}
		/* a copy of its own length: reading past the record is caught */
		rec = malloc(len);
		memcpy(rec, data + off, len);
		off += len;
		if (len >= 8)
			memcpy(&id, rec, 8);
		if (id < TREC_COUNT_)
			trace_record(tp, &descs[id], rec, len);
		free(rec);
	}
	trace_printer_finish(tp, NULL);
	trace_printer_free(tp);
	return 0;
}

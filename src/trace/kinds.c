// SPDX-License-Identifier: MIT
/*
 * The table of argument kinds (kinds.def: one row each), with what the
 * programs read for each from the system's own types; trace_decode_arg()
 * calls a kind's decoder from it.
 */
#include "trace/decode.h"
#include "trace/kabi.h"

#include <limits.h>
#include <linux/capability.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <signal.h>
#include <time.h>

#define Q true
#define S false
#define NO_READ RD(TR_NONE, TS_FIXED, 0, 0, 0)
#define RD(how, size_from, from, size, strsize) \
	(strsize), { (how), (size_from), (from), 0, (uint16_t)(size) }

const struct trace_kind trace_kinds[A_COUNT_] = {
#define KIND(id, name_, when_, quick_, json_, read_, put_) \
	[id] = { .name = name_, .when = when_, .quick = quick_, .json = json_, KIND_READ(read_) },
#define KIND_READ(...) KIND_READ_(__VA_ARGS__)
#define KIND_READ_(strsize, ...) .plus_strsize = strsize, .read = __VA_ARGS__
#include "trace/kinds.def"
#undef KIND
};
_Static_assert(sizeof(trace_kinds) / sizeof(trace_kinds[0]) == A_COUNT_, "one row per kind");

/* The decoders, in the order of the kinds */
typedef void (*put_fn)(struct tw *w, const struct targ_val *a, const struct tdecode *d);
static const put_fn puts_of[] = {
#define KIND(id, name, when, quick, json, read, put) put,
#include "trace/kinds.def"
#undef KIND
};
_Static_assert(sizeof(puts_of) / sizeof(puts_of[0]) == A_COUNT_, "one decoder per kind");

void trace_decode_arg(struct tw *w, enum targ k, const struct targ_val *a, const struct tdecode *d)
{
	/* (what a failed call would have filled has no bytes: each decoder shows its address) */
	if ((unsigned)k >= A_COUNT_) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	puts_of[k](w, a, d);
}

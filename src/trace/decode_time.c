// SPDX-License-Identifier: MIT
/*
 * Times, timers and the system's state as strace prints them: utimensat's
 * times, timer_create's sigevent, timer_settime's itimerspec, sysinfo,
 * CPU sets, and an int the call fills ([0]).
 */
#include "trace/decode.h"
#include "base/util.h"
#include "trace/xlat_lists.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <time.h>

static bool readable(struct tw *w, const struct targ_val *a, size_t need)
{
	if (a->v && a->data && !a->unread && a->len >= need)
		return true;
	trace_tw_ptr(w, (uint64_t)a->v);
	return false;
}

static void put_timespec(struct tw *w, const struct timespec *ts)
{
	trace_tw_open(w, '{');
	trace_tw_field(w, "tv_sec");
	trace_tw_int(w, ts->tv_sec);
	trace_tw_field(w, "tv_nsec");
	trace_tw_int(w, ts->tv_nsec);
	trace_tw_close(w, '}', false);
}

/* utimensat's two times: UTIME_NOW, UTIME_OMIT, or a time and its date */
void trace_k_utimes(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct timespec ts[2];

	if (!a->v) {
		trace_tw_ptr(w, 0);
		return;
	}
	if (!readable(w, a, sizeof(ts)))
		return;
	memcpy(ts, a->data, sizeof(ts));
	trace_tw_open(w, '[');
	for (int i = 0; i < 2; i++) {
		const char *special = trace_xlat_name(&trace_xlat_utime_special, ts[i].tv_nsec);
		struct tm tm;
		char date[64];
		size_t n;
		if (special) {
			trace_tw_name(w, special);
			continue;
		}
		put_timespec(w, &ts[i]);
		if (!localtime_r(&ts[i].tv_sec, &tm) || !(n = strftime(date, sizeof(date), "%FT%T", &tm)))
			continue;
		if (ts[i].tv_nsec)
			snprintf(date + n, sizeof(date) - n, ".%09ld", ts[i].tv_nsec);
		n = strlen(date);
		strftime(date + n, sizeof(date) - n, "%z", &tm);
		trace_tw_note(w, " /* %s */", date);
	}
	trace_tw_close(w, ']', false);
}

void trace_k_timer_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_timer_flags, "0");
}

void trace_k_itimerspec(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct itimerspec its;

	if (!readable(w, a, sizeof(its)))
		return;
	memcpy(&its, a->data, sizeof(its));
	trace_tw_open(w, '{');
	trace_tw_field(w, "it_interval");
	put_timespec(w, &its.it_interval);
	trace_tw_field(w, "it_value");
	put_timespec(w, &its.it_value);
	trace_tw_close(w, '}', false);
}

/* timer_create's struct sigevent: what strace shows for its notification */
void trace_k_sigevent(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct sigevent ev;

	if (!readable(w, a, offsetof(struct sigevent, sigev_notify) + sizeof(int)))
		return;
	memset(&ev, 0, sizeof(ev));
	memcpy(&ev, a->data, MIN(a->len, sizeof(ev)));
	trace_tw_open(w, '{');
	if (ev.sigev_notify == SIGEV_SIGNAL || ev.sigev_notify == SIGEV_THREAD_ID) {
		trace_tw_field(w, "sigev_signo");
		trace_tw_signal(w, ev.sigev_signo);
	}
	trace_tw_field(w, "sigev_notify");
	trace_tw_const(w, ev.sigev_notify, &trace_xlat_sigev_notify, false);
	trace_tw_close(w, '}', false);
}

/* An int the call fills: [0] */
void trace_k_int_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int v;

	if (!readable(w, a, sizeof(v)))
		return;
	memcpy(&v, a->data, sizeof(v));
	trace_tw_open(w, '[');
	trace_tw_int(w, v);
	trace_tw_close(w, ']', false);
}

/* sched_getaffinity's CPU set, the result's bytes of it: [0 1] (JSON: the CPUs' numbers) */
void trace_k_cpuset(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	bool first = true;

	if (d->ret <= 0) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	if (!readable(w, a, 1))
		return;
	sb_puts(w->sb, "[");
	for (uint32_t i = 0; i < MIN((uint64_t)d->ret, a->len) * 8; i++) {
		if (!(a->data[i / 8] & (1u << (i % 8))))
			continue;
		sb_printf(w->sb, "%s%u", first ? "" : w->json ? ", " : " ", i);
		first = false;
	}
	sb_puts(w->sb, "]");
}

void trace_k_sysinfo(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct sysinfo si;

	if (!readable(w, a, sizeof(si)))
		return;
	memcpy(&si, a->data, sizeof(si));
	trace_tw_open(w, '{');
	trace_tw_field(w, "uptime");
	trace_tw_int(w, si.uptime);
	trace_tw_field(w, "loads");
	trace_tw_open(w, '[');
	for (int i = 0; i < 3; i++)
		trace_tw_uint(w, si.loads[i]);
	trace_tw_close(w, ']', false);
#define F(m)                        \
	trace_tw_field(w, #m);      \
	trace_tw_uint(w, si.m)
	F(totalram);
	F(freeram);
	F(sharedram);
	F(bufferram);
	F(totalswap);
	F(freeswap);
	F(procs);
	F(totalhigh);
	F(freehigh);
	F(mem_unit);
#undef F
	trace_tw_close(w, '}', false);
}

/* SPDX-License-Identifier: MIT */
/*
 * time() and strftime() text, as bpftrace 0.17 makes it.
 *
 * time(fmt) is C strftime() of the local time (TZ applies) when user space
 * handles the event, into a 64-byte buffer: the text must be 1..63 bytes.
 * Nothing else is interpreted (no %f; glibc prints unknown conversions as
 * written). time() alone uses "%H:%M:%S\n". No newline is added. When the
 * text is empty or too long, bpftrace prints nothing on stdout and the line
 * "ERROR: strftime returned 0" on stderr.
 *
 * strftime(fmt, nsecs) (a value, printed with %s or in maps) is the same
 * plus "%f": every "%f" of the format is first replaced by the six-digit
 * microseconds, blindly (so "%%f" becomes "%" and six digits, which glibc
 * rejects). On failure the value prints as "(?)" and the same error line
 * goes to stderr.
 */
#ifndef LANTERN_OUTPUT_TIMEFMT_H
#define LANTERN_OUTPUT_TIMEFMT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "base/strbuf.h"

#define TIMEFMT_DEFAULT "%H:%M:%S\n"
#define TIMEFMT_BUFSZ	64
#define TIMEFMT_ERROR	"ERROR: strftime returned 0"
#define TIMEFMT_FAILED	"(?)"

/* time(fmt) at t. false (and nothing appended) where bpftrace reports the error. */
bool out_timefmt_time(struct strbuf *out, const char *fmt, time_t t);
/* strftime(fmt, ...) at t + usec microseconds. false (nothing appended) on failure. */
bool out_timefmt_strftime(struct strbuf *out, const char *fmt, time_t t, uint32_t usec);

#endif

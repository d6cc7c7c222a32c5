// SPDX-License-Identifier: MIT
#include "output/timefmt.h"

#include <stdio.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

bool out_timefmt_time(struct strbuf *out, const char *fmt, time_t t)
{
	char buf[TIMEFMT_BUFSZ];
	struct tm tm;
	size_t n;

	if (!localtime_r(&t, &tm))
		return false;
	n = strftime(buf, sizeof(buf), fmt, &tm);
	if (!n)
		return false;
	sb_putn(out, buf, n);
	return true;
}

bool out_timefmt_strftime(struct strbuf *out, const char *fmt, time_t t, uint32_t usec)
{
	struct strbuf f = {0};
	char us[16];
	bool ok;

	snprintf(us, sizeof(us), "%06u", usec % 1000000);
	while (*fmt) {
		const char *p = strstr(fmt, "%f");

		if (!p) {
			sb_puts(&f, fmt);
			break;
		}
		sb_putn(&f, fmt, p - fmt);
		sb_puts(&f, us);
		fmt = p + 2;
	}
	ok = out_timefmt_time(out, sb_str(&f), t);
	sb_free(&f);
	return ok;
}

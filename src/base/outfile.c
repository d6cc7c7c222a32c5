// SPDX-License-Identifier: MIT
/*
 * Output failures, process-wide: whichever stream fails first is said,
 * once; the session polls util_out_state() to stop.
 */
#include "base/outfile.h"

#include <errno.h>
#include <string.h>

static enum util_out_state state;

enum util_out_state util_out_state(void)
{
	return state;
}

void util_out_failed(const char *name, int err)
{
	if (state != UTIL_OUT_OK)
		return;
	if (err == EPIPE) {
		state = UTIL_OUT_CLOSED;
		return;
	}
	state = UTIL_OUT_FAILED;
	/* stderr may be the stream that failed: then only the status tells */
	fprintf(stderr, "ERROR: writing %s: %s\n", name, strerror(err ? err : EIO));
	fflush(stderr);
}

const char *util_out_name(FILE *f, const char *path)
{
	if (f == stdout)
		return "stdout";
	if (f == stderr)
		return "stderr";
	return path ? path : "output";
}

bool util_out_flush(FILE *f, const char *name)
{
	int before = errno, err;

	if (!f)
		return true;
	errno = 0;
	if (fflush(f) == 0 && !ferror(f)) {
		errno = before;
		return true;
	}
	/* a write that failed before (and set the flag) left its errno */
	err = errno ? errno : before ? before : EIO;
	util_out_failed(name, err);
	clearerr(f); /* said once; later writes may fail again, quietly */
	return false;
}

bool util_out_close(FILE *f, const char *name)
{
	bool ok;
	int err;

	if (!f)
		return true;
	if (f == stdout || f == stderr)
		return util_out_flush(f, name);
	ok = util_out_flush(f, name);
	errno = 0;
	if (fclose(f) != 0 && ok) {
		err = errno ? errno : EIO;
		util_out_failed(name, err);
		ok = false;
	}
	return ok;
}

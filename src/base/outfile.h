/* SPDX-License-Identifier: MIT */
/*
 * Output streams whose failures end the run: the first write, flush or
 * close that fails (ENOSPC, EIO, EFBIG, ...) is said once, as
 * "ERROR: writing NAME: No space left on device", and the session stops,
 * cleans up and exits non-zero. A reader that went away (EPIPE, as
 * `lantern ... | head -1`) ends the run quietly instead.
 */
#ifndef LANTERN_BASE_OUTFILE_H
#define LANTERN_BASE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

enum util_out_state {
	UTIL_OUT_OK,
	UTIL_OUT_FAILED, /* said on stderr: the run ends with status 1 */
	UTIL_OUT_CLOSED, /* the reader is gone (EPIPE): the run ends quietly */
};

/* Flush f and look at its error flag: false if it failed (now or before). */
bool util_out_flush(FILE *f, const char *name);
/* Flush and close f (not stdout or stderr, which are only flushed). */
bool util_out_close(FILE *f, const char *name);
/* A write to fd failed with errno err (for writers that do not use stdio). */
void util_out_failed(const char *name, int err);
/* What went wrong with any output so far. */
enum util_out_state util_out_state(void);
/* "stdout", "stderr" or path: how a stream is named in the error */
const char *util_out_name(FILE *f, const char *path);

#endif

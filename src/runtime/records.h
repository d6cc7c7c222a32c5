/* SPDX-License-Identifier: MIT */
/*
 * What the session does with each ring buffer record: a table of handlers
 * by record kind (plan/record.h), called through rt_on_record().
 */
#ifndef LANTERN_RUNTIME_RECORDS_H
#define LANTERN_RUNTIME_RECORDS_H

#include "runtime/session_impl.h"

/* The event loop's state the handlers share. */
struct loop {
	struct session *s;
	struct strbuf line; /* what one record prints, through the writer */
	struct strbuf text; /* printf() or time() text before the writer has it */
	bool discard;	    /* drop records: those that follow exit() */
	size_t size;	    /* the record being handled: its bytes */
	bool exit_seen;
	uint64_t deadline;  /* util_now_ns() after which rt_on_record() hands back to the loop */
	uint64_t nrecords;
	bool budget_spent;  /* it did: records are waiting */
	bool skip_commands; /* stopping after a signal: system() and cat() are not run */
	uint64_t skipped;   /* how many were not */
	uint64_t script_errors; /* errorf() messages */
};

/*
 * The ring buffer's callback (ctx: struct loop): 0, or -1 to stop after
 * exit() or when l->deadline passed (budget_spent).
 */
int rt_on_record(void *ctx, void *data, size_t size);

#endif

// SPDX-License-Identifier: MIT
/*
 * The printer's tasks, by thread id: open addressing with linear probing.
 * A task that exits leaves a tombstone (lookups go past it, a new task
 * takes it), so a long run over many short tasks keeps a table the size of
 * the tasks alive at once; --timeline keeps every task to name it at the end.
 */
#include "base/outfile.h"
#include "base/util.h"
#include "trace/printer.h"

#include <stdlib.h>
#include <string.h>

/* The tasks again, in a table of cap slots: without the exited ones' tombstones. */
static void rehash(struct trace_printer *tp, size_t cap)
{
	struct ttask *old = tp->tasks;
	size_t n = tp->cap;

	tp->cap = cap;
	tp->tasks = util_xcalloc(tp->cap, sizeof(*tp->tasks));
	tp->used = tp->tombs = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].used) {
			struct ttask *t = trace_task_find(tp, old[i].tid, true);
			*t = old[i];
			if (t->out && t->out->open == &old[i])
				t->out->open = t;
			if (tp->main.open == &old[i])
				tp->main.open = t;
		}
	free(old);
}

struct ttask *trace_task_find(struct trace_printer *tp, pid_t tid, bool add)
{
	size_t mask = tp->cap - 1, i = ((uint32_t)tid * 2654435761u) & mask;
	struct ttask *tomb = NULL;

	for (;; i = (i + 1) & mask) {
		struct ttask *t = &tp->tasks[i];
		if (t->used && t->tid == tid)
			return t;
		if (!t->used && !t->tomb)
			break;
		if (!t->used && !tomb)
			tomb = t;
	}
	if (!add)
		return NULL;
	if (!tomb && (tp->used + tp->tombs + 1) * 2 > tp->cap) {
		/* at most half full; twice the size only if the live tasks need it */
		rehash(tp, (tp->used + 1) * 4 > tp->cap ? tp->cap * 2 : tp->cap);
		return trace_task_find(tp, tid, true);
	}
	struct ttask *t = tomb ? tomb : &tp->tasks[i];
	if (tomb)
		tp->tombs--;
	memset(t, 0, sizeof(*t));
	t->used = true;
	t->tid = tid;
	tp->used++;
	return t;
}

/*
 * An exited task's slot goes, with what it holds (the table would grow with
 * every task a long run ever saw); --timeline names every task at the end.
 */
void trace_task_forget(struct trace_printer *tp, struct ttask *t)
{
	if (tp->main.open == t)
		trace_close_open(&tp->main);
	sb_free(&t->entry);
	sb_free(&t->signals);
	sb_free(&t->held);
	sb_free(&t->stack);
	sb_free(&t->path);
	free(t->calls);
	if (t->out) {
		trace_close_open(t->out);
		if (t->out->f != tp->main.f)
			util_out_close(t->out->f, t->out->path);
		free(t->out->path);
		sb_free(&t->out->line);
		free(t->out);
	}
	memset(t, 0, sizeof(*t));
	t->tomb = true;
	tp->used--;
	tp->tombs++;
}

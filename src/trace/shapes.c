// SPDX-License-Identifier: MIT
/*
 * What the enter and exit programs do for each call, compiled into code.
 * The calls are grouped by the shape of their reads (which arguments,
 * read how, how much: struct tread_spec); each shape is one block of
 * calls to the read subprograms (reads.c), with constant arguments. The
 * program finds the block of a call in the calls table (map "calls":
 * for each number, which way each dispatch goes), then through a binary
 * search over the few ways, or goes its only way without looking when
 * every number that can come there goes the same way (a few calls on
 * their own tracepoints). The verifier walks each block once: nothing a
 * block keeps tells the numbers that lead to it apart.
 */
#include "trace/emit.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* Targets [lo, hi) of the byte in t: a compare splits them in halves; a half of one is a jump. */
static void tree(struct tb *b, int32_t t, const uint8_t *targets, int lo, int hi, const int32_t *labels)
{
	int mid = (lo + hi) / 2;
	int32_t right;

	if (hi - lo == 1) {
		emit(b->ir, JA(labels[targets[lo]]));
		return;
	}
	if (hi - mid == 1) {
		emit(b->ir, JMP_IMM(BPF_JGE, t, targets[mid], labels[targets[mid]]));
		tree(b, t, targets, lo, mid, labels);
		return;
	}
	right = ir_label(b->ir);
	emit(b->ir, JMP_IMM(BPF_JGE, t, targets[mid], right));
	tree(b, t, targets, lo, mid, labels);
	emit(b->ir, LABEL(right));
	tree(b, t, targets, mid, hi, labels);
}

void trace_dispatch(struct tb *b, int32_t nr, int which, const int32_t *labels, int hot, int16_t slot)
{
	const uint8_t *at = b->tbl->at[which];
	uint8_t targets[256];
	bool used[256] = { 0 };
	int n = 0;
	int32_t t = ir_vreg(b->ir);

	for (int k = 0; k < SYSCALL_NR_LIMIT; k++)
		if (at[k] != TARGET_ANY)
			used[at[k]] = true;
	if (hot >= 0 && used[hot]) {
		used[hot] = false; /* tested first */
		targets[n++] = (uint8_t)hot;
	}
	for (int v = 0; v < TARGET_ANY; v++)
		if (used[v])
			targets[n++] = (uint8_t)v;
	if (n <= 1) {
		/* one way (or none: no number comes) */
		emit(b->ir, JA(labels[n ? targets[0] : 0]));
		return;
	}
	// t = calls[0][which][nr]
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	trace_lookup(b, b->calls_map, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_REG(t, nr));
	emit(b->ir, ALU64_REG(BPF_ADD, t, R0));
	emit(b->ir, LDX_MEM(BPF_B, t, t, which * SYSCALL_NR_LIMIT));
	if (targets[0] == hot) {
		// the most common way first: one compare
		emit(b->ir, JMP_IMM(BPF_JEQ, t, hot, labels[hot]));
		tree(b, t, targets, 1, n, labels);
		return;
	}
	tree(b, t, targets, 0, n, labels);
}

/* The shape of reads r (keep: which of them count) in shapes[*n]: its index */
static uint8_t shape_of(struct tread_spec (*shapes)[TRACE_NARGS], int *n, const struct tread_spec *r,
			bool (*keep)(uint8_t how))
{
	struct tread_spec k[TRACE_NARGS];
	int i;

	memset(k, 0, sizeof(k));
	for (i = 0; i < TRACE_NARGS; i++)
		if (keep(r[i].how))
			k[i] = r[i];
	for (i = 0; i < *n; i++)
		if (!memcmp(shapes[i], k, sizeof(k)))
			return (uint8_t)i;
	if (*n == SHAPES_MAX) /* cannot be: the kinds of reads are few */
		return 0;
	memcpy(shapes[*n], k, sizeof(k));
	return (uint8_t)(*n)++;
}

static bool at_entry(uint8_t how)
{
	return how == TR_STR || how == TR_MEM_IN || how == TR_ARGV || how == TR_IOV_IN || how == TR_MSG_IN ||
	       how == TR_FRAME;
}

/* Read at exit: what the call filled, and what the entry may have failed to read (retry) */
static bool at_exit(uint8_t how)
{
	return how == TR_MEM_OUT || how == TR_IOV_OUT || how == TR_MSG_OUT || how == TR_STR || how == TR_MEM_IN ||
	       how == TR_MEM_EXIT;
}

void trace_plan_shapes(struct trace_table *tbl, const struct trace_call *call, bool per_call)
{
	for (int k = 0; k < SYSCALL_NR_LIMIT; k++) {
		const struct trace_call *c = &call[k];
		uint8_t *enter = &tbl->at[TBL_ENTER_SHAPE][k], *exit = &tbl->at[TBL_EXIT_SHAPE][k];
		*enter = *exit = TARGET_ANY;
		if (tbl->at[TBL_ENTER][k] == ENTER_FULL)
			*enter = c->quick && per_call ? SHAPES_MAX : shape_of(tbl->enter, &tbl->nenter, c->r, at_entry);
		if (c->selected)
			*exit = shape_of(tbl->exit, &tbl->nexit, c->r, at_exit);
	}
}

/* off = fn(i, from, size, off), fn specialised for f */
static void call_read(struct tb *b, enum trace_fn fn, uint32_t f, int i, int from, int size, int32_t off)
{
	int32_t k = trace_fn(b, fn, f);

	emit(b->ir, MOV64_IMM(R1, TRACE_READ_ARGS(i, from, size)));
	emit(b->ir, MOV64_REG(R2, off));
	emit(b->ir, CALL_FUNC(k, 2));
	emit(b->ir, MOV64_REG(off, R0));
}

/* The reads of shape r, one argument after the other; f: READ_RETRY at entry, READ_AGAIN at exit */
static void block(struct tb *b, const struct tread_spec *r, int32_t off, uint32_t f)
{
	for (int i = 0; i < TRACE_NARGS; i++) {
		switch (r[i].how) {
		case TR_STR:
			call_read(b, TFN_STR, f, i, 0, r[i].size, off);
			break;
		case TR_MEM_IN:
		case TR_MEM_OUT:
			call_read(b, TFN_MEM, (r[i].how == TR_MEM_OUT ? READ_OUT : f) | r[i].size_from, i, r[i].from,
				  r[i].size, off);
			break;
		case TR_MEM_EXIT:
			call_read(b, TFN_MEM, r[i].size_from, i, r[i].from, r[i].size, off);
			break;
		case TR_FRAME: /* the registers are raw_syscalls' */
			if (!b->per_call && (f & READ_RETRY))
				call_read(b, TFN_MEM, READ_SP | TS_FIXED, i, 0, r[i].size, off);
			break;
		case TR_IOV_IN:
		case TR_MSG_IN:
			call_read(b, TFN_IOV, 0, i, r[i].how == TR_MSG_IN, r[i].size, off);
			break;
		case TR_IOV_OUT:
		case TR_MSG_OUT:
			call_read(b, TFN_IOV, READ_OUT, i, r[i].how == TR_MSG_OUT, r[i].size, off);
			break;
		case TR_ARGV:
			call_read(b, TFN_ARGV, 0, i, 0, r[i].size, off);
			break;
		default:
			break;
		}
	}
}

static bool no_reads(const struct tread_spec *r)
{
	for (int i = 0; i < TRACE_NARGS; i++)
		if (r[i].how != TR_NONE)
			return false;
	return true;
}

/*
 * goto the block of the call's shape (table row which; the number again
 * from the scratch entry at nr_at), which reads and goes to sendit
 */
static void blocks(struct tb *b, int which, struct tread_spec (*shapes)[TRACE_NARGS], int n, int32_t *labels,
		   int16_t nr_at, int32_t off, int32_t sendit, uint32_t f, int16_t slot)
{
	int32_t nr = ir_vreg(b->ir);
	int none = -1;

	for (int k = 0; k < n; k++) {
		labels[k] = no_reads(shapes[k]) ? sendit : ir_label(b->ir);
		if (labels[k] == sendit)
			none = k;
	}
	emit(b->ir, LDX_MEM(BPF_W, nr, b->s, nr_at));
	emit(b->ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, b->out));
	/* most calls read nothing: that way is tested first */
	trace_dispatch(b, nr, which, labels, none, slot);
	for (int k = 0; k < n; k++) {
		if (labels[k] == sendit)
			continue;
		emit(b->ir, LABEL(labels[k]));
		block(b, shapes[k], off, f);
		emit(b->ir, JA(sendit));
	}
}

void trace_enter_reads(struct tb *b, int32_t off, int32_t sendit, int32_t nosend, int16_t slot)
{
	int32_t labels[SHAPES_MAX + 1];

	labels[SHAPES_MAX] = nosend;
	// what the call reads: a string or bytes not in memory yet are marked for the exit
	blocks(b, TBL_ENTER_SHAPE, b->tbl->enter, b->tbl->nenter, labels, INFL(nr), off, sendit, READ_RETRY, slot);
}

void trace_exit_reads(struct tb *b, int32_t off, int32_t sendit, int16_t slot)
{
	int32_t labels[SHAPES_MAX];

	// what the call filled, and what the entry could not read, again
	blocks(b, TBL_EXIT_SHAPE, b->tbl->exit, b->tbl->nexit, labels, HDR(nr), off, sendit, READ_AGAIN, slot);
}

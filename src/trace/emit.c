// SPDX-License-Identifier: MIT
/* Emitters shared by lantern trace's programs: see emit.h. */
#include "trace/emit.h"
#include "codegen/regalloc.h"
#include "plan/provider.h"
#include "sys/arch.h"

/* r0 = map_lookup_elem(&map, fp + slot) */
void trace_lookup(struct tb *b, int map, int16_t slot)
{
	emit(b->ir, LD_MAP(R1, map));
	emit(b->ir, MOV64_REG(R2, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R2, slot));
	emit(b->ir, CALL(BPF_FUNC_map_lookup_elem, 2));
}

/* tid, tgid of the current task; leave unless it is traced (by thread id, or -a: not lantern) */
void trace_traced_only(struct tb *b, int32_t tid, int32_t tgid, int16_t slot)
{
	emit(b->ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
	emit(b->ir, MOV64_REG(tgid, R0));
	emit(b->ir, MOV32_REG(tid, R0));
	emit(b->ir, ALU64_IMM(BPF_RSH, tgid, 32));
	trace_traced_check(b, tid, tgid, slot);
}

void trace_traced_check(struct tb *b, int32_t tid, int32_t tgid, int16_t slot)
{
	if (b->o->all)
		emit(b->ir, JMP_CONST(BPF_JEQ, tgid, LC_SELF_PID, b->out));
	else
		trace_traced_test(b, tid, slot);
}

/*
 * The traced set is a bitmap of thread ids (array map "traced": word
 * tid / 64, bit tid % 64): the test is an inlined array lookup and a
 * shift, far cheaper than a hash lookup, and every syscall pays it.
 * R0 = tid's word, w its value; leaves unless the bit is set.
 */
static void traced_word(struct tb *b, int32_t tid, int32_t bit, int16_t slot)
{
	int32_t w = ir_vreg(b->ir);

	emit(b->ir, MOV64_REG(w, tid));
	emit(b->ir, ALU64_IMM(BPF_RSH, w, 6));
	emit(b->ir, STX_MEM(BPF_W, R10, w, slot));
	trace_lookup(b, b->traced, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_REG(bit, tid));
	emit(b->ir, ALU64_IMM(BPF_AND, bit, 63));
}

void trace_traced_test(struct tb *b, int32_t tid, int16_t slot)
{
	int32_t bit = ir_vreg(b->ir), w = ir_vreg(b->ir);

	traced_word(b, tid, bit, slot);
	emit(b->ir, LDX_MEM(BPF_DW, w, R0, 0));
	emit(b->ir, ALU64_REG(BPF_RSH, w, bit));
	emit(b->ir, ALU64_IMM(BPF_AND, w, 1));
	emit(b->ir, JMP_IMM(BPF_JEQ, w, 0, b->out));
}

void trace_traced_set(struct tb *b, int32_t tid, bool on, int16_t slot)
{
	int32_t bit = ir_vreg(b->ir), m = ir_vreg(b->ir), one = ir_vreg(b->ir);

	traced_word(b, tid, bit, slot);
	emit(b->ir, MOV64_IMM(m, 1));
	emit(b->ir, ALU64_REG(BPF_LSH, m, bit));
	if (!on)
		emit(b->ir, ALU64_IMM(BPF_XOR, m, -1));
	emit(b->ir, IRI(BPF_STX | BPF_ATOMIC | BPF_DW, R0, m, 0, on ? BPF_OR : BPF_AND));
	// the count of traced tasks: user space ends the run at 0
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	trace_lookup(b, b->live, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_IMM(one, on ? 1 : -1));
	emit(b->ir, ATOMIC_ADD(BPF_DW, R0, one, 0));
}

/* s = this program's scratch entry, or leave */
void trace_scratch(struct tb *b, int16_t slot)
{
	emit(b->ir, ST_MEM(BPF_W, R10, slot, b->prog_index));
	trace_lookup(b, b->scratch, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, b->out));
	emit(b->ir, MOV64_REG(b->s, R0));
}

/* -a, --timeline: the task's name in the header */
void trace_put_comm(struct tb *b)
{
	if (!b->o->all && !b->o->timeline)
		return;
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, HDR(comm)));
	emit(b->ir, MOV64_IMM(R2, 16));
	emit(b->ir, CALL(BPF_FUNC_get_current_comm, 2));
}

/* fn(s + off, size, src): off and size registers */
void trace_read_to(struct tb *b, int fn, int32_t off, int32_t size, int32_t src)
{
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_REG(BPF_ADD, R1, off));
	emit(b->ir, MOV64_REG(R2, size));
	emit(b->ir, MOV64_REG(R3, src));
	emit(b->ir, CALL(fn, 3));
}

/* The record from s + SCR_REC, off - SCR_REC bytes long, to the ring buffer; lost++ if full. */
void trace_send(struct tb *b, int32_t off, int16_t slot)
{
	int32_t size = ir_vreg(b->ir), flags = ir_vreg(b->ir), ok = ir_label(b->ir), go = ir_label(b->ir);
	uint32_t half = b->p->maps.bpf.data[b->ringbuf].max_entries / 2;

	// off in [SCR_DATA, the end of the data], for the verifier: it always is
	int32_t low = ir_label(b->ir), high = ir_label(b->ir);
	emit(b->ir, JMP_IMM(BPF_JGE, off, SCR_DATA, low));
	emit(b->ir, MOV64_IMM(off, SCR_DATA));
	emit(b->ir, LABEL(low));
	emit(b->ir, JMP_IMM(BPF_JLE, off, SCR_DATA + TRACE_NARGS * TRACE_DATA_MAX, high));
	emit(b->ir, MOV64_IMM(off, SCR_DATA));
	emit(b->ir, LABEL(high));
	// hdr.len = off - SCR_DATA; size = off - SCR_REC
	emit(b->ir, MOV64_REG(size, off));
	emit(b->ir, ALU64_IMM(BPF_SUB, size, SCR_DATA));
	emit(b->ir, STX_MEM(BPF_W, b->s, size, HDR(len)));
	emit(b->ir, ALU64_IMM(BPF_ADD, size, SCR_DATA - SCR_REC));
	/*
	 * Wake the reader only when the buffer is half full: it drains on a
	 * timer. The fill level is asked every WAKE_EVERY records of this CPU
	 * (a helper call saved on the others; half the buffer leaves room).
	 */
	int32_t n = ir_vreg(b->ir);
	emit(b->ir, MOV64_IMM(flags, BPF_RB_NO_WAKEUP));
	emit(b->ir, LDX_MEM(BPF_W, n, b->s, SCR_SENT));
	emit(b->ir, ALU64_IMM(BPF_ADD, n, 1));
	emit(b->ir, STX_MEM(BPF_W, b->s, n, SCR_SENT));
	emit(b->ir, ALU64_IMM(BPF_AND, n, WAKE_EVERY - 1));
	emit(b->ir, JMP_IMM(BPF_JNE, n, 0, go));
	emit(b->ir, LD_MAP(R1, b->ringbuf));
	emit(b->ir, MOV64_IMM(R2, BPF_RB_AVAIL_DATA));
	emit(b->ir, CALL(BPF_FUNC_ringbuf_query, 2));
	emit(b->ir, JMP_IMM(BPF_JLE, R0, half, go));
	emit(b->ir, MOV64_IMM(flags, BPF_RB_FORCE_WAKEUP));
	emit(b->ir, LABEL(go));
	emit(b->ir, LD_MAP(R1, b->ringbuf));
	emit(b->ir, MOV64_REG(R2, b->s));
	emit(b->ir, ALU64_IMM(BPF_ADD, R2, SCR_REC));
	emit(b->ir, MOV64_REG(R3, size));
	emit(b->ir, MOV64_REG(R4, flags));
	emit(b->ir, CALL(BPF_FUNC_ringbuf_output, 4));
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, ok));
	emit(b->ir, ST_MEM(BPF_W, R10, slot, 0));
	trace_lookup(b, b->lost, slot);
	emit(b->ir, JMP_IMM(BPF_JEQ, R0, 0, ok));
	emit(b->ir, MOV64_IMM(R1, 1));
	emit(b->ir, ATOMIC_ADD(BPF_DW, R0, R1, 0));
	emit(b->ir, LABEL(ok));
}

/* off = MIN(off, the start of the last argument's room): keeps every read in the entry */
static void clamp_off(struct tb *b, int32_t off)
{
	int32_t fine = ir_label(b->ir);

	emit(b->ir, JMP_IMM(BPF_JLE, off, SCR_DATA + (TRACE_NARGS - 1) * TRACE_DATA_MAX, fine));
	emit(b->ir, MOV64_IMM(off, SCR_DATA + (TRACE_NARGS - 1) * TRACE_DATA_MAX));
	emit(b->ir, LABEL(fine));
}

/* dlen[i] = len */
void trace_set_dlen(struct tb *b, int i, int32_t len)
{
	emit(b->ir, STX_MEM(BPF_H, b->s, len, HDR(dlen) + 2 * i));
}

/*
 * Argument i is to be read again at exit. The bits live in the scratch
 * entry, not in a register: paths that differ only in what failed then
 * look alike to the verifier, which prunes them.
 */
static void mark_retry(struct tb *b, int i)
{
	int32_t t = ir_vreg(b->ir);

	emit(b->ir, LDX_MEM(BPF_W, t, b->s, INFL(retry)));
	emit(b->ir, ALU64_IMM(BPF_OR, t, 1 << i));
	emit(b->ir, STX_MEM(BPF_W, b->s, t, INFL(retry)));
}

/* Forget what the verifier knows of off (its exact value on each path): see mark_retry */
void trace_blur_off(struct tb *b, int32_t off)
{
	emit(b->ir, STX_MEM(BPF_DW, b->s, off, SCR_OFF));
	emit(b->ir, LDX_MEM(BPF_DW, off, b->s, SCR_OFF));
}

/*
 * The end of a read of argument i: n bytes read (off moves past them), or
 * at label fail, none (TRACE_UNREAD, and read again at exit with retry)
 */
static void read_end(struct tb *b, int i, int32_t off, int32_t n, int32_t fail, bool retry)
{
	int32_t done = ir_label(b->ir);

	trace_set_dlen(b, i, n);
	emit(b->ir, ALU64_REG(BPF_ADD, off, n));
	emit(b->ir, JA(done));
	emit(b->ir, LABEL(fail));
	emit(b->ir, MOV64_IMM(n, TRACE_UNREAD));
	trace_set_dlen(b, i, n);
	if (retry)
		mark_retry(b, i);
	emit(b->ir, LABEL(done));
}

/* A string: n = probe_read_user_str(s + off, MIN(cap, TRACE_DATA_MAX), src); off += n; else unread */
void trace_read_str(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, bool retry)
{
	int32_t cap = ir_vreg(b->ir), n = ir_vreg(b->ir), fail = ir_label(b->ir);
	int32_t small = ir_label(b->ir);

	emit(b->ir, LDX_MEM(BPF_H, cap, sp, 4 + 6 * i + 4));
	emit(b->ir, JMP_IMM(BPF_JLE, cap, TRACE_DATA_MAX, small));
	emit(b->ir, MOV64_IMM(cap, TRACE_DATA_MAX));
	emit(b->ir, LABEL(small));
	clamp_off(b, off);
	trace_read_to(b, BPF_FUNC_probe_read_user_str, off, cap, src);
	emit(b->ir, MOV64_REG(n, R0));
	emit(b->ir, JMP_IMM(BPF_JSLE, n, 0, fail));
	emit(b->ir, JMP_IMM(BPF_JGT, n, TRACE_DATA_MAX, fail));
	read_end(b, i, off, n, fail, retry);
}

/* Bytes: the size the spec says (fixed, an argument, the result), at most its cap. */
void trace_read_mem(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, int32_t args, int32_t ret,
	      bool retry)
{
	int32_t cap = ir_vreg(b->ir), n = ir_vreg(b->ir), how = ir_vreg(b->ir), from = ir_vreg(b->ir);
	int32_t fixed = ir_label(b->ir), sized = ir_label(b->ir), fail = ir_label(b->ir);
	int32_t not_arg = ir_label(b->ir);

	emit(b->ir, LDX_MEM(BPF_H, cap, sp, 4 + 6 * i + 4));
	emit(b->ir, JMP_IMM(BPF_JLE, cap, TRACE_DATA_MAX, fixed));
	emit(b->ir, MOV64_IMM(cap, TRACE_DATA_MAX));
	emit(b->ir, LABEL(fixed));
	emit(b->ir, MOV64_REG(n, cap));
	emit(b->ir, LDX_MEM(BPF_B, how, sp, 4 + 6 * i + 1));
	if (ret >= 0) {
		// TS_RET: the result
		int32_t no = ir_label(b->ir);
		emit(b->ir, JMP_IMM(BPF_JNE, how, TS_RET, no));
		emit(b->ir, MOV64_REG(n, ret));
		emit(b->ir, LABEL(no));
	}
	// TS_ARG, TS_ARG8: the argument the spec names (args + 8 * from), times 8 for TS_ARG8
	int32_t is_arg = ir_label(b->ir), bytes = ir_label(b->ir);
	emit(b->ir, JMP_IMM(BPF_JEQ, how, TS_ARG, is_arg));
	emit(b->ir, JMP_IMM(BPF_JNE, how, TS_ARG8, not_arg));
	emit(b->ir, LABEL(is_arg));
	emit(b->ir, LDX_MEM(BPF_B, from, sp, 4 + 6 * i + 2));
	emit(b->ir, ALU64_IMM(BPF_AND, from, 7));
	emit(b->ir, JMP_IMM(BPF_JGE, from, TRACE_NARGS, not_arg));
	emit(b->ir, ALU64_IMM(BPF_LSH, from, 3));
	emit(b->ir, ALU64_REG(BPF_ADD, from, b->s));
	emit(b->ir, LDX_MEM(BPF_DW, n, from, args));
	emit(b->ir, JMP_IMM(BPF_JNE, how, TS_ARG8, bytes));
	emit(b->ir, JMP_IMM(BPF_JGT, n, TRACE_DATA_MAX, bytes)); /* stays above the cap */
	emit(b->ir, ALU64_IMM(BPF_LSH, n, 3));
	emit(b->ir, LABEL(bytes));
	emit(b->ir, LABEL(not_arg));
	// n = MIN(n, cap), unsigned: a negative count reads the cap
	emit(b->ir, JMP_REG(BPF_JLE, n, cap, sized));
	emit(b->ir, MOV64_REG(n, cap));
	emit(b->ir, LABEL(sized));
	clamp_off(b, off);
	trace_read_to(b, BPF_FUNC_probe_read_user, off, n, src);
	emit(b->ir, JMP_IMM(BPF_JNE, R0, 0, fail));
	read_end(b, i, off, n, fail, retry);
}

/*
 * k = the pointers of src[] up to NULL or a fault, at most bound; with
 * strings, the first ARGV_MAX strings too, each in its slot of cap bytes
 * from start + 8. Two loops with constant bounds (the strings of argv,
 * the count of envp), so the verifier walks each only as far as it goes.
 */
static void argv_loop(struct tb *b, int32_t src, int32_t k, int32_t cap, int32_t start, int16_t slot,
		      int bound, bool strings)
{
	int32_t p = ir_vreg(b->ir), at = ir_vreg(b->ir);
	int32_t loop = ir_label(b->ir), done = ir_label(b->ir), next = ir_label(b->ir);

	emit(b->ir, MOV64_IMM(k, 0));
	emit(b->ir, LABEL(loop));
	emit(b->ir, JMP_IMM(BPF_JGE, k, bound, done));
	// p = src[k] (user memory); stop at NULL or a fault
	emit(b->ir, MOV64_REG(p, k));
	emit(b->ir, ALU64_IMM(BPF_LSH, p, 3));
	emit(b->ir, ALU64_REG(BPF_ADD, p, src));
	emit(b->ir, MOV64_REG(R1, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, slot));
	emit(b->ir, MOV64_IMM(R2, 8));
	emit(b->ir, MOV64_REG(R3, p));
	emit(b->ir, CALL(BPF_FUNC_probe_read_user, 3));
	emit(b->ir, JMP_IMM(BPF_JNE, R0, 0, done));
	emit(b->ir, LDX_MEM(BPF_DW, p, R10, slot));
	emit(b->ir, JMP_IMM(BPF_JEQ, p, 0, done));
	if (strings) {
		// the string of the first ARGV_MAX, in slot k: start + 8 + k * cap
		emit(b->ir, JMP_IMM(BPF_JGE, k, ARGV_MAX, next));
		emit(b->ir, MOV64_REG(at, k));
		emit(b->ir, ALU64_REG(BPF_MUL, at, cap));
		emit(b->ir, ALU64_REG(BPF_ADD, at, start));
		emit(b->ir, ALU64_IMM(BPF_ADD, at, 8));
		trace_read_to(b, BPF_FUNC_probe_read_user_str, at, cap, p);
	}
	emit(b->ir, LABEL(next));
	emit(b->ir, ALU64_IMM(BPF_ADD, k, 1));
	emit(b->ir, JA(loop));
	emit(b->ir, LABEL(done));
}

/*
 * argv and envp: a u32 count of the pointers up to NULL, a u32 slot size,
 * then (slot > 1) the first ARGV_MAX strings, each in its slot of that
 * many bytes (NUL-padded; a string longer than the slot is cut). argv is
 * counted up to ARGV_MAX + 1 (more shows as "..."), envp (slot 1) up to
 * ENVP_MAX and only counted.
 */
void trace_read_argv(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, int16_t slot)
{
	int32_t cap = ir_vreg(b->ir), start = ir_vreg(b->ir), k = ir_vreg(b->ir);
	int32_t at = ir_vreg(b->ir), n = ir_vreg(b->ir);
	int32_t small = ir_label(b->ir), some = ir_label(b->ir), fits = ir_label(b->ir);
	int32_t counted = ir_label(b->ir), looped = ir_label(b->ir);

	clamp_off(b, off);
	emit(b->ir, MOV64_REG(start, off));
	emit(b->ir, LDX_MEM(BPF_H, cap, sp, 4 + 6 * i + 4));
	emit(b->ir, JMP_IMM(BPF_JLE, cap, TRACE_DATA_MAX / ARGV_MAX - 1, small));
	emit(b->ir, MOV64_IMM(cap, TRACE_DATA_MAX / ARGV_MAX - 1));
	emit(b->ir, LABEL(small));
	emit(b->ir, JMP_IMM(BPF_JLE, cap, 1, counted));
	argv_loop(b, src, k, cap, start, slot, ARGV_MAX + 1, true);
	emit(b->ir, JA(looped));
	emit(b->ir, LABEL(counted));
	argv_loop(b, src, k, cap, start, slot, ENVP_MAX, false);
	emit(b->ir, LABEL(looped));
	// the count, the slot size; then off = start + 8 + MIN(k, ARGV_MAX) * cap (cap > 1)
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_REG(BPF_ADD, R1, start));
	emit(b->ir, STX_MEM(BPF_W, R1, k, 0));
	emit(b->ir, STX_MEM(BPF_W, R1, cap, 4));
	emit(b->ir, MOV64_IMM(n, 8));
	emit(b->ir, JMP_IMM(BPF_JLE, cap, 1, some));
	emit(b->ir, MOV64_REG(at, k));
	emit(b->ir, JMP_IMM(BPF_JLE, at, ARGV_MAX, fits));
	emit(b->ir, MOV64_IMM(at, ARGV_MAX));
	emit(b->ir, LABEL(fits));
	emit(b->ir, ALU64_REG(BPF_MUL, at, cap));
	emit(b->ir, ALU64_REG(BPF_ADD, n, at));
	emit(b->ir, LABEL(some));
	trace_set_dlen(b, i, n);
	emit(b->ir, ALU64_REG(BPF_ADD, off, n));
}

/*
 * The state of read_iov's loop lives in stack slots, made once per program:
 * its values cross helper calls, and as registers they would each take a
 * spill slot of their own (the programs are near the 512-byte stack).
 * The verifier keeps the exact range of a scalar spilled to the stack.
 */
enum { IOV_SRC, IOV_N, IOV_K, IOV_AT, IOV_CAP, IOV_HEAD, IOV_NSLOTS };

static int16_t iov_slot(struct tb *b, int which)
{
	if (b->iov_ir != b->ir) {
		b->iov_ir = b->ir;
		b->iov_slots = ir_stack(b->ir, 8 * IOV_NSLOTS);
	}
	return (int16_t)(b->iov_slots + 8 * which);
}

static int32_t iov_get(struct tb *b, int which)
{
	int32_t r = ir_vreg(b->ir);

	emit(b->ir, LDX_MEM(BPF_DW, r, R10, iov_slot(b, which)));
	return r;
}

static void iov_put(struct tb *b, int which, int32_t r)
{
	emit(b->ir, STX_MEM(BPF_DW, R10, r, iov_slot(b, which)));
}

/*
 * The iovecs src[0 .. MIN(n, IOV_SHOWN)) and the first MIN(iov_len, cap)
 * bytes of each, from s + at on (see TR_IOV_IN); k: how many were read.
 */
static void iov_loop(struct tb *b)
{
	int32_t loop = ir_label(b->ir), done = ir_label(b->ir), fits = ir_label(b->ir);
	int32_t k, t, at, len, p, cap;

	t = ir_vreg(b->ir);
	emit(b->ir, MOV64_IMM(t, 0));
	iov_put(b, IOV_K, t);
	emit(b->ir, LABEL(loop));
	k = iov_get(b, IOV_K);
	emit(b->ir, JMP_IMM(BPF_JGE, k, IOV_SHOWN, done));
	t = iov_get(b, IOV_N);
	emit(b->ir, JMP_REG(BPF_JGE, k, t, done));
	// the iovec: src[k] -> s + at
	emit(b->ir, ALU64_IMM(BPF_LSH, k, 4));
	t = iov_get(b, IOV_SRC);
	emit(b->ir, ALU64_REG(BPF_ADD, k, t));
	at = iov_get(b, IOV_AT);
	len = ir_vreg(b->ir);
	emit(b->ir, MOV64_IMM(len, 16));
	trace_read_to(b, BPF_FUNC_probe_read_user, at, len, k);
	emit(b->ir, JMP_IMM(BPF_JNE, R0, 0, done));
	// its bytes: MIN(iov_len, cap) of them -> s + at + 16 (a fault leaves zeros)
	at = iov_get(b, IOV_AT);
	t = ir_vreg(b->ir);
	emit(b->ir, MOV64_REG(t, b->s));
	emit(b->ir, ALU64_REG(BPF_ADD, t, at));
	p = ir_vreg(b->ir);
	len = ir_vreg(b->ir);
	emit(b->ir, LDX_MEM(BPF_DW, p, t, 0));
	emit(b->ir, LDX_MEM(BPF_DW, len, t, 8));
	cap = iov_get(b, IOV_CAP);
	emit(b->ir, JMP_REG(BPF_JLE, len, cap, fits));
	emit(b->ir, MOV64_REG(len, cap));
	emit(b->ir, LABEL(fits));
	emit(b->ir, ALU64_IMM(BPF_ADD, at, 16));
	trace_read_to(b, BPF_FUNC_probe_read_user, at, len, p);
	// next: at += 16 + cap, k++
	at = iov_get(b, IOV_AT);
	cap = iov_get(b, IOV_CAP);
	emit(b->ir, ALU64_IMM(BPF_ADD, at, 16));
	emit(b->ir, ALU64_REG(BPF_ADD, at, cap));
	iov_put(b, IOV_AT, at);
	k = iov_get(b, IOV_K);
	emit(b->ir, ALU64_IMM(BPF_ADD, k, 1));
	iov_put(b, IOV_K, k);
	emit(b->ir, JA(loop));
	emit(b->ir, LABEL(done));
}

/*
 * TR_IOV_* and TR_MSG_* (the layout is in sysdesc.h): for a msghdr, its
 * bytes first, then the iovecs its msg_iov and msg_iovlen give; for an
 * iovec array, the count is the next argument (args: where the arguments are).
 */
void trace_read_iov(struct tb *b, int i, int32_t sp, int32_t off, int32_t src, int32_t args, bool msg)
{
	int32_t cap = ir_vreg(b->ir), n = ir_vreg(b->ir), t;
	int32_t small = ir_label(b->ir), fail = ir_label(b->ir);

	clamp_off(b, off);
	emit(b->ir, LDX_MEM(BPF_H, cap, sp, 4 + 6 * i + 4));
	emit(b->ir, JMP_IMM(BPF_JLE, cap, IOV_SLOT_MAX, small));
	emit(b->ir, MOV64_IMM(cap, IOV_SLOT_MAX));
	emit(b->ir, LABEL(small));
	iov_put(b, IOV_CAP, cap);
	iov_put(b, IOV_SRC, src);
	iov_put(b, IOV_AT, off);
	if (msg) {
		emit(b->ir, MOV64_IMM(n, MSGHDR_SIZE));
		trace_read_to(b, BPF_FUNC_probe_read_user, off, n, src);
		emit(b->ir, JMP_IMM(BPF_JNE, R0, 0, fail));
		t = ir_vreg(b->ir);
		emit(b->ir, MOV64_REG(t, b->s));
		emit(b->ir, ALU64_REG(BPF_ADD, t, off));
		emit(b->ir, LDX_MEM(BPF_DW, n, t, 16)); /* msg_iov */
		iov_put(b, IOV_SRC, n);
		emit(b->ir, LDX_MEM(BPF_DW, n, t, 24)); /* msg_iovlen */
		emit(b->ir, MOV64_REG(t, off));
		emit(b->ir, ALU64_IMM(BPF_ADD, t, MSGHDR_SIZE));
		iov_put(b, IOV_AT, t);
	} else {
		emit(b->ir, LDX_MEM(BPF_DW, n, b->s, args + 8 * (i + 1 < TRACE_NARGS ? i + 1 : i)));
	}
	iov_put(b, IOV_N, n);
	// the count and the slot size go first
	t = iov_get(b, IOV_AT);
	iov_put(b, IOV_HEAD, t);
	emit(b->ir, ALU64_IMM(BPF_ADD, t, 8));
	iov_put(b, IOV_AT, t);
	iov_loop(b);
	t = iov_get(b, IOV_HEAD);
	emit(b->ir, ALU64_REG(BPF_ADD, t, b->s));
	n = iov_get(b, IOV_K);
	emit(b->ir, STX_MEM(BPF_W, t, n, 0));
	n = iov_get(b, IOV_CAP);
	emit(b->ir, STX_MEM(BPF_W, t, n, 4));
	// its length: from where off was to the end of the last slot
	n = iov_get(b, IOV_AT);
	emit(b->ir, ALU64_REG(BPF_SUB, n, off));
	read_end(b, i, off, n, fail, false);
}

void trace_prologue(struct tb *b, struct ir *ir)
{
	b->ir = ir;
	b->iov_ir = NULL; /* trace_read_iov() makes its slots in this program */
	b->ctx = ir_vreg(ir);
	b->s = ir_vreg(ir);
	b->out = ir_label(ir);
	emit(ir, MOV64_REG(b->ctx, R1));
}

void trace_epilogue(struct tb *b)
{
	emit(b->ir, LABEL(b->out));
	emit(b->ir, MOV64_IMM(R0, 0));
	emit(b->ir, EXIT_INSN());
}

/* *dst = the u32 at task + off (kernel memory) */
void trace_task_u32(struct tb *b, int32_t task, uint32_t off, int32_t dst, int16_t slot)
{
	emit(b->ir, ST_MEM(BPF_DW, R10, slot, 0));
	emit(b->ir, MOV64_REG(R1, R10));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, slot));
	emit(b->ir, MOV64_IMM(R2, 4));
	emit(b->ir, MOV64_REG(R3, task));
	emit(b->ir, ALU64_IMM(BPF_ADD, R3, (int32_t)off));
	emit(b->ir, CALL(BPF_FUNC_probe_read_kernel, 3));
	emit(b->ir, LDX_MEM(BPF_W, dst, R10, slot));
}

struct probe *trace_probe(struct tb *b, const char *kind, const char *what, struct attach_point **ap_out)
{
	struct plan *p = b->p;
	struct probe *pr = ARENA_NEW(&p->arena, struct probe);
	struct attach_point *ap = ARENA_NEW(&p->arena, struct attach_point);

	ap->text = arena_printf(&p->arena, "%s:%s", kind, what);
	ap->span = SPAN_NONE;
	pr->aps = ARENA_NEW(&p->arena, struct attach_point *);
	pr->aps[0] = ap;
	pr->naps = 1;
	*ap_out = ap;
	return pr;
}

int trace_assemble_prog(struct tb *b, struct prog *pg, void (*gen)(struct tb *, struct ir *), const char *what)
{
	struct ir ir;
	char err[256];
	int n;

	b->prog_index = pg->index;
	ir_init(&ir);
	gen(b, &ir);
	ir_prune(&ir);
	if (ir_regalloc(&ir, err, sizeof(err)) < 0 || (n = ir_assemble(&ir, &pg->insns, err, sizeof(err))) < 0) {
		diag_error(&b->p->diag, SPAN_NONE, E_CODEGEN, "%s: %s", what, err);
		ir_free(&ir);
		return -1;
	}
	pg->ninsns = (uint32_t)n;
	pg->scratch_size = SCR_SIZE;
	ir_free(&ir);
	return 0;
}

/*
 * The task's argument registers (raw_syscalls' args[0] is its struct
 * pt_regs) into s + SCR_REGS at their pt_regs offsets, and the syscall
 * number: only the span that holds them (72 of x86-64's 168 bytes). R0:
 * the helper's result.
 */
void trace_read_regs(struct tb *b, int32_t t)
{
	const struct arch_regs *regs = sys_arch_regs();
	int lo = regs->sysarg[0], hi = regs->sysarg[0];

	for (int i = 1; i < TRACE_NARGS; i++) {
		lo = regs->sysarg[i] < lo ? regs->sysarg[i] : lo;
		hi = regs->sysarg[i] > hi ? regs->sysarg[i] : hi;
	}
	if (regs->sys_nr >= 0) { /* and the number, for the exit of an untimed quick call */
		lo = regs->sys_nr < lo ? regs->sys_nr : lo;
		hi = regs->sys_nr > hi ? regs->sys_nr : hi;
	}
	emit(b->ir, LDX_MEM(BPF_DW, t, b->ctx, 0));
	emit(b->ir, MOV64_REG(R1, b->s));
	emit(b->ir, ALU64_IMM(BPF_ADD, R1, SCR_REGS + lo));
	emit(b->ir, MOV64_IMM(R2, hi + 8 - lo));
	emit(b->ir, MOV64_REG(R3, t));
	emit(b->ir, ALU64_IMM(BPF_ADD, R3, lo));
	emit(b->ir, CALL(BPF_FUNC_probe_read_kernel, 3));
}

/* Quick calls need no entry at all: nothing asks for their time (raw_syscalls only) */
bool trace_untimed_quick(const struct tb *b)
{
	const struct trace_opts *o = b->o;

	return !b->per_call && sys_arch_regs()->sys_nr >= 0 && !o->durations && !o->summary && !o->timeline &&
	       !o->json && !o->timestamps && !o->relative;
}


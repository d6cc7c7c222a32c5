// SPDX-License-Identifier: MIT
/*
 * Unwinding a snapshot of a user stack: see unwind.h. Each step finds the
 * row of the call frame information at the pc (uwfile.c), computes the
 * caller's CFA and registers from it, reading saved values from the copy
 * of the stack, and goes on from the return address. A pc without CFI
 * (code generated at run time) steps through the frame pointer, when
 * %rbp points into the copy.
 */
#include "sym/unwind.h"
#include "base/util.h"
#include "sym/symbols.h"
#include "sym/uwfile.h"
#include "sys/arch.h"

#include <dwarf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAPS_RETRY_NS 20000000ull /* a pc outside the mappings: read them again at most this often */
#define EXPR_STACK 16

/* the snapshot being unwound */
struct snap {
	const uint8_t *bytes;
	uint64_t lo, hi; /* [lo, hi): the copy's addresses */
	uint64_t used;	 /* the highest address read, + 8 */
	bool beyond;	 /* a read went past hi */
};

struct state {
	uint64_t r[UW_NREGS];
	uint32_t valid; /* a bit per register */
};

static bool rd64(struct snap *s, uint64_t addr, uint64_t *v)
{
	if (addr < s->lo || addr > s->hi - 8 || s->hi - s->lo < 8) {
		if (addr >= s->hi)
			s->beyond = true;
		return false;
	}
	memcpy(v, s->bytes + (addr - s->lo), 8);
	if (addr + 8 > s->used)
		s->used = addr + 8;
	return true;
}

void sym_uregs_from_pt_regs(struct sym_uregs *out, const void *pt_regs)
{
	static const char *const names[UW_NREGS] = {
		"ax", "dx", "cx", "bx", "si", "di", "bp", "sp", "r8", "r9", "r10", "r11",
		"r12", "r13", "r14", "r15", "ip",
	};
	for (int i = 0; i < UW_NREGS; i++) {
		int off = sys_arch_reg_offset(names[i]);
		out->r[i] = 0;
		if (off >= 0)
			memcpy(&out->r[i], (const uint8_t *)pt_regs + off, 8);
	}
}

/* Evaluate a DWARF expression of the CFI (a subset: what compilers emit there). */
static bool eval(const Dwarf_Op *ops, size_t n, const struct state *st, uint64_t cfa,
		 struct snap *s, uint64_t *out, bool *value)
{
	uint64_t stk[EXPR_STACK], a;
	int sp = 0;

	*value = false;
#define PUSH(x) do { if (sp == EXPR_STACK) return false; stk[sp++] = (x); } while (0)
#define POP(x) do { if (!sp) return false; (x) = stk[--sp]; } while (0)
	for (size_t i = 0; i < n; i++) {
		uint8_t op = ops[i].atom;
		uint64_t b;
		if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
			PUSH(op - DW_OP_lit0);
		} else if ((op >= DW_OP_breg0 && op <= DW_OP_breg31) || op == DW_OP_bregx) {
			int reg = op == DW_OP_bregx ? (int)ops[i].number : op - DW_OP_breg0;
			uint64_t off = op == DW_OP_bregx ? ops[i].number2 : ops[i].number;
			if (reg >= UW_NREGS || !(st->valid & (1u << reg)))
				return false;
			PUSH(st->r[reg] + off);
		} else {
			switch (op) {
			case DW_OP_call_frame_cfa: PUSH(cfa); break;
			case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u: case DW_OP_const2s:
			case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
			case DW_OP_constu: case DW_OP_consts: PUSH(ops[i].number); break;
			case DW_OP_dup: POP(a); PUSH(a); PUSH(a); break;
			case DW_OP_drop: POP(a); break;
			case DW_OP_over: if (sp < 2) return false; a = stk[sp - 2]; PUSH(a); break;
			case DW_OP_swap: POP(a); POP(b); PUSH(a); PUSH(b); break;
			case DW_OP_deref: POP(a); if (!rd64(s, a, &a)) return false; PUSH(a); break;
			case DW_OP_plus_uconst: POP(a); PUSH(a + ops[i].number); break;
			case DW_OP_neg: POP(a); PUSH(-a); break;
			case DW_OP_not: POP(a); PUSH(~a); break;
			case DW_OP_stack_value: *value = true; break;
			case DW_OP_nop: break;
			default: {
				POP(b);
				POP(a);
				switch (op) {
				case DW_OP_plus: PUSH(a + b); break;
				case DW_OP_minus: PUSH(a - b); break;
				case DW_OP_mul: PUSH(a * b); break;
				case DW_OP_and: PUSH(a & b); break;
				case DW_OP_or: PUSH(a | b); break;
				case DW_OP_xor: PUSH(a ^ b); break;
				case DW_OP_shl: PUSH(b < 64 ? a << b : 0); break;
				case DW_OP_shr: PUSH(b < 64 ? a >> b : 0); break;
				case DW_OP_shra: PUSH((uint64_t)((int64_t)a >> (b < 64 ? b : 63))); break;
				case DW_OP_ge: PUSH((int64_t)a >= (int64_t)b); break;
				case DW_OP_gt: PUSH((int64_t)a > (int64_t)b); break;
				case DW_OP_le: PUSH((int64_t)a <= (int64_t)b); break;
				case DW_OP_lt: PUSH((int64_t)a < (int64_t)b); break;
				case DW_OP_eq: PUSH(a == b); break;
				case DW_OP_ne: PUSH(a != b); break;
				default: return false;
				}
			}
			}
		}
	}
#undef PUSH
#undef POP
	if (!sp)
		return false;
	*out = stk[sp - 1];
	return true;
}

/* The caller's registers by a simple row. */
static bool step_simple(const struct uw_row *row, const struct state *cur, struct state *next,
			struct snap *s, uint64_t *cfa)
{
	if (!(cur->valid & (1u << row->cfa_reg)))
		return false;
	*cfa = cur->r[row->cfa_reg] + (uint64_t)row->cfa_off;
	next->valid = 0;
	for (int i = 0; i < UW_NREGS; i++) {
		uint64_t v = 0;
		bool ok = false;
		switch (row->kind[i]) {
		case RULE_SAME: ok = cur->valid & (1u << i); v = cur->r[i]; break;
		case RULE_UNDEF: break;
		case RULE_OFFSET: ok = rd64(s, *cfa + (uint64_t)row->off[i], &v); break;
		case RULE_VAL_OFFSET: ok = true; v = *cfa + (uint64_t)row->off[i]; break;
		case RULE_REG: ok = cur->valid & (1u << row->off[i]); v = cur->r[row->off[i]]; break;
		}
		if (ok) {
			next->r[i] = v;
			next->valid |= 1u << i;
		}
	}
	return true;
}

/* The caller's registers by any row, its expressions evaluated. */
static bool step_frame(Dwarf_Frame *fr, const struct state *cur, struct state *next,
		       struct snap *s, uint64_t *cfa)
{
	Dwarf_Op *ops, mem[3];
	size_t n;
	bool value;

	if (dwarf_frame_cfa(fr, &ops, &n) != 0 || !n || !eval(ops, n, cur, 0, s, cfa, &value))
		return false;
	next->valid = 0;
	for (int i = 0; i < UW_NREGS; i++) {
		uint64_t v;
		if (dwarf_frame_register(fr, i, mem, &ops, &n) != 0)
			continue;
		if (n == 0) { /* undefined, or the same value */
			if (!ops && (cur->valid & (1u << i))) {
				next->r[i] = cur->r[i];
				next->valid |= 1u << i;
			}
			continue;
		}
		if (n == 1 && ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
			int r = ops[0].atom - DW_OP_reg0;
			if (r < UW_NREGS && (cur->valid & (1u << r))) {
				next->r[i] = cur->r[r];
				next->valid |= 1u << i;
			}
			continue;
		}
		if (!eval(ops, n, cur, *cfa, s, &v, &value) || (!value && !rd64(s, v, &v)))
			continue;
		next->r[i] = v;
		next->valid |= 1u << i;
	}
	return true;
}

/* No CFI: the frame pointer's chain, if %rbp points into the copy. */
static bool step_fp(const struct state *cur, struct state *next, struct snap *s, uint64_t *cfa)
{
	uint64_t bp = cur->r[UW_RBP], ra, saved;

	if (!(cur->valid & (1u << UW_RBP)) || bp < cur->r[UW_RSP] || !rd64(s, bp, &saved) ||
	    !rd64(s, bp + 8, &ra))
		return false;
	next->valid = (1u << UW_RBP) | (1u << UW_RIP);
	next->r[UW_RBP] = saved;
	next->r[UW_RIP] = ra;
	*cfa = bp + 16;
	return true;
}

/* --- processes' mappings ------------------------------------------------ */

struct uw_proc {
	int pid;
	struct sym_maps maps;
	uint64_t read_ns;
	uint64_t used_ns; /* when unwound last */
};
static struct uw_proc *procs;
static size_t nprocs;

/*
 * Processes kept at most: a profile of a busy machine meets processes
 * without end; the one unwound least recently goes (read again if it
 * comes back)
 */
#define PROCS_MAX 512

static struct uw_proc *proc_of(int pid, bool create)
{
	for (size_t i = 0; i < nprocs; i++)
		if (procs[i].pid == pid) {
			procs[i].used_ns = util_now_ns();
			return &procs[i];
		}
	if (!create)
		return NULL;
	if (nprocs >= PROCS_MAX) {
		size_t lru = 0;
		for (size_t i = 1; i < nprocs; i++)
			if (procs[i].used_ns < procs[lru].used_ns)
				lru = i;
		sym_maps_free(&procs[lru].maps);
		procs[lru] = procs[--nprocs];
	}
	procs = util_xrealloc(procs, (nprocs + 1) * sizeof(*procs));
	struct uw_proc *p = &procs[nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->used_ns = util_now_ns();
	return p;
}

static void proc_refresh(struct uw_proc *p)
{
	struct sym_maps m;

	p->read_ns = util_now_ns();
	if (sym_pinned_maps(p->pid, &m)) { /* as its tracer follows them */
		sym_maps_free(&p->maps);
		p->maps = m;
		return;
	}
	if (!sym_maps_read(p->pid, &m)) {
		/* gone: keep what was seen, else what the session remembered of it */
		if (!p->maps.n && sym_remembered_maps(p->pid, &m))
			p->maps = m;
		return;
	}
	sym_maps_keep_exec(&m); /* the unwinder looks up code addresses only */
	sym_maps_free(&p->maps);
	p->maps = m;
}

/* The mapping of pid holding addr: read again (not too often) when none does. */
static const struct sym_mapping *find_mapping(struct uw_proc *p, uint64_t addr)
{
	const struct sym_mapping *m = sym_maps_find(&p->maps, addr);

	if (!m && util_now_ns() - p->read_ns > MAPS_RETRY_NS) {
		proc_refresh(p);
		m = sym_maps_find(&p->maps, addr);
	}
	return m;
}

/* One step from cur (at pc): the caller's state into next; the end, or -1 to go on. */
static int step(struct uw_proc *p, uint64_t pc, bool exact, const struct state *cur,
		struct state *next, struct snap *s, bool *signal)
{
	uint64_t lookup = exact ? pc : pc - 1, vaddr, cfa = 0;
	const struct sym_mapping *m = find_mapping(p, lookup);
	struct uw_file *f = m ? sym_uw_file(p->pid, m) : NULL;
	const struct uw_row *row = NULL;
	Dwarf_Frame *fr = NULL;
	bool ok;

	if (f && sym_uw_vaddr(f, m, lookup, &vaddr))
		row = sym_uw_row(f, vaddr, &fr);
	*signal = row && row->signal;
	if (!row)
		ok = step_fp(cur, next, s, &cfa);
	else if (row->simple)
		ok = step_simple(row, cur, next, s, &cfa);
	else
		ok = step_frame(fr, cur, next, s, &cfa);
	free(fr);
	if (!ok)
		return s->beyond ? UW_END_SNAPSHOT : !m ? UW_END_NO_MAP : UW_END_NO_CFI;
	if (!(next->valid & (1u << UW_RIP)) || !next->r[UW_RIP])
		return s->beyond ? UW_END_SNAPSHOT : UW_END_OUTERMOST;
	/* the caller's stack pointer is the CFA; it must move up */
	next->r[UW_RSP] = cfa;
	next->valid |= 1u << UW_RSP;
	if (cfa <= cur->r[UW_RSP] && !*signal)
		return UW_END_BAD;
	return -1;
}

int sym_unwind(int pid, const struct sym_uregs *regs, const uint8_t *stack, size_t len,
	       uint64_t *ips, int max, struct sym_unwind_info *info)
{
	struct snap s = { stack, regs->r[UW_RSP], regs->r[UW_RSP] + len, regs->r[UW_RSP], false };
	struct state cur, next;
	struct uw_proc *p = proc_of(pid, true);
	bool exact = true, signal;
	int n = 0, end = UW_END_MAX;

	if (!p->read_ns)
		proc_refresh(p);
	memcpy(cur.r, regs->r, sizeof(cur.r));
	cur.valid = (1u << UW_NREGS) - 1;
	while (n < max && cur.r[UW_RIP]) {
		ips[n++] = cur.r[UW_RIP];
		if (n == max)
			break;
		end = step(p, cur.r[UW_RIP], exact, &cur, &next, &s, &signal);
		if (end >= 0)
			break;
		end = UW_END_MAX;
		exact = signal;
		cur = next;
	}
	if (info) {
		info->end = (enum sym_unwind_end)end;
		info->used = s.used - s.lo;
	}
	return n;
}

static uint64_t stat_dev(const struct stat *st)
{
	return ((uint64_t)major(st->st_dev) << 32) | minor(st->st_dev);
}

int sym_unwind_exe_fp(int pid, uint64_t *dev, uint64_t *ino)
{
	char link[64], path[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	if (stat(link, &st) < 0 || (n = readlink(link, path, sizeof(path) - 1)) <= 0)
		return -1;
	path[n] = 0;
	*dev = stat_dev(&st);
	*ino = st.st_ino;
	struct uw_file *f = sym_uw_file_path(path[0] == '/' ? link : path, *dev, *ino);
	return sym_uw_file_fp(f);
}

int sym_unwind_file_fp(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	return sym_uw_file_fp(sym_uw_file_path(path, stat_dev(&st), st.st_ino));
}

void sym_unwind_forget(int pid)
{
	struct uw_proc *p = proc_of(pid, false);

	if (!p)
		return;
	sym_maps_free(&p->maps);
	*p = procs[--nprocs];
}

void sym_unwind_release(void)
{
	for (size_t i = 0; i < nprocs; i++)
		sym_maps_free(&procs[i].maps);
	free(procs);
	procs = NULL;
	nprocs = 0;
	sym_uw_files_release();
}

// SPDX-License-Identifier: MIT
/*
 * Register allocation over the IR.
 *
 * Positions: instruction i reads its operands at 2i and writes its results
 * at 2i+1. A register (physical or virtual) is busy over the positions
 * where it holds a value still needed. Liveness is computed by the usual
 * backward dataflow over basic blocks, so values live around a while loop
 * cover the whole loop.
 *
 * Physical registers used explicitly by the IR (helper arguments in r1..r5,
 * results in r0, the clobbers of every call) get exact busy maps. Each
 * virtual register gets one interval [first, last] and is given, in order
 * of interval start, the first physical register free over that whole
 * interval (a register it is moved to or from first, then r1-r5, r0,
 * r6-r9). A call clobbers r0-r5, so a value live across a call lands in
 * r6-r9 by itself. When nothing is free the longest-lived conflicting
 * value is spilled to a stack slot (loads before uses, stores after
 * definitions) and allocation starts over.
 *
 * Spill slots are then packed (pack_slots): two spilled values whose
 * lives do not overlap share a slot, found by the same liveness over the
 * slots' loads and stores, so the 512-byte stack holds far more spills
 * than values are spilled at any one point.
 */
#include "codegen/regalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPHYS 10 /* r0..r9; r10 is the frame pointer */
#define VICTIMS_MAX 16 /* spilled in one scan, at most */

struct block {
	uint32_t first, last; /* instruction range, inclusive */
	int32_t succ[2];
	uint8_t nsucc;
};

struct ra {
	struct ir *ir;
	uint32_t n;	  /* instructions */
	uint32_t nregs;	  /* registers incl. virtual */
	uint32_t words;	  /* bitset words per block */
	struct block *blocks;
	uint32_t nblocks;
	uint64_t *live_in, *live_out;
	int32_t *lo, *hi; /* interval per register */
	uint8_t *busy;	  /* [NPHYS][2n+2] */
	int8_t *assign;	  /* vreg -> physical, -1 none */
	int8_t *hint;
	uint8_t *is_temp; /* vreg created by spilling */
	struct ir_regs *regs; /* each instruction's uses and definitions, once per scan */
};

static inline void bs_set(uint64_t *s, uint32_t b)
{
	s[b / 64] |= 1ull << (b % 64);
}

static inline bool bs_has(const uint64_t *s, uint32_t b)
{
	return s[b / 64] >> (b % 64) & 1;
}

static void build_blocks(struct ra *ra)
{
	const struct ir_insn *in = ra->ir->insns.data;
	uint32_t n = ra->n, nb = 0, i;

	ra->regs = util_xmalloc(sizeof(*ra->regs) * (n + 1));
	for (i = 0; i < n; i++)
		ir_regs_of(&in[i], &ra->regs[i]);
	int32_t *label_block;
	bool *leader = util_xcalloc(n + 1, sizeof(bool));
	int32_t max_label = ra->ir->next_label;

	if (n)
		leader[0] = true;
	for (i = 0; i < n; i++) {
		if (in[i].kind == IR_LABEL)
			leader[i] = true;
		if (ir_is_jump(&in[i]) || (in[i].kind == IR_INSN && in[i].code == (BPF_JMP | BPF_EXIT)))
			leader[i + 1] = true;
	}
	for (i = 0; i < n; i++)
		nb += leader[i];
	ra->blocks = util_xcalloc(nb, sizeof(struct block));
	label_block = util_xmalloc(sizeof(int32_t) * (max_label + 1));
	for (i = 0; i < (uint32_t)max_label + 1; i++)
		label_block[i] = -1;
	nb = 0;
	for (i = 0; i < n; i++) {
		if (leader[i]) {
			if (nb)
				ra->blocks[nb - 1].last = i - 1;
			ra->blocks[nb++].first = i;
		}
		if (in[i].kind == IR_LABEL && in[i].label <= max_label)
			label_block[in[i].label] = nb - 1;
	}
	if (nb)
		ra->blocks[nb - 1].last = n - 1;
	ra->nblocks = nb;
	for (uint32_t b = 0; b < nb; b++) {
		struct block *bl = &ra->blocks[b];
		const struct ir_insn *last = &in[bl->last];
		bool ends = last->kind == IR_INSN && (last->code == (BPF_JMP | BPF_EXIT) ||
						      last->code == (BPF_JMP | BPF_JA));
		if (ir_is_jump(last) && last->label >= 0 && last->label <= max_label &&
		    label_block[last->label] >= 0)
			bl->succ[bl->nsucc++] = label_block[last->label];
		if (!ends && b + 1 < nb)
			bl->succ[bl->nsucc++] = b + 1;
	}
	free(label_block);
	free(leader);
}

static void liveness(struct ra *ra)
{
	uint32_t w = ra->words, nb = ra->nblocks;
	uint64_t *use = util_xcalloc((size_t)nb * w, 8), *def = util_xcalloc((size_t)nb * w, 8);
	bool changed = true;

	ra->live_in = util_xcalloc((size_t)nb * w, 8);
	ra->live_out = util_xcalloc((size_t)nb * w, 8);
	for (uint32_t b = 0; b < nb; b++) {
		uint64_t *u = use + (size_t)b * w, *d = def + (size_t)b * w;
		for (uint32_t i = ra->blocks[b].first; i <= ra->blocks[b].last; i++) {
			const struct ir_regs *r = &ra->regs[i];
			for (int k = 0; k < r->nuse; k++)
				if (r->use[k] != R10 && !bs_has(d, r->use[k]))
					bs_set(u, r->use[k]);
			for (int k = 0; k < r->ndef; k++)
				bs_set(d, r->def[k]);
		}
	}
	while (changed) {
		changed = false;
		for (uint32_t b = nb; b-- > 0;) {
			uint64_t *out = ra->live_out + (size_t)b * w, *lin = ra->live_in + (size_t)b * w;
			for (int s = 0; s < ra->blocks[b].nsucc; s++) {
				uint64_t *sin = ra->live_in + (size_t)ra->blocks[b].succ[s] * w;
				for (uint32_t k = 0; k < w; k++)
					out[k] |= sin[k];
			}
			for (uint32_t k = 0; k < w; k++) {
				uint64_t v = use[(size_t)b * w + k] | (out[k] & ~def[(size_t)b * w + k]);
				if (v != lin[k]) {
					lin[k] = v;
					changed = true;
				}
			}
		}
	}
	free(use);
	free(def);
}

static inline void extend(struct ra *ra, int32_t reg, int32_t pos)
{
	if (ra->lo[reg] < 0 || pos < ra->lo[reg])
		ra->lo[reg] = pos;
	if (pos > ra->hi[reg])
		ra->hi[reg] = pos;
}

static inline void mark(struct ra *ra, int32_t reg, uint32_t pos)
{
	if (reg < NPHYS)
		ra->busy[(size_t)reg * (2 * ra->n + 2) + pos] = 1;
}

/* Intervals of virtual registers; exact busy positions of physical ones. */
static void intervals(struct ra *ra)
{
	uint32_t w = ra->words;
	uint64_t *live = util_xmalloc(w * 8);
	const uint64_t phys = (1ull << NPHYS) - 1; /* r0..r9: the first word's low bits */

	for (uint32_t k = 0; k < ra->nregs; k++) {
		ra->lo[k] = -1;
		ra->hi[k] = -1;
	}
	for (uint32_t b = 0; b < ra->nblocks; b++) {
		const struct block *bl = &ra->blocks[b];
		memcpy(live, ra->live_out + (size_t)b * w, w * 8);
		/* the registers live across the block's ends: their set bits only */
		for (uint32_t k = 0; k < w; k++) {
			for (uint64_t m = live[k]; m; m &= m - 1)
				extend(ra, (int32_t)(k * 64 + (uint32_t)__builtin_ctzll(m)), 2 * bl->last + 1);
			for (uint64_t m = ra->live_in[(size_t)b * w + k]; m; m &= m - 1)
				extend(ra, (int32_t)(k * 64 + (uint32_t)__builtin_ctzll(m)), 2 * bl->first);
		}
		for (uint32_t i = bl->last + 1; i-- > bl->first;) {
			const struct ir_regs *r = &ra->regs[i];
			for (uint64_t m = live[0] & phys; m; m &= m - 1) {
				uint32_t reg = (uint32_t)__builtin_ctzll(m);
				mark(ra, reg, 2 * i + 1);
				mark(ra, reg, 2 * i + 2);
			}
			for (int k = 0; k < r->ndef; k++) {
				mark(ra, r->def[k], 2 * i + 1);
				extend(ra, r->def[k], 2 * i + 1);
				live[r->def[k] / 64] &= ~(1ull << (r->def[k] % 64));
			}
			for (int k = 0; k < r->nuse; k++) {
				if (r->use[k] == R10)
					continue;
				mark(ra, r->use[k], 2 * i);
				extend(ra, r->use[k], 2 * i);
				bs_set(live, r->use[k]);
			}
		}
		for (uint64_t m = live[0] & phys; m; m &= m - 1)
			mark(ra, (uint32_t)__builtin_ctzll(m), 2 * bl->first);
	}
	free(live);
}

static bool free_over(struct ra *ra, int p, int32_t lo, int32_t hi)
{
	const uint8_t *b = ra->busy + (size_t)p * (2 * ra->n + 2);
	/* memchr: the C library's vector scan (intervals span thousands of positions) */
	return hi < lo || !memchr(b + lo, 1, (size_t)(hi - lo + 1));
}

static void hints(struct ra *ra)
{
	vec_foreach(&ra->ir->insns, i)
	{
		if (i->kind != IR_INSN || i->code != (BPF_ALU64 | BPF_MOV | BPF_X))
			continue;
		if (i->dst >= VREG0 && i->src < NPHYS)
			ra->hint[i->dst] = i->src;
		else if (i->src >= VREG0 && i->dst < NPHYS && ra->hint[i->src] < 0)
			ra->hint[i->src] = i->dst;
	}
}

/* The stack slots spill() made, to pack at the end. */
struct slots {
	int16_t *v;
	uint32_t n, cap;
};

/* The victims (at most 16) that the instruction's registers name, as bits */
static uint16_t victims_in(const int32_t *regs, int n, const int32_t *victims, int nvict)
{
	uint16_t m = 0;

	for (int k = 0; k < n; k++)
		for (int v = 0; v < nvict; v++)
			if (regs[k] == victims[v])
				m |= (uint16_t)(1u << v);
	return m;
}

/*
 * Replace every use/def of the victims by loads/stores of a stack slot
 * each: a load before each use into a new register, a store after each
 * definition. One pass for all of them, with the code (register numbers,
 * order) spilling them one at a time would make: victim k's temporaries
 * numbered after those of the victims before it, loads in the victims'
 * order, stores in the reverse.
 */
static void spill(struct ir *ir, const int32_t *victims, int nvict, uint8_t **is_temp, uint32_t *temp_cap,
		  struct slots *sl)
{
	size_t n = ir->insns.len;
	uint16_t *used = util_xmalloc(sizeof(uint16_t) * (n + 1)), *defd = util_xmalloc(sizeof(uint16_t) * (n + 1));
	int16_t slot[VICTIMS_MAX];
	int32_t next[VICTIMS_MAX];
	uint32_t count[VICTIMS_MAX] = { 0 };
	struct ir_regs r;

	for (int v = 0; v < nvict; v++) {
		slot[v] = ir_stack(ir, 8);
		if (sl->n == sl->cap) {
			sl->cap = sl->cap ? 2 * sl->cap : 32;
			sl->v = util_xrealloc(sl->v, sl->cap * sizeof(*sl->v));
		}
		sl->v[sl->n++] = slot[v];
	}
	for (size_t i = 0; i < n; i++) {
		ir_regs_of(&ir->insns.data[i], &r);
		used[i] = victims_in(r.use, r.nuse, victims, nvict);
		defd[i] = victims_in(r.def, r.ndef, victims, nvict);
		for (uint32_t m = used[i] | defd[i]; m; m &= m - 1)
			count[__builtin_ctz(m)]++;
	}
	for (int v = 0; v < nvict; v++) {
		next[v] = ir->next_vreg;
		ir->next_vreg += (int32_t)count[v];
	}
	if ((uint32_t)ir->next_vreg > *temp_cap) {
		uint32_t cap = *temp_cap * 2 + 64;
		while (cap < (uint32_t)ir->next_vreg)
			cap *= 2;
		*is_temp = util_xrealloc(*is_temp, cap);
		memset(*is_temp + *temp_cap, 0, cap - *temp_cap);
		*temp_cap = cap;
	}

	VEC(struct ir_insn) out = { 0 };
	vec_reserve(&out, n + n / 4);
	for (size_t i = 0; i < n; i++) {
		struct ir_insn insn = ir->insns.data[i];
		int32_t t[VICTIMS_MAX];
		uint32_t any = used[i] | defd[i];

		if (!any) {
			vec_push(&out, insn);
			continue;
		}
		for (uint32_t m = any; m; m &= m - 1) {
			int v = __builtin_ctz(m);
			t[v] = next[v]++;
			(*is_temp)[t[v]] = 1;
			if (insn.dst == victims[v])
				insn.dst = t[v];
			if (insn.src == victims[v])
				insn.src = t[v];
		}
		for (uint32_t m = used[i]; m; m &= m - 1) {
			int v = __builtin_ctz(m);
			vec_push(&out, LDX_MEM(BPF_DW, t[v], R10, slot[v]));
		}
		vec_push(&out, insn);
		for (int v = nvict; v-- > 0;)
			if (defd[i] >> v & 1)
				vec_push(&out, STX_MEM(BPF_DW, R10, t[v], slot[v]));
	}
	free(used);
	free(defd);
	vec_free(&ir->insns);
	ir->insns.data = out.data;
	ir->insns.len = out.len;
	ir->insns.cap = out.cap;
}

static void ra_free(struct ra *ra)
{
	free(ra->regs);
	free(ra->blocks);
	free(ra->live_in);
	free(ra->live_out);
	free(ra->lo);
	free(ra->hi);
	free(ra->busy);
	free(ra->assign);
	free(ra->hint);
	memset(ra, 0, sizeof(*ra));
}

static int cmp_by_lo(const void *a, const void *b, void *arg)
{
	const struct ra *ra = arg;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	if (ra->lo[x] != ra->lo[y])
		return ra->lo[x] < ra->lo[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* One attempt: 0 when every vreg got a register, else the vreg to spill. */
/*
 * Linear scan in order of interval start. A value that finds no register
 * is spilled (or, for a reload's short temporary, the longest value it
 * overlaps), and the scan goes on without it: every value that fails in
 * one scan is spilled before the next (at most VICTIMS_MAX), each scan
 * redoing the liveness of the whole function (a spill at a time took the
 * trace programs 55 scans). 0: all allocated; else how many victims are
 * in out; -1: one that cannot be spilled.
 */
static int try_allocate(struct ra *ra, const uint8_t *is_temp, uint32_t temp_cap, int32_t *out)
{
	static const int order[NPHYS] = { R1, R2, R3, R4, R5, R0, R6, R7, R8, R9 };
	uint32_t nv = ra->nregs - VREG0, cnt = 0;
	int32_t *vs = util_xmalloc(sizeof(int32_t) * (nv + 1));
	int nvict = 0;

	for (uint32_t v = VREG0; v < ra->nregs; v++)
		if (ra->lo[v] >= 0)
			vs[cnt++] = v;
	qsort_r(vs, cnt, sizeof(int32_t), cmp_by_lo, ra);
	for (uint32_t k = 0; k < cnt && nvict < VICTIMS_MAX; k++) {
		int32_t v = vs[k], lo = ra->lo[v], hi = ra->hi[v], victim = v;
		int p = -1;
		if (ra->hint[v] >= 0 && free_over(ra, ra->hint[v], lo, hi))
			p = ra->hint[v];
		for (int j = 0; p < 0 && j < NPHYS; j++)
			if (free_over(ra, order[j], lo, hi))
				p = order[j];
		if (p >= 0) {
			ra->assign[v] = p;
			memset(ra->busy + (size_t)p * (2 * ra->n + 2) + lo, 1, hi - lo + 1);
			continue;
		}
		if ((uint32_t)v < temp_cap && is_temp[v]) {
			/* Spill the longest value overlapping this reload instead. */
			int32_t best = -1, len = -1;
			for (uint32_t q = 0; q < k; q++) {
				int32_t o = vs[q];
				bool otemp = (uint32_t)o < temp_cap && is_temp[o];
				if (otemp || ra->assign[o] < 0 || ra->hi[o] < lo || ra->lo[o] > hi)
					continue;
				if (ra->hi[o] - ra->lo[o] > len) {
					len = ra->hi[o] - ra->lo[o];
					best = o;
				}
			}
			if (best < 0) {
				if (!nvict) {
					free(vs);
					return -1;
				}
				continue; /* the spills of this scan may make room for it */
			}
			victim = best;
			/* its register is free from now on in this scan */
			memset(ra->busy + (size_t)ra->assign[best] * (2 * ra->n + 2) + ra->lo[best], 0,
			       ra->hi[best] - ra->lo[best] + 1);
			ra->assign[best] = -1;
		}
		out[nvict++] = victim;
	}
	free(vs);
	return nvict;
}

/* The index in sl of the spill slot insn loads (use) or stores (def), or -1. */
static int32_t slot_access(const struct ir_insn *i, const struct slots *sl, int32_t base, bool *def)
{
	int32_t off;

	if (i->kind != IR_INSN)
		return -1;
	if (i->code == (BPF_LDX | BPF_MEM | BPF_DW) && i->src == R10) {
		off = i->off;
		*def = false;
	} else if (i->code == (BPF_STX | BPF_MEM | BPF_DW) && i->dst == R10) {
		off = i->off;
		*def = true;
	} else {
		return -1;
	}
	/* spill() made its slots after every other: -(base + 8) and below, in order */
	int32_t k = (-off - base) / 8 - 1;
	return -off > base && k >= 0 && (uint32_t)k < sl->n && sl->v[k] == off ? k : -1;
}

/*
 * Give spill slots whose lives do not overlap the same stack offset
 * (liveness over the blocks, interference, greedy colouring in order).
 * base: the stack the program used before spilling.
 */
static void pack_slots(struct ra *ra, const struct slots *sl, int32_t base)
{
	struct ir_insn *in = ra->ir->insns.data;
	uint32_t n = sl->n, w = (n + 63) / 64, nb = ra->nblocks;
	uint64_t *gen = util_xcalloc((size_t)nb * w, 8), *kill = util_xcalloc((size_t)nb * w, 8);
	uint64_t *lin = util_xcalloc((size_t)nb * w, 8), *lout = util_xcalloc((size_t)nb * w, 8);
	uint64_t *clash = util_xcalloc((size_t)n * w, 8), *live = util_xcalloc(w, 8);
	int32_t *colour = util_xmalloc(sizeof(int32_t) * n);
	bool def, changed = true;
	uint32_t ncolours = 0;

	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t i = ra->blocks[b].last + 1; i-- > ra->blocks[b].first;) {
			int32_t k = slot_access(&in[i], sl, base, &def);
			if (k < 0)
				continue;
			uint64_t *g = gen + (size_t)b * w, *kl = kill + (size_t)b * w;
			if (def) {
				bs_set(kl, k);
				g[k / 64] &= ~(1ull << (k % 64));
			} else {
				bs_set(g, k);
			}
		}
	while (changed) {
		changed = false;
		for (uint32_t b = nb; b-- > 0;) {
			uint64_t *o = lout + (size_t)b * w, *li = lin + (size_t)b * w;
			for (int s = 0; s < ra->blocks[b].nsucc; s++)
				for (uint32_t q = 0; q < w; q++)
					o[q] |= lin[(size_t)ra->blocks[b].succ[s] * w + q];
			for (uint32_t q = 0; q < w; q++) {
				uint64_t v = gen[(size_t)b * w + q] | (o[q] & ~kill[(size_t)b * w + q]);
				if (v != li[q]) {
					li[q] = v;
					changed = true;
				}
			}
		}
	}
	/* a slot stored while another is live clashes with it */
	for (uint32_t b = 0; b < nb; b++) {
		memcpy(live, lout + (size_t)b * w, w * 8);
		for (uint32_t i = ra->blocks[b].last + 1; i-- > ra->blocks[b].first;) {
			int32_t k = slot_access(&in[i], sl, base, &def);
			if (k < 0)
				continue;
			if (!def) {
				bs_set(live, k);
				continue;
			}
			for (uint32_t q = 0; q < n; q++)
				if (q != (uint32_t)k && bs_has(live, q)) {
					bs_set(clash + (size_t)k * w, q);
					bs_set(clash + (size_t)q * w, k);
				}
			live[k / 64] &= ~(1ull << (k % 64));
		}
	}
	for (uint32_t k = 0; k < n; k++) {
		int32_t c = 0;
		for (bool taken = true; taken; c += taken) {
			taken = false;
			for (uint32_t q = 0; q < k && !taken; q++)
				taken = colour[q] == c && bs_has(clash + (size_t)k * w, q);
		}
		colour[k] = c;
		if ((uint32_t)c + 1 > ncolours)
			ncolours = c + 1;
	}
	for (size_t i = 0; i < ra->ir->insns.len; i++) {
		int32_t k = slot_access(&in[i], sl, base, &def);
		if (k >= 0)
			in[i].off = (int16_t)-(base + 8 * (colour[k] + 1));
	}
	ra->ir->stack_size = base + 8 * ncolours;
	free(gen);
	free(kill);
	free(lin);
	free(lout);
	free(clash);
	free(live);
	free(colour);
}

/*
 * After the rewrite to physical registers: a reload of a spill slot that
 * a register still holds (stored or loaded since, in the same block) is
 * dropped, or becomes a move. Spill code reloads before every use; in
 * big programs that is most of what runs. A register's copy is forgotten
 * when it is written, when the slot is stored from another register, at
 * calls (r0-r5) and at labels (other paths join there).
 */
static void drop_reloads(struct ir *ir, int32_t base)
{
	int16_t holds[NPHYS] = { 0 }; /* the spill slot a register mirrors, 0: none */
	struct ir_regs r;
	size_t o = 0;

	for (size_t k = 0; k < ir->insns.len; k++) {
		struct ir_insn i = ir->insns.data[k];
		bool ldx = i.kind == IR_INSN && i.code == (BPF_LDX | BPF_MEM | BPF_DW) && i.src == R10;
		bool stx = i.kind == IR_INSN && i.code == (BPF_STX | BPF_MEM | BPF_DW) && i.dst == R10;
		bool spill_slot = (ldx || stx) && -(int32_t)i.off > base;

		if (i.kind == IR_LABEL) {
			memset(holds, 0, sizeof(holds));
		} else if (ldx && spill_slot && i.dst < NPHYS) {
			int p = -1;
			for (int q = 0; q < NPHYS && p < 0; q++)
				if (holds[q] == i.off)
					p = q;
			if (p == i.dst)
				continue; /* it is there already */
			if (p >= 0)
				i = (struct ir_insn)MOV64_REG(i.dst, p);
			holds[i.dst] = ir->insns.data[k].off;
			ir->insns.data[o++] = i;
			continue;
		} else if (stx && spill_slot && i.src < NPHYS) {
			for (int q = 0; q < NPHYS; q++)
				if (holds[q] == i.off)
					holds[q] = 0;
			holds[i.src] = i.off;
			ir->insns.data[o++] = i;
			continue;
		} else {
			ir_regs_of(&i, &r);
			for (int d = 0; d < r.ndef; d++)
				if (r.def[d] < NPHYS)
					holds[r.def[d]] = 0;
		}
		ir->insns.data[o++] = i;
	}
	ir->insns.len = o;
}

/* Spilled values may use stack far past 512 bytes before their slots are packed. */
#define SPILL_STACK_MAX 8192

static int alloc_one(struct ir *ir, char *err, size_t errlen)
{
	uint8_t *is_temp = NULL;
	uint32_t temp_cap = 0;
	struct ra ra;
	int rounds = 0;
	struct slots sl = { 0 };
	int32_t base = (int32_t)ir->stack_size;

	for (;;) {
		memset(&ra, 0, sizeof(ra));
		ra.ir = ir;
		ra.n = ir->insns.len;
		ra.nregs = ir->next_vreg;
		ra.words = (ra.nregs + 63) / 64;
		build_blocks(&ra);
		liveness(&ra);
		ra.lo = util_xmalloc(sizeof(int32_t) * ra.nregs);
		ra.hi = util_xmalloc(sizeof(int32_t) * ra.nregs);
		ra.busy = util_xcalloc((size_t)NPHYS * (2 * ra.n + 2), 1);
		ra.assign = util_xmalloc(ra.nregs);
		ra.hint = util_xmalloc(ra.nregs);
		memset(ra.assign, -1, ra.nregs);
		memset(ra.hint, -1, ra.nregs);
		intervals(&ra);
		hints(&ra);

		int32_t victims[VICTIMS_MAX];
		int nvict = try_allocate(&ra, is_temp, temp_cap, victims);
		if (nvict == 0)
			break;
		ra_free(&ra);
		if (nvict < 0 || ir->stack_size + 8 * (uint32_t)nvict > SPILL_STACK_MAX || ++rounds > 1000) {
			snprintf(err, errlen,
				 "the program needs more registers and stack than eBPF allows (%u bytes of stack)",
				 ir->stack_size);
			free(is_temp);
			free(sl.v);
			return -1;
		}
		spill(ir, victims, nvict, &is_temp, &temp_cap, &sl);
	}
	uint32_t sl_n = sl.n;
	if (sl.n)
		pack_slots(&ra, &sl, base);
	free(sl.v);
	if (ir->stack_size > 512) {
		snprintf(err, errlen,
			 "the program needs more registers and stack than eBPF allows (%u bytes of stack)",
			 ir->stack_size);
		ra_free(&ra);
		free(is_temp);
		return -1;
	}

	/* Rewrite to physical registers, dropping moves to self. */
	size_t o = 0;
	for (size_t k = 0; k < ir->insns.len; k++) {
		struct ir_insn i = ir->insns.data[k];
		if (i.dst >= VREG0)
			i.dst = ra.assign[i.dst] >= 0 ? ra.assign[i.dst] : R0;
		if (i.src >= VREG0)
			i.src = ra.assign[i.src] >= 0 ? ra.assign[i.src] : R0;
		if (i.kind == IR_INSN && (i.code == (BPF_ALU64 | BPF_MOV | BPF_X)) && i.dst == i.src)
			continue;
		if (i.kind == IR_INSN && i.code == (BPF_ALU64 | BPF_ADD | BPF_K) && i.imm == 0 && !i.lconst)
			continue;
		ir->insns.data[o++] = i;
	}
	ir->insns.len = o;
	if (sl_n)
		drop_reloads(ir, base);
	ra_free(&ra);
	free(is_temp);
	return 0;
}

/* The verifier counts each frame rounded up to 32 bytes, along every chain of calls. */
static uint32_t frame(const struct ir *f)
{
	return ALIGN_UP(f->stack_size ? f->stack_size : 1, 32);
}

int ir_regalloc(struct ir *ir, char *err, size_t errlen)
{
	if (alloc_one(ir, err, errlen) < 0)
		return -1;
	for (size_t k = 0; k < ir->subs.len; k++) {
		struct ir *sub = ir->subs.data[k];
		uint32_t depth = frame(ir);

		if (alloc_one(sub, err, errlen) < 0)
			return -1;
		for (const struct ir *f = sub; f; f = f->parent >= 0 ? ir->subs.data[f->parent] : NULL)
			depth += frame(f);
		if (depth > 512) {
			snprintf(err, errlen,
				 "the program and its loops' bodies need %u bytes of stack; eBPF allows 512",
				 depth);
			return -1;
		}
	}
	return 0;
}

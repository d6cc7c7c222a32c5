// SPDX-License-Identifier: MIT
/*
 * Maps in generated code: keys, lookups, updates, aggregations, and the
 * ring buffer records that carry printf() and friends to user space.
 *
 * Aggregations live in per-CPU maps: each CPU updates its own copy without
 * atomics and user space merges the copies when it prints.
 */
#include "codegen/gen.h"
#include "maps/buckets.h"
#include "maps/ustacks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct loc gen_map_key(struct gen *g, struct map_info *m, struct expr_list *keys)
{
	struct loc k = gen_temp_alloc(g, m->key_size);

	if (!m->key) {
		gen_zero(g, k.base, k.off, m->key_size);
		return k;
	}
	if (plan_map_key_whole(g->p, keys)) {
		/* @m[$t], $t a tuple: the keys (today's bpftrace) */
		gen_expr_into(g, keys->v[0], m->key, k.base, k.off);
	} else {
		for (uint32_t i = 0; i < m->key->nfields && i < keys->n; i++)
			gen_expr_into(g, keys->v[i], m->key->fields[i].type, k.base,
				      k.off + m->key->fields[i].offset);
	}
	if (m->key_size > m->key->size + 8) /* the padding before a bucket's u64 */
		gen_zero(g, k.base, k.off + (int32_t)m->key->size, m->key_size - 8 - m->key->size);
	return k;
}

int32_t gen_map_lookup(struct gen *g, struct map_info *m, struct loc key)
{
	int32_t p = ir_vreg(g->ir);

	// p = map_lookup_elem(&map, key)
	emit(g->ir, LD_MAP(R1, m->bpf_map));
	emit(g->ir, MOV64_REG(R2, key.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, key.off));
	emit(g->ir, CALL(BPF_FUNC_map_lookup_elem, 2));
	emit(g->ir, MOV64_REG(p, R0));
	return p;
}

/* lost[slot]++ (this CPU's): the counters of what could not be sent or stored */
static void count_in_lost(struct gen *g, uint32_t slot)
{
	int32_t done = ir_label(g->ir), x = ir_vreg(g->ir);
	struct loc key = gen_temp_alloc(g, 8);

	// p = map_lookup_elem(&lost, &slot); if (p) *p += 1
	emit(g->ir, ST_MEM(BPF_DW, key.base, key.off, slot));
	emit(g->ir, LD_MAP(R1, g->p->maps.lost));
	emit(g->ir, MOV64_REG(R2, key.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, key.off));
	emit(g->ir, CALL(BPF_FUNC_map_lookup_elem, 2));
	emit(g->ir, JMP_IMM(BPF_JEQ, R0, 0, done));
	emit(g->ir, LDX_MEM(BPF_DW, x, R0, 0));
	emit(g->ir, ALU64_IMM(BPF_ADD, x, 1));
	emit(g->ir, STX_MEM(BPF_DW, R0, x, 0));
	emit(g->ir, LABEL(done));
}

void gen_map_update(struct gen *g, struct map_info *m, struct loc key, struct loc val)
{
	// map_update_elem(&map, key, val, BPF_ANY)
	emit(g->ir, LD_MAP(R1, m->bpf_map));
	emit(g->ir, MOV64_REG(R2, key.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, key.off));
	emit(g->ir, MOV64_REG(R3, val.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R3, val.off));
	emit(g->ir, MOV64_IMM(R4, BPF_ANY));
	emit(g->ir, CALL(BPF_FUNC_map_update_elem, 4));
	gen_helper_check(g, BPF_FUNC_map_update_elem, g->span);
	if (m->array)
		return;
	// if (r0 == -E2BIG) lost[1 + map]++: the map is full, said at exit
	int32_t ok = ir_label(g->ir);
	emit(g->ir, JMP_IMM(BPF_JNE, R0, -E2BIG, ok));
	count_in_lost(g, 1 + (uint32_t)m->bpf_map);
	emit(g->ir, LABEL(ok));
}

struct val gen_map_read(struct gen *g, struct expr *e)
{
	struct map_info *m = e->info;
	struct type *t = m->value;
	struct loc key = gen_map_key(g, m, &e->u.map.keys);
	if (type_is_agg(t)) /* count(), sum(), ...: over every CPU */
		return reg_val(e->type, gen_percpu_value(g, m, gen_addr(g, key.base, key.off)));
	int32_t p = gen_map_lookup(g, m, key);
	int32_t missing = ir_label(g->ir), done = ir_label(g->ir);

	gen_lookup_check(g, p, e->span);
	if (type_is_scalar(t)) {
		// r = p ? *p : 0
		int32_t r = ir_vreg(g->ir);
		emit(g->ir, MOV64_IMM(r, 0));
		emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, done));
		emit(g->ir, LDX_MEM(BPF_DW, r, p, 0));
		emit(g->ir, LABEL(done));
		return reg_val(t, r);
	}
	// copy the value out, or zeroes when the key is missing
	uint32_t off = gen_scratch_alloc(g, t->size);
	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, missing));
	gen_copy(g, g->scratch, off, p, 0, t->size);
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(missing));
	gen_zero(g, g->scratch, off, t->size);
	emit(g->ir, LABEL(done));
	return mem_val(t, g->scratch, off);
}

static void alu_reg(struct gen *g, enum op op, int32_t dst, int32_t src)
{
	static const uint8_t alu[OP_COUNT_] = {
		[OP_ADD] = BPF_ADD, [OP_SUB] = BPF_SUB, [OP_MUL] = BPF_MUL, [OP_DIV] = BPF_DIV,
		[OP_MOD] = BPF_MOD, [OP_BAND] = BPF_AND, [OP_BOR] = BPF_OR, [OP_BXOR] = BPF_XOR,
		[OP_SHL] = BPF_LSH, [OP_SHR] = BPF_RSH,
	};
	emit(g->ir, ALU64_REG(alu[op], dst, src));
}

/* A compound assignment's operator as user space applies it (maps/ustacks.h) */
static int upd_op_of(enum op op)
{
	static const uint8_t ops[OP_COUNT_] = {
		[OP_ADD] = UPD_ADD, [OP_SUB] = UPD_SUB, [OP_MUL] = UPD_MUL, [OP_DIV] = UPD_DIV,
		[OP_MOD] = UPD_MOD, [OP_BAND] = UPD_AND, [OP_BOR] = UPD_OR, [OP_BXOR] = UPD_XOR,
		[OP_SHL] = UPD_SHL, [OP_SHR] = UPD_SHR,
	};
	return ops[op] ? ops[op] : UPD_ADD;
}

/* @m[k] op= amount: in place when the key exists, else insert (0 op amount). */
static void gen_map_compound(struct gen *g, struct expr *target, enum op op, int32_t amount)
{
	struct map_info *m = target->info;
	struct loc key = gen_map_key(g, m, &target->u.map.keys);
	int32_t init = ir_label(g->ir), done = ir_label(g->ir);
	int32_t x = ir_vreg(g->ir);

	if (gen_ustack_divert_key(g, m))
		gen_ustack_divert(g, m, key, upd_op_of(op), amount, NULL, done);
	int32_t p = gen_map_lookup(g, m, key);
	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, init));
	if (op == OP_ADD || op == OP_SUB) {
		// lock *(u64 *)p += amount (or -amount)
		emit(g->ir, MOV64_REG(x, amount));
		if (op == OP_SUB)
			emit(g->ir, NEG64(x));
		emit(g->ir, ATOMIC_ADD(BPF_DW, p, x, 0));
	} else {
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 0));
		alu_reg(g, op, x, amount);
		emit(g->ir, STX_MEM(BPF_DW, p, x, 0));
	}
	emit(g->ir, JA(done));

	emit(g->ir, LABEL(init));
	struct loc val = gen_temp_alloc(g, 8);
	emit(g->ir, MOV64_IMM(x, 0));
	alu_reg(g, op, x, amount);
	emit(g->ir, STX_MEM(BPF_DW, val.base, x, val.off));
	gen_map_update(g, m, key, val);
	emit(g->ir, LABEL(done));
}

void gen_map_incdec(struct gen *g, struct expr *map, int64_t delta, struct expr *amount)
{
	int32_t a = amount ? gen_scalar(g, amount) : ir_vreg(g->ir);
	struct map_info *m = map->info;

	/* a pointer moves by the size of what it points to */
	if (m->value && m->value->kind == TY_PTR)
		delta *= (int64_t)type_step(m->value);
	if (!amount)
		emit(g->ir, MOV64_IMM(a, (int32_t)delta));
	gen_map_compound(g, map, OP_ADD, a);
}

static int32_t gen_hist_bucket(struct gen *g, int32_t v);

/*
 * b = hist(v, k)'s bucket, k > 0 (maps/buckets.h): v + 1 below 2^k, else
 * from l, the highest set bit: ((l - k + 1) << k | the k bits after it) + 1
 */
static int32_t gen_hist_k_bucket(struct gen *g, int32_t v, uint32_t k)
{
	int32_t b = ir_vreg(g->ir), l, x = ir_vreg(g->ir), done = ir_label(g->ir);

	// if (v < 0) b = 0; else if (v < 2^k) b = v + 1
	emit(g->ir, MOV64_IMM(b, 0));
	emit(g->ir, JMP_IMM(BPF_JSLT, v, 0, done));
	emit(g->ir, MOV64_REG(b, v));
	emit(g->ir, ALU64_IMM(BPF_ADD, b, 1));
	emit(g->ir, JMP_IMM(BPF_JLT, v, 1 << k, done));
	// l = floor(log2(v)) - k (the log2 bucket is floor(log2(v)) + 2)
	l = gen_hist_bucket(g, v);
	emit(g->ir, ALU64_IMM(BPF_SUB, l, 2 + k));
	// x = (v >> l) & (2^k - 1); b = ((l + 1) << k | x) + 1
	emit(g->ir, MOV64_REG(x, v));
	emit(g->ir, ALU64_REG(BPF_RSH, x, l));
	emit(g->ir, ALU64_IMM(BPF_AND, x, (1 << k) - 1));
	emit(g->ir, MOV64_REG(b, l));
	emit(g->ir, ALU64_IMM(BPF_ADD, b, 1));
	emit(g->ir, ALU64_IMM(BPF_LSH, b, k));
	emit(g->ir, ALU64_REG(BPF_OR, b, x));
	emit(g->ir, ALU64_IMM(BPF_ADD, b, 1));
	emit(g->ir, LABEL(done));
	return b;
}

/* b = log2 bucket of v (see output/hist.h) */
static int32_t gen_hist_bucket(struct gen *g, int32_t v)
{
	static const int steps[] = { 32, 16, 8, 4, 2, 1 };
	int32_t b = ir_vreg(g->ir), t = ir_vreg(g->ir), x = ir_vreg(g->ir);
	int32_t done = ir_label(g->ir);

	emit(g->ir, MOV64_IMM(b, 0));
	emit(g->ir, JMP_IMM(BPF_JSLT, v, 0, done));
	emit(g->ir, MOV64_IMM(b, 1));
	emit(g->ir, JMP_IMM(BPF_JEQ, v, 0, done));
	// b = 2 + floor(log2(v)), by halving the width each step
	emit(g->ir, MOV64_IMM(b, 2));
	emit(g->ir, MOV64_REG(t, v));
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		int32_t skip = ir_label(g->ir);
		emit(g->ir, MOV64_REG(x, t));
		emit(g->ir, ALU64_IMM(BPF_RSH, x, steps[i]));
		emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, skip));
		emit(g->ir, MOV64_REG(t, x));
		emit(g->ir, ALU64_IMM(BPF_ADD, b, steps[i]));
		emit(g->ir, LABEL(skip));
	}
	emit(g->ir, LABEL(done));
	return b;
}

/* b = linear bucket of v for lhist(min, max, step) (see output/hist.h) */
static int32_t gen_lhist_bucket(struct gen *g, int32_t v, struct type *t)
{
	int32_t b = ir_vreg(g->ir), done = ir_label(g->ir);
	uint32_t last = maps_lhist_nbuckets(t->lmin, t->lmax, t->lstep) - 1;

	emit(g->ir, MOV64_IMM(b, 0));
	emit(g->ir, JMP_IMM(BPF_JSLT, v, (int32_t)t->lmin, done));
	emit(g->ir, MOV64_IMM(b, last));
	emit(g->ir, JMP_IMM(BPF_JSGE, v, (int32_t)t->lmax, done));
	// b = (v - min) / step + 1
	emit(g->ir, MOV64_REG(b, v));
	emit(g->ir, ALU64_IMM(BPF_SUB, b, (int32_t)t->lmin));
	emit(g->ir, ALU64_IMM(BPF_DIV, b, (int32_t)t->lstep));
	emit(g->ir, ALU64_IMM(BPF_ADD, b, 1));
	emit(g->ir, LABEL(done));
	return b;
}

/*
 * hist(v), lhist(v): v added to the key's HIST_SUM_BUCKET too, when an
 * output wants the sum (Prometheus). key holds the user key.
 */
static void gen_hist_sum(struct gen *g, struct map_info *m, struct loc key, int32_t v)
{
	int32_t init = ir_label(g->ir), done = ir_label(g->ir);
	int32_t x = ir_vreg(g->ir);

	emit(g->ir, ST_MEM(BPF_DW, key.base, key.off + m->key_size - 8, -1)); /* UINT64_MAX */
	int32_t p = gen_map_lookup(g, m, key);
	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, init));
	emit(g->ir, LDX_MEM(BPF_DW, x, p, 0));
	emit(g->ir, ALU64_REG(BPF_ADD, x, v));
	emit(g->ir, STX_MEM(BPF_DW, p, x, 0));
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(init));
	struct loc val = gen_temp_alloc(g, 8);
	emit(g->ir, STX_MEM(BPF_DW, val.base, v, val.off));
	gen_map_update(g, m, key, val);
	emit(g->ir, LABEL(done));
}

/* @m[k] = count() / sum(v) / min(v) / max(v) / avg(v) / stats(v) / hist(v) / lhist(v, ...) */
/*
 * tseries' clock: sw_tai (the boot clock plus the TAI offset at load), or
 * with BPFTRACE_DUMMY_TS_MAP=@name (bpftrace's test hook) the value of
 * that scalar map
 */
static int32_t ts_now(struct gen *g)
{
	const char *dummy = getenv("BPFTRACE_DUMMY_TS_MAP");
	int32_t now = ir_vreg(g->ir);

	if (dummy && *dummy == '@') {
		vec_foreach(&g->p->maps.user, mp)
		{
			struct map_info *tm = *mp;
			if (strcmp(tm->name, dummy + 1) || tm->key || tm->bpf_map < 0 || !tm->value ||
			    tm->value->kind != TY_INT)
				continue;
			struct expr_list none = { 0 };
			int32_t got = ir_label(g->ir);
			struct loc key = gen_map_key(g, tm, &none);
			int32_t p = gen_map_lookup(g, tm, key);
			emit(g->ir, MOV64_IMM(now, 0));
			emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, got));
			emit(g->ir, LDX_MEM(BPF_DW, now, p, 0));
			emit(g->ir, LABEL(got));
			return now;
		}
	}
	int32_t off = ir_vreg(g->ir);
	emit(g->ir, CALL(BPF_FUNC_ktime_get_boot_ns, 0));
	emit(g->ir, MOV64_REG(now, R0));
	emit(g->ir, LD_CONST(off, LC_TAI_OFFSET));
	emit(g->ir, ALU64_REG(BPF_ADD, now, off));
	return now;
}

/*
 * @m[k] = tseries(v, interval, n [, agg]): the interval of now (its
 * epoch, now / interval) has slot epoch % n in the key; that slot's
 * bucket on this CPU restarts when it held an older interval (its
 * aggregation of the new one begins), then takes v as agg says
 */
static void gen_tseries(struct gen *g, struct expr *target, struct expr *call)
{
	struct map_info *m = target->info;
	struct type *t = m->value;
	int32_t v = gen_scalar(g, call->u.call.args.v[0]);
	int32_t now = ts_now(g), epoch = ir_vreg(g->ir), slot = ir_vreg(g->ir), x = ir_vreg(g->ir);
	int32_t init = ir_label(g->ir), done = ir_label(g->ir), same = ir_label(g->ir);
	const int32_t VAL = offsetof(struct ts_bucket, val), META = offsetof(struct ts_bucket, meta),
		      EPOCH = offsetof(struct ts_bucket, epoch);

	emit(g->ir, LD_IMM64(x, t->lstep));
	emit(g->ir, MOV64_REG(epoch, now));
	emit(g->ir, ALU64_REG(BPF_DIV, epoch, x));
	emit(g->ir, LD_IMM64(x, (int64_t)t->count));
	emit(g->ir, MOV64_REG(slot, epoch));
	emit(g->ir, ALU64_REG(BPF_MOD, slot, x));
	struct loc key = gen_map_key(g, m, &target->u.map.keys);
	emit(g->ir, STX_MEM(BPF_DW, key.base, slot, key.off + m->key_size - 8));
	int32_t p = gen_map_lookup(g, m, key);
	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, init));
	if (t->lmin != TS_LAST) {
		// another interval's: start over
		emit(g->ir, LDX_MEM(BPF_DW, x, p, EPOCH));
		emit(g->ir, JMP_REG(BPF_JEQ, x, epoch, same));
		emit(g->ir, ST_MEM(BPF_DW, p, VAL, 0));
		emit(g->ir, ST_MEM(BPF_DW, p, META, 0));
		emit(g->ir, LABEL(same));
	}
	switch ((enum ts_agg)t->lmin) {
	case TS_AVG:
		emit(g->ir, LDX_MEM(BPF_DW, x, p, META));
		emit(g->ir, ALU64_IMM(BPF_ADD, x, 1));
		emit(g->ir, STX_MEM(BPF_DW, p, x, META));
		/* fall through */
	case TS_SUM:
		emit(g->ir, LDX_MEM(BPF_DW, x, p, VAL));
		emit(g->ir, ALU64_REG(BPF_ADD, x, v));
		emit(g->ir, STX_MEM(BPF_DW, p, x, VAL));
		break;
	case TS_MIN:
	case TS_MAX: {
		// if (!p->meta || v < p->val) p->val = v (> for max); p->meta = 1
		uint8_t keep = t->lmin == TS_MIN ? (t->is_signed ? BPF_JSGE : BPF_JGE)
						 : (t->is_signed ? BPF_JSLE : BPF_JLE);
		int32_t store = ir_label(g->ir), kept = ir_label(g->ir);
		emit(g->ir, LDX_MEM(BPF_DW, x, p, META));
		emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, store));
		emit(g->ir, LDX_MEM(BPF_DW, x, p, VAL));
		emit(g->ir, JMP_REG(keep, v, x, kept));
		emit(g->ir, LABEL(store));
		emit(g->ir, STX_MEM(BPF_DW, p, v, VAL));
		emit(g->ir, LABEL(kept));
		emit(g->ir, ST_MEM(BPF_DW, p, META, 1));
		break;
	}
	case TS_LAST:
		emit(g->ir, STX_MEM(BPF_DW, p, v, VAL));
		emit(g->ir, STX_MEM(BPF_DW, p, now, META));
		break;
	}
	emit(g->ir, STX_MEM(BPF_DW, p, epoch, EPOCH));
	emit(g->ir, JA(done));

	emit(g->ir, LABEL(init));
	// the slot's first bucket on this CPU
	struct loc val = gen_temp_alloc(g, t->size);
	emit(g->ir, STX_MEM(BPF_DW, val.base, v, val.off + VAL));
	if (t->lmin == TS_LAST)
		emit(g->ir, STX_MEM(BPF_DW, val.base, now, val.off + META));
	else
		emit(g->ir, ST_MEM(BPF_DW, val.base, val.off + META, t->lmin == TS_SUM ? 0 : 1));
	emit(g->ir, STX_MEM(BPF_DW, val.base, epoch, val.off + EPOCH));
	gen_map_update(g, m, key, val);
	emit(g->ir, LABEL(done));
}

static void gen_agg(struct gen *g, struct expr *target, struct expr *call)
{
	struct map_info *m = target->info;
	struct type *t = m->value;
	enum type_kind k = t->kind;
	int32_t v = -1;
	if (k == TY_TSERIES) {
		gen_tseries(g, target, call);
		return;
	}
	int32_t init = ir_label(g->ir), done = ir_label(g->ir), store = ir_label(g->ir);
	int32_t end = gen_ustack_divert_key(g, m) ? ir_label(g->ir) : -1;

	if (k != TY_COUNT)
		v = gen_scalar(g, call->u.call.args.v[0]);
	struct loc key = gen_map_key(g, m, &target->u.map.keys);
	if (gen_ustack_divert_key(g, m)) {
		int32_t zero = v;
		if (zero < 0) { /* count(): no value */
			zero = ir_vreg(g->ir);
			emit(g->ir, MOV64_IMM(zero, 0));
		}
		gen_ustack_divert(g, m, key, UPD_AGG, zero, NULL, end);
	}
	if (k == TY_HIST || k == TY_LHIST) {
		int32_t b = k == TY_HIST ? (t->count ? gen_hist_k_bucket(g, v, t->count)
						     : gen_hist_bucket(g, v))
					 : gen_lhist_bucket(g, v, t);
		emit(g->ir, STX_MEM(BPF_DW, key.base, b, key.off + m->key_size - 8));
	}
	int32_t p = gen_map_lookup(g, m, key);
	int32_t x = ir_vreg(g->ir);

	emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, m->array ? done : init));
	switch (k) {
	case TY_COUNT:
	case TY_HIST:
	case TY_LHIST:
		// (*p)++ on this CPU's copy
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 0));
		emit(g->ir, ALU64_IMM(BPF_ADD, x, 1));
		emit(g->ir, STX_MEM(BPF_DW, p, x, 0));
		break;
	case TY_SUM:
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 0));
		emit(g->ir, ALU64_REG(BPF_ADD, x, v));
		emit(g->ir, STX_MEM(BPF_DW, p, x, 0));
		break;
	case TY_MIN:
	case TY_MAX: {
		// if (!p->set || v < p->value) { p->value = v; p->set = 1; }   (> for max)
		uint8_t keep = k == TY_MIN ? (t->is_signed ? BPF_JSGE : BPF_JGE)
					   : (t->is_signed ? BPF_JSLE : BPF_JLE);
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 8));
		emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, store));
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 0));
		emit(g->ir, JMP_REG(keep, v, x, done));
		emit(g->ir, LABEL(store));
		emit(g->ir, STX_MEM(BPF_DW, p, v, 0));
		emit(g->ir, ST_MEM(BPF_DW, p, 8, 1));
		break;
	}
	case TY_AVG:
	case TY_STATS:
		// p->total += v; p->count++
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 0));
		emit(g->ir, ALU64_REG(BPF_ADD, x, v));
		emit(g->ir, STX_MEM(BPF_DW, p, x, 0));
		emit(g->ir, LDX_MEM(BPF_DW, x, p, 8));
		emit(g->ir, ALU64_IMM(BPF_ADD, x, 1));
		emit(g->ir, STX_MEM(BPF_DW, p, x, 8));
		break;
	default:
		gen_error(g, call->span, "internal error: %s is not an aggregation", type_str_of(t));
		return;
	}
	emit(g->ir, JA(done));

	emit(g->ir, LABEL(init));
	if (!m->array) {
		// first value for this key on this CPU
		struct loc val = gen_temp_alloc(g, t->size);
		if (v < 0 || k == TY_HIST || k == TY_LHIST)
			emit(g->ir, ST_MEM(BPF_DW, val.base, val.off, 1));
		else
			emit(g->ir, STX_MEM(BPF_DW, val.base, v, val.off));
		if (t->size == 16)
			emit(g->ir, ST_MEM(BPF_DW, val.base, val.off + 8, 1));
		gen_map_update(g, m, key, val);
	}
	emit(g->ir, LABEL(done));
	if ((k == TY_HIST || k == TY_LHIST) && g->p->opts->hist_sums)
		gen_hist_sum(g, m, key, v);
	if (end >= 0)
		emit(g->ir, LABEL(end));
}

void gen_assign_map(struct gen *g, struct stmt *st)
{
	struct expr *target = st->u.assign.target, *v = st->u.assign.value;
	struct map_info *m = target->info;

	if (v->kind == EXPR_CALL && v->fn && v->fn->kind == FK_AGG) {
		gen_agg(g, target, v);
		return;
	}
	if (st->u.assign.op != OP_NONE) {
		int32_t n = gen_scalar(g, v);
		if (m->value->kind == TY_PTR)
			n = gen_ptr_scale(g, n, m->value); /* @p += n: n elements on */
		gen_map_compound(g, target, st->u.assign.op, n);
		return;
	}
	struct loc val = gen_temp_alloc(g, m->value->size);
	gen_expr_into(g, v, m->value, val.base, val.off);
	struct loc key = gen_map_key(g, m, &target->u.map.keys);
	int32_t done = gen_ustack_divert_key(g, m) ? ir_label(g->ir) : -1;
	if (done >= 0)
		gen_ustack_divert(g, m, key, UPD_STORE, -1, &val, done);
	gen_map_update(g, m, key, val);
	if (done >= 0)
		emit(g->ir, LABEL(done));
}

void gen_output(struct gen *g, uint32_t off, uint32_t size, bool urgent)
{
	int32_t ok = ir_label(g->ir), send = ir_label(g->ir);
	const struct map_set *ms = &g->p->maps;
	int32_t flags = ir_vreg(g->ir);

	if (urgent) {
		emit(g->ir, MOV64_IMM(flags, BPF_RB_FORCE_WAKEUP));
	} else {
		// flags = ringbuf_query(&rb, AVAIL_DATA) > size / 2 ? FORCE_WAKEUP : NO_WAKEUP
		uint32_t half = ms->bpf.data[ms->ringbuf].max_entries / 2;
		emit(g->ir, LD_MAP(R1, ms->ringbuf));
		emit(g->ir, MOV64_IMM(R2, BPF_RB_AVAIL_DATA));
		emit(g->ir, CALL(BPF_FUNC_ringbuf_query, 2));
		emit(g->ir, MOV64_IMM(flags, BPF_RB_NO_WAKEUP));
		emit(g->ir, JMP_IMM(BPF_JLE, R0, half, send));
		emit(g->ir, MOV64_IMM(flags, BPF_RB_FORCE_WAKEUP));
		emit(g->ir, LABEL(send));
	}
	// if (ringbuf_output(&rb, scratch + off, size, flags) < 0) lost[0]++
	emit(g->ir, LD_MAP(R1, ms->ringbuf));
	emit(g->ir, MOV64_REG(R2, g->scratch));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, off));
	emit(g->ir, MOV64_IMM(R3, size));
	emit(g->ir, MOV64_REG(R4, flags));
	emit(g->ir, CALL(BPF_FUNC_ringbuf_output, 4));
	emit(g->ir, JMP_IMM(BPF_JEQ, R0, 0, ok));
	count_in_lost(g, 0);
	emit(g->ir, LABEL(ok));
}

// SPDX-License-Identifier: MIT
/* Builtin variables and functions: their code (the gen column of ast/builtin.def). */
#include "codegen/gen.h"
#include "codegen/gen_stdlib.h"
#include "maps/ustacks.h"
#include "plan/provider.h"
#include "sym/symbols.h"
#include "sys/arch.h"

#include <stdlib.h>
#include <string.h>

/* r = helper() */
static int32_t call0(struct gen *g, int32_t helper)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, CALL(helper, 0));
	emit(g->ir, MOV64_REG(r, R0));
	return r;
}

/* the process id (the tgid: bpftrace's pid) */
/* The process id as lantern's /proc knows it (its pid namespace's): for its mappings */
static int32_t gen_pid(struct gen *g)
{
	return gen_task_id(g, true, false);
}

struct val gen_builtin(struct gen *g, struct expr *e)
{
	struct type *t = e->type;
	int32_t r;

	switch ((enum builtin_id)e->id) {
	case BI_PID:
	case BI_TID:
		/* today's bpftrace: as lantern's pid namespace sees them (pid(curr_ns)) */
		return reg_val(t, gen_task_id(g, e->id == BI_PID, !g->p->modern));
	case BI_UID:
	case BI_GID:
		r = call0(g, BPF_FUNC_get_current_uid_gid);
		if (e->id == BI_GID)
			emit(g->ir, ALU64_IMM(BPF_RSH, r, 32));
		else
			emit(g->ir, MOV32_REG(r, r));
		return reg_val(t, r);
	case BI_NSECS:
		/* today's bpftrace: nsecs(boot) */
		return reg_val(t, call0(g, g->p->modern ? BPF_FUNC_ktime_get_boot_ns
						       : BPF_FUNC_ktime_get_ns));
	case BI_ELAPSED: {
		// elapsed = ktime_get_ns() - start of the session
		int32_t start = ir_vreg(g->ir);
		r = call0(g, BPF_FUNC_ktime_get_ns);
		emit(g->ir, LD_CONST(start, LC_START_NS));
		emit(g->ir, ALU64_REG(BPF_SUB, r, start));
		return reg_val(t, r);
	}
	case BI_CPU:
		return reg_val(t, call0(g, BPF_FUNC_get_smp_processor_id));
	case BI_RAND:
		return reg_val(t, call0(g, BPF_FUNC_get_prandom_u32));
	case BI_CGROUP:
		return reg_val(t, call0(g, BPF_FUNC_get_current_cgroup_id));
	case BI_NUMAID:
		return reg_val(t, call0(g, BPF_FUNC_get_numa_node_id));
	case BI_JIFFIES:
		return reg_val(t, call0(g, BPF_FUNC_jiffies64));
	case BI_CTX:
		// r = ctx: the program's context, as the kernel passed it
		r = ir_vreg(g->ir);
		emit(g->ir, MOV64_REG(r, g->ctx));
		return reg_val(t, r);
	case BI_CURTASK:
		return reg_val(t, call0(g, BPF_FUNC_get_current_task));
	case BI_COMM: {
		uint32_t off = gen_scratch_alloc(g, t->size);
		gen_expr_into(g, e, t, g->scratch, off);
		return mem_val(t, g->scratch, off);
	}
	case BI_PROBE:
		if (g->probe_id >= 0) {
			r = ir_vreg(g->ir);
			emit(g->ir, MOV64_REG(r, g->probe_id));
			return reg_val(t, r);
		}
		return reg_val(t, gen_const(g, g->inst->probe_id));
	case BI_ARGS:
		if (t->kind == TY_RECORD) {
			/* args as one value (sema_args_value): each argument read into its field */
			uint32_t off = gen_scratch_alloc(g, t->size);
			/* zeroed first: the padding of a map key is part of it */
			for (uint32_t k = 0, w; k < t->size; k += w) {
				uint32_t left = t->size - k;
				w = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
				emit(g->ir, ST_MEM(w == 8 ? BPF_DW : w == 4 ? BPF_W : w == 2 ? BPF_H : BPF_B, g->scratch,
						   (int32_t)(off + k), 0));
			}
			for (uint32_t k = 0; k < t->nfields; k++)
				gen_expr_into(g, e->u.call.args.v[k], t->fields[k].type, g->scratch,
					      (int32_t)(off + t->fields[k].offset));
			return mem_val(t, g->scratch, off);
		}
		/* fall through */
	case BI_ARGN:
	case BI_RETVAL:
	case BI_FUNC:
		/* their provider's: sema accepted them only where it has them */
		return g->inst->prov->gen_builtin(g, e);
	case BI_KSTACK:
	case BI_USTACK:
		return gen_stack(g, e);
	case BI_USERNAME:
		return gen_username(g, e);
	case BI_SARGN:
		return gen_sarg(g, e);
	case BI_NCPUS:
		return gen_ncpus(g, e);
	case BI_USERMODE:
		return gen_usermode(g, e);
	case BI_HAS_CPID:
		return gen_has_cpid(g, e);
	case BI_PROBETYPE:
		return gen_probetype(g, e);
	case BI_CPID:
		r = ir_vreg(g->ir);
		emit(g->ir, MOV64_CONST(r, LC_CPID));
		return reg_val(t, r);
	default:
		gen_error(g, e->span, "%s is not supported here", e->u.name);
		return reg_val(t, gen_const(g, 0));
	}
}

/* The builtins' rows (ast/builtin.def): the generators */
static const gen_fn func_gens[FN_COUNT_] = {
#define VAR(id, name, type, check)
#define FUNC(id, name, min_args, max_args, kind, agg, check, gen) [id] = gen,
#include "ast/builtin.def"
#undef VAR
#undef FUNC
};

struct val gen_call(struct gen *g, struct expr *e)
{
	gen_fn gen = (unsigned)e->id < FN_COUNT_ ? func_gens[e->id] : NULL;

	if (!gen) {
		gen_error(g, e->span, "internal error: no code for %s()", e->u.call.name);
		return reg_val(&ty_s64, gen_const(g, 0));
	}
	return gen(g, e);
}

static struct val void_val(void)
{
	return (struct val){ .type = &ty_void, .reg = NO_REG };
}

/* A record: u64 id, then the arguments laid out as a tuple. */
void gen_record(struct gen *g, struct record_desc *r, struct expr **args, uint32_t nargs)
{
	struct type *el[64];
	uint32_t id;

	for (uint32_t i = 0; i < nargs; i++)
		el[i] = type_stored(&g->p->arena, args[i]->type);
	r->args = type_tuple(&g->p->arena, el, nargs);
	r->size = 8 + r->args->size;
	id = plan_add_record(g->p, r);

	uint32_t off = gen_scratch_alloc(g, r->size);
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, id));
	for (uint32_t i = 0; i < nargs; i++)
		gen_expr_into(g, args[i], r->args->fields[i].type, g->scratch,
			      off + 8 + r->args->fields[i].offset);
	gen_output(g, off, r->size, r->kind != REC_PRINTF);
}

struct val gen_call_printf(struct gen *g, struct expr *e)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);

	/* system() and cat() are printf whose text user space runs or reads */
	r->kind = e->id == FN_SYSTEM ? REC_SYSTEM : e->id == FN_CAT ? REC_CAT : REC_PRINTF;
	/* errorf() and warnf(): printf whose text is an error or warning at their place */
	if (e->id == FN_ERRORF || e->id == FN_WARNF)
		r->kind = e->id == FN_ERRORF ? REC_ERRORF : REC_WARNF;
	r->span = e->span;
	r->fmt = e->info;
	gen_record(g, r, e->u.call.args.v + 1, e->u.call.args.n - 1);
	return void_val();
}

struct val gen_call_exit(struct gen *g, struct expr *e)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);

	r->kind = REC_EXIT;
	gen_record(g, r, e->u.call.args.v, e->u.call.args.n);
	emit(g->ir, JA(g->out));
	return void_val();
}

/* unwatch(addr): user space removes the watchpoints on addr */
struct val gen_call_unwatch(struct gen *g, struct expr *e)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);

	r->kind = REC_UNWATCH;
	gen_record(g, r, e->u.call.args.v, 1);
	return void_val();
}

struct val gen_call_time(struct gen *g, struct expr *e)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);

	r->kind = REC_TIME;
	r->text = e->u.call.args.n ? e->u.call.args.v[0]->u.str : "%H:%M:%S\n";
	gen_record(g, r, NULL, 0);
	return void_val();
}

/*
 * join(argv [, delim]): a record of the id, how many strings, and the
 * strings of argv[0], argv[1], ... up to the first NULL (at most
 * JOIN_MAX_ARGS); user space joins them.
 */
struct val gen_call_join(struct gen *g, struct expr *e)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
	struct expr **a = e->u.call.args.v;
	int32_t argv = ir_vreg(g->ir), p = ir_vreg(g->ir), n = ir_vreg(g->ir);
	int32_t done = ir_label(g->ir);
	struct loc slot = gen_temp_alloc(g, 8);
	uint32_t off;

	r->kind = REC_JOIN;
	r->text = e->u.call.args.n == 2 ? a[1]->u.str : " ";
	r->size = 16 + JOIN_MAX_ARGS * JOIN_ARG_SIZE;
	off = gen_scratch_alloc(g, r->size);
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, plan_add_record(g->p, r)));
	emit(g->ir, MOV64_REG(argv, gen_scalar(g, a[0])));
	emit(g->ir, MOV64_IMM(n, 0));
	for (int i = 0; i < JOIN_MAX_ARGS; i++) {
		uint32_t str = off + 16 + (uint32_t)i * JOIN_ARG_SIZE;
		// p = argv[i] (user memory); stop at NULL or a read that fails
		emit(g->ir, MOV64_REG(p, argv));
		emit(g->ir, ALU64_IMM(BPF_ADD, p, i * 8));
		gen_zero(g, slot.base, slot.off, 8);
		gen_probe_read(g, slot.base, slot.off, 8, p, SPACE_USER, false);
		emit(g->ir, LDX_MEM(BPF_DW, p, slot.base, slot.off));
		emit(g->ir, JMP_IMM(BPF_JEQ, p, 0, done));
		emit(g->ir, ST_MEM(BPF_B, g->scratch, str, 0));
		gen_probe_read(g, g->scratch, str, JOIN_ARG_SIZE, p, SPACE_USER, true);
		emit(g->ir, MOV64_IMM(n, i + 1));
	}
	emit(g->ir, LABEL(done));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, n, off + 8));
	gen_output(g, off, r->size, false);
	return void_val();
}

/*
 * kstack, ustack: the id of the stack in its stack trace map (negative when
 * there is none), and for ustack the pid, whose mappings name its frames.
 */
struct val gen_stack(struct gen *g, struct expr *e)
{
	struct type *t = e->type;
	uint32_t off = gen_scratch_alloc(g, t->size);

	/* one frame is the pc: the kernel's walk gives it, with no snapshot */
	if (t->user && t->count > 1 && gen_ustack_dwarf(g)) {
		gen_ustack(g, t, off);
		return mem_val(t, g->scratch, off);
	}
	/*
	 * A tracepoint probe run as a raw tracepoint: its kernel stack would
	 * start with the program and bpf_trace_runN; skip them, so that it
	 * starts where a tracepoint's does (__traceiter_...), as bpftrace's
	 */
	uint64_t skip = !t->user && g->pg->raw_tp && g->inst->prov->id == PROV_TRACEPOINT ? 2 : 0;
	// id = get_stackid(ctx, &stacks, (user ? BPF_F_USER_STACK : 0) | frames to skip)
	emit(g->ir, MOV64_REG(R1, g->ctx));
	emit(g->ir, LD_MAP(R2, maps_stack_for(&g->p->maps, &g->p->arena, t)));
	emit(g->ir, MOV64_IMM(R3, (t->user ? BPF_F_USER_STACK : 0) | (int32_t)skip));
	emit(g->ir, CALL(BPF_FUNC_get_stackid, 3));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, R0, off));
	if (t->user)
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, gen_pid(g), off + 8));
	return mem_val(t, g->scratch, off);
}

/* ksym(addr), usym(addr): the address (and the pid, whose mappings name it) */
struct val gen_sym(struct gen *g, struct expr *e)
{
	struct type *t = e->type;
	uint32_t off = gen_scratch_alloc(g, t->size);

	emit(g->ir, STX_MEM(BPF_DW, g->scratch, gen_scalar(g, e->u.call.args.v[0]), off));
	if (t->user)
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, gen_pid(g), off + 8));
	return mem_val(t, g->scratch, off);
}

/* strftime(fmt, nsecs): the nanoseconds; user space formats them */
struct val gen_strftime(struct gen *g, struct expr *e)
{
	uint32_t off = gen_scratch_alloc(g, 8);

	emit(g->ir, STX_MEM(BPF_DW, g->scratch, gen_scalar(g, e->u.call.args.v[1]), off));
	return mem_val(e->type, g->scratch, off);
}

/* reg("name"): *(u64 *)(ctx + the register's offset in struct pt_regs) */
struct val gen_reg(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, LDX_MEM(BPF_DW, r, g->ctx, sys_arch_reg_offset(e->u.call.args.v[0]->u.str)));
	return reg_val(e->type, r);
}

/* uptr(p), kptr(p): only its type changes */
struct val gen_same(struct gen *g, struct expr *e)
{
	return reg_val(e->type, gen_scalar(g, e->u.call.args.v[0]));
}

/* kaddr("symbol"): a constant */
struct val gen_kaddr(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, LD_IMM64(r, (int64_t)sym_ksym_address(e->u.call.args.v[0]->u.str)));
	return reg_val(e->type, r);
}

/* uaddr("symbol"): made by the provider that resolved it (sema_check_uaddr) */
struct val gen_uaddr(struct gen *g, struct expr *e)
{
	return g->inst->prov->gen_builtin(g, e);
}

/* percpu_kaddr(name [, cpu]): bpf_this_cpu_ptr(&name), bpf_per_cpu_ptr(&name, cpu) */
struct val gen_percpu_kaddr(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir), cpu = -1;

	if (e->u.call.args.n > 1)
		cpu = gen_scalar(g, e->u.call.args.v[1]);
	emit(g->ir, LD_KSYM(R1, (uint32_t)(uintptr_t)e->info));
	if (cpu >= 0) {
		emit(g->ir, MOV64_REG(R2, cpu));
		emit(g->ir, CALL(BPF_FUNC_per_cpu_ptr, 2));
	} else {
		emit(g->ir, CALL(BPF_FUNC_this_cpu_ptr, 1));
	}
	emit(g->ir, MOV64_REG(r, R0));
	return reg_val(e->type, r);
}

/* print(@m), clear(@m), zero(@m), print(value): done by user space, in order with the output. */
struct val gen_call_map_op(struct gen *g, struct expr *e)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
	struct expr **a = e->u.call.args.v;

	if (a[0]->kind != EXPR_MAP || a[0]->u.map.keys.n) {
		/* print(value), print(@m[k]): the value, formatted by user space */
		r->kind = REC_PRINT_VALUE;
		gen_record(g, r, a, 1);
		return void_val();
	}
	r->kind = e->id == FN_PRINT ? REC_PRINT_MAP : e->id == FN_CLEAR ? REC_CLEAR_MAP : REC_ZERO_MAP;
	const int64_t *top_div = e->info; /* from sema */
	r->map = a[0]->info;
	r->top = top_div[0];
	r->div = top_div[1];
	gen_record(g, r, NULL, 0);
	return void_val();
}

struct val gen_call_delete(struct gen *g, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct map_info *m = a->info;

	if (m->array) {
		/*
		 * a keyless count() (a per-CPU array): reset, as 0.17's delete
		 * leaves "@: 0"; today's bpftrace's leaves no entry (a clear)
		 */
		struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
		r->kind = g->p->modern ? REC_CLEAR_MAP : REC_ZERO_MAP;
		r->map = m;
		gen_record(g, r, NULL, 0);
		return reg_val(e->type, gen_const(g, 1)); /* it was there */
	}
	struct loc key = gen_map_key(g, m, &a->u.map.keys);
	int32_t ret = ir_vreg(g->ir), r = ir_vreg(g->ir), done = ir_label(g->ir);
	int32_t diverted = gen_ustack_divert_key(g, m) ? ir_label(g->ir) : -1;

	if (diverted >= 0)
		gen_ustack_divert(g, m, key, UPD_DELETE, -1, NULL, diverted);
	// map_delete_elem(&map, key)
	emit(g->ir, LD_MAP(R1, m->bpf_map));
	emit(g->ir, MOV64_REG(R2, key.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R2, key.off));
	emit(g->ir, CALL(BPF_FUNC_map_delete_elem, 2));
	emit(g->ir, MOV64_REG(ret, R0));
	gen_helper_check(g, BPF_FUNC_map_delete_elem, e->span);
	// r = (ret == 0): the key was there
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, JMP_IMM(BPF_JEQ, ret, 0, done));
	emit(g->ir, MOV64_IMM(r, 0));
	if (diverted >= 0) {
		// a delete user space does (of a snapshot's stack): r = 1
		emit(g->ir, JA(done));
		emit(g->ir, LABEL(diverted));
		emit(g->ir, MOV64_IMM(r, 1));
	}
	emit(g->ir, LABEL(done));
	return reg_val(e->type, r);
}

struct val gen_call_str(struct gen *g, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct type *t = e->type;
	uint32_t off = gen_scratch_alloc(g, t->size);
	struct val res = mem_val(t, g->scratch, off);

	if (a->kind == EXPR_POSITIONAL) {
		/* str($1): the parameter's text, known now */
		uint32_t n = a->u.num;
		const char *text = plan_param(g->p, n) ? plan_param(g->p, n) : "";
		struct expr lit = { .kind = EXPR_STR, .type = t };
		lit.u.str = text;
		lit.u.len = strlen(text);
		gen_expr_into(g, &lit, t, g->scratch, off);
		return res;
	}
	if (a->type->kind == TY_STR)
		return gen_expr(g, a);

	int32_t p = gen_scalar(g, a);
	int32_t size = ir_vreg(g->ir);
	gen_zero(g, g->scratch, off, t->size);
	if (e->u.call.args.n == 2 && e->u.call.args.v[1]->kind != EXPR_INT) {
		// size = min(len + 1, t->size), as the verifier needs a bound
		int32_t ok = ir_label(g->ir);
		emit(g->ir, MOV64_REG(size, gen_scalar(g, e->u.call.args.v[1])));
		if (!g->p->modern) /* today's bpftrace counts the NUL in len */
			emit(g->ir, ALU64_IMM(BPF_ADD, size, 1));
		emit(g->ir, JMP_IMM(BPF_JLE, size, t->size, ok));
		emit(g->ir, MOV64_IMM(size, t->size));
		emit(g->ir, LABEL(ok));
	} else if (e->u.call.args.n == 2) {
		// str(p, N): N bytes at most, and the NUL (t->size is rounded up); today's: N with the NUL
		emit(g->ir, MOV64_IMM(size, MIN(e->u.call.args.v[1]->u.ival + !g->p->modern, t->size)));
	} else {
		/* today's bpftrace's reads a byte more: a string that fills it was cut */
		emit(g->ir, MOV64_IMM(size, t->count ? t->count + 1 : t->size));
	}
	/* User pointers by their type; plain addresses by value (the compat
	   helper picks user or kernel memory from the address). */
	int32_t fn = BPF_FUNC_probe_read_str;
	if (a->type->kind == TY_PTR && !a->type->any_space)
		fn = a->type->user ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_kernel_str;
	// fn(scratch + off, size, p)
	emit(g->ir, MOV64_REG(R3, p));
	emit(g->ir, MOV64_REG(R2, size));
	emit(g->ir, MOV64_REG(R1, g->scratch));
	emit(g->ir, ALU64_IMM(BPF_ADD, R1, off));
	emit(g->ir, CALL(fn, 3));
	gen_helper_check(g, fn, e->span);
	return res;
}

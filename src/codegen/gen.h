/* SPDX-License-Identifier: MIT */
/*
 * Code generation: typed AST -> IR, one program at a time.
 *
 * An expression's value is either in a register (integers, pointers, probe
 * ids) or in memory (strings, tuples): struct val says which. Memory values
 * live in the program's scratch area (see scratch.h), in a map value, or
 * wherever they were read from.
 */
#ifndef LANTERN_CODEGEN_GEN_H
#define LANTERN_CODEGEN_GEN_H

#include "ast/ast.h"
#include "ast/builtin.h"
#include "codegen/ir.h"
#include "plan/plan.h"

struct val {
	struct type *type;
	bool mem;    /* in memory at reg + off; else the value is in reg */
	bool ext;    /* mem: memory outside the program, read with probe_read (gen_ptr.c) */
	uint8_t space; /* ext: enum mem_space, the memory it is in */
	int32_t reg;
	int32_t off;
	uint32_t len; /* ext strings: bytes to read (a char[N] field: N); 0: the type's size */
	const struct span *at; /* ext: the expression it is (where -kk says a read failed) */
};

/* A place in memory: base register + offset (scratch, or r10 for the stack). */
struct loc {
	int32_t base;
	int32_t off;
};

struct gen {
	struct plan *p;
	struct prog *pg;
	struct probe_inst *inst; /* the instance pg's code is typed for */
	struct ir *ir;	 /* the function being generated */
	struct ir *root; /* the program's (it holds the subprograms) */
	int32_t func;	 /* the function's index in root->subs, -1: the program */
	int32_t ctx;	 /* vreg: the program's context pointer */
	int32_t scratch; /* vreg: this CPU's scratch area */
	int32_t out;	 /* label: leave the program */
	int32_t ret;	 /* vreg: the program's return value (test, bench probes: `return 1`), -1: 0 */
	int32_t probe_id; /* vreg: `probe` when the program serves several, else -1 */
	int32_t sys_nr;	  /* vreg: the syscall number in a raw_syscalls group */
	uint32_t scratch_top, scratch_max;
	uint32_t stack_base, stack_top, stack_max; /* small temporaries on the BPF stack */
	int32_t loop_break, loop_continue; /* labels, -1 outside loops */
	struct span span;		   /* statement being compiled, for errors */
	bool failed;
};

static inline struct val reg_val(struct type *t, int32_t r)
{
	return (struct val){ .type = t, .reg = r };
}

static inline struct val mem_val(struct type *t, int32_t base, int32_t off)
{
	return (struct val){ .type = t, .mem = true, .reg = base, .off = off };
}

/* A value of type t in kernel (or user, or either) memory at the address in reg, + off. */
static inline struct val ext_val(struct type *t, int32_t reg, int32_t off, enum mem_space space)
{
	return (struct val){ .type = t, .mem = true, .ext = true, .space = (uint8_t)space, .reg = reg,
			     .off = off };
}

/* Generate the IR of program pg (its typed code) into ir; sizes pg's scratch. */
int gen_program(struct plan *p, struct prog *pg, struct ir *ir);
/* One statement (gen_prog.c) */
void gen_stmt(struct gen *g, struct stmt *st);
/* for ($x : @map) and for ($x : lo..hi): the body as a callback subprogram (gen_loop.c) */
void gen_for(struct gen *g, struct stmt *st);
/* A per-CPU aggregation's value at key (an address) over every CPU, as printed (gen_loop.c) */
int32_t gen_percpu_value(struct gen *g, struct map_info *m, int32_t key);
/* args->field of a record at the context (a tracepoint's format-file fields) */
struct val gen_ctx_field(struct gen *g, struct expr *e);

/* expressions (gen_expr.c) */
struct val gen_expr(struct gen *g, struct expr *e);
int32_t gen_scalar(struct gen *g, struct expr *e);
/* A new register holding v. */
int32_t gen_const(struct gen *g, int64_t v);
/* Store e's value, converted to type t, at base + off. */
void gen_expr_into(struct gen *g, struct expr *e, struct type *t, int32_t base, int32_t off);
void gen_store_val(struct gen *g, struct val v, struct type *t, int32_t base, int32_t off);
/* A new register holding a op rhs (arithmetic and bitwise operators). */
int32_t gen_arith(struct gen *g, enum op op, int32_t a, struct expr *rhs, struct type *lt);
/* Jump to label when e is false (zero) / true. */
void gen_branch_false(struct gen *g, struct expr *e, int32_t label);

/* memory helpers (gen_mem.c) */
uint32_t gen_scratch_alloc(struct gen *g, uint32_t size);
/* A temporary for this statement: on the stack when small, else in scratch. */
struct loc gen_temp_alloc(struct gen *g, uint32_t size);
void gen_zero(struct gen *g, int32_t base, int32_t off, uint32_t size);
void gen_copy(struct gen *g, int32_t dbase, int32_t doff, int32_t sbase, int32_t soff, uint32_t size);
/* dst = base + off, as a new vreg */
int32_t gen_addr(struct gen *g, int32_t base, int32_t off);
/* Load an integer of type t from base + off, widened to 64 bits. */
int32_t gen_load_int(struct gen *g, struct type *t, int32_t base, int32_t off);
/* Sign- or zero-extend a register holding a value of type t to 64 bits. */
void gen_extend(struct gen *g, int32_t reg, struct type *t);
/* Strings: compare a and b, leaving 1 in the result when equal. */
int32_t gen_str_eq(struct gen *g, struct val a, struct val b);
int32_t gen_mem_eq(struct gen *g, struct val a, struct val b);
/* The memory an address the script names points into in this probe (sema_probe_space). */
enum mem_space gen_probe_space(const struct gen *g);
/* The widest access (8, 4, 2, 1 bytes) at off aligned to it, of at most left bytes */
uint32_t gen_chunk(int32_t off, uint32_t left);
/* BPF_DW, BPF_W, BPF_H or BPF_B for 8, 4, 2 or 1 bytes */
int gen_bpf_size(uint32_t w);
/* Read n bytes of ext value v into base + off (a failure is said at v's expression). */
void gen_read_ext(struct gen *g, struct val v, int32_t base, int32_t off, uint32_t n);
/* Read size bytes from an address in memory space (enum mem_space) into base + off. */
void gen_probe_read(struct gen *g, int32_t base, int32_t off, uint32_t size, int32_t src_reg,
		    enum mem_space space, bool str);

/* pointers, records, arrays, external memory (gen_ptr.c) */
/* v as the program can use it: scalars in a register, the rest in BPF memory */
struct val gen_load(struct gen *g, struct val v);
/* the field of a struct or union: '.' on a record, '->' through a pointer */
struct val gen_record_field(struct gen *g, struct expr *e);
/* *p, p[i] and a[i] */
struct val gen_deref(struct gen *g, struct expr *e);
struct val gen_index(struct gen *g, struct expr *e);
/* p + n, p - n (n elements), p - q (elements between) */
int32_t gen_ptr_arith(struct gen *g, struct expr *e);
/* n elements of pointer type t, as bytes, into a new register */
int32_t gen_ptr_scale(struct gen *g, int32_t n, struct type *t);

/* today's bpftrace (gen_lang.c): &$x and &@m, array casts, inlined function calls */
struct val gen_addr_of(struct gen *g, struct expr *e);
struct val gen_array_cast(struct gen *g, struct expr *e);
struct val gen_fn_block(struct gen *g, struct expr *e);
/* After v's register changed: its place in memory too, when its address is taken */
void gen_var_written(struct gen *g, const struct var_info *v);

/* maps and records (gen_map.c) */
/* Build a map's key; returns where it is. */
struct loc gen_map_key(struct gen *g, struct map_info *m, struct expr_list *keys);
/* r = pointer to the value or 0 */
int32_t gen_map_lookup(struct gen *g, struct map_info *m, struct loc key);
void gen_map_update(struct gen *g, struct map_info *m, struct loc key, struct loc val);
void gen_assign_map(struct gen *g, struct stmt *st);
struct val gen_map_read(struct gen *g, struct expr *e);
void gen_map_incdec(struct gen *g, struct expr *map, int64_t delta, struct expr *amount);
/*
 * Emit a ring buffer record from scratch + off (its first u64 is the id).
 * Frequent records (printf) do not wake the consumer, which drains the
 * buffer on a timer, unless the buffer is half full; urgent ones (exit,
 * print, time) wake it at once.
 */
void gen_output(struct gen *g, uint32_t off, uint32_t size, bool urgent);

/* user stacks unwound in user space (gen_ustack.c) */
bool gen_ustack_dwarf(const struct gen *g);
/* The ustack of type t at scratch + off: a snapshot, or the kernel's walk where frame pointers are */
void gen_ustack(struct gen *g, struct type *t, uint32_t off);
/* Whether updates of map m may have to go to user space (its key holds a user stack) */
bool gen_ustack_divert_key(const struct gen *g, const struct map_info *m);
/*
 * When key's user stack is a snapshot, send the update (op: enum
 * maps_upd_op; the value in register v, or at val, or none) to user space
 * and jump to done; else fall through to the update in the program.
 */
void gen_ustack_divert(struct gen *g, struct map_info *m, struct loc key, int op, int32_t v,
		       const struct loc *val, int32_t done);

/* builtin variables and functions: one hook each, named in sema's tables */
struct val gen_builtin(struct gen *g, struct expr *e);
struct val gen_call(struct gen *g, struct expr *e);
struct val gen_call_printf(struct gen *g, struct expr *e);
struct val gen_call_join(struct gen *g, struct expr *e);
struct val gen_stack(struct gen *g, struct expr *e);
struct val gen_sym(struct gen *g, struct expr *e);
struct val gen_strftime(struct gen *g, struct expr *e);
struct val gen_reg(struct gen *g, struct expr *e);
struct val gen_kaddr(struct gen *g, struct expr *e);
struct val gen_percpu_kaddr(struct gen *g, struct expr *e);
struct val gen_uaddr(struct gen *g, struct expr *e); /* the provider's */
struct val gen_same(struct gen *g, struct expr *e); /* the argument's value: uptr(), kptr() */
struct val gen_call_str(struct gen *g, struct expr *e);
/* bytes, strings, addresses; username, sargN; debugf, signal (gen_func.c) */
struct val gen_buf(struct gen *g, struct expr *e);
struct val gen_bswap(struct gen *g, struct expr *e);
struct val gen_strncmp(struct gen *g, struct expr *e);
struct val gen_int_text(struct gen *g, struct expr *e); /* strerror, cgroup_path */
struct val gen_ntop(struct gen *g, struct expr *e);
struct val gen_pton(struct gen *g, struct expr *e);
struct val gen_macaddr(struct gen *g, struct expr *e);
struct val gen_cgroupid(struct gen *g, struct expr *e);
struct val gen_username(struct gen *g, struct expr *e);
struct val gen_sarg(struct gen *g, struct expr *e);
struct val gen_call_debugf(struct gen *g, struct expr *e);
struct val gen_call_signal(struct gen *g, struct expr *e);
struct val gen_write_user(struct gen *g, struct expr *e);
struct val gen_call_unwatch(struct gen *g, struct expr *e);
struct val gen_call_exit(struct gen *g, struct expr *e);
struct val gen_call_delete(struct gen *g, struct expr *e);
struct val gen_call_map_op(struct gen *g, struct expr *e); /* print, clear, zero */
struct val gen_call_time(struct gen *g, struct expr *e);

void gen_error(struct gen *g, struct span sp, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* A check the probe made failed (an index out of bounds): a warning at sp, text its words */
void gen_runtime_error(struct gen *g, struct span sp, const char *text);
/* -k, -kk: after a call of helper, report a negative return (gen_check.c) */
void gen_helper_check(struct gen *g, int32_t helper, struct span sp);
/* -kk: a map read whose key is missing (p, map_lookup_elem's result, is NULL) says so */
void gen_lookup_check(struct gen *g, int32_t p, struct span sp);

#endif

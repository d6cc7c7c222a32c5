/* SPDX-License-Identifier: MIT */
/*
 * The plan: what compile() hands to the session. It holds no kernel
 * object; everything in it lives in its arena.
 *
 *   ast          the parsed script
 *   types        the types and constants it can name (types/env.h)
 *   insts        probe instances: each attach point expanded by its
 *                provider ("tracepoint:sched:sched*" gives several), with
 *                the provider's own data
 *   probe_names  what `probe` prints, by id (instances on the same event
 *                share one)
 *   progs        BPF programs: each runs one probe's code (its own typed
 *                copy) for one or more instances; its instructions refer to
 *                maps by index, and to the values only the session knows
 *                (the -c child's pid, ...) by id
 *   maps         user maps and every BPF map to create (maps/maps.h)
 *   records      the record table (plan/record.h)
 *
 * The session creates the maps, patches and loads the programs, attaches
 * each instance through its provider and reads records and maps.
 */
#ifndef LANTERN_PLAN_PLAN_H
#define LANTERN_PLAN_PLAN_H

#include <linux/bpf.h>
#include <stdint.h>

#include "ast/ast.h"
#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "base/vec.h"
#include "maps/maps.h"
#include "plan/options.h"
#include "plan/record.h"
#include "types/env.h"
#include "types/type.h"

struct provider;

/* One expanded attach point. */
struct probe_inst {
	struct probe *probe;
	struct attach_point *ap;
	const struct provider *prov;
	const char *name;  /* full name, as `probe` prints it */
	uint32_t probe_id; /* index in plan.probe_names */
	int prog;	   /* index in plan.progs, -1 before planning */
	struct type *args; /* `args` (TY_CTX), typed by the provider on first use */
	void *data;	   /* the provider's own (plan-allocated) */
};

/*
 * A $variable of one program. Today's bpftrace scopes them by block: each
 * declaration is a var_info of its own. loop: the for loop whose body
 * declares it (NULL: the probe's), which runs as a subprogram of its own,
 * so it lives there; loop_depth: how many for loops that is inside.
 */
struct var_info {
	const char *name;
	uint32_t hyg; /* a macro's or function's own (expr.hyg), 0 the script's */
	struct type *type;
	struct span span;
	struct stmt *loop;
	uint32_t loop_depth;
	bool typed;	 /* `let $x: type`: the type is the declared one */
	bool assigned;	 /* sema: assigned before this point (a `let $x;` is not) */
	bool addr;	 /* its address is taken (&$x): a scalar is kept in memory too */
	uint32_t home;	 /* codegen: where (scratch offset) a scalar whose address is taken is */
	int32_t vreg;	 /* codegen: scalars live in this virtual register */
	uint32_t offset; /* codegen: other types live at this scratch offset */
};

/* One BPF program. */
struct prog {
	struct probe *probe;		/* the probe whose code it runs */
	struct probe_inst *inst;	/* the instance its code is typed for */
	VEC(struct probe_inst *) insts; /* every instance it attaches to */
	const char *name;
	uint32_t index; /* in plan.progs; also its entry in the scratch map */
	/* its own copy of the probe's predicate and body, typed for inst */
	struct expr *pred;
	struct stmt *body;
	VEC(struct var_info *) vars;
	/* set by the provider */
	enum bpf_prog_type type;
	uint32_t attach_type, attach_btf_id; /* tracing programs: BPF_TRACE_FENTRY.. and the function */
	bool raw_tp;	/* a tracepoint run as a raw tracepoint */
	bool skip_self; /* ignores lantern's own events (its output would feed them) */
	void *data;	/* the provider's own */
	/* the code */
	/* symbolic where the session decides: map references are indexes in
	   plan.maps.bpf, load-time values ids (plan/code.h) */
	struct bpf_insn *insns;
	uint32_t ninsns;
	uint32_t scratch_size; /* bytes of its scratch map entry */
	/* a program with subprograms (codegen/funcs.h): the BTF of its
	   functions and where each begins (struct bpf_func_info), in the arena */
	void *btf;
	uint32_t btf_size;
	void *func_info;
	uint32_t nfuncs;
};

/* A named parameter the script reads (getopt()): its name, description and type */
struct script_option {
	const char *name, *desc, *type;
};

struct plan {
	const struct compile_opts *opts;
	struct arena arena;
	struct source src;
	struct diag diag;
	struct program *ast;
	struct type_env types; /* the script's C definitions, the kernel's BTF */
	struct settings settings; /* the string size, map keys, ... (compile/settings.h) */
	/*
	 * The script is read as today's bpftrace's (0.18 to 0.26), not 0.17's:
	 * --dialect 0.26, or it uses a construct 0.17 lacks (program.modern_what).
	 * Its meanings and formats are today's where the two differ (README).
	 */
	bool modern;
	uint32_t strlen;	  /* settings' max_strlen, for short */
	/*
	 * The expansions of macros and calls of functions (sema/macro.c,
	 * sema/fn.c): expr.hyg - 1 of their variables, what each is
	 * ("macro add_one", "function f"), for messages.
	 */
	VEC(struct expansion { const char *what; bool macro; }) expansions;
	VEC(struct probe_inst *) insts;
	VEC(const char *) probe_names;
	VEC(struct prog *) progs;
	struct map_set maps;
	VEC(struct record_desc *) records;
	VEC(struct deferred { void (*fn)(void *); void *p; }) deferred;
	/* attachments the programs make: one per instance, one per group
	   program for the instances a group serves (BPFTRACE_MAX_PROBES) */
	uint32_t nattach;
	bool uses_debugf; /* debugf(): the session shows the trace pipe */
	/* the named parameters the script reads with getopt(): --name, and what it says of them */
	VEC(struct script_option) script_options;
	/* every attached program returns at once while maps.stop is set: the
	   session stops the probes with one write, and releases them later */
	bool checks_stop;
};

/* getopt(): the value sema found (an integer or bool in value, a string in str) */
struct getopt_value {
	int64_t value;
	const char *str;
};

/* A plan for opts' script (nothing compiled yet); plan_free() releases it. */
void plan_init(struct plan *p, const struct compile_opts *opts);
void plan_free(struct plan *p);
/* Run fn(ptr) when the plan is freed (for objects outside the arena). */
void plan_defer_free(struct plan *p, void (*fn)(void *), void *ptr);

/*
 * Positional parameter $n (1..): its text, NULL when not given. The one
 * place they are looked up; what a missing one means is the caller's (an
 * error in an attach point, "" in str($n), 0 as a number).
 */
const char *plan_param(const struct plan *p, uint32_t n);
/*
 * $n as a number: true with *v (0 when not given), false when its text is
 * not an integer (decimal, 0x hex or 0 octal, as C).
 */
bool plan_param_int(const struct plan *p, uint32_t n, int64_t *v);

/* Add an instance of probe pr for attach point ap; name is copied. */
struct probe_inst *plan_add_inst(struct plan *p, struct probe *pr, struct attach_point *ap,
				 const struct provider *prov, const char *name);
/* Add a program for pr, typed for instance in (not yet attached to it). */
struct prog *plan_add_prog(struct plan *p, struct probe *pr, struct probe_inst *in);
/* Instance in attaches to program pg. */
void plan_prog_attach_inst(struct prog *pg, struct probe_inst *in);
/* Add a record description; its id. */
uint32_t plan_add_record(struct plan *p, struct record_desc *r);
/* The program serving the instance of provider id (BEGIN, END), or NULL. */
struct prog *plan_prog_of(const struct plan *p, int provider_id);

/* @m[$t] or @m[(a, b)], a tuple (not a record) alone: today's bpftrace's @m[a, b] */
static inline bool plan_map_key_whole(const struct plan *p, const struct expr_list *keys)
{
	const struct type *t = keys->n == 1 ? keys->v[0]->type : NULL;

	return p->modern && t && t->kind == TY_TUPLE && t->nfields && !t->fields[0].name;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The abstract syntax tree. All nodes live in the session's arena.
 *
 *   program := preamble* probe*
 *   probe   := attach_point (',' attach_point)* ['/' expr '/'] block
 *
 * Expressions and statements are tagged unions: switch on ->kind, never on
 * a name. Sema fills the annotations at the end of struct expr.
 */
#ifndef LANTERN_AST_AST_H
#define LANTERN_AST_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/source.h"
#include "base/strbuf.h"

struct type;
struct func_def;
struct fn_def;

enum expr_kind {
	EXPR_INT,	 /* 42, 0x2a, 1_000, 'a': .u.ival */
	EXPR_STR,	 /* "text": .u.str (decoded; .len excludes the final NUL) */
	EXPR_BUILTIN,	 /* pid, comm, args, arg0, retval, ...: .u.name */
	EXPR_IDENT,	 /* any other bare identifier: .u.name */
	EXPR_POSITIONAL, /* $1: .u.num */
	EXPR_POSCOUNT,	 /* $# */
	EXPR_VAR,	 /* $x: .u.name (without '$') */
	EXPR_MAP,	 /* @m[k1, k2]: .u.map.name (without '@', "" for @), .u.map.keys */
	EXPR_CALL,	 /* f(a, b): .u.call.name, .u.call.args */
	EXPR_UNARY,	 /* .u.unary.op, .u.unary.operand */
	EXPR_BINARY,	 /* .u.binary.op, .lhs, .rhs */
	EXPR_TERNARY,	 /* .u.ternary.cond ? .then : .otherwise */
	EXPR_FIELD,	 /* .u.field.base . / -> .u.field.name */
	EXPR_INDEX,	 /* .u.index.base [ .u.index.index ] */
	EXPR_TUPLE,	 /* (a, b, ...): .u.list (two or more; today's: also () and (a,)) */
	EXPR_CAST,	 /* (type) operand: .u.cast.type, .u.cast.operand */
	EXPR_SIZEOF,	 /* sizeof(type) or sizeof(expr): .u.size_of */
	EXPR_OFFSETOF,	 /* offsetof(type, field[.field...]): .u.offset_of */
	/* today's bpftrace (0.18 to 0.26) */
	EXPR_BOOL,   /* true, false: .u.ival 1 or 0 */
	EXPR_BLOCK,  /* { stmts; value }: .u.blk (value NULL: none) */
	EXPR_RECORD, /* (a = 1, b = "x"): .u.record */
	EXPR_COMPTIME, /* comptime e: .u.unary.operand, known when compiling */
};

enum op {
	OP_NONE,
	/* binary, in precedence groups */
	OP_LOR,
	OP_LAND,
	OP_BOR,
	OP_BXOR,
	OP_BAND,
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_SHL,
	OP_SHR,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	/* unary */
	OP_NEG,	    /* -x */
	OP_PLUS,    /* +x */
	OP_LNOT,    /* !x */
	OP_BNOT,    /* ~x */
	OP_DEREF,   /* *x */
	OP_ADDR,    /* &x */
	OP_PREINC,  /* ++x */
	OP_PREDEC,  /* --x */
	OP_POSTINC, /* x++ */
	OP_POSTDEC, /* x-- */
	OP_COUNT_
};

/* The spelling of an operator, e.g. "+=" uses ast_op_str(OP_ADD) + "=". */
const char *ast_op_str(enum op op);

struct expr_list {
	struct expr **v;
	uint32_t n;
};

/*
 * A type as written in a cast or sizeof: "struct task_struct *", "uint32";
 * today's bpftrace's postfix types ("int32*[4]", "string[64]": mods, in
 * the order written, when a '[' is among them) and "typeof(expr)".
 */
struct tn_mod {
	bool array;   /* [N] (else '*') */
	uint32_t len; /* N; 0: [] (an array cast's size is the value's) */
};
struct ast_typename {
	const char *name; /* "uint32", "task_struct", ..., "typeof" */
	enum { TN_PLAIN, TN_STRUCT, TN_UNION, TN_ENUM } tag;
	uint32_t ptr_depth; /* number of '*' (without mods) */
	struct span span;
	struct expr *of;      /* typeof(of): the type of an expression */
	struct tn_mod *mods;  /* '*' and '[N]' after the name, left to right */
	uint32_t nmods;	      /* (in the arena) */
};

struct expr {
	enum expr_kind kind;
	struct span span;
	/*
	 * EXPR_VAR: the expansion of a macro or function (sema/macro.c) that
	 * wrote it, 0 in the script's own code. A variable is its name and
	 * this: a macro's own $x is not its caller's.
	 */
	uint32_t hyg;
	union {
		uint64_t ival;
		uint32_t num;
		const char *name;
		struct {
			const char *str;
			uint32_t len;
		};
		struct {
			const char *name;
			struct expr_list keys;
		} map;
		struct {
			const char *name;
			struct span name_span;
			struct expr_list args;
		} call;
		struct {
			enum op op;
			struct expr *operand;
		} unary;
		struct {
			enum op op;
			struct expr *lhs, *rhs;
		} binary;
		struct {
			/* then is NULL in `cond ?: otherwise`: cond's value when it is true */
			struct expr *cond, *then, *otherwise;
			bool is_if; /* written `if cond { a } else { b }` (blocks) */
		} ternary;
		struct {
			struct expr *base;
			const char *name;
			bool arrow;
			struct span name_span;
		} field;
		struct {
			struct expr *base, *index;
		} index;
		struct expr_list list;
		struct {
			struct ast_typename type;
			struct expr *operand;
		} cast;
		struct {
			struct ast_typename type; /* .name NULL when sizing an expression */
			struct expr *operand;
		} size_of;
		struct {
			struct ast_typename type; /* .name NULL with an operand */
			struct expr *operand;	  /* offsetof(expr, field): its type's */
			const char *field;	  /* "a" or "a.b" */
			struct span field_span;
		} offset_of;
		struct {
			struct stmt *body; /* STMT_BLOCK */
			struct expr *value;
			/* a call of fn inlined (sema/fn.c): `return` leaves the block */
			const struct fn_def *fn;
		} blk;
		struct {
			struct expr_list vals;
			const char **names; /* one per value, in the order written */
		} record;
	} u;

	/* Filled by sema. */
	struct type *type;
	int id;	    /* builtin / function id, field index, ... (kind-specific) */
	const struct func_def *fn; /* EXPR_CALL: the function, once checked */
	void *info; /* map / variable / field descriptor (kind-specific) */
};

enum stmt_kind {
	STMT_EXPR,     /* .u.expr */
	STMT_ASSIGN,   /* target (map or var) op= value; op OP_NONE for '=' */
	STMT_IF,       /* if (cond) then [else otherwise]; otherwise is a block or an if */
	STMT_UNROLL,   /* unroll (count) body */
	STMT_WHILE,    /* while (cond) body */
	STMT_RETURN,   /* return [value] */
	STMT_BREAK,    /* break */
	STMT_CONTINUE, /* continue */
	STMT_BLOCK,    /* { stmts } */
	/* today's bpftrace */
	STMT_LET, /* let $x [: type] [= value] */
	STMT_FOR, /* for ($x : @map) body, for ($x : lo..hi) body */
	STMT_DISCARD, /* _ = e: .u.expr, its value thrown away on purpose */
};

/* struct stmt.flags: what a statement of an inlined function call stands for */
enum {
	STF_FN_ARG = 1,	   /* let $param: T = argument */
	STF_FN_RESULT = 2, /* let $result: T, what the call's value is */
	STF_FN_RETURN = 4, /* $result = value, of `return value` */
	STF_OPEN_END = 8,  /* STMT_BLOCK: its last statement has no ';' after it */
};

struct stmt_list {
	struct stmt **v;
	uint32_t n;
};

struct stmt {
	enum stmt_kind kind;
	struct span span;
	uint32_t flags; /* STF_* */
	/* STMT_IF written as `c ? a : b;`: that expression (a block's value, if last) */
	struct expr *ternary;
	union {
		struct expr *expr;
		struct {
			struct expr *target;
			enum op op;
			struct expr *value;
		} assign;
		struct {
			struct expr *cond; /* EXPR_COMPTIME: `if comptime`, one branch kept */
			struct stmt *then, *otherwise;
			int8_t taken; /* `if comptime`: the branch sema chose, 1 then, 0 else */
		} if_;
		struct {
			struct expr *count;
			struct stmt *body;
		} unroll;
		struct {
			struct expr *cond;
			struct stmt *body;
		} while_;
		struct expr *ret; /* may be NULL */
		struct stmt_list block;
		struct {
			struct expr *var;	   /* EXPR_VAR */
			struct ast_typename type; /* .name NULL without a type */
			struct expr *value;	   /* NULL without a value */
		} let;
		struct {
			struct expr *var; /* EXPR_VAR: a new variable, the loop's own */
			struct expr *map; /* EXPR_MAP without keys, or NULL for a range */
			struct expr *lo, *hi; /* the range lo..hi (hi excluded) */
			struct stmt *body;    /* STMT_BLOCK */
		} for_;
	} u;
};

/*
 * An attach point as written: "tracepoint:syscalls:sys_enter_*". The parser
 * splits it at ':' outside quotes (quotes removed) into parts; the provider
 * interprets them (and expands "$1" positional parameters).
 */
#define AP_MAX_PARTS 8
struct attach_point {
	struct span span;
	const char *text;
	const char *parts[AP_MAX_PARTS];
	uint32_t nparts;
	const char *user_name; /* "name" of `name=kprobe:f` (today's bpftrace), else NULL */
};

struct probe {
	struct span span; /* the attach point list */
	struct attach_point **aps;
	uint32_t naps;
	struct expr *pred; /* NULL without a predicate */
	struct stmt *body; /* STMT_BLOCK */
	uint32_t index;	   /* position in the script */
};

/*
 * "#include <x>", "#define X 1", "struct x { ... };" kept for later stages,
 * in script order. PRE_DEFINE holds every directive but #include (#define,
 * #undef, #ifdef/#ifndef/#else/#endif: the tools in /usr/sbin use them).
 */
enum preamble_kind { PRE_INCLUDE, PRE_DEFINE, PRE_CDEF };
struct preamble {
	enum preamble_kind kind;
	struct span span;
	const char *text; /* the whole directive or definition, verbatim */
};

/* `config = { name = value; ... }`: the value as written (a string unquoted) */
enum config_kind { CFG_INT, CFG_STR, CFG_BOOL, CFG_IDENT };
struct config_item {
	const char *name;
	const char *value;
	enum config_kind kind;
	struct span span, value_span;
};

/* `let @name = hash(N);` before the probes: the BPF map's kind and size */
enum map_decl_kind { MAPDECL_HASH, MAPDECL_LRUHASH, MAPDECL_PERCPUHASH, MAPDECL_PERCPULRUHASH };
struct map_decl {
	const char *name; /* without '@' */
	enum map_decl_kind kind;
	uint64_t max_entries;
	struct span span, kind_span;
};

/*
 * macro name(params) { body } (today's bpftrace): expanded where it is
 * called, hygienically (sema/macro.c). A parameter is a variable ($x,
 * the caller's), a map (@m, the caller's) or an expression (x).
 */
enum macro_param_kind { MP_EXPR, MP_VAR, MP_MAP };
struct macro_param {
	enum macro_param_kind kind;
	const char *name; /* without '$' or '@' */
	struct span span;
};
struct macro_def {
	const char *name;
	struct span span, name_span;
	struct macro_param *params;
	uint32_t nparams;
	struct expr *body; /* EXPR_BLOCK */
};

/* fn name($a: T, ...): R { body }: inlined where it is called (sema/fn.c) */
struct fn_param {
	struct expr *var; /* EXPR_VAR */
	struct ast_typename type;
};
struct fn_def {
	const char *name;
	struct span span, name_span;
	struct fn_param *params;
	uint32_t nparams;
	struct ast_typename ret; /* .name "void": no value */
	struct stmt *body;	 /* STMT_BLOCK */
};

/* import "path"; (compile/import.c reads it) */
struct import_item {
	const char *path;
	struct span span;
};

struct program {
	struct preamble **pre;
	uint32_t npre;
	struct probe **probes;
	uint32_t nprobes;
	struct config_item *config;
	uint32_t nconfig;
	struct map_decl *decls;
	uint32_t ndecls;
	struct macro_def **macros;
	uint32_t nmacros;
	struct fn_def **fns;
	uint32_t nfns;
	struct import_item *imports;
	uint32_t nimports;
	/*
	 * The first construct of today's bpftrace (0.18 to 0.26) that 0.17
	 * lacks, if any: the script is then read as today's (plan.modern).
	 * The parser notes its own; the later stages theirs (ast_note_modern).
	 */
	const char *modern_what; /* "a for loop", ...; NULL: a 0.17 script */
	struct span modern_span;
};

/* Note that prog uses a construct of today's bpftrace (the first one is kept). */
void ast_note_modern(struct program *prog, struct span sp, const char *what);

/*
 * Visit e / st and every expression under it, each before its children
 * (a statement's targets and declared variables too); stop at the first
 * for which fn returns true, and return true then (walk.c).
 */
typedef bool (*ast_expr_fn)(struct expr *e, void *arg);
bool ast_expr_any(struct expr *e, ast_expr_fn fn, void *arg);
bool ast_stmt_any(struct stmt *st, ast_expr_fn fn, void *arg);

/* A deep copy of e / st without sema's annotations (type, info, id, fn). */
struct expr *ast_expr_copy(struct arena *a, const struct expr *e);
struct stmt *ast_stmt_copy(struct arena *a, const struct stmt *st);
/* tn with a deep copy of its typeof expression */
struct ast_typename ast_typename_copy(struct arena *a, const struct ast_typename *tn);

/*
 * Rewriting walks: fn is called with the place of every expression of
 * st / *slot (statements' targets, declared variables, typeof operands
 * too), before its children; it may replace *slot, and returns true to
 * skip the children (it visited them itself, or they need no visit).
 */
typedef bool (*ast_rewrite_fn)(struct expr **slot, void *arg);
void ast_rewrite_expr(struct expr **slot, ast_rewrite_fn fn, void *arg);
void ast_rewrite_stmt(struct stmt *st, ast_rewrite_fn fn, void *arg);

/* Indented tree, one node per line (the `-d ast` stage). */
void ast_dump(const struct program *prog, struct strbuf *out);

#endif

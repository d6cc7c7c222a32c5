/* SPDX-License-Identifier: MIT */
/*
 * Types of expressions, map keys and map values.
 *
 * Sizes are what a value occupies in BPF memory (scratch, map keys and
 * values, records). Integers in maps and records are always widened to 8
 * bytes; strings are NUL-padded buffers whose size is a multiple of 8, so
 * that equal strings are equal byte for byte.
 */
#ifndef LANTERN_TYPES_TYPE_H
#define LANTERN_TYPES_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"

enum type_kind {
	TY_NONE, /* not known (yet) */
	TY_VOID,
	TY_INT,
	TY_STR,
	TY_TUPLE,
	TY_PTR,
	TY_ARRAY,
	TY_RECORD, /* struct or union */
	TY_CTX,	   /* `args`: the probe's arguments, as fields */
	TY_PROBE,  /* `probe`: an index into the session's probe names */
	TY_STACK,  /* kstack, ustack: a stack id (and for ustack the pid), see type_stack */
	TY_SYM,	   /* ksym(), usym(): an address (and for usym the pid), printed as a name */
	TY_TIMESTAMP, /* strftime(fmt, nsecs): nsecs, printed with the format in .name */
	TY_BUF,	      /* buf(p, n): u64 length, then .count bytes (type_buf) */
	TY_INET,      /* ntop(): u64 address family, then 16 bytes of address */
	TY_MACADDR,   /* macaddr(): 6 bytes (8 with padding), printed AA:BB:.. */
	TY_STRERROR,  /* strerror(n), signal_name(n), syscall_name(n): a u64, printed as
			 its name in a table (count: enum num_name) */
	TY_CGPATH,    /* cgroup_path(id): u64 cgroup id, printed as its path */
	TY_USERNAME,  /* username: u64 uid, printed as the user's name */
	/* aggregations: the value types of maps assigned count(), sum(), ... */
	TY_COUNT,
	TY_SUM,
	TY_MIN,
	TY_MAX,
	TY_AVG,
	TY_STATS,
	TY_HIST,
	TY_LHIST,
	/*
	 * tseries(v, interval, n [, agg]) (today's bpftrace): lstep the
	 * interval (ns), count the intervals kept, lmin the enum ts_agg; per
	 * CPU a struct ts_bucket per interval, the interval's slot in the key
	 */
	TY_TSERIES,
};

enum ts_agg { TS_LAST, TS_AVG, TS_MAX, TS_MIN, TS_SUM };
/* A tseries' value, per CPU: epoch the interval (time / interval), 0 unused */
struct ts_bucket {
	int64_t val;
	int64_t meta; /* TS_LAST: the time it was set; TS_AVG: the count; TS_MIN, TS_MAX: set */
	uint64_t epoch;
};
#define TSERIES_MAX_INTERVALS 1000000

struct type;

/* An enum's members: an integer of an enum type prints as its member's name (today's bpftrace) */
struct enum_info {
	const char *name; /* "enum Foo", "enum" when anonymous */
	uint32_t n;
	const char **names;
	int64_t *values;
};

struct field {
	const char *name;   /* "" for an anonymous struct or union member */
	struct type *type;
	uint32_t offset;
	uint32_t read_size; /* bytes to read from the source (char[N] -> N) */
	bool data_loc;	    /* tracepoint __data_loc: a u32 locating the data */
	bool rel_loc;	    /* __rel_loc: located from the end of the u32 */
	uint8_t bit_off;    /* a bitfield: its first bit past offset (0..7) */
	uint8_t bit_size;   /* a bitfield: its width in bits; 0 for other fields */
	const char *ctype;  /* tracepoint: the C type its format file gives */
};

/*
 * Where the lazy parts of types come from (BTF, DWARF): a pointer's
 * target is resolved when it is first needed (type_elem), so that typing
 * `struct task_struct *` does not convert every type it can reach.
 */
struct type_src {
	struct type *(*resolve)(struct type_src *src, uint32_t id);
};

/* The table a TY_STRERROR's number is named from */
enum num_name { NAME_ERRNO, NAME_SIGNAL, NAME_SYSCALL };

struct type {
	enum type_kind kind;
	uint32_t size;
	uint32_t align;
	bool is_signed; /* TY_INT; TY_SUM/MIN/MAX/AVG/STATS of a signed value */
	bool is_bool;	/* TY_INT: today's bpftrace's bool (ty_bool), printed true or false */
	bool user;	/* TY_PTR: points into user memory; TY_STACK, TY_SYM: user space */
	bool any_space; /* TY_PTR: into either memory (SPACE_ANY) */
	bool perf;	/* TY_STACK: printed in perf's format */
	bool raw;	/* TY_STACK: printed as bare hex addresses (stack_mode raw, today's bpftrace) */
	bool srclines;	/* TY_STACK (user): frames show file:line and "[inlined] f" (show_debug_info) */
	bool literal;	/* TY_INT: an integer literal (today's bpftrace): unify gives the other's type */
	uint32_t strsize; /* TY_STR: the size as bpftrace counts it (NUL included; size is 8-aligned) */
	const struct enum_info *en; /* TY_INT: an enum's (NULL: a plain integer) */
	struct type *elem; /* TY_PTR (see type_elem), TY_ARRAY */
	/* TY_ARRAY: elements; TY_STACK: frames kept; TY_STR: a str() of today's
	   bpftrace, read with this max_strlen (one byte more): it was cut when that full;
	   TY_HIST: k of hist(v, k), 2^k buckets per power of 2 */
	uint32_t count;
	struct field *fields;
	uint32_t nfields;
	const char *name;	   /* TY_RECORD: "struct task_struct"; TY_TIMESTAMP: the format */
	int64_t lmin, lmax, lstep; /* TY_LHIST */
	struct type_src *src;	   /* TY_PTR: resolves the target, src_id, when elem is NULL */
	uint32_t src_id;
};

extern struct type ty_none, ty_void, ty_u8, ty_u16, ty_u32, ty_u64, ty_s8, ty_s16, ty_s32, ty_s64,
	ty_probe, ty_comm, ty_count, ty_inet, ty_macaddr, ty_strerror, ty_signame, ty_sysname, ty_cgpath, ty_username,
	ty_bool, ty_lit;

#define STRLEN_DEFAULT 64 /* bpftrace 0.17's default string size (BPFTRACE_STRLEN) */
#define STRLEN_MODERN 1024 /* today's bpftrace's (max_strlen) */
#define STRLEN_MAX 32768	  /* the largest BPFTRACE_STRLEN lantern takes */

/*
 * Where a pointer points: the kernel's memory, a process's, or either:
 * bpftrace's "no address space", an address cast to a pointer in a probe
 * that is in neither (BEGIN, interval, profile, ...), read by
 * bpf_probe_read, which reads user memory below the kernel's.
 */
enum mem_space { SPACE_KERNEL, SPACE_USER, SPACE_ANY };
static inline enum mem_space type_space(const struct type *t)
{
	return t->any_space ? SPACE_ANY : t->user ? SPACE_USER : SPACE_KERNEL;
}

struct type *type_int(unsigned size, bool is_signed);
/* An integer of size bytes of the enum en */
struct type *type_enum(struct arena *a, unsigned size, bool is_signed, const struct enum_info *en);
/* The name of en's member worth v, or NULL */
const char *type_enum_name(const struct enum_info *en, int64_t v);
struct type *type_str(struct arena *a, uint32_t size);
struct type *type_ptr(struct arena *a, struct type *elem, bool user);
/* A pointer whose target src resolves from id when first needed. */
struct type *type_ptr_lazy(struct arena *a, struct type_src *src, uint32_t id, bool user);
/* What pointer t points to (resolved now if it was lazy); void if unknown. */
struct type *type_elem(struct type *t);
/* The step of pointer arithmetic on t: the size of what it points to (void *: 1). */
uint32_t type_step(struct type *t);
/* A struct or union named name ("struct x"), nfields fields to fill, of size bytes. */
struct type *type_record(struct arena *a, const char *name, uint32_t size, uint32_t align,
			 uint32_t nfields);
/*
 * The field called name of record t, also inside its anonymous members;
 * *offset gets its offset from the start of t. NULL if there is none.
 */
const struct field *type_field(const struct type *t, const char *name, uint32_t *offset);
struct type *type_array(struct arena *a, struct type *elem, uint32_t count);
/* A tuple of n element types, laid out with natural alignment. */
struct type *type_tuple(struct arena *a, struct type **elems, uint32_t n);
/*
 * A record of today's bpftrace, (a = 1, b = "x"): a tuple whose fields
 * have names (names[i] for elems[i]), printed { .a = 1, .b = x }.
 */
struct type *type_named_tuple(struct arena *a, struct type **elems, const char **names,
			      uint32_t n);
/* The field of such a record called name, or NULL */
const struct field *type_named_field(const struct type *t, const char *name);
/* Whether t is such a record. */
static inline bool type_is_named_tuple(const struct type *t)
{
	return t->kind == TY_TUPLE && t->nfields && t->fields[0].name;
}
struct type *type_agg(struct arena *a, enum type_kind kind, bool is_signed);
/* kstack/ustack of at most frames frames: u64 stack id, and for ustack the pid */
struct type *type_stack(struct arena *a, bool user, bool perf, uint32_t frames);
#define STACK_MAX_FRAMES 127 /* the kernel's default perf_event_max_stack */
/* strftime(fmt, nsecs): u64 nanoseconds since boot (CLOCK_MONOTONIC) */
struct type *type_timestamp(struct arena *a, const char *fmt);
/* buf(p, n): n bytes and their count (TY_BUF) */
struct type *type_buf(struct arena *a, uint32_t n);
/* ksym(addr) / usym(addr): u64 address, and for usym the pid */
struct type *type_sym(struct arena *a, bool user);

static inline bool type_is_int(const struct type *t)
{
	return t->kind == TY_INT;
}
/* Values held in a register (as opposed to memory: strings, tuples, ...). */
bool type_is_scalar(const struct type *t);
bool type_is_agg(const struct type *t);

/*
 * The type a value takes when stored in a map key, map value or record:
 * integers widened to 8 bytes, tuples re-laid out from their stored
 * elements. Other types are returned as they are.
 */
struct type *type_stored(struct arena *a, struct type *t);

/* Same shape (strings of any size match, integers of any size match). */
bool type_same_shape(const struct type *a, const struct type *b);
/* The wider of two same-shaped types (bigger strings, wider tuples). */
struct type *type_unify(struct arena *a, struct type *x, struct type *y);

void type_name(struct strbuf *out, const struct type *t);
/* type_name into a static buffer, for messages. */
const char *type_str_of(const struct type *t);

#endif

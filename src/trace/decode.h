/* SPDX-License-Identifier: MIT */
/*
 * Values as strace prints them, and as --json gives them to programs.
 *
 * Every decoder writes through a value writer (struct tw): the same calls
 * make strace's text ("{st_mode=S_IFREG|0644, st_size=3, ...}") or a JSON
 * value ({"st_mode": ["S_IFREG", 420], "st_size": 3}), so each argument
 * kind is decoded once (kinds.def: one row per kind, its decoder named
 * there). decode_base.c has the writer, quoting and names; decode.c the
 * scalar kinds; decode_structs.c and decode_net.c the structures;
 * decode_calls.c the calls printed their own way.
 */
#ifndef LANTERN_TRACE_DECODE_H
#define LANTERN_TRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "trace/sysdesc.h"

/* One argument, with what the programs read for it. */
struct targ_val {
	int64_t v;	     /* its value (the register) */
	const uint8_t *data; /* the bytes read, or NULL */
	uint32_t len;	     /* their number */
	bool unread;	     /* the memory could not be read */
	bool notread;	     /* not read: the call failed */
};

struct fdpaths;
/* What decoding needs besides the value. */
struct tdecode {
	uint32_t strsize; /* -s */
	int hex;	  /* -x, -xx */
	int64_t ret;	  /* the call's result (at exit) */
	bool failed;	  /* the call failed */
	const int64_t *args; /* every argument's value (sizes, commands) */
	int pid;	  /* the task, for -y's /proc/PID/fd */
	int paths;	  /* -y 1, -yy 2 */
	const struct fdpaths *fds; /* -y: what the traced calls opened */
	int ret_fd;		   /* -y: the descriptor whose path a descriptor result shows (dup2), -1: itself */
	int at;			   /* the argument being decoded (its neighbours: args[at + 1]) */
	const struct targ_val *vals; /* every argument's bytes (getsockopt's length), or NULL */
};

/* A named constant of the system's headers (a list of names in xlat/, made by xlat/gen.sh) */
struct flag {
	uint64_t bit;
	const char *name;
};
struct xlat {
	const struct flag *v;
	size_t n;
};

/*
 * The value writer. At the top level (an argument) it writes one value;
 * inside { } and [ ] it puts ", " between members, and a field's name
 * before its value (text: name=, JSON: "name": ).
 */
#define TW_DEPTH 8
struct tw {
	struct strbuf *sb;
	bool json;
	bool keyed;		/* a field's name is written: its value comes next */
	uint8_t depth;
	bool first[TW_DEPTH];	/* nothing yet at this depth */
	int fset;		/* names in the flag set being written, -1: none */
};
void trace_tw_init(struct tw *w, struct strbuf *sb, bool json);
/* { or [ ... } or ]; more: strace's ", ..." (members not shown) */
void trace_tw_open(struct tw *w, char c);
void trace_tw_close(struct tw *w, char c, bool more);
void trace_tw_field(struct tw *w, const char *name);
void trace_tw_int(struct tw *w, int64_t v);
void trace_tw_uint(struct tw *w, uint64_t v);
void trace_tw_hex(struct tw *w, uint64_t v);	   /* text 0x..., JSON a number */
void trace_tw_octal(struct tw *w, uint64_t v);	   /* text 0644 (%#03o), JSON a number */
void trace_tw_ptr(struct tw *w, uint64_t v);	   /* NULL or 0x...; JSON null or "0x..." */
void trace_tw_name(struct tw *w, const char *name); /* a constant's name; JSON a string */
void trace_tw_bool(struct tw *w, bool v);	   /* JSON only: text writes nothing */
/* n bytes quoted (cut after max, then "..." when more); JSON a string */
void trace_tw_quoted(struct tw *w, const uint8_t *p, size_t n, size_t max, bool more, int hex);
/* A value in the text only (strace's forms: htons(80)), or in the JSON only */
void trace_tw_text(struct tw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void trace_tw_json(struct tw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note after a value, in the text only (strace's comments: " /\* 3 entries *\/") */
void trace_tw_note(struct tw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A constant of x by name, or the number (hex: 0x...) */
void trace_tw_const(struct tw *w, int64_t v, const struct xlat *x, bool hex);
/*
 * Flags: names joined by '|' (JSON: an array of names), what is left in
 * hex (JSON: a number); zero: the text of none ("0" when NULL; JSON: [],
 * or [zero] when it is a name).
 */
void trace_tw_flags(struct tw *w, uint64_t v, const struct xlat *x, const char *zero);
/* A flag set made of parts: begin, names and bits, end */
void trace_tw_fset_begin(struct tw *w);
void trace_tw_fset_name(struct tw *w, const char *name);
void trace_tw_fset_bits(struct tw *w, uint64_t v, const struct xlat *x); /* the rest in hex */
void trace_tw_fset_end(struct tw *w, const char *zero);

/* Argument a of kind k: its value, as its kind says */
void trace_decode_arg(struct tw *w, enum targ k, const struct targ_val *a, const struct tdecode *d);
/* The result of a call, " = ..." included (text only) */
void trace_decode_ret(struct strbuf *out, enum tret r, int64_t ret, const struct tdecode *d);

/* A quoted string as strace writes it: n bytes, cut after max (then "..."). */
void trace_put_quoted(struct strbuf *out, const uint8_t *p, size_t n, size_t max, bool more, int hex);
/* "ENOENT", "SIGCHLD": names; NULL when unknown */
const char *trace_errno_name(int e);
const char *trace_errno_text(int e); /* "No such file or directory" */
const char *trace_signal_name(int sig);
/* The name of v in x, NULL if none */
const char *trace_xlat_name(const struct xlat *x, int64_t v);
/* A signal's name, or the number */
void trace_tw_signal(struct tw *w, int64_t sig);
/* A signal set of n bytes at p: text "[CHLD]", "~[RTMIN RT_1]"; JSON the names */
void trace_tw_sigset(struct tw *w, const uint8_t *p, size_t n);
/* -y: "<path>" of descriptor fd, as the table or /proc says (decode.c) */
void trace_put_fd_path(struct strbuf *out, const struct tdecode *d, int64_t fd);
/* -yy: a socket's endpoints by its inode (link: its /proc/PID/fd/N), strace's way (TCP:[a->b]) */
bool trace_put_socket_endpoints(struct strbuf *out, uint32_t ino, const char *link);

/* S_IFREG|0644 (a structure's st_mode); clone's flags and exit signal */
void trace_tw_file_mode(struct tw *w, uint32_t mode);
void trace_tw_clone_flags(struct tw *w, uint64_t flags);
/* Structures the printer shows outside arguments */
void trace_tw_wait_status(struct tw *w, int status);
void trace_tw_pollfds(struct tw *w, const uint8_t *p, size_t n, bool revents);
int trace_dirents_count(const uint8_t *p, size_t n);
const char *trace_family_name(int family);

/*
 * The decoders of kinds.def's rows, one per kind: each writes argument a
 * (trace_decode_arg has handled a value the call failed to fill)
 */
#define KIND(id, name, when, quick, json, read, put) \
	void put(struct tw *w, const struct targ_val *a, const struct tdecode *d);
#include "trace/kinds.def"
#undef KIND

/* The calls printed their own way (decode_calls.c): their rows */
struct trace_call_printer {
	/*
	 * The arguments shown, in order, and how (strace's printer of the
	 * call); NULL: every argument, by its kind
	 */
	int (*view)(const struct sysdesc *d, const int64_t *a, struct targ_view out[TRACE_NARGS]);
	/* After the result: poll's revents; NULL: nothing */
	void (*after)(struct strbuf *out, const struct targ_val *xv, int64_t ret);
	/* How the result prints for arguments a (fcntl's, by command); NULL: the call's ret */
	enum tret (*ret)(const int64_t *a);
	/* -y: what the call does to the descriptor table (enum fd_action, fdpaths.h) */
	uint8_t fd;
	/* -y: a descriptor result shows the path of argument 0 (dup2, dup3) */
	bool ret_is_arg0;
};
extern const struct trace_call_printer trace_call_printers[CP_COUNT_];
/* d's printer; how its result prints for arguments a */
const struct trace_call_printer *trace_printer_of(const struct sysdesc *d);
enum tret trace_ret_kind(const struct sysdesc *d, const int64_t *a);
void trace_tw_siginfo(struct tw *w, const uint8_t *p, size_t n);

#endif

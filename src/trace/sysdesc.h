/* SPDX-License-Identifier: MIT */
/*
 * What lantern trace knows of each system call: how strace prints its
 * arguments and result, and from that, what the BPF programs must read
 * from the traced process's memory and when (a path at entry, the buffer a
 * read() filled at exit).
 *
 * The common calls have a description of their own (sysdesc.c); every
 * other one is described from its tracepoint format file (names and C
 * types), so no call prints as raw numbers only. That file is read when
 * the call is first printed: what the programs read is planned from
 * lantern's own tables (trace_sysdesc_brief()).
 */
#ifndef LANTERN_TRACE_SYSDESC_H
#define LANTERN_TRACE_SYSDESC_H

#include <stdbool.h>
#include <stdint.h>

#define TRACE_NARGS 6

/* How one argument prints, what is read for it: its row of kinds.def */
enum targ {
#define KIND(id, name, when, quick, json, read, put) id,
#include "trace/kinds.def"
#undef KIND
	A_COUNT_
};
/* How the result prints. */
enum tret {
	R_INT,	  /* decimal; -1 ERRNO (text) on errors */
	R_HEX,	  /* 0x... (mmap, brk) */
	R_NONE,	  /* "?": the call does not return (exit_group) */
	R_FD,	  /* a new descriptor (-y: with its path) */
	R_OCTAL,  /* umask */
	R_OPEN_FLAGS, /* 0x8002 (flags O_RDWR|O_LARGEFILE): fcntl's F_GETFL */
	R_FD_FLAGS,   /* 0x1 (flags FD_CLOEXEC): fcntl's F_GETFD */
};

/* What the BPF programs read for an argument. */
enum tread {
	TR_NONE,
	TR_STR,	    /* a NUL-terminated string at entry, at most `size` bytes */
	TR_MEM_IN,  /* bytes at entry */
	TR_MEM_OUT, /* bytes at exit */
	TR_ARGV,    /* an array of string pointers at entry */
	TR_IOV_IN,  /* struct iovec[n] (n the next argument) and their bytes, at entry */
	TR_IOV_OUT, /* the same at exit */
	TR_MSG_IN,  /* struct msghdr, its iovecs and their bytes, at entry */
	TR_MSG_OUT, /* the same at exit */
	TR_MEM_EXIT, /* bytes at exit, whether the call failed or not (a length it may have changed) */
	TR_FRAME,    /* at entry, the signal mask of the frame rt_sigreturn returns from (raw_syscalls only) */
};

/*
 * How TR_IOV_* and TR_MSG_* lay the bytes out: (TR_MSG_*: the struct
 * msghdr's MSGHDR_SIZE bytes, then) a u32 count of the iovecs read (at
 * most IOV_SHOWN), a u32 slot size, then for each one its iov_base and
 * iov_len (u64) and a slot of that many bytes holding the first of them.
 */
#define IOV_SHOWN 8
#define IOV_SLOT_MAX 480
#define MSGHDR_SIZE 56

enum tsize {
	TS_FIXED, /* `size` bytes */
	TS_ARG,	  /* the value of argument `from`, at most `size` */
	TS_RET,	  /* the result, at most `size` */
	TS_ARG8,   /* 8 times the value of argument `from` (struct pollfd[n]), at most `size` */
};

struct tread_spec {
	uint8_t how;  /* enum tread */
	uint8_t size_from; /* enum tsize */
	uint8_t from; /* TS_ARG: the argument's index */
	uint8_t pad;
	uint16_t size; /* bytes, or the most */
};

/* A kind's row (kinds.def): see there */
enum { KW_ENTRY, KW_EXIT };
/* The JSON value of a kind (doc/lantern.8, --json) */
enum trace_json_type {
	JT_NONE,    /* nothing: no argument */
	JT_NUMBER,  /* a number */
	JT_STRING,  /* a string (the bytes read), or a pointer */
	JT_CONST,   /* a constant: its name, or a number when it has none */
	JT_FLAGS,   /* flags: an array of names, and a number for bits without one */
	JT_POINTER, /* null, or the address as a string "0x..." */
	JT_OBJECT,  /* a structure: an object of its members, or a pointer */
	JT_ARRAY,   /* an array, or a pointer */
	JT_VARIES,  /* as another argument says (fcntl's by its command): a number, flags, an array, a pointer */
};
struct trace_kind {
	const char *name;
	uint8_t when;	      /* KW_* */
	bool quick;	      /* a call with it may still be quick */
	uint8_t json;	      /* enum trace_json_type */
	bool plus_strsize;    /* read.size is so many bytes more than -s */
	struct tread_spec read; /* read.from: that many arguments after it */
};
extern const struct trace_kind trace_kinds[A_COUNT_];

/*
 * One argument as a call's printer shows it: which argument, as which
 * kind, after what name (clone's "flags="; NULL: none in the text)
 */
struct targ_view {
	uint8_t arg, kind;
	const char *label;
};

/* The calls printed their own way (strace's SYS_FUNC): their printers, decode_calls.c */
enum trace_cp {
	CP_PLAIN,  /* every argument by its kind */
	CP_OPEN,   /* open: the mode only when the flags create a file */
	CP_OPENAT, /* openat: the same, the path from a directory's descriptor (-y) */
	CP_OPENAT2, /* openat2: the path from a directory's descriptor (-y) */
	CP_CREAT,  /* creat: a file made (-y) */
	CP_CLOSE,  /* close: the descriptor goes (-y, once the line is written) */
	CP_DUP,	   /* dup: a copy (-y) */
	CP_DUP2,   /* dup2, dup3: a copy on the second; the result shows the first's path */
	CP_FCNTL,  /* the argument as the command says, the result a descriptor after F_DUPFD */
	CP_CHDIR,  /* chdir: the working directory (-y) */
	CP_FCHDIR, /* fchdir: the same, by descriptor */
	CP_CLONE,  /* child_stack=, flags=, the tids the flags use */
	CP_FUTEX,  /* the arguments the operation uses */
	CP_PRCTL,  /* the arguments the option uses */
	CP_POLL,   /* the revents after the result */
	CP_MOUNT,  /* the type and data as addresses when the flags ignore them */
	CP_COUNT_
};

/* One system call. */
struct sysdesc {
	const char *name;
	uint8_t nargs;
	enum targ arg[TRACE_NARGS];
	enum tret ret;
	/* -e trace= classes: TC_* bits */
	uint32_t classes;
	uint8_t printer; /* enum trace_cp */
	bool quick;	 /* never blocks: may be quick (trace_sysdesc_quick) */
	int8_t split;	 /* the first argument printed at exit (nargs if none) */
};

enum trace_class {
	TC_FILE = 1 << 0,    /* takes a file name */
	TC_PROCESS = 1 << 1, /* process lifecycle */
	TC_NETWORK = 1 << 2,
	TC_SIGNAL = 1 << 3,
	TC_IPC = 1 << 4,
	TC_DESC = 1 << 5, /* takes or returns a file descriptor */
	TC_MEMORY = 1 << 6,
	TC_CREDS = 1 << 7,
	TC_CLOCK = 1 << 8,
	TC_STAT = 1 << 9,
	TC_LSTAT = 1 << 10,
	TC_FSTAT = 1 << 11,
	TC_STATFS = 1 << 12,
	TC_PURE = 1 << 13, /* no arguments, always succeeds */
};

/*
 * The description of syscall nr (its name from the syscall table): a
 * hand-written one, or one made from the tracepoint's format file, or a
 * bare one (six hexadecimal arguments). Never NULL for nr < 512.
 */
const struct sysdesc *trace_sysdesc_of(int nr);
/*
 * What the plan needs of call nr (its reads, whether it is quick, its -e
 * classes), from lantern's tables alone: the description of a call that
 * trace_sysdesc_of() makes from its format file, with its string
 * arguments only (the others in hexadecimal). Never NULL for nr < 512.
 */
const struct sysdesc *trace_sysdesc_brief(int nr);
/* The arguments call nr shows for values a (its printer's view); their count */
int trace_sysdesc_view(const struct sysdesc *d, const int64_t *a, struct targ_view out[TRACE_NARGS]);
/* The name of argument i of call nr (--json): its tracepoint's field's, else "argI" */
const char *trace_sysdesc_argname(int nr, int i);
/* What the programs must read for each argument of d, with -s strsize. */
void trace_sysdesc_reads(const struct sysdesc *d, uint32_t strsize, struct tread_spec out[TRACE_NARGS]);
/*
 * A quick call: it never blocks and reads nothing at entry (getppid, mmap,
 * close, fstat, ...). Its exit record carries the whole call, and no entry
 * is sent: half the records. The price: two threads' quick calls that
 * overlap print whole, not <unfinished ...> and <... resumed>.
 */
bool trace_sysdesc_quick(const struct sysdesc *d);
/* The class named name ("file", "%net", ...): its TC_* bits, 0 if none. */
uint32_t trace_class_named(const char *name);

#endif

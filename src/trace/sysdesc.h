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

/* How one argument prints (and what is read for it). */
enum targ {
	A_NONE,
	A_INT,	  /* an int: signed decimal of the low 32 bits */
	A_LONG,	  /* a long, off_t: signed decimal */
	A_UINT,	  /* unsigned decimal */
	A_HEX,	  /* 0x... */
	A_PTR,	  /* NULL or 0x... */
	A_FD,	  /* a file descriptor (-y: with its path) */
	A_DIRFD,  /* AT_FDCWD or a file descriptor */
	A_PATH,	  /* a path, read at entry, printed whole */
	A_STR,	  /* a string, read at entry, -s long */
	A_BUF_IN, /* bytes the call reads: the next argument's count of them, at entry */
	A_BUF_OUT, /* bytes the call fills: the result's count of them, at exit */
	A_BUF_HEX, /* the same, printed in hexadecimal (getrandom's) */
	A_OCTAL,   /* a mode: 0644 */
	A_MODE_T,  /* S_IFREG|0644 (mknod) */
	A_OPEN_FLAGS,
	A_ACCESS_MODE,
	A_AT_FLAGS,
	A_STATX_FLAGS, /* AT_* with statx's sync mode */
	A_FD_FLAGS,    /* O_CLOEXEC|O_NONBLOCK without an access mode (pipe2, dup3) */
	A_SOCK_PROTO,  /* after the family: IPPROTO_TCP, NETLINK_ROUTE */
	A_CLONE_ARGS,  /* clone3's struct clone_args (read at exit: the kernel leaves it as it was) */
	A_FADVICE,
	A_PROT,
	A_MAP_FLAGS,
	A_STAT,	   /* struct stat, filled at exit */
	A_STATX,   /* struct statx, filled at exit */
	A_STATX_MASK,
	A_ARGV,	   /* char *const argv[] */
	A_ENVP,	   /* char *const envp[]: the address and the count */
	A_FUTEX_OP,
	A_SIGNAL,
	A_RLIMIT_RESOURCE,
	A_RLIMIT_IN,  /* struct rlimit64, at entry */
	A_RLIMIT_OUT, /* at exit */
	A_ARCH_PRCTL,
	A_GRND_FLAGS,
	A_WHENCE,
	A_CLOCKID,
	A_TIMESPEC_IN,
	A_TIMESPEC_OUT,
	A_TIMESPEC_REM, /* nanosleep's remainder: at exit, the time left when interrupted */
	A_SOCK_FAMILY,
	A_SOCK_TYPE,
	A_SOCKADDR_IN,	/* struct sockaddr, the next argument's size of it, at entry */
	A_SOCKADDR_OUT, /* at exit, size from *next argument */
	A_IOCTL_REQ,
	A_FCNTL_CMD,
	A_FCNTL_ARG, /* after the command: FD_CLOEXEC, flags, ... */
	A_SIGSET_IN, /* sigset_t, at entry */
	A_SIGSET_OUT,
	A_SIGHOW,
	A_SIGACTION_IN,
	A_SIGACTION_OUT,
	A_WAIT_STATUS, /* int *wstatus, at exit */
	A_WAIT_OPTIONS,
	A_PIPEFDS,     /* int[2], at exit */
	A_DIRENTS,     /* getdents64's buffer: its entries counted, at exit */
	A_CLONE_FLAGS,
	A_UTSNAME,     /* struct utsname, at exit */
	A_MADVISE,
	A_POLLFDS,     /* struct pollfd[n], n the next argument, at entry and exit */
	A_IOVEC_IN,    /* struct iovec[n], n the next argument; the bytes at entry */
	A_IOVEC_OUT,   /* the bytes at exit */
	A_EPOLL_EVENTS, /* at exit: n from the result */
	A_EPOLL_CTL_OP,
	A_EPOLL_EVENT_IN,
	A_EPOLL_FLAGS,	/* epoll_create1's: EPOLL_CLOEXEC */
	A_EFD_FLAGS,	/* eventfd2's: EFD_CLOEXEC|EFD_NONBLOCK|EFD_SEMAPHORE */
	A_SOCKOPT_LEVEL,
	A_SOCKOPT_NAME,
	A_MSG_FLAGS,
	A_MSGHDR_OUT,
	A_MSGHDR_IN,
	A_PRCTL_OP,
	A_UMASK,
	A_KCMP,
};

/* How the result prints. */
enum tret {
	R_INT,	  /* decimal; -1 ERRNO (text) on errors */
	R_HEX,	  /* 0x... (mmap, brk) */
	R_NONE,	  /* "?": the call does not return (exit_group) */
	R_FD,	  /* a new descriptor (-y: with its path) */
	R_OCTAL,  /* umask */
	R_FCNTL,  /* fcntl: a descriptor after F_DUPFD, F_DUPFD_CLOEXEC; else R_INT */
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
	TS_ARGPTR, /* the int argument `from` points to (socklen_t *), at most `size` */
	TS_ARG8,   /* 8 times the value of argument `from` (struct pollfd[n]), at most `size` */
};

struct tread_spec {
	uint8_t how;  /* enum tread */
	uint8_t size_from; /* enum tsize */
	uint8_t from; /* TS_ARG: the argument's index */
	uint8_t pad;
	uint16_t size; /* bytes, or the most */
};

/* One system call. */
struct sysdesc {
	const char *name;
	uint8_t nargs;
	enum targ arg[TRACE_NARGS];
	enum tret ret;
	/* -e trace= classes: TC_* bits */
	uint32_t classes;
	uint8_t special; /* enum sd_special, set by trace_sysdesc_of() */
	int8_t split;	 /* the first argument printed at exit (nargs if none) */
};

/* Calls printed their own way */
enum sd_special {
	SD_PLAIN,
	SD_OPEN,  /* open, openat: the mode only when the flags create a file */
	SD_CLONE, /* clone, futex: the argument list depends on the values */
	SD_FUTEX,
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

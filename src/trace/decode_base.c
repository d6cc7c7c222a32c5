// SPDX-License-Identifier: MIT
/*
 * What every decoder builds on: strings quoted as strace quotes them,
 * flag sets and constants by name, errno and signal names, signal sets.
 */
#include "trace/decode.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

#define N(x) ARRAY_SIZE(x)

void trace_put_quoted(struct strbuf *out, const uint8_t *p, size_t n, size_t max, bool more, int hex)
{
	size_t shown = MIN(n, max);

	sb_putc(out, '"');
	for (size_t i = 0; i < shown; i++) {
		uint8_t c = p[i];
		if (hex == 2 || (hex == 1 && (c < 0x20 || c > 0x7e))) {
			sb_printf(out, "\\x%02x", c);
			continue;
		}
		switch (c) {
		case '"':
			sb_puts(out, "\\\"");
			continue;
		case '\\':
			sb_puts(out, "\\\\");
			continue;
		case '\n':
			sb_puts(out, "\\n");
			continue;
		case '\t':
			sb_puts(out, "\\t");
			continue;
		case '\r':
			sb_puts(out, "\\r");
			continue;
		case '\v':
			sb_puts(out, "\\v");
			continue;
		case '\f':
			sb_puts(out, "\\f");
			continue;
		default:
			break;
		}
		if (c >= 0x20 && c <= 0x7e) {
			sb_putc(out, (char)c);
		} else if (i + 1 < shown && p[i + 1] >= '0' && p[i + 1] <= '7') {
			/* the next character is an octal digit: all three of ours */
			sb_printf(out, "\\%03o", c);
		} else {
			sb_printf(out, "\\%o", c);
		}
	}
	sb_putc(out, '"');
	if (n > max || more)
		sb_puts(out, "...");
}

void trace_put_flags(struct strbuf *out, uint64_t v, const struct flag *t, size_t n, const char *zero)
{
	bool any = false;

	if (!v) {
		sb_puts(out, zero ? zero : "0");
		return;
	}
	for (size_t i = 0; i < n && v; i++) {
		if (!t[i].bit || (v & t[i].bit) != t[i].bit)
			continue;
		sb_printf(out, "%s%s", any ? "|" : "", t[i].name);
		v &= ~t[i].bit;
		any = true;
	}
	if (v)
		sb_printf(out, "%s%#llx", any ? "|" : "", (unsigned long long)v);
}

void trace_put_const(struct strbuf *out, int64_t v, const struct flag *t, size_t n, bool hex)
{
	for (size_t i = 0; i < n; i++)
		if ((int64_t)t[i].bit == v) {
			sb_puts(out, t[i].name);
			return;
		}
	if (hex)
		sb_printf(out, "%#llx", (unsigned long long)v);
	else
		sb_printf(out, "%lld", (long long)v);
}

static const char *const errnos[] = {
	[1] = "EPERM",	       [2] = "ENOENT",	       [3] = "ESRCH",	      [4] = "EINTR",
	[5] = "EIO",	       [6] = "ENXIO",	       [7] = "E2BIG",	      [8] = "ENOEXEC",
	[9] = "EBADF",	       [10] = "ECHILD",	       [11] = "EAGAIN",	      [12] = "ENOMEM",
	[13] = "EACCES",       [14] = "EFAULT",	       [15] = "ENOTBLK",      [16] = "EBUSY",
	[17] = "EEXIST",       [18] = "EXDEV",	       [19] = "ENODEV",	      [20] = "ENOTDIR",
	[21] = "EISDIR",       [22] = "EINVAL",	       [23] = "ENFILE",	      [24] = "EMFILE",
	[25] = "ENOTTY",       [26] = "ETXTBSY",       [27] = "EFBIG",	      [28] = "ENOSPC",
	[29] = "ESPIPE",       [30] = "EROFS",	       [31] = "EMLINK",	      [32] = "EPIPE",
	[33] = "EDOM",	       [34] = "ERANGE",	       [35] = "EDEADLK",      [36] = "ENAMETOOLONG",
	[37] = "ENOLCK",       [38] = "ENOSYS",	       [39] = "ENOTEMPTY",    [40] = "ELOOP",
	[42] = "ENOMSG",       [43] = "EIDRM",	       [61] = "ENODATA",      [62] = "ETIME",
	[71] = "EPROTO",       [74] = "EBADMSG",       [75] = "EOVERFLOW",    [84] = "EILSEQ",
	[87] = "EUSERS",       [88] = "ENOTSOCK",      [89] = "EDESTADDRREQ", [90] = "EMSGSIZE",
	[91] = "EPROTOTYPE",   [92] = "ENOPROTOOPT",   [93] = "EPROTONOSUPPORT",
	[94] = "ESOCKTNOSUPPORT", [95] = "EOPNOTSUPP", [96] = "EPFNOSUPPORT", [97] = "EAFNOSUPPORT",
	[98] = "EADDRINUSE",   [99] = "EADDRNOTAVAIL", [100] = "ENETDOWN",    [101] = "ENETUNREACH",
	[102] = "ENETRESET",   [103] = "ECONNABORTED", [104] = "ECONNRESET",  [105] = "ENOBUFS",
	[106] = "EISCONN",     [107] = "ENOTCONN",     [108] = "ESHUTDOWN",   [109] = "ETOOMANYREFS",
	[110] = "ETIMEDOUT",   [111] = "ECONNREFUSED", [112] = "EHOSTDOWN",   [113] = "EHOSTUNREACH",
	[114] = "EALREADY",    [115] = "EINPROGRESS",  [116] = "ESTALE",      [122] = "EDQUOT",
	[125] = "ECANCELED",   [126] = "ENOKEY",       [130] = "EOWNERDEAD",  [131] = "ENOTRECOVERABLE",
	[132] = "ERFKILL",     [133] = "EHWPOISON",
};

const char *trace_errno_name(int e)
{
	static const struct flag kernel_only[] = {
		{ 512, "ERESTARTSYS" },	  { 513, "ERESTARTNOINTR" },	    { 514, "ERESTARTNOHAND" },
		{ 515, "ENOIOCTLCMD" },	  { 516, "ERESTART_RESTARTBLOCK" }, { 517, "EPROBE_DEFER" },
		{ 524, "ENOTSUPP" },
	};
	if (e > 0 && (size_t)e < N(errnos) && errnos[e])
		return errnos[e];
	for (size_t i = 0; i < N(kernel_only); i++)
		if (kernel_only[i].bit == (uint64_t)e)
			return kernel_only[i].name;
	return NULL;
}

/* The text after an error's name: glibc's, or strace's for the kernel's own */
const char *trace_errno_text(int e)
{
	switch (e) {
	case 512:
		return "To be restarted if SA_RESTART is set";
	case 513:
		return "To be restarted";
	case 514:
		return "To be restarted if no handler";
	case 516:
		return "Interrupted by signal";
	default:
		return strerror(e);
	}
}

static const char *const signals[] = {
	[1] = "SIGHUP",	   [2] = "SIGINT",     [3] = "SIGQUIT",	  [4] = "SIGILL",     [5] = "SIGTRAP",
	[6] = "SIGABRT",   [7] = "SIGBUS",     [8] = "SIGFPE",	  [9] = "SIGKILL",    [10] = "SIGUSR1",
	[11] = "SIGSEGV",  [12] = "SIGUSR2",   [13] = "SIGPIPE",  [14] = "SIGALRM",   [15] = "SIGTERM",
	[16] = "SIGSTKFLT", [17] = "SIGCHLD",  [18] = "SIGCONT",  [19] = "SIGSTOP",   [20] = "SIGTSTP",
	[21] = "SIGTTIN",  [22] = "SIGTTOU",   [23] = "SIGURG",	  [24] = "SIGXCPU",   [25] = "SIGXFSZ",
	[26] = "SIGVTALRM", [27] = "SIGPROF",  [28] = "SIGWINCH", [29] = "SIGIO",     [30] = "SIGPWR",
	[31] = "SIGSYS",
};

const char *trace_signal_name(int sig)
{
	static char rt[4][16];
	static int k;

	if (sig > 0 && (size_t)sig < N(signals))
		return signals[sig];
	if (sig == 32)
		return "SIGRTMIN"; /* the kernel's: glibc keeps 32 and 33 for itself */
	if (sig > 32 && sig <= 64) {
		char *b = rt[k++ % 4];
		snprintf(b, sizeof(rt[0]), "SIGRT_%d", sig - 32);
		return b;
	}
	return NULL;
}

/* A set member's name, without "SIG" (strace: RTMIN, RT_1) */
static void put_set_member(struct strbuf *out, int sig)
{
	const char *n = trace_signal_name(sig);

	if (sig == 32)
		sb_puts(out, "RTMIN");
	else if (sig > 32 && sig <= 64)
		sb_printf(out, "RT_%d", sig - 32);
	else if (n)
		sb_puts(out, n + 3);
	else
		sb_printf(out, "%d", sig);
}

void trace_put_sigset(struct strbuf *out, const uint8_t *p, size_t n)
{
	uint64_t set = 0;
	int count = 0;
	bool inverted, first = true;

	memcpy(&set, p, MIN(n, 8));
	for (int i = 0; i < 64; i++)
		count += (set >> i) & 1;
	/* strace: more than half the signals set prints the complement */
	inverted = count > 32;
	if (inverted) {
		set = ~set;
		sb_putc(out, '~');
	}
	sb_putc(out, '[');
	for (int i = 0; i < 64; i++)
		if ((set >> i) & 1) {
			if (!first)
				sb_putc(out, ' ');
			put_set_member(out, i + 1);
			first = false;
		}
	sb_putc(out, ']');
}


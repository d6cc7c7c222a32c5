// SPDX-License-Identifier: MIT
/*
 * watchpoint:ADDRESS:LENGTH:MODE: a hardware breakpoint (the breakpoint
 * PMU, PERF_TYPE_BREAKPOINT) that fires when LENGTH bytes at ADDRESS are
 * written (w), read or written (rw) or executed (x).
 *
 * With -p PID or -c CMD the address is in that process (the -c child's
 * breakpoint is set before it runs, and threads it starts later inherit
 * it); without, it is a kernel address, watched on every CPU.
 *
 * watchpoint:FUNCTION+argN:LENGTH:MODE (-p or -c): the address argument N
 * of FUNCTION (in the process's program) holds when it is called. A uprobe
 * on FUNCTION samples the argument's register (a perf sample of the user
 * registers); the session's event loop reads it and points the breakpoint
 * there: each new address gets a breakpoint of its own, and stays watched
 * until a probe calls unwatch(ADDRESS), as in bpftrace (x86 has 4 debug
 * registers: past them, bpftrace's warning, and the process goes on). The
 * uprobe's tiny program stops the process (SIGSTOP) until the breakpoint
 * is set, and lantern continues it (SIGCONT), so no write is missed;
 * asyncwatchpoint:FUNCTION+argN does not stop it.
 *
 * bpftrace 0.17's names: "watchpoint:DECIMAL:LENGTH:MODE",
 * "watchpoint:FILE:FUNCTION:N:LENGTH:MODE" (":N" absent for arg0).
 */
#include "probes/uprobe.h"
#include "base/util.h"
#include "sym/elf.h"
#include "sys/arch.h"
#include "sys/bpfsys.h"
#include "sys/perf.h"

#include <errno.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/hw_breakpoint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* A watchpoint (probe_inst.data). */
struct watch_inst {
	uint64_t addr;
	uint32_t len;
	uint32_t type; /* HW_BREAKPOINT_W, _RW, _X */
	bool user;     /* in the -p or -c process */
	/* FUNCTION+argN: the file, the function's file offset, N (-1: an address) */
	const char *path;
	uint64_t func_off;
	int argn;
	bool async; /* asyncwatchpoint: the process is not stopped */
};

#define BREAKPOINT_PMU "/sys/bus/event_source/devices/breakpoint"
#define WP_FORM "watchpoint:ADDRESS:LENGTH:MODE, e.g. watchpoint:0x10000000:8:w"

/* Kernel addresses have their top bit set (x86-64, arm64). */
static bool is_kernel_addr(uint64_t addr)
{
	return addr >> 63;
}

/* "w", "rw" or "wr", "x" (and "r", which x86 has no breakpoint for): a HW_BREAKPOINT_ type */
static int parse_mode(struct plan *p, struct attach_point *ap, const char *mode)
{
	unsigned seen = 0;

	if (!*mode || mode[strspn(mode, "rwx")]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "watchpoint mode '%s' is not a combination of r, w and x", mode);
		diag_hint(&p->diag, "w: writes, rw: reads and writes, x: execution");
		return -1;
	}
	for (const char *c = mode; *c; c++) {
		unsigned bit = *c == 'r' ? HW_BREAKPOINT_R : *c == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;
		if (seen & bit) {
			diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
				   "watchpoint mode '%s' names '%c' twice", mode, *c);
			return -1;
		}
		seen |= bit;
	}
	if (seen == HW_BREAKPOINT_W || seen == HW_BREAKPOINT_RW || seen == HW_BREAKPOINT_X)
		return (int)seen;
	diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "invalid watchpoint mode '%s'", mode);
	diag_hint(&p->diag, "%s", seen == HW_BREAKPOINT_R
			   ? "breakpoints cannot watch reads alone: rw watches reads and writes"
			   : "execution (x) cannot be watched together with reads or writes");
	return -1;
}

/* ADDRESS: 0 with *addr set, 1 for FUNCTION+argN, or -1 reported */
static int parse_addr(struct plan *p, const struct provider *prov, struct attach_point *ap,
		      uint64_t *addr)
{
	const char *s = ap->parts[1];
	char *end;

	if (strchr(s, '+'))
		return 1;
	if (prov->id != PROV_WATCHPOINT) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "asyncwatchpoint needs a function: asyncwatchpoint:FUNCTION+argN:LENGTH:MODE");
		diag_hint(&p->diag, "watch an address with " WP_FORM);
		return -1;
	}
	errno = 0;
	*addr = strtoull(s, &end, 0);
	if (errno || *end || !*s || *s == '-') {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "'%s' is not an address", s);
		diag_hint(&p->diag, WP_FORM ", or watchpoint:FUNCTION+argN:LENGTH:MODE");
		return -1;
	}
	return 0;
}

/* The program of the -p process or the -c command (out: PATH_MAX bytes). */
static bool target_program(const struct compile_opts *o, char *out)
{
	char exe[64], word[PATH_MAX];

	if (o->pid > 0) {
		snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)o->pid);
		return realpath(exe, out) != NULL;
	}
	snprintf(word, sizeof(word), "%s", o->child_cmd ? o->child_cmd : "");
	word[strcspn(word, " \t")] = 0;
	if (strchr(word, '/'))
		return realpath(word, out) != NULL;
	return util_path_search(word, out, PATH_MAX);
}

/* One function's instance: a copy of wi for f */
static void add_func_inst(struct plan *p, const struct provider *prov, struct probe *pr,
			  struct attach_point *ap, const struct watch_inst *wi, const char *path,
			  const struct elf_func *f)
{
	struct watch_inst *one = ARENA_NEW(&p->arena, struct watch_inst);
	/* bpftrace's name: N where the address would be, and like an address, absent when 0 */
	char argn[16] = "";
	if (wi->argn)
		snprintf(argn, sizeof(argn), ":%d", wi->argn);
	const char *name = arena_printf(&p->arena, "%s:%s:%s%s:%s:%s", prov->name, path, f->name,
					argn, ap->parts[2], ap->parts[3]);

	*one = *wi;
	one->func_off = f->offset;
	plan_add_inst(p, pr, ap, prov, name)->data = one;
}

/*
 * FUNCTION+argN of the -p or -c process (FUNCTION may hold wildcards: an
 * instance per function it matches): 0, or -1 reported
 */
static int expand_func(struct plan *p, const struct provider *prov, struct probe *pr,
		       struct attach_point *ap, struct watch_inst *wi)
{
	char *fn = arena_strdup(&p->arena, ap->parts[1]), *plus = strrchr(fn, '+'), *end;
	char path[PATH_MAX], err[512];
	const struct elf_func *f;
	struct elf_funcs funcs;
	unsigned long n;
	int retbit, found = 0;

	*plus = 0;
	n = strncmp(plus + 1, "arg", 3) ? ~0ul : strtoul(plus + 4, &end, 10);
	if (n == ~0ul || *end || !plus[4] || sys_arch_perf_arg_reg(n) < 0) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "'%s' is not an argument lantern reads: arg0 to arg%d", plus + 1,
			   ARCH_MAX_ARGS - 1);
		return -1;
	}
	if (!p->opts->pid && !p->opts->child) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "%s:FUNCTION+argN needs -p PID or -c CMD: FUNCTION is that program's",
			   prov->name);
		return -1;
	}
	if (prov_uprobe_pmu(&retbit) < 0) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no uprobe PMU (%s): %s:FUNCTION+argN needs it",
			   UPROBE_PMU_DIR, prov->name);
		return -1;
	}
	if (!target_program(p->opts, path) || sym_elf_funcs_load(path, &funcs, err, sizeof(err)) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot read the functions of %s",
			   p->opts->pid > 0 ? "the -p process's program" : "the -c command");
		return -1;
	}
	wi->path = arena_strdup(&p->arena, path);
	wi->argn = (int)n;
	wi->async = prov->id == PROV_ASYNCWATCHPOINT;
	for (size_t i = 0; i < funcs.n; i++) {
		f = &funcs.v[i];
		if (util_has_wildcard(fn) ? !util_wildcard_match(fn, f->name) : strcmp(fn, f->name))
			continue;
		add_func_inst(p, prov, pr, ap, wi, wi->path, f);
		found++;
	}
	sym_elf_funcs_free(&funcs);
	if (!found) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function %s'%s' in %s",
			   util_has_wildcard(fn) ? "matching " : "", fn, path);
		return -1;
	}
	return 0;
}

static int watchpoint_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			     struct attach_point *ap)
{
	const struct compile_opts *o = p->opts;
	bool user = o->pid > 0 || o->child;
	struct watch_inst *wi = ARENA_NEW(&p->arena, struct watch_inst);
	uint64_t addr = 0, len;
	char name[PATH_MAX + 256], *end;
	int type, form;

	if (ap->nparts != 4) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "watchpoint probes are written " WP_FORM);
		return -1;
	}
	if (access(BREAKPOINT_PMU, F_OK) < 0) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no breakpoint PMU (%s)", BREAKPOINT_PMU);
		diag_hint(&p->diag, "it was built without CONFIG_HAVE_HW_BREAKPOINT");
		return -1;
	}
	if ((form = parse_addr(p, prov, ap, &addr)) < 0)
		return -1;
	errno = 0;
	len = strtoull(ap->parts[2], &end, 10);
	if (errno || *end || (len != 1 && len != 2 && len != 4 && len != 8)) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "watchpoint length '%s' is not 1, 2, 4 or 8", ap->parts[2]);
		diag_hint(&p->diag, "the number of bytes watched at the address");
		return -1;
	}
	if ((type = parse_mode(p, ap, ap->parts[3])) < 0)
		return -1;
	if (type == HW_BREAKPOINT_X && len != sizeof(long)) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "an execution watchpoint (x) has length %zu here", sizeof(long));
		return -1;
	}
	*wi = (struct watch_inst){ addr, (uint32_t)len, (uint32_t)type, user, NULL, 0, -1, false };
	if (form == 1)
		return expand_func(p, prov, pr, ap, wi);
	if (addr % len) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "watchpoint address 0x%llx is not aligned to its length, %llu",
			   (unsigned long long)addr, (unsigned long long)len);
		diag_hint(&p->diag, "breakpoints watch aligned words: watch 0x%llx",
			  (unsigned long long)(addr & ~(len - 1)));
		return -1;
	}
	if (user == is_kernel_addr(addr)) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "0x%llx is a %s address",
			   (unsigned long long)addr, user ? "kernel" : "user-space");
		diag_hint(&p->diag, "%s", user ? "without -p or -c, a watchpoint watches a kernel address"
					       : "watch a process's memory with -p PID or -c CMD");
		return -1;
	}
	snprintf(name, sizeof(name), "%s:%llu:%llu:%s", prov->name, (unsigned long long)addr,
		 (unsigned long long)len, ap->parts[3]);
	plan_add_inst(p, pr, ap, prov, name)->data = wi;
	return 0;
}

static void watchpoint_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_PERF_EVENT;
}

/* prov_attach_perf_event_on(), saying why when the CPU has no debug register left */
static int open_on(struct attach_ctx *ac, int prog_fd, const struct probe_inst *in,
		   struct perf_event_attr *attr, pid_t pid, char *err, size_t errlen)
{
	if (prov_attach_perf_event_on(ac, prog_fd, in, attr, pid, -1, "watchpoint", err, errlen) == 0)
		return 0;
	if (errno == ENOSPC)
		snprintf(err, errlen, "cannot watch %s: every debug register is taken (x86 has 4, "
				      "other watchpoints and debuggers use them too)", in->name);
	return -1;
}

/* A breakpoint on one address a FUNCTION+argN watchpoint met. */
struct arm_bp {
	uint64_t addr;
	int fd, link;
};

/* A FUNCTION+argN watchpoint while it runs. */
struct arm {
	struct perf_event_attr bp;	   /* the breakpoints' attributes, bp_addr aside */
	int prog_fd;			   /* the probe's program, run by each breakpoint */
	struct perf_event_mmap_page *ring; /* the uprobe's samples */
	size_t data_size;
	pid_t pid;
	bool sync;
	uint64_t last;			   /* the address last seen (bpftrace skips repeats) */
	VEC(struct arm_bp) bps;		   /* the addresses watched, until unwatch() */
	const char *name;
};

#define OUT_OF_REGISTERS \
	"WARNING: Failed to attach watchpoint probe. You are out of watchpoint registers.\n"

/*
 * A call with a new address: a breakpoint there, besides those already set
 * (as bpftrace: each address stays watched until unwatch(); x86 has 4 debug
 * registers), and the process goes on.
 */
static void arm_at(struct arm *a, uint64_t addr)
{
	struct perf_event_attr attr = a->bp;
	struct arm_bp b = { addr, -1, -1 };

	if (addr && addr != a->last) {
		a->last = addr;
		attr.bp_addr = addr;
		b.fd = sys_perf_event_open_fd(&attr, a->pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (b.fd >= 0 && sys_perf_attach_prog(b.fd, a->prog_fd, &b.link) == 0) {
			vec_push(&a->bps, b);
		} else {
			if (errno == ENOSPC)
				fputs(OUT_OF_REGISTERS, stderr);
			else
				fprintf(stderr, "lantern: cannot watch 0x%llx for %s: %s\n",
					(unsigned long long)addr, a->name, strerror(errno));
			if (b.fd >= 0)
				close(b.fd);
		}
	}
	if (a->sync)
		kill(a->pid, SIGCONT);
}

static void arm_bp_close(struct arm_bp *b)
{
	if (b->link >= 0)
		close(b->link);
	close(b->fd);
}

/* unwatch(addr): its breakpoints go (an address not watched: nothing, as bpftrace) */
static void arm_unwatch(void *arg, uint64_t addr)
{
	struct arm *a = arg;
	size_t kept = 0;

	for (size_t i = 0; i < a->bps.len; i++) {
		if (a->bps.data[i].addr == addr)
			arm_bp_close(&a->bps.data[i]);
		else
			a->bps.data[kept++] = a->bps.data[i];
	}
	a->bps.len = kept;
	if (a->last == addr)
		a->last = 0; /* a later call with addr watches it again */
}

/* The uprobe's samples: each is the argument's register (PERF_SAMPLE_REGS_USER) */
static void arm_ready(void *arg)
{
	struct arm *a = arg;
	if (!a->ring) /* its attach failed */
		return;
	const uint8_t *data = (const uint8_t *)a->ring + a->ring->data_offset;
	uint64_t head = __atomic_load_n(&a->ring->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = a->ring->data_tail;

	while (tail < head) {
		uint8_t rec[64] = { 0 };
		struct perf_event_header h;
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(tail + i) % a->data_size];
		if (h.size < sizeof(h))
			break;
		for (size_t i = 0; i < h.size && i < sizeof(rec); i++)
			rec[i] = data[(tail + i) % a->data_size];
		uint64_t abi, reg;
		memcpy(&abi, rec + sizeof(h), 8);
		memcpy(&reg, rec + sizeof(h) + 8, 8);
		if (h.type == PERF_RECORD_SAMPLE && abi != PERF_SAMPLE_REGS_ABI_NONE)
			arm_at(a, reg);
		tail += h.size;
	}
	__atomic_store_n(&a->ring->data_tail, tail, __ATOMIC_RELEASE);
}

/* Teardown (the probes are gone): the breakpoints close, a process still stopped goes on. */
static void arm_release(void *arg)
{
	struct arm *a = arg;

	vec_foreach(&a->bps, b)
	{
		arm_bp_close(b);
	}
	vec_free(&a->bps);
	if (a->sync)
		kill(a->pid, SIGCONT);
	free(a);
}

/*
 * The uprobe's program: stop the process until the breakpoint is set
 * (watchpoint), and keep the sample (return 1).
 */
static int arm_prog(bool sync, char *err, size_t errlen)
{
	const struct bpf_insn stop[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = SIGSTOP },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_send_signal },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = sys_prog_load(BPF_PROG_TYPE_KPROBE, "lt_watch_arm", sync ? stop : stop + 2,
			       sync ? 4 : 2, 0, 0, NULL, 0);

	if (fd < 0)
		snprintf(err, errlen, "cannot load the program that stops the process for a "
				      "watchpoint: %s", strerror(errno));
	return fd;
}

/*
 * watchpoint:FUNCTION+argN: the uprobe that samples argN; each address it
 * gives gets its breakpoint then (arm_at), running the probe's program
 */
static int attach_func(struct attach_ctx *ac, int prog_fd, const struct probe_inst *in,
		       struct perf_event_attr *bp, pid_t pid, char *err, size_t errlen)
{
	const struct watch_inst *wi = in->data;
	struct perf_event_attr attr = { 0 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int retbit, arm_fd, pfd, link;
	struct arm *a;
	void *ring;

	a = util_xmalloc(sizeof(*a));
	*a = (struct arm){ *bp, prog_fd, NULL, page, pid, !wi->async, 0, { 0 }, in->name };
	attach_watch_add(ac, -1, arm_ready, arm_release, a); /* freed at teardown from here on */
	if (!wi->async) /* a call after arm_release's SIGCONT, before the uprobe is gone, stops it again */
		vec_push(&ac->resume, pid);
	ac->watches.data[ac->watches.len - 1].unwatch = arm_unwatch;
	if ((arm_fd = arm_prog(!wi->async, err, errlen)) < 0)
		return -1;
	attach_add(ac, arm_fd, -1);
	attr.type = prov_uprobe_pmu(&retbit);
	attr.size = sizeof(attr);
	attr.config1 = (uint64_t)(uintptr_t)wi->path;
	attr.config2 = wi->func_off;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	attr.sample_type = PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = 1ull << sys_arch_perf_arg_reg((unsigned)wi->argn);
	if ((pfd = sys_perf_event_open_fd(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC)) < 0) {
		snprintf(err, errlen, "cannot open a uprobe on %s for process %d: %s", in->name,
			 (int)pid, strerror(errno));
		return -1;
	}
	ring = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0);
	if (ring == MAP_FAILED || sys_perf_attach_prog(pfd, arm_fd, &link) < 0) {
		snprintf(err, errlen, "cannot sample the uprobe of %s: %s", in->name, strerror(errno));
		if (ring != MAP_FAILED)
			munmap(ring, 2 * page);
		close(pfd);
		return -1;
	}
	attach_add(ac, link, pfd);
	ac->list.data[ac->list.len - 1].map = ring;
	ac->list.data[ac->list.len - 1].map_len = 2 * page;
	a->ring = ring;
	ac->watches.data[ac->watches.len - 1].fd = pfd;
	return 0;
}

static int watchpoint_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
			     const struct probe_inst *in, char *err, size_t errlen)
{
	const struct watch_inst *wi = in->data;
	struct perf_event_attr attr = { 0 };
	pid_t pid = ac->pid > 0 ? ac->pid : ac->cpid;

	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = wi->type;
	attr.bp_addr = wi->addr;
	attr.bp_len = wi->len;
	attr.sample_period = 1;
	if (!wi->user)
		return prov_attach_perf_event_cpus(ac, prog_fd, in, &attr, "watchpoint", err, errlen);
	if (pid <= 0) {
		snprintf(err, errlen, "%s: no process to watch", in->name);
		return -1;
	}
	if (wi->argn >= 0)
		return attach_func(ac, prog_fd, in, &attr, pid, err, errlen);
	attr.inherit = 1; /* the threads it starts from now on */
	if (open_on(ac, prog_fd, in, &attr, pid, err, errlen) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	attr.inherit = 0;
	return open_on(ac, prog_fd, in, &attr, pid, err, errlen);
}

const struct provider prov_watchpoint = {
	.id = PROV_WATCHPOINT,
	.name = "watchpoint",
	.alias = "w",
	.flags = PROV_F_ANY_MEM,
	.expand = watchpoint_expand,
	.prog_setup = watchpoint_prog_setup,
	.attach = watchpoint_attach,
};

const struct provider prov_asyncwatchpoint = {
	.id = PROV_ASYNCWATCHPOINT,
	.name = "asyncwatchpoint",
	.alias = "aw",
	.flags = PROV_F_ANY_MEM,
	.expand = watchpoint_expand,
	.prog_setup = watchpoint_prog_setup,
	.attach = watchpoint_attach,
};

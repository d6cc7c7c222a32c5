// SPDX-License-Identifier: MIT
/*
 * From a plan to kernel objects: create the maps, put their fds and the
 * session's constants into each program's code, load it (with the
 * verifier's log on failure), attach every instance through its provider;
 * and release all of it.
 */
#include "runtime/load.h"
#include "plan/code.h"
#include "sys/bpfsys.h"
#include "base/thread.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A program's subprograms: their BTF into the kernel (funcs->btf_fd: its fd, -1 none) */
static int load_funcs(struct session *s, const struct prog *pg, struct sys_prog_funcs *funcs)
{
	size_t logsz = 64 * 1024;
	char *log;
	int e;

	*funcs = (struct sys_prog_funcs){ -1, pg->func_info, pg->nfuncs };
	if (!pg->nfuncs)
		return 0;
	funcs->btf_fd = sys_btf_load(pg->btf, pg->btf_size, NULL, 0);
	if (funcs->btf_fd >= 0)
		return 0;
	/* again, with the kernel's log (it lists every type, then what is wrong) */
	log = util_xmalloc(logsz);
	log[0] = 0;
	funcs->btf_fd = sys_btf_load(pg->btf, pg->btf_size, log, logsz);
	e = errno;
	if (funcs->btf_fd < 0)
		diag_error(&s->plan.diag, pg->probe->span, E_VERIFIER,
			   "the kernel refused the BTF of %s's functions: %s%s%s", pg->name, strerror(e),
			   log[0] ? "\n" : "", log);
	free(log);
	return funcs->btf_fd < 0 ? -1 : 0;
}

static int load_prog(struct session *s, const struct prog *pg, const struct bpf_insn *insns)
{
	struct diag *dg = &s->plan.diag;
	size_t logsz = s->plan.settings.v[SET_LOG_SIZE] ? s->plan.settings.v[SET_LOG_SIZE] : 4u << 20;
	char name[16], *log;
	int *fd = &s->prog_fds[pg->index];
	struct sys_prog_funcs funcs;

	sys_bpf_obj_name(name, sizeof(name), pg->name);
	if (load_funcs(s, pg, &funcs) < 0)
		return -1;
	if (s->opts->r.verbose > 1 || getenv("LANTERN_VERIFIER_STATS")) {
		/* -vv: the verifier's statistics (BPF_LOG_STATS), and the load's wall time */
		char stats[1024] = "";
		uint64_t t0 = util_now_ns();
		*fd = sys_prog_load_funcs(pg->type, name, insns, pg->ninsns, pg->attach_type, pg->attach_btf_id,
					  &funcs, stats, sizeof(stats), 4 /* BPF_LOG_STATS */);
		for (char *nl; (nl = strchr(stats, '\n'));)
			*nl = ' ';
		fprintf(stderr, "lantern: %s: loaded in %.2f ms: %s\n", pg->name,
			(double)(util_now_ns() - t0) / 1e6, stats);
		if (*fd >= 0)
			goto loaded;
	}
	/*
	 * -v loads with the verifier's log from the start, as bpftrace does: a
	 * log smaller than the verifier writes makes the load fail (ENOSPC).
	 */
	bool verbose_log = s->opts->r.verbose == 1;
	if (!verbose_log) {
		*fd = sys_prog_load_funcs(pg->type, name, insns, pg->ninsns, pg->attach_type,
					  pg->attach_btf_id, &funcs, NULL, 0, 1);
		if (*fd >= 0)
			goto loaded;
	}

	/* Again, with the verifier's log. */
	log = util_xmalloc(logsz);
	log[0] = 0;
	*fd = sys_prog_load_funcs(pg->type, name, insns, pg->ninsns, pg->attach_type, pg->attach_btf_id, &funcs,
				  log, logsz, 1);
	if (*fd >= 0) {
		free(log);
		goto loaded;
	}
	int e = errno;
	/* bpftrace's words first: scripts and users grep for them */
	diag_error(dg, pg->probe->span, E_VERIFIER, "Error loading program: %s: %s (%d)", pg->name,
		   strerror(e), -e);
	if (log[0]) {
		/* the end of the log says why */
		size_t len = strlen(log);
		const char *start = log;
		int lines = 0;
		for (const char *p = log + len; p > log; p--)
			if (p[-1] == '\n' && ++lines > 40) {
				start = p;
				break;
			}
		sb_printf(&dg->out, "verifier log%s:\n%s", start != log ? " (last 40 lines)" : "",
			  start);
	}
	/* the session runs privileged already: EPERM is the kernel's policy */
	if (e == ENOSPC && verbose_log)
		diag_hint(dg, "the verifier's log was cut at %zu bytes: -v loads with the log, and the "
			  "kernel refuses a program whose log does not fit: raise BPFTRACE_LOG_SIZE",
			  logsz);
	else if (e == ENOSPC && log[0])
		diag_hint(dg, "the verifier's log was cut at %zu bytes: a bigger BPFTRACE_LOG_SIZE "
			  "shows why the program was refused", logsz);
	else if (strstr(log, "cannot use helper bpf_probe_write_user"))
		diag_hint(dg, "this kernel refuses bpf_probe_write_user (write_user()) to every program: it is "
			  "locked down (/sys/kernel/security/lockdown says integrity or confidentiality)");
	else if (pg->inst->prov->load_hint)
		diag_hint(dg, "%s", pg->inst->prov->load_hint);
	else if (e == EPERM && !log[0])
		diag_hint(dg, "the kernel forbids it (a lockdown or security module policy)");
	free(log);
	if (funcs.btf_fd >= 0)
		close(funcs.btf_fd);
	return -1;
loaded:
	/* the program keeps its BTF */
	if (funcs.btf_fd >= 0)
		close(funcs.btf_fd);
	return 0;
}

/*
 * CLOCK_TAI - CLOCK_BOOTTIME, for nsecs(sw_tai): TAI read between two
 * readings of the boot clock, against their mean.
 */
static int64_t tai_offset(void)
{
	struct timespec b1, t, b2;

	clock_gettime(CLOCK_BOOTTIME, &b1);
	clock_gettime(CLOCK_TAI, &t);
	clock_gettime(CLOCK_BOOTTIME, &b2);
	int64_t boot1 = b1.tv_sec * 1000000000ll + b1.tv_nsec;
	int64_t boot2 = b2.tv_sec * 1000000000ll + b2.tv_nsec;
	return t.tv_sec * 1000000000ll + t.tv_nsec - (boot1 + (boot2 - boot1) / 2);
}

/*
 * The verifier takes milliseconds per program (lantern trace's enter and
 * exit programs: 2-3 ms each), each in the thread that loads it: the
 * programs load from a thread per CPU at once (at most LOADERS), the
 * largest first. A program the kernel refuses then loads again, alone, by
 * load_prog(), which says why.
 */
#define LOADERS 8

struct loader {
	struct session *s;
	struct bpf_insn **insns; /* by program, resolved; NULL: not to load here */
	size_t *order;		 /* the programs, largest first */
	size_t n, next;		 /* next: the next to take (atomic) */
};

static void *loader_main(void *arg)
{
	struct loader *l = arg;

	for (;;) {
		size_t k = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
		if (k >= l->n)
			return NULL;
		const struct prog *pg = l->s->plan.progs.data[l->order[k]];
		struct sys_prog_funcs funcs = { -1, pg->func_info, pg->nfuncs };
		char name[16];
		if (pg->nfuncs && (funcs.btf_fd = sys_btf_load(pg->btf, pg->btf_size, NULL, 0)) < 0)
			continue;
		sys_bpf_obj_name(name, sizeof(name), pg->name);
		l->s->prog_fds[pg->index] = sys_prog_load_funcs(pg->type, name, l->insns[l->order[k]], pg->ninsns,
								 pg->attach_type, pg->attach_btf_id, &funcs, NULL, 0, 1);
		if (funcs.btf_fd >= 0)
			close(funcs.btf_fd);
	}
}

static int by_size(const void *a, const void *b, void *arg)
{
	const struct plan *p = arg;
	uint32_t x = p->progs.data[*(const size_t *)a]->ninsns;
	uint32_t y = p->progs.data[*(const size_t *)b]->ninsns;
	return x < y ? 1 : x > y ? -1 : 0;
}

static void load_parallel(struct session *s, struct bpf_insn **insns)
{
	struct plan *p = &s->plan;
	struct loader l = { s, insns, util_xmalloc(sizeof(size_t) * (p->progs.len + 1)), 0, 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t tid[LOADERS];
	size_t started = 0;

	for (size_t i = 0; i < p->progs.len; i++)
		if (insns[i])
			l.order[l.n++] = i;
	qsort_r(l.order, l.n, sizeof(*l.order), by_size, p);
	size_t nthreads = MIN((size_t)(cpus > 1 ? cpus : 1), MIN(l.n, (size_t)LOADERS));
	for (size_t t = 1; t < nthreads; t++)
		if (util_thread_start(&tid[started], loader_main, &l) == 0)
			started++;
	loader_main(&l);
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	free(l.order);
}

int rt_load_all(struct session *s)
{
	struct plan *p = &s->plan;
	int64_t consts[LC_COUNT_] = {
		[LC_CPID] = s->cpid,
		[LC_START_NS] = (int64_t)s->start_ns,
		[LC_SELF_PID] = getpid(),
		[LC_NCPUS] = libbpf_num_possible_cpus(),
		[LC_TAI_OFFSET] = tai_offset(),
	};
	struct bpf_insn **insns = util_xcalloc(p->progs.len + 1, sizeof(*insns));
	int rc = 0;

	s->prog_fds = util_xmalloc(sizeof(int) * (p->progs.len + 1));
	for (size_t i = 0; i < p->progs.len; i++)
		s->prog_fds[i] = -1;
	if (maps_create(&s->maps, &p->maps, &p->diag, s->opts->r.verbose) < 0) {
		free(insns);
		return -1;
	}
	for (size_t i = 0; i < p->progs.len && rc == 0; i++) {
		const struct prog *pg = p->progs.data[i];
		insns[i] = util_xmalloc(sizeof(**insns) * (pg->ninsns + 1));
		memcpy(insns[i], pg->insns, sizeof(**insns) * pg->ninsns);
		rc = plan_bpf_resolve(insns[i], pg->ninsns, s->maps.fd, s->maps.n, consts);
		if (rc < 0)
			diag_error(&p->diag, pg->probe->span, E_CODEGEN,
				   "%s: internal error: the code names a map or value that is not there",
				   pg->name);
	}
	/* -v loads with the verifier's log, -vv and LANTERN_VERIFIER_STATS time each load: alone */
	if (rc == 0 && !s->opts->r.verbose && !getenv("LANTERN_VERIFIER_STATS"))
		load_parallel(s, insns);
	for (size_t i = 0; i < p->progs.len && rc == 0; i++) {
		const struct prog *pg = p->progs.data[i];
		if (s->prog_fds[pg->index] < 0 && load_prog(s, pg, insns[i]) < 0)
			rc = -1;
		else if (s->opts->r.verbose)
			fprintf(stderr,
				"lantern: %s: %u instructions, %u bytes of scratch, %zu attach "
				"point%s\n",
				pg->name, pg->ninsns, pg->scratch_size, pg->insts.len,
				pg->insts.len == 1 ? "" : "s");
	}
	for (size_t i = 0; i < p->progs.len; i++)
		free(insns[i]);
	free(insns);
	return rc;
}

static int attach_one(struct session *s, const struct prog *pg, const struct probe_inst *in,
		      int fail_at, int *n)
{
	char err[512];

	if (!in->prov->attach)
		return 0;
	if (++*n == fail_at) {
		diag_error(&s->plan.diag, in->ap->span, E_ATTACH,
			   "cannot attach %s: failure injected by LANTERN_TEST_FAIL_ATTACH", in->name);
		return -1;
	}
	if (in->prov->attach(&s->attach, pg, s->prog_fds[pg->index], in, err, sizeof(err)) < 0) {
		diag_error(&s->plan.diag, in->ap->span, E_ATTACH, "%s", err);
		return -1;
	}
	return 0;
}

/* A LIFO instance to attach: its site, its place in script order, its site's first */
struct lifo {
	uint64_t site;
	size_t order, group;
	const struct prog *pg;
	const struct probe_inst *in;
};

static int by_site(const void *a, const void *b)
{
	const struct lifo *x = a, *y = b;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order ? 1 : 0;
}

/* the sites in the order of their first instance; within one, the last written first */
static int by_group(const void *a, const void *b)
{
	const struct lifo *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->order < y->order ? 1 : x->order > y->order ? -1 : 0;
}

/*
 * In script order, so that probes on one event fire in that order, and on
 * a running program the first written starts firing first (bpftrace's
 * order); the instances of providers whose kernel runs the last attached
 * first at one site (PROV_F_LIFO: uprobes, software events) after the
 * others, each site's in reverse among themselves.
 */
int rt_attach_all(struct session *s)
{
	/* Tests make the Nth attachment fail, to check the teardown of the others. */
	const char *inject = getenv("LANTERN_TEST_FAIL_ATTACH");
	int fail_at = inject ? atoi(inject) : 0, n = 0, rc = 0;
	size_t np = s->plan.progs.len, nl = 0, order = 0;
	struct lifo *l = util_xmalloc(sizeof(*l) * (s->plan.insts.len + 1));

	s->attach.cpid = s->cpid;
	for (size_t i = 0; i < np && rc == 0; i++) {
		const struct prog *pg = s->plan.progs.data[i];
		for (size_t j = 0; j < pg->insts.len && rc == 0; j++) {
			const struct probe_inst *in = pg->insts.data[j];
			if (!(in->prov->flags & PROV_F_LIFO))
				rc = attach_one(s, pg, in, fail_at, &n);
			else if (nl < s->plan.insts.len)
				l[nl++] = (struct lifo){ in->prov->site ? in->prov->site(in) : 0, order++,
							 0, pg, in };
		}
	}
	qsort(l, nl, sizeof(*l), by_site);
	for (size_t a = 0, b; a < nl; a = b) /* sorted by order within a site: its first is [a] */
		for (b = a; b < nl && l[b].site == l[a].site; b++)
			l[b].group = l[a].order;
	qsort(l, nl, sizeof(*l), by_group);
	for (size_t k = 0; k < nl && rc == 0; k++)
		rc = attach_one(s, l[k].pg, l[k].in, fail_at, &n);
	free(l);
	return rc;
}


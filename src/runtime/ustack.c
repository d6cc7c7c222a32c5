// SPDX-License-Identifier: MIT
/* User stacks unwound in user space, the session's side: see ustack.h. */
#include "runtime/ustack.h"
#include "maps/mapread.h"
#include "maps/ustacks.h"
#include "sym/maptrack.h"
#include "sym/symbols.h"
#include "sym/unwind.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define TICK_NS 1000000000ull
#define COSTS_MAX 65536 /* unwind times kept for the median */
/*
 * Processes remembered before those that have ended are forgotten: a
 * build starts a thousand a minute, and a long profile of one would keep
 * them all
 */
#define PROCS_KEEP 4096

struct proc {
	int pid; /* 0: a free slot */
	int8_t fp;
	uint64_t dev, ino; /* its program, when fp */
};

struct rt_ustacks {
	struct proc *procs; /* open addressing by pid */
	size_t nprocs, used;
	uint64_t samples, frames, unresolved, refused, last_tick;
	uint64_t ends[UW_END_COUNT_];
	uint64_t used_bytes[5]; /* snapshots whose frames reached <1K, <2K, <4K, <8K, more */
	uint32_t *costs;
	size_t ncosts;
	struct sym_maptrack *mt; /* the processes' mappings as they change (maptrack.h) */
};

static struct rt_ustacks *state(struct session *s)
{
	if (!s->ustacks) {
		s->ustacks = util_xcalloc(1, sizeof(*s->ustacks));
		s->ustacks->costs = util_xmalloc(COSTS_MAX * sizeof(uint32_t));
		/* no more stacks than the maps keyed by them hold keys (and the snapshots in flight) */
		size_t keys = 1024;
		vec_foreach(&s->plan.maps.user, mp)
		{
			if ((*mp)->key && (*mp)->bpf_map >= 0 && maps_key_has_ustack((*mp)->key))
				keys += s->plan.maps.bpf.data[(*mp)->bpf_map].max_entries;
		}
		maps_ustack_limit(&s->maps, keys);
	}
	return s->ustacks;
}

static struct proc *proc_slot(struct rt_ustacks *u, int pid)
{
	if (2 * (u->used + 1) > u->nprocs) {
		size_t n = u->nprocs ? u->nprocs * 2 : 256;
		struct proc *old = u->procs;
		size_t oldn = u->nprocs;
		u->procs = util_xcalloc(n, sizeof(*u->procs));
		u->nprocs = n;
		for (size_t i = 0; i < oldn; i++)
			if (old[i].pid)
				*proc_slot(u, old[i].pid) = old[i];
		free(old);
	}
	size_t h = ((uint32_t)pid * 2654435761u) & (u->nprocs - 1);
	while (u->procs[h].pid && u->procs[h].pid != pid)
		h = (h + 1) & (u->nprocs - 1);
	return &u->procs[h];
}

/* The processes that have ended forgotten, and their kernel walk with them (ustack_fp) */
static void forget_ended(struct session *s, struct rt_ustacks *u)
{
	int fd = live_fd(&s->maps, s->plan.maps.ustack_fp);
	struct proc *old = u->procs;
	size_t n = u->nprocs;

	u->procs = util_xcalloc(n, sizeof(*u->procs));
	u->used = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t key = (uint32_t)old[i].pid;
		if (!old[i].pid)
			continue;
		if (kill(old[i].pid, 0) == 0 || errno == EPERM) {
			*proc_slot(u, old[i].pid) = old[i];
			u->used++;
		} else if (old[i].fp && fd >= 0) {
			bpf_map_delete_elem(fd, &key);
		}
	}
	free(old);
}

/* ustack_fp changed: the CPUs' remembered answers are stale (gen_ustack.c) */
static void changed(struct session *s)
{
	int fd = live_fd(&s->maps, s->plan.maps.ustack_gen);
	uint32_t zero = 0;
	uint64_t gen = 0;

	if (fd < 0)
		return;
	bpf_map_lookup_elem(fd, &zero, &gen);
	gen++;
	bpf_map_update_elem(fd, &zero, &gen, BPF_ANY);
}

/* A process seen for the first time: its mappings remembered; under auto, its walk chosen. */
static void first_seen(struct session *s, struct rt_ustacks *u, struct proc *p, int pid)
{
	int fd = live_fd(&s->maps, s->plan.maps.ustack_fp);
	uint32_t key = (uint32_t)pid;
	uint64_t one = 1;

	p->pid = pid;
	u->used++;
	sym_remember_process(pid);
	if (fd < 0)
		return;
	p->fp = (int8_t)(sym_unwind_exe_fp(pid, &p->dev, &p->ino) == 1);
	if (p->fp) {
		bpf_map_update_elem(fd, &key, &one, BPF_ANY);
		changed(s);
	}
}

void rt_ustack_snapshot(struct session *s, const struct record_desc *r, const uint8_t *data,
			size_t size)
{
	struct rt_ustacks *u = state(s);
	const struct type *t = r->args->fields[0].type;
	uint64_t token, pidtgid, len, ips[STACK_MAX_FRAMES];
	struct sym_uregs regs;
	struct sym_unwind_info info;

	memcpy(&token, data + USTACK_TOKEN, 8);
	memcpy(&pidtgid, data + USTACK_PID_TGID, 8);
	memcpy(&len, data + USTACK_LEN, 8);
	len = MIN(len, size - USTACK_STACK);
	int pid = (int)(pidtgid >> 32);
	if (u->used >= PROCS_KEEP && 2 * (u->used + 1) > u->nprocs)
		forget_ended(s, u);
	struct proc *p = proc_slot(u, pid);
	if (!p->pid)
		first_seen(s, u, p, pid);
	sym_uregs_from_pt_regs(&regs, data + USTACK_REGS);
	if (u->mt) /* the mappings it made until now, even if it has ended since */
		sym_maptrack_sync(u->mt, UINT64_MAX);
	uint64_t t0 = util_now_ns();
	int n = sym_unwind(pid, &regs, data + USTACK_STACK, len, ips, (int)t->count, &info);
	uint64_t dt = util_now_ns() - t0;
	maps_ustack_token_set(&s->maps, token, maps_ustack_intern(&s->maps, ips, (uint32_t)n));
	u->samples++;
	u->frames += (uint64_t)n;
	u->ends[info.end]++;
	u->used_bytes[info.used < 1024 ? 0 : info.used < 2048 ? 1 : info.used < 4096 ? 2 : info.used < 8192 ? 3 : 4]++;
	if (u->ncosts < COSTS_MAX)
		u->costs[u->ncosts++] = (uint32_t)MIN(dt, UINT32_MAX);
}

void rt_ustack_update(struct session *s, const struct record_desc *r, const uint8_t *data)
{
	struct rt_ustacks *u = state(s);
	const struct map_info *m = r->map;
	uint8_t *key = util_xmalloc(m->key->size);
	const uint8_t *value = data + 8 + ALIGN_UP(m->key->size, 8);
	uint64_t zero = 0;

	memcpy(key, data + 8, m->key->size);
	enum maps_ustacks_resolved res = maps_key_ustacks_resolve(&s->maps, m->key, key, false);
	if (res == USTACKS_LOST)
		u->unresolved++; /* its snapshot never came */
	else if (res == USTACKS_REFUSED)
		u->refused++; /* its stack is one too many for the maps keyed by stacks */
	else if (maps_user_update(&s->maps, m, key, r->upd_op == UPD_DELETE ? (uint8_t *)&zero : value,
				  (enum maps_upd_op)r->upd_op, s->plan.opts->hist_sums) < 0 &&
		 r->upd_op != UPD_DELETE)
		u->refused++; /* the map is full */
	free(key);
}

void rt_ustack_follow(struct session *s)
{
	char err[128];

	if (s->plan.maps.ustack_seq < 0)
		return; /* no snapshots to unwind */
	struct rt_ustacks *u = state(s);
	pid_t pid = s->cpid ? s->cpid : s->opts->r.pid ? (pid_t)s->opts->r.pid : -1;
	u->mt = sym_maptrack_open(pid, err, sizeof(err));
	if (!u->mt && s->opts->r.verbose)
		fprintf(stderr, "lantern: user stacks: mappings read from /proc only (%s)\n", err);
}

void rt_ustack_sync(struct session *s)
{
	if (s->ustacks && s->ustacks->mt)
		sym_maptrack_sync(s->ustacks->mt, UINT64_MAX);
}

void rt_ustack_tick(struct session *s)
{
	struct rt_ustacks *u = s->ustacks;
	int fd = live_fd(&s->maps, s->plan.maps.ustack_fp);
	char link[64];
	struct stat st;

	rt_ustack_sync(s); /* drained now and then, whatever comes */
	if (!u || fd < 0 || util_now_ns() - u->last_tick < TICK_NS)
		return;
	u->last_tick = util_now_ns();
	for (size_t i = 0; i < u->nprocs; i++) {
		struct proc *p = &u->procs[i];
		if (!p->pid || !p->fp)
			continue;
		snprintf(link, sizeof(link), "/proc/%d/exe", p->pid);
		if (stat(link, &st) == 0 && st.st_ino == p->ino &&
		    (((uint64_t)major(st.st_dev) << 32) | minor(st.st_dev)) == p->dev)
			continue;
		/* it exec'd another program, or ended: snapshots again until seen anew */
		uint32_t key = (uint32_t)p->pid;
		bpf_map_delete_elem(fd, &key);
		p->fp = 0;
		changed(s);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void print_stats(struct rt_ustacks *u)
{
	static const char *const ends[UW_END_COUNT_] = {
		"whole", "frame limit", "past the snapshot", "unmapped address", "no CFI", "bad frame",
	};
	double median = 0;

	if (u->ncosts) {
		qsort(u->costs, u->ncosts, sizeof(*u->costs), cmp_u32);
		median = u->costs[u->ncosts / 2] / 1000.0;
	}
	fprintf(stderr, "lantern: user stacks: %llu snapshots unwound, median %.1f us each, %.1f frames on average;",
		(unsigned long long)u->samples, median, u->samples ? (double)u->frames / u->samples : 0.0);
	for (int i = 0; i < UW_END_COUNT_; i++)
		if (u->ends[i])
			fprintf(stderr, " %s %llu", ends[i], (unsigned long long)u->ends[i]);
	fprintf(stderr, "; frames reached within 1K %llu, 2K %llu, 4K %llu, 8K %llu, beyond %llu",
		(unsigned long long)u->used_bytes[0], (unsigned long long)u->used_bytes[1],
		(unsigned long long)u->used_bytes[2], (unsigned long long)u->used_bytes[3],
		(unsigned long long)u->used_bytes[4]);
	struct sym_unwind_files f;
	sym_unwind_files(&f);
	fprintf(stderr, "; files opened %llu, closed %llu, open %llu with %.1f MB of CFI\n",
		(unsigned long long)f.opened, (unsigned long long)f.closed,
		(unsigned long long)f.open, f.bytes / 1048576.0);
}

void rt_ustack_report(struct session *s)
{
	struct rt_ustacks *u = s->ustacks;
	uint64_t lost = 0;
	int fd = live_fd(&s->maps, s->plan.maps.ustack_seq);

	if (fd >= 0) {
		/* per CPU: the snapshots the ring buffer refused */
		int n = libbpf_num_possible_cpus();
		struct ustack_cpu *v = util_xcalloc((size_t)(n > 0 ? n : 1), sizeof(*v));
		uint32_t zero = 0;
		if (bpf_map_lookup_elem(fd, &zero, v) == 0)
			for (int i = 0; i < n; i++)
				lost += v[i].lost;
		free(v);
	}
	if (u)
		lost = MAX(lost, u->unresolved);
	if (lost)
		fprintf(stderr,
			"WARNING: %llu user stack snapshot%s lost (the ring buffer was full): their "
			"samples are not in the maps. Try a bigger LANTERN_RINGBUF_KB or a smaller "
			"LANTERN_USTACK_SNAPSHOT\n",
			(unsigned long long)lost, lost == 1 ? " was" : "s were");
	if (u && u->refused)
		fprintf(stderr, "WARNING: Map full; can't update element: %llu update%s of unwound "
				"stacks refused. Try increasing BPFTRACE_MAP_KEYS_MAX\n",
			(unsigned long long)u->refused, u->refused == 1 ? "" : "s");
	const char *e = getenv("LANTERN_USTACK_STATS");
	if (u && (s->opts->r.verbose || (e && *e && strcmp(e, "0"))))
		print_stats(u);
}

void rt_ustack_free(struct session *s)
{
	if (!s->ustacks)
		return;
	sym_maptrack_close(s->ustacks->mt);
	free(s->ustacks->procs);
	free(s->ustacks->costs);
	free(s->ustacks);
	s->ustacks = NULL;
	sym_unwind_release();
}

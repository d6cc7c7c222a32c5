// SPDX-License-Identifier: MIT
/* Processes' executable mappings from perf's records: see maptrack.h. */
#include "sym/maptrack.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "sym/procmaps.h"
#include "sym/symbols.h"
#include "sym/unwind.h"
#include "sys/perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define RING_PAGES 32 /* 128 KB per CPU: a thousand mappings between two syncs */
#define CPUS_MAX 1024

struct tmap {
	uint64_t lo, hi, off, ino;
	uint32_t maj, min;
	char *path;
};

struct tproc {
	int pid;
	bool dirty;
	bool known; /* its mappings are whole: seeded, forked or exec'd under watch */
	struct tmap *v; /* by address, not overlapping */
	size_t n, cap;
};

/*
 * One event per CPU (the kernel maps no ring of an inherited event on
 * all CPUs): the records of one ring come in order, the rings merge by time
 */
struct ring {
	int fd;
	void *base;
	uint64_t tail;
	const uint8_t *next; /* the record at tail, whole, or NULL */
	uint64_t next_time;
};

struct sym_maptrack {
	struct ring *rings;
	size_t nrings;
	size_t size; /* of each data area */
	size_t page;
	struct tproc *procs;
	size_t nprocs, cap;
	uint8_t *rec; /* a record that wraps around the ring, copied whole */
};

static struct tproc *proc_get(struct sym_maptrack *mt, int pid)
{
	for (size_t i = 0; i < mt->nprocs; i++)
		if (mt->procs[i].pid == pid)
			return &mt->procs[i];
	if (mt->nprocs == mt->cap) {
		mt->cap = mt->cap ? mt->cap * 2 : 16;
		mt->procs = util_xrealloc(mt->procs, mt->cap * sizeof(*mt->procs));
	}
	struct tproc *p = &mt->procs[mt->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

static void proc_clear(struct tproc *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].path);
	p->n = 0;
	p->dirty = true;
}

/* A process gone from the tracker (its pinned mappings stay with symbols.h) */
static void proc_drop(struct sym_maptrack *mt, struct tproc *p)
{
	proc_clear(p);
	free(p->v);
	*p = mt->procs[--mt->nprocs];
}

static void insert_at(struct tproc *p, size_t at, const struct tmap *m)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->v = util_xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	memmove(&p->v[at + 1], &p->v[at], (p->n - at) * sizeof(*p->v));
	p->v[at] = *m;
	p->n++;
}

/* A new mapping replaces what it overlaps (an old one cut, split or gone) */
static void map_add(struct tproc *p, struct tmap m)
{
	for (size_t i = 0; i < p->n;) {
		struct tmap *o = &p->v[i];
		if (o->hi <= m.lo || o->lo >= m.hi) {
			i++;
			continue;
		}
		if (o->lo < m.lo && o->hi > m.hi) { /* split: the part above goes after */
			struct tmap up = *o;
			up.off += m.hi - o->lo;
			up.lo = m.hi;
			up.path = util_xstrdup(o->path);
			o->hi = m.lo;
			insert_at(p, i + 1, &up);
			i += 2;
		} else if (o->lo < m.lo) {
			o->hi = m.lo;
			i++;
		} else if (o->hi > m.hi) {
			o->off += m.hi - o->lo;
			o->lo = m.hi;
			i++;
		} else {
			free(o->path);
			memmove(o, o + 1, (p->n - i - 1) * sizeof(*o));
			p->n--;
		}
	}
	size_t at = 0;
	while (at < p->n && p->v[at].lo < m.lo)
		at++;
	m.path = util_xstrdup(m.path);
	insert_at(p, at, &m);
	p->dirty = true;
}

/* What pid maps now, from /proc (a process met in the middle of its life) */
static void seed(struct tproc *p)
{
	struct sym_maps now;

	p->known = true;
	if (!sym_maps_read(p->pid, &now))
		return;
	for (size_t i = 0; i < now.n; i++) {
		const struct sym_mapping *m = &now.v[i];
		if (m->exec && m->path[0])
			map_add(p, (struct tmap){ m->lo, m->hi, m->offset, m->ino, (uint32_t)(m->dev >> 32),
						  (uint32_t)m->dev, (char *)m->path });
	}
	sym_maps_free(&now);
}

/* Its mappings, as /proc/PID/maps shows them, to symbols.h and the unwinder */
static void publish(struct tproc *p)
{
	struct strbuf sb = { 0 };
	struct sym_maps maps;

	for (size_t i = 0; i < p->n; i++) {
		const struct tmap *m = &p->v[i];
		sb_printf(&sb, "%llx-%llx r-xp %08llx %02x:%02x %llu %s\n", (unsigned long long)m->lo,
			  (unsigned long long)m->hi, (unsigned long long)m->off, m->maj, m->min,
			  (unsigned long long)m->ino, m->path);
	}
	sym_maps_parse(sb.len ? util_xstrdup(sb_str(&sb)) : util_xstrdup(""), &maps);
	sb_free(&sb);
	sym_pin_process_maps(p->pid, &maps);
	sym_unwind_forget(p->pid);
	p->dirty = false;
}

struct sym_maptrack *sym_maptrack_open(pid_t pid, char *err, size_t errlen)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		.inherit = pid > 0,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	static int cpus[CPUS_MAX];
	int ncpus = sys_online_cpus(cpus, CPUS_MAX);
	struct sym_maptrack *mt = util_xcalloc(1, sizeof(*mt));

	mt->page = (size_t)sysconf(_SC_PAGESIZE);
	mt->size = mt->page * RING_PAGES;
	mt->rings = util_xcalloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*mt->rings));
	for (int i = 0; i < ncpus; i++) {
		struct ring *r = &mt->rings[mt->nrings];
		r->fd = sys_perf_event_open_fd(&attr, pid, cpus[i], -1, PERF_FLAG_FD_CLOEXEC);
		if (r->fd < 0) {
			snprintf(err, errlen, "perf_event_open: %s", strerror(errno));
			sym_maptrack_close(mt);
			return NULL;
		}
		r->base = mmap(NULL, mt->size + mt->page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
		if (r->base == MAP_FAILED) {
			snprintf(err, errlen, "mmap of perf's ring: %s", strerror(errno));
			close(r->fd);
			sym_maptrack_close(mt);
			return NULL;
		}
		mt->nrings++;
	}
	if (!mt->nrings) {
		snprintf(err, errlen, "no online CPU");
		sym_maptrack_close(mt);
		return NULL;
	}
	if (pid > 0) { /* what it maps already (a process lantern attaches to) */
		struct tproc *p = proc_get(mt, (int)pid);
		seed(p);
		publish(p);
	}
	return mt;
}

/* The time of a record (sample_id_all: pid, tid, then the time, at its end) */
static uint64_t rec_time(const struct perf_event_header *h)
{
	uint64_t t;

	if (h->size < sizeof(*h) + 16)
		return 0;
	memcpy(&t, (const uint8_t *)h + h->size - 8, 8);
	return t;
}

static void apply(struct sym_maptrack *mt, const struct perf_event_header *h)
{
	const uint8_t *b = (const uint8_t *)(h + 1);
	uint32_t u[4];

	switch (h->type) {
	case PERF_RECORD_MMAP2: {
		/* pid, tid; addr, len, pgoff; maj, min; ino, ino_generation; prot, flags; filename */
		uint64_t q[3], ino;
		size_t fixed = 8 + 24 + 8 + 16 + 8;
		if (h->size < sizeof(*h) + fixed + 16 || (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
			return;
		memcpy(u, b, 8);
		memcpy(q, b + 8, 24);
		memcpy(&u[2], b + 32, 8);
		memcpy(&ino, b + 40, 8);
		const char *name = (const char *)b + fixed;
		size_t room = h->size - sizeof(*h) - fixed - 16;
		if (!memchr(name, 0, room) || !name[0])
			return;
		struct tproc *p = proc_get(mt, (int)u[0]);
		if (!p->known) /* met in the middle of its life: what it mapped before */
			seed(p);
		map_add(p, (struct tmap){ q[0], q[0] + q[1], q[2], ino, u[2], u[3], (char *)name });
		break;
	}
	case PERF_RECORD_FORK: /* pid, ppid, tid, ptid: a new process starts with its parent's mappings */
		memcpy(u, b, 16);
		if (u[0] != u[1] && u[0] == u[2]) {
			struct tproc *parent = proc_get(mt, (int)u[1]);
			if (!parent->known)
				seed(parent);
			size_t pi = (size_t)(parent - mt->procs);
			struct tproc *child = proc_get(mt, (int)u[0]);
			parent = &mt->procs[pi];
			proc_clear(child);
			child->known = true;
			for (size_t i = 0; i < parent->n; i++)
				map_add(child, parent->v[i]);
		}
		break;
	case PERF_RECORD_EXIT: /* pid, ppid, tid, ptid: the process is gone (its mappings stay pinned) */
		memcpy(u, b, 16);
		if (u[0] == u[2])
			for (size_t i = 0; i < mt->nprocs; i++)
				if (mt->procs[i].pid == (int)u[0]) {
					if (mt->procs[i].dirty)
						publish(&mt->procs[i]);
					proc_drop(mt, &mt->procs[i]);
					break;
				}
		break;
	case PERF_RECORD_LOST: /* mappings missed: every process goes back to /proc */
		while (mt->nprocs) {
			sym_unpin_process_maps(mt->procs[0].pid);
			sym_unwind_forget(mt->procs[0].pid);
			proc_drop(mt, &mt->procs[0]);
		}
		break;
	case PERF_RECORD_COMM: /* pid, tid, comm: an exec starts over */
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC) {
			memcpy(u, b, 8);
			struct tproc *p = proc_get(mt, (int)u[0]);
			proc_clear(p);
			p->known = true;
		}
		break;
	default:
		break;
	}
}

/* The ring's record at its tail (r->next, whole: copied when it wraps around), or false */
static bool peek(struct sym_maptrack *mt, struct ring *r)
{
	struct perf_event_mmap_page *pg = r->base;
	const uint8_t *data = (const uint8_t *)r->base + mt->page;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header h;
	size_t at = r->tail % mt->size;

	r->next = NULL;
	if (r->tail + sizeof(h) > head)
		return false;
	memcpy(&h, data + at, sizeof(h)); /* a header never wraps: records are 8-aligned */
	if (h.size < sizeof(h) || r->tail + h.size > head)
		return false;
	r->next = data + at;
	if (at + h.size > mt->size) {
		mt->rec = util_xrealloc(mt->rec, h.size);
		memcpy(mt->rec, data + at, mt->size - at);
		memcpy(mt->rec + (mt->size - at), data, h.size - (mt->size - at));
		r->next = mt->rec;
	}
	r->next_time = h.type == PERF_RECORD_LOST ? 0 : rec_time((const struct perf_event_header *)r->next);
	return true;
}

void sym_maptrack_sync(struct sym_maptrack *mt, uint64_t ts)
{
	for (;;) {
		struct ring *first = NULL;
		for (size_t i = 0; i < mt->nrings; i++) {
			struct ring *r = &mt->rings[i];
			if (peek(mt, r) && r->next_time <= ts && (!first || r->next_time < first->next_time))
				first = r;
		}
		if (!first)
			break;
		peek(mt, first); /* again: another ring's copy may have taken mt->rec */
		const struct perf_event_header *h = (const struct perf_event_header *)first->next;
		apply(mt, h);
		first->tail += h->size;
		__atomic_store_n(&((struct perf_event_mmap_page *)first->base)->data_tail, first->tail,
				 __ATOMIC_RELEASE);
	}
	for (size_t i = 0; i < mt->nprocs; i++)
		if (mt->procs[i].dirty)
			publish(&mt->procs[i]);
}

void sym_maptrack_close(struct sym_maptrack *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < mt->nrings; i++) {
		munmap(mt->rings[i].base, mt->size + mt->page);
		close(mt->rings[i].fd);
	}
	free(mt->rings);
	for (size_t i = 0; i < mt->nprocs; i++) {
		proc_clear(&mt->procs[i]);
		free(mt->procs[i].v);
	}
	free(mt->procs);
	free(mt->rec);
	free(mt);
}

// SPDX-License-Identifier: MIT
#include "sym/symbols.h"
#include "base/util.h"
#include "sym/elf.h"
#include "sym/inline.h"
#include "sym/procmaps.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct addr_sym {
	uint64_t addr, size; /* size 0: up to the next symbol */
	char *name;
	uint8_t rank; /* among the names of one address, the lowest names it (elf.h) */
};

struct symtab {
	struct addr_sym *v;
	size_t n;
};

static void symtab_push_sized(struct symtab *t, size_t *cap, uint64_t addr, uint64_t size,
			      const char *name, uint8_t rank)
{
	if (t->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		t->v = util_xrealloc(t->v, *cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct addr_sym){ addr, size, util_xstrdup(name), rank };
}

static int by_addr(const void *a, const void *b)
{
	const struct addr_sym *p = a, *q = b;

	if (p->addr != q->addr)
		return p->addr < q->addr ? -1 : 1;
	return p->rank - q->rank;
}

/* the last symbol at or below addr */
static const struct addr_sym *nearest(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* the best-ranked name of that address */
	while (lo > 1 && t->v[lo - 2].addr == t->v[lo - 1].addr)
		lo--;
	return &t->v[lo - 1];
}

static void symtab_push(struct symtab *t, size_t *cap, uint64_t addr, const char *name)
{
	symtab_push_sized(t, cap, addr, 0, name, 0);
}

static void symtab_free(struct symtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* --- kernel ---------------------------------------------------------------- */

static struct symtab kernel;
static bool kernel_loaded;

static void load_kernel(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long addr;
	size_t cap = 0;

	kernel_loaded = true;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type == 't' || type == 'T' || type == 'w' || type == 'W')
			symtab_push(&kernel, &cap, addr, name);
	}
	fclose(f);
	if (kernel.n)
		qsort(kernel.v, kernel.n, sizeof(*kernel.v), by_addr);
}

static bool ksym_resolve_locked(uint64_t addr, struct sym *out)
{
	const struct addr_sym *s;

	if (!kernel_loaded)
		load_kernel();
	s = nearest(&kernel, addr);
	if (!s)
		return false;
	*out = (struct sym){ s->name, addr - s->addr, NULL };
	return true;
}

/* every symbol of /proc/kallsyms by name, for kaddr() (loaded once) */
static struct symtab by_name_tab;
static bool by_name_loaded;

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct addr_sym *)a)->name, ((const struct addr_sym *)b)->name);
}

static uint64_t ksym_address_locked(const char *name)
{
	struct addr_sym key = { .name = (char *)name }, *hit;

	if (!by_name_loaded) {
		FILE *f = fopen("/proc/kallsyms", "r");
		char line[512], sym[256], type;
		unsigned long long addr;
		size_t cap = 0;
		by_name_loaded = true;
		if (f) {
			while (fgets(line, sizeof(line), f))
				if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 && addr)
					symtab_push(&by_name_tab, &cap, addr, sym);
			fclose(f);
			/* none without root: kallsyms then shows every address as 0 */
			if (by_name_tab.n)
				qsort(by_name_tab.v, by_name_tab.n, sizeof(*by_name_tab.v), by_name);
		}
	}
	hit = by_name_tab.n ? bsearch(&key, by_name_tab.v, by_name_tab.n, sizeof(key), by_name) : NULL;
	return hit ? hit->addr : 0;
}

/* --- user ------------------------------------------------------------------ */

/* a mapped file: its function symbols by address and its segments */
struct user_file {
	char *path;
	struct sym_dwarf *dw; /* inlined functions (inline.h); NULL before dw_tried or without */
	bool dw_tried;
	struct inl_memo *memo; /* the inlined functions of the addresses looked up */
	char build_id[129]; /* hex, "" without */
	struct symtab syms;
	struct elf_segment segs[16];
	int nsegs;
};

static struct user_file *files;
static size_t nfiles;

static struct user_file *user_file(const char *path)
{
	struct elf_funcs funcs;
	char err[256];
	size_t cap = 0;

	for (size_t i = 0; i < nfiles; i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	files = util_xrealloc(files, (nfiles + 1) * sizeof(*files));
	struct user_file *uf = &files[nfiles++];
	memset(uf, 0, sizeof(*uf));
	uf->path = util_xstrdup(path);
	uf->nsegs = sym_elf_segments(path, uf->segs, 16);
	sym_elf_build_id_hex(path, uf->build_id, sizeof(uf->build_id));
	if (sym_elf_funcs_load(path, &funcs, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < funcs.n; i++) /* C++ names as written (demangle.h) */
			symtab_push_sized(&uf->syms, &cap, funcs.v[i].addr, funcs.v[i].size,
					  funcs.v[i].demangled ? funcs.v[i].demangled : funcs.v[i].name,
					  funcs.v[i].rank);
		sym_elf_funcs_free(&funcs);
		if (uf->syms.n)
			qsort(uf->syms.v, uf->syms.n, sizeof(*uf->syms.v), by_addr);
	}
	return uf;
}

static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A process's mappings, as /proc/PID/maps last showed them: a process that
 * has exited (the -c command when the maps print, a short-lived one in a
 * map the metrics serve) still has its stacks resolved. Kept parsed, by
 * pid, and read again only when older than MAPS_FRESH_MS (or MAPS_MISS_MS
 * for an address in none of them: a library loaded since), not for every
 * frame: a scrape of thousands of user stacks reads each process once.
 * Those not looked up for MAPS_KEEP_S go (a live process is read again
 * when asked; an exited one's stacks show addresses), and at most
 * MAPS_MAX are kept (the least recently looked up goes first), so a long
 * run over many short processes (a build: a thousand a minute) does not
 * keep them all.
 */
#define MAPS_FRESH_MS 1000
#define MAPS_MISS_MS 50
#define MAPS_KEEP_S 600
#define MAPS_SWEEP_S 10
#define MAPS_MAX 1024
struct maps_snap {
	int pid;
	bool pinned; /* given by its tracer (sym_pin_process_maps): never read from /proc */
	struct sym_maps maps;
	uint64_t read_ns; /* when read (or tried) last */
	uint64_t used_ns; /* when looked up last */
};
static struct maps_snap *snaps; /* sorted by pid */
static size_t nsnaps, snaps_cap;
static uint64_t swept_ns;

/*
 * Processes found gone before they were ever read (a short process whose
 * stacks are named after it ended): not looked for again within
 * MAPS_FRESH_MS. A scrape of a build's stacks opened /proc/PID/maps for
 * every frame of every such stack, two seconds a scrape. A slot per pid
 * modulo GONE_SLOTS: a collision only means one more look.
 */
#define GONE_SLOTS 1024
static struct gone {
	int pid;
	uint64_t at_ns;
} gone[GONE_SLOTS];

static struct gone *gone_slot(int pid)
{
	return &gone[(unsigned)pid % GONE_SLOTS];
}

static struct maps_snap *snap_of(int pid)
{
	size_t lo = 0, hi = nsnaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (snaps[mid].pid == pid)
			return &snaps[mid];
		if (snaps[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The least recently looked up process forgotten (MAPS_MAX of them kept) */
static void snaps_evict(void)
{
	size_t old = 0;

	for (size_t i = 1; i < nsnaps; i++)
		if (snaps[i].used_ns < snaps[old].used_ns)
			old = i;
	sym_maps_free(&snaps[old].maps);
	memmove(&snaps[old], &snaps[old + 1], (nsnaps - old - 1) * sizeof(*snaps));
	nsnaps--;
}

static struct maps_snap *snap_add(int pid)
{
	size_t lo = 0;

	if (nsnaps >= MAPS_MAX)
		snaps_evict();
	while (lo < nsnaps && snaps[lo].pid < pid)
		lo++;
	if (nsnaps == snaps_cap) {
		snaps_cap = snaps_cap ? snaps_cap * 2 : 64;
		snaps = util_xrealloc(snaps, snaps_cap * sizeof(*snaps));
	}
	memmove(&snaps[lo + 1], &snaps[lo], (nsnaps - lo) * sizeof(*snaps));
	nsnaps++;
	snaps[lo] = (struct maps_snap){ .pid = pid };
	return &snaps[lo];
}

/* Drop the processes not looked up for MAPS_KEEP_S (every MAPS_SWEEP_S at most). */
static void snaps_sweep(uint64_t now)
{
	size_t k = 0;

	if (now - swept_ns < MAPS_SWEEP_S * 1000000000ull)
		return;
	swept_ns = now;
	for (size_t i = 0; i < nsnaps; i++) {
		if (now - snaps[i].used_ns > MAPS_KEEP_S * 1000000000ull) {
			sym_maps_free(&snaps[i].maps);
			continue;
		}
		snaps[k++] = snaps[i];
	}
	nsnaps = k;
}

/*
 * pid's mappings (and remembered): read again when older than fresh_ms
 * (0: now); as last seen when it is gone; NULL if never seen.
 */
static const struct sym_maps *process_maps_within(int pid, uint64_t fresh_ms)
{
	uint64_t now = util_now_ns();
	struct maps_snap *sn;
	struct sym_maps m;

	snaps_sweep(now);
	sn = snap_of(pid);
	if (sn) {
		sn->used_ns = now;
		if (sn->pinned || now - sn->read_ns < fresh_ms * 1000000ull)
			return &sn->maps;
		sn->read_ns = now;
	} else if (gone_slot(pid)->pid == pid && now - gone_slot(pid)->at_ns < MAPS_FRESH_MS * 1000000ull) {
		return NULL;
	}
	if (!sym_maps_read(pid, &m)) {
		if (!sn) {
			*gone_slot(pid) = (struct gone){ pid, now };
		}
		return sn ? &sn->maps : NULL;
	}
	sym_maps_keep_exec(&m); /* a thousand processes' snapshots: code addresses only */
	if (!sn) {
		sn = snap_add(pid);
		sn->used_ns = sn->read_ns = now;
	} else {
		sym_maps_free(&sn->maps);
	}
	sn->maps = m;
	return &sn->maps;
}

static const struct sym_maps *process_maps(int pid, bool force)
{
	return process_maps_within(pid, force ? 0 : MAPS_FRESH_MS);
}

/* The mapping of addr in pid: read again (at most every MAPS_MISS_MS) if it is in none */
static const struct sym_mapping *process_mapping(int pid, uint64_t addr)
{
	const struct sym_maps *maps = process_maps(pid, false);
	const struct sym_mapping *mp = maps ? sym_maps_find(maps, addr) : NULL;

	if (!mp && maps && (maps = process_maps_within(pid, MAPS_MISS_MS)))
		mp = sym_maps_find(maps, addr);
	return mp;
}

/* The virtual address of file offset foff, through the segment holding it */
static bool file_vaddr(const struct user_file *uf, uint64_t foff, uint64_t *vaddr)
{
	for (int i = 0; i < uf->nsegs; i++) {
		const struct elf_segment *sg = &uf->segs[i];
		if (foff >= sg->offset && foff < sg->offset + sg->size) {
			*vaddr = foff - sg->offset + sg->vaddr;
			return true;
		}
	}
	return false;
}

/* A file's function at vaddr: within its size when it has one. */
static const struct addr_sym *file_sym(const struct user_file *uf, uint64_t vaddr)
{
	const struct addr_sym *s = nearest(&uf->syms, vaddr);

	if (s && s->size && vaddr - s->addr >= s->size)
		return NULL; /* past its end: a function no table names */
	return s;
}

static bool usym_resolve_locked(int pid, uint64_t addr, struct sym *out)
{
	const struct sym_mapping *mp = process_mapping(pid, addr);

	if (!mp || mp->path[0] != '/')
		return false;
	struct user_file *uf = user_file(mp->path);
	uint64_t vaddr;
	const struct addr_sym *s;
	if (!file_vaddr(uf, addr - mp->lo + mp->offset, &vaddr) || !(s = file_sym(uf, vaddr)))
		return false;
	*out = (struct sym){ s->name, vaddr - s->addr, uf->path };
	return true;
}

bool sym_remembered_maps(int pid, struct sym_maps *out)
{
	pthread_mutex_lock(&sym_lock);
	struct maps_snap *sn = snap_of(pid);
	if (sn && sn->maps.text)
		sym_maps_copy(&sn->maps, out);
	pthread_mutex_unlock(&sym_lock);
	return sn && sn->maps.text;
}

/*
 * A direct-mapped memo of the inlined functions per address: printing a
 * profile asks for the same return addresses over and over.
 */
#define INL_MEMO 2048
#define INL_MEMO_NAMES 4
struct inl_memo {
	uint64_t vaddr;
	int8_t n; /* -1: empty */
	const char *names[INL_MEMO_NAMES];
};

static int file_inlines(struct user_file *uf, uint64_t vaddr, const char **names, int max)
{
	struct inl_memo *m;
	int n;

	if (!uf->memo) {
		uf->memo = util_xmalloc(INL_MEMO * sizeof(*uf->memo));
		for (int i = 0; i < INL_MEMO; i++)
			uf->memo[i].n = -1;
	}
	m = &uf->memo[(vaddr ^ (vaddr >> 11)) % INL_MEMO];
	if (m->n >= 0 && m->vaddr == vaddr && m->n <= max) {
		memcpy(names, m->names, (size_t)m->n * sizeof(*names));
		return m->n;
	}
	n = sym_dwarf_inlines(uf->dw, vaddr, names, max);
	if (n <= INL_MEMO_NAMES) {
		m->vaddr = vaddr;
		m->n = (int8_t)n;
		memcpy(m->names, names, (size_t)n * sizeof(*names));
	}
	return n;
}

/* The file of a user address of pid with its DWARF open, and the address in it; NULL if none (sym_lock held) */
static struct user_file *dwarf_file_at(int pid, uint64_t addr, uint64_t *vaddr)
{
	const struct sym_mapping *mp = process_mapping(pid, addr);
	struct user_file *uf;

	if (!mp || mp->path[0] != '/')
		return NULL;
	uf = user_file(mp->path);
	if (!uf->dw_tried) {
		uf->dw_tried = true;
		uf->dw = sym_dwarf_open(uf->path);
	}
	return uf->dw && file_vaddr(uf, addr - mp->lo + mp->offset, vaddr) ? uf : NULL;
}

int sym_usym_inlines(int pid, uint64_t addr, const char **names, int max)
{
	uint64_t vaddr;
	int n = 0;

	pthread_mutex_lock(&sym_lock);
	struct user_file *uf = dwarf_file_at(pid, addr, &vaddr);
	if (uf)
		n = file_inlines(uf, vaddr, names, max);
	pthread_mutex_unlock(&sym_lock);
	return n;
}

int sym_usym_srclines(int pid, uint64_t addr, struct sym_srcline *out, int max)
{
	uint64_t vaddr;
	int n = 0;

	pthread_mutex_lock(&sym_lock);
	struct user_file *uf = dwarf_file_at(pid, addr, &vaddr);
	if (uf)
		n = sym_dwarf_srclines(uf->dw, vaddr, out, max);
	pthread_mutex_unlock(&sym_lock);
	return n;
}

bool sym_usym_mapping(int pid, uint64_t addr, struct sym_umap *out)
{
	pthread_mutex_lock(&sym_lock);
	const struct sym_mapping *mp = process_mapping(pid, addr);
	bool ok = mp && mp->path[0] == '/';
	if (ok) {
		struct user_file *uf = user_file(mp->path);
		*out = (struct sym_umap){ mp->lo, mp->hi, mp->offset, uf->path, uf->build_id };
	}
	pthread_mutex_unlock(&sym_lock);
	return ok;
}

bool sym_usym_frame(int pid, uint64_t addr, struct sym_frame *out)
{
	pthread_mutex_lock(&sym_lock);
	const struct sym_mapping *mp = process_mapping(pid, addr);
	bool ok = mp && mp->path[0];
	if (ok) {
		struct user_file *uf = mp->path[0] == '/' ? user_file(mp->path) : NULL;
		uint64_t foff = addr - mp->lo + mp->offset;
		*out = (struct sym_frame){ uf ? uf->path : mp->path, NULL, foff, 0 };
		uint64_t vaddr;
		const struct addr_sym *s;
		if (uf && file_vaddr(uf, foff, &vaddr) && (s = nearest(&uf->syms, vaddr))) {
			out->name = s->name;
			out->func_off = vaddr - s->addr;
		}
	}
	pthread_mutex_unlock(&sym_lock);
	return ok;
}

void sym_pin_process_maps(int pid, struct sym_maps *m)
{
	pthread_mutex_lock(&sym_lock);
	struct maps_snap *sn = snap_of(pid);
	if (!sn)
		sn = snap_add(pid);
	else
		sym_maps_free(&sn->maps);
	sn->maps = *m;
	sn->pinned = true;
	sn->used_ns = sn->read_ns = util_now_ns();
	pthread_mutex_unlock(&sym_lock);
	memset(m, 0, sizeof(*m));
}

void sym_unpin_process_maps(int pid)
{
	pthread_mutex_lock(&sym_lock);
	struct maps_snap *sn = snap_of(pid);
	if (sn && sn->pinned) {
		sn->pinned = false;
		sn->read_ns = 0; /* read again when next asked */
	}
	pthread_mutex_unlock(&sym_lock);
}

bool sym_pinned_maps(int pid, struct sym_maps *out)
{
	pthread_mutex_lock(&sym_lock);
	struct maps_snap *sn = snap_of(pid);
	bool ok = sn && sn->pinned;
	if (ok)
		sym_maps_copy(&sn->maps, out);
	pthread_mutex_unlock(&sym_lock);
	return ok;
}

void sym_remember_process(int pid)
{
	pthread_mutex_lock(&sym_lock);
	process_maps(pid, true);
	pthread_mutex_unlock(&sym_lock);
}

/*
 * The tables load on first use and grow (user files); the metrics server
 * (runtime/metrics.c) resolves stacks from its own thread, so every entry
 * point takes this lock. Names stay valid until sym_release().
 */

bool sym_ksym_resolve(uint64_t addr, struct sym *out)
{
	pthread_mutex_lock(&sym_lock);
	bool ok = ksym_resolve_locked(addr, out);
	pthread_mutex_unlock(&sym_lock);
	return ok;
}

uint64_t sym_ksym_address(const char *name)
{
	pthread_mutex_lock(&sym_lock);
	uint64_t a = ksym_address_locked(name);
	pthread_mutex_unlock(&sym_lock);
	return a;
}

bool sym_usym_resolve(int pid, uint64_t addr, struct sym *out)
{
	pthread_mutex_lock(&sym_lock);
	bool ok = usym_resolve_locked(pid, addr, out);
	pthread_mutex_unlock(&sym_lock);
	return ok;
}

void sym_release(void)
{
	symtab_free(&kernel);
	kernel_loaded = false;
	symtab_free(&by_name_tab);
	by_name_loaded = false;
	for (size_t i = 0; i < nfiles; i++) {
		sym_dwarf_close(files[i].dw);
		free(files[i].memo);
		symtab_free(&files[i].syms);
		free(files[i].path);
	}
	free(files);
	files = NULL;
	nfiles = 0;
	for (size_t i = 0; i < nsnaps; i++)
		sym_maps_free(&snaps[i].maps);
	free(snaps);
	snaps = NULL;
	nsnaps = snaps_cap = 0;
}

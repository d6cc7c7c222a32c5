// SPDX-License-Identifier: MIT
#include "sym/symbols.h"
#include "base/util.h"
#include "sym/elf.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct addr_sym {
	uint64_t addr;
	char *name;
};

struct symtab {
	struct addr_sym *v;
	size_t n;
};

static int by_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct addr_sym *)a)->addr, y = ((const struct addr_sym *)b)->addr;
	return x < y ? -1 : x > y;
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
	return lo ? &t->v[lo - 1] : NULL;
}

static void symtab_push(struct symtab *t, size_t *cap, uint64_t addr, const char *name)
{
	if (t->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		t->v = util_xrealloc(t->v, *cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct addr_sym){ addr, util_xstrdup(name) };
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
	struct addr_sym key = { 0, (char *)name }, *hit;

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

/* a mapped file: its function symbols by address and its segments, loaded on first use */
struct user_file {
	char *path;
	bool loaded;
	struct symtab syms;
	struct elf_segment segs[16];
	int nsegs;
};

static struct user_file *files;
static size_t nfiles;

/* the n bytes at s are path */
static bool path_is(const char *path, const char *s, size_t n)
{
	return !strncmp(path, s, n) && !path[n];
}

/* The index of path (n bytes) in files, added if new; its symbols load later. */
static size_t user_file_index(const char *path, size_t n)
{
	for (size_t i = 0; i < nfiles; i++)
		if (path_is(files[i].path, path, n))
			return i;
	files = util_xrealloc(files, (nfiles + 1) * sizeof(*files));
	memset(&files[nfiles], 0, sizeof(*files));
	files[nfiles].path = util_xstrndup(path, n);
	return nfiles++;
}

static struct user_file *user_file(size_t i)
{
	struct user_file *uf = &files[i];
	struct elf_funcs funcs;
	char err[256];
	size_t cap = 0;

	if (uf->loaded)
		return uf;
	uf->loaded = true;
	uf->nsegs = sym_elf_segments(uf->path, uf->segs, 16);
	if (sym_elf_funcs_load(uf->path, &funcs, err, sizeof(err)) == 0) {
		for (size_t j = 0; j < funcs.n; j++) /* C++ names as written (demangle.h) */
			symtab_push(&uf->syms, &cap, funcs.v[j].addr,
				    funcs.v[j].demangled ? funcs.v[j].demangled : funcs.v[j].name);
		sym_elf_funcs_free(&funcs);
		if (uf->syms.n)
			qsort(uf->syms.v, uf->syms.n, sizeof(*uf->syms.v), by_addr);
	}
	return uf;
}

static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A process's executable file mappings, as /proc/PID/maps last showed
 * them: a process that has exited (the -c command when the maps print, a
 * short-lived one in a map the metrics serve) still has its stacks
 * resolved. Kept parsed, by pid, and read again only when older than
 * MAPS_FRESH_MS (or MAPS_MISS_MS for an address in none of them: a library
 * loaded since), not for every frame: a scrape of thousands of user stacks
 * reads each process once. Those not looked up for MAPS_KEEP_S go (a live
 * process is read again when asked; an exited one's stacks show addresses),
 * so a long run over many short processes does not keep them all.
 */
#define MAPS_FRESH_MS 1000
#define MAPS_MISS_MS  50
#define MAPS_KEEP_S   600
#define MAPS_SWEEP_S  10

struct proc_map {
	uint64_t lo, hi, off; /* [lo, hi) maps the file from offset off */
	size_t file;	      /* index in files */
};

struct proc_maps {
	int pid;
	bool gone;	  /* the last read failed: the process has exited */
	uint64_t read_ns; /* when read (or tried) last, 0: never */
	uint64_t used_ns; /* when looked up last */
	struct proc_map *v;
	size_t n;
};

static struct proc_maps *procs; /* sorted by pid */
static size_t nprocs, procs_cap;
static uint64_t swept_ns;

/* pid's entry, added (never read) if new */
static struct proc_maps *proc_of(int pid)
{
	size_t lo = 0, hi = nprocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (procs[mid].pid == pid)
			return &procs[mid];
		if (procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (nprocs == procs_cap) {
		procs_cap = procs_cap ? procs_cap * 2 : 64;
		procs = util_xrealloc(procs, procs_cap * sizeof(*procs));
	}
	memmove(&procs[lo + 1], &procs[lo], (nprocs - lo) * sizeof(*procs));
	nprocs++;
	procs[lo] = (struct proc_maps){ .pid = pid };
	return &procs[lo];
}

/* Drop the entries not looked up for MAPS_KEEP_S (every MAPS_SWEEP_S at most). */
static void procs_sweep(uint64_t now)
{
	size_t k = 0;

	if (now - swept_ns < MAPS_SWEEP_S * 1000000000ull)
		return;
	swept_ns = now;
	for (size_t i = 0; i < nprocs; i++) {
		if (now - procs[i].used_ns > MAPS_KEEP_S * 1000000000ull) {
			free(procs[i].v);
			continue;
		}
		procs[k++] = procs[i];
	}
	nprocs = k;
}

static uint64_t hex(const char **p)
{
	char *end;
	uint64_t v = strtoull(*p, &end, 16);

	*p = end;
	return v;
}

/*
 * Read pid's mappings into pm: the executable ones of files. Those last
 * read stay when the process is gone (or a zombie without memory).
 */
static void proc_read(struct proc_maps *pm, uint64_t now)
{
	char path[64];
	size_t len = 0, cap = 0, n = 0;
	struct proc_map *v = NULL;

	pm->read_ns = now;
	snprintf(path, sizeof(path), "/proc/%d/maps", pm->pid);
	char *text = util_read_file(path, &len);
	if (!text || !len) {
		free(text);
		pm->gone = true;
		return;
	}
	/* lo-hi perms offset dev inode path */
	for (const char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		const char *q = p, *eol = nl ? nl : p + strlen(p), *f;
		uint64_t lo = hex(&q), hi;
		if (*q++ != '-')
			continue;
		hi = hex(&q);
		if (*q++ != ' ' || eol - q < 5 || q[2] != 'x')
			continue; /* perms "r-xp": executable only */
		q += 4;
		uint64_t off = hex(&q);
		for (int field = 0; field < 2 && q < eol; field++) { /* dev, inode */
			while (q < eol && *q == ' ')
				q++;
			while (q < eol && *q != ' ')
				q++;
		}
		while (q < eol && *q == ' ')
			q++;
		/* not a file: anonymous, [vdso], ... */
		if (q >= eol || *q != '/')
			continue;
		for (f = q; f < eol && *f != ' '; f++) /* " (deleted)" left out */
			;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = util_xrealloc(v, cap * sizeof(*v));
		}
		/* a file's mappings come together: most often the last one's */
		size_t fi;
		if (n && path_is(files[v[n - 1].file].path, q, (size_t)(f - q)))
			fi = v[n - 1].file;
		else
			fi = user_file_index(q, (size_t)(f - q));
		v[n++] = (struct proc_map){ lo, hi, off, fi };
	}
	free(text);
	free(pm->v);
	pm->v = v;
	pm->n = n;
	pm->gone = false;
}

static const struct proc_map *proc_map_of(const struct proc_maps *pm, uint64_t addr)
{
	for (size_t i = 0; i < pm->n; i++)
		if (addr >= pm->v[i].lo && addr < pm->v[i].hi)
			return &pm->v[i];
	return NULL;
}

static bool usym_resolve_locked(int pid, uint64_t addr, struct sym *out)
{
	uint64_t now = util_now_ns();

	procs_sweep(now);
	struct proc_maps *pm = proc_of(pid);
	if (!pm->read_ns || now - pm->read_ns > MAPS_FRESH_MS * 1000000ull)
		proc_read(pm, now);
	pm->used_ns = now;
	const struct proc_map *m = proc_map_of(pm, addr);
	if (!m && !pm->gone && now - pm->read_ns > MAPS_MISS_MS * 1000000ull) {
		proc_read(pm, now);
		m = proc_map_of(pm, addr);
	}
	if (!m)
		return false;
	struct user_file *uf = user_file(m->file);
	uint64_t foff = addr - m->lo + m->off;
	for (int i = 0; i < uf->nsegs; i++) {
		const struct elf_segment *sg = &uf->segs[i];
		if (foff < sg->offset || foff >= sg->offset + sg->size)
			continue;
		uint64_t vaddr = foff - sg->offset + sg->vaddr;
		const struct addr_sym *s = nearest(&uf->syms, vaddr);
		if (s) {
			*out = (struct sym){ s->name, vaddr - s->addr, uf->path };
			return true;
		}
	}
	return false;
}

void sym_remember_process(int pid)
{
	uint64_t now = util_now_ns();

	pthread_mutex_lock(&sym_lock);
	procs_sweep(now);
	struct proc_maps *pm = proc_of(pid);
	proc_read(pm, now);
	pm->used_ns = now;
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
		symtab_free(&files[i].syms);
		free(files[i].path);
	}
	free(files);
	files = NULL;
	nfiles = 0;
	for (size_t i = 0; i < nprocs; i++)
		free(procs[i].v);
	free(procs);
	procs = NULL;
	nprocs = procs_cap = 0;
	swept_ns = 0;
}

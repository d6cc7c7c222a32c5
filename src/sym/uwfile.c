// SPDX-License-Identifier: MIT
/*
 * The unwinder's files: opened once (by device and inode, and shared by
 * build-id), their CFI through libdw, a direct-mapped cache of rows, and
 * whether they keep frame pointers. See uwfile.h.
 */
#include "sym/uwfile.h"
#include "base/util.h"
#include "sym/debuginfo.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * The cache of rows, one for all files, direct-mapped by file and address
 * and allocated whole (and resident) at the first lookup: its memory is
 * the same after a second as after a day, whatever files come and go
 */
#define ROWS 32768
/*
 * libdw keeps every FDE it has found, for as long as the file's CFI lives:
 * a profile of big programs (a compiler) finds tens of thousands a minute.
 * After this many lookups through libdw, the files' .eh_frame CFI is made
 * anew, and what libdw kept goes (the rows stay in the cache above).
 */
#define FDE_LOOKUPS 16384
#define MAX_SEGS 16
#define FP_SAMPLE 2000 /* functions whose prologue is looked at */
/*
 * Files kept open at most, and the bytes of call frame information they
 * hold at most (.eh_frame, .eh_frame_hdr, .debug_frame: the pages of the
 * mapping that lookups read, which count in lantern's RSS): a long profile
 * of a busy machine meets binaries without end (every rebuild is a new
 * inode); the least recently used file is closed when another must open
 * (its rows go; opened again if needed). Bounds that a busy machine's
 * working set fits in: a file closed and opened again as samples come
 * and go would move the RSS by its pages each time.
 */
#define FILES_MAX 256
#define FILES_BYTES (64u << 20)
/*
 * A file not looked up for this long is closed when another opens: a
 * rebuilt program is a new file, and the old one (deleted, its blocks
 * kept on disk while it is mapped) is not met again
 */
#define FILES_IDLE_S 120

struct uw_file {
	uint64_t dev, ino;
	unsigned char id[64]; /* build-id */
	size_t idlen;
	uint32_t serial;      /* rows' key: unique to this open, never 0 */
	struct uw_file *same; /* the file of the same build-id opened first, or NULL */
	char *path;	      /* where elf was read from, maybe /proc/PID/map_files/... (NULL: the vdso) */
	Elf *elf;	      /* mapped, no descriptor kept (sym_elf_map) */
	void *image; /* the vdso's copy */
	/* the file again without its section headers, for libdw (eh_only), or NULL */
	Elf *eh_elf;
	char *eh_map;
	size_t eh_len;
	Dwarf_CFI *eh;
	Dwarf *dbg; /* the debug file's (or the file's own) DWARF, for .debug_frame */
	Elf *dbg_elf;
	Dwarf_CFI *dcfi;
	bool dbg_tried;
	struct { uint64_t offset, vaddr, size; } segs[MAX_SEGS];
	int nsegs;
	int fp; /* -1: not counted yet */
	uint64_t used; /* when looked up last: the tick of the lookup */
	uint64_t used_s; /* and the second (CLOCK_MONOTONIC_COARSE) */
	uint64_t bytes; /* its CFI sections' sizes (FILES_BYTES) */
	bool debug_frame; /* it has a .debug_frame */
};

static struct uw_file **files;
static size_t nfiles;
static uint64_t files_bytes, files_opened, files_closed;
static uint64_t tick;
static uint32_t serials;
static struct uw_row *rows;
static uint32_t lookups; /* through libdw, since its FDEs were let go */

static void file_close(struct uw_file *f)
{
	if (f->dbg)
		dwarf_end(f->dbg);
	if (f->dbg_elf)
		elf_end(f->dbg_elf);
	if (f->eh)
		dwarf_cfi_end(f->eh);
	if (f->eh_elf)
		elf_end(f->eh_elf);
	if (f->eh_map)
		munmap(f->eh_map, f->eh_len);
	if (f->elf)
		elf_end(f->elf);
	free(f->path);
	free(f->image);
	free(f);
}

/*
 * Within FILES_MAX and FILES_BYTES: the least recently used files go, never
 * keep (the one just opened); those sharing a closed one's rows key their own
 */
static void file_drop(size_t at)
{
	struct uw_file *gone = files[at];

	files[at] = files[--nfiles];
	for (size_t i = 0; i < nfiles; i++)
		if (files[i]->same == gone)
			files[i]->same = NULL;
	files_bytes -= gone->bytes;
	files_closed++;
	file_close(gone);
}

static uint64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec;
}

/*
 * Within FILES_MAX and FILES_BYTES, and none idle for FILES_IDLE_S: the
 * least recently used files go, never keep (the one just opened); those
 * sharing a closed one's rows key their own
 */
static void files_trim(const struct uw_file *keep)
{
	uint64_t now = now_s();

	for (size_t i = 0; i < nfiles;)
		if (files[i] != keep && now - files[i]->used_s > FILES_IDLE_S)
			file_drop(i);
		else
			i++;
	while (nfiles > FILES_MAX || (nfiles > 1 && files_bytes > FILES_BYTES)) {
		size_t lru = files[0] == keep ? 1 : 0;
		for (size_t i = lru + 1; i < nfiles; i++)
			if (files[i] != keep && files[i]->used < files[lru]->used)
				lru = i;
		file_drop(lru);
	}
}

/* elf's sections of call frame information (.eh_frame, .eh_frame_hdr, .debug_frame) */
struct cfi_scan {
	uint64_t bytes; /* their sizes, and a page for the headers */
	struct { uint64_t off, size; } v[4];
	int n;
	bool debug_frame;
	bool hdr_late; /* .eh_frame_hdr comes after .eh_frame (eh_only) */
};

static void cfi_scan(Elf *elf, struct cfi_scan *c)
{
	size_t shstr;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool eh = false;

	memset(c, 0, sizeof(*c));
	c->bytes = 4096;
	if (!elf || elf_getshdrstrndx(elf, &shstr) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstr, sh.sh_name)))
			continue;
		bool dbg = !strcmp(name, ".debug_frame"), hdr = !strcmp(name, ".eh_frame_hdr");
		if (!dbg && !hdr && strcmp(name, ".eh_frame"))
			continue;
		c->debug_frame |= dbg;
		c->hdr_late |= hdr && eh;
		eh |= !dbg && !hdr;
		c->bytes += sh.sh_size;
		if (c->n < 4)
			c->v[c->n++] = (typeof(c->v[0])){ sh.sh_offset, sh.sh_size };
	}
}

/*
 * The scanned sections' pages made resident now, in the mapping base
 * (size bytes) of the whole file: lookups read them a page at a time, and
 * a long profile would otherwise grow lantern's RSS for as long as it meets
 * functions it had not met
 */
static void cfi_populate(const struct cfi_scan *c, const char *base, size_t size)
{
	for (int i = 0; base && i < c->n; i++)
		if (c->v[i].off < size && c->v[i].size <= size - c->v[i].off)
			util_populate(base + c->v[i].off, c->v[i].size);
}

/*
 * libdw (0.188) uses .eh_frame_hdr's search table only when that section
 * comes before .eh_frame. lld puts it after (LLVM's own libraries, Rust's
 * and clang's programs): without the table every lookup walks the FDEs
 * from the first, and libdw keeps each one it passes, megabytes of them
 * for libLLVM. Given no section headers, libdw takes the CFI from the
 * PT_GNU_EH_FRAME segment and its table: f->eh_elf is the file mapped
 * again (copy on write) with its ELF header's section fields cleared.
 */
static void eh_only(struct uw_file *f)
{
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *p;

	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < sizeof(Elf64_Ehdr) ||
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)p;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64) {
		munmap(p, (size_t)st.st_size);
		return;
	}
	eh->e_shoff = 0;
	eh->e_shnum = 0;
	eh->e_shstrndx = SHN_UNDEF;
	mprotect(p, (size_t)st.st_size, PROT_READ); /* the header's page stays our copy */
	f->eh_map = p;
	f->eh_len = (size_t)st.st_size;
	f->eh_elf = elf_memory(p, f->eh_len);
}

/* The Elf libdw reads .eh_frame through, and the mapping its bytes are read in */
static Elf *eh_elf(const struct uw_file *f)
{
	return f->eh_elf ? f->eh_elf : f->elf;
}

static const char *cfi_base(const struct uw_file *f, size_t *size)
{
	*size = 0;
	if (f->eh_map) {
		*size = f->eh_len;
		return f->eh_map;
	}
	return f->elf ? elf_rawfile(f->elf, size) : NULL;
}

static void read_segments(struct uw_file *f)
{
	size_t n;

	if (elf_getphdrnum(f->elf, &n) != 0)
		return;
	for (size_t i = 0; i < n && f->nsegs < MAX_SEGS; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			f->segs[f->nsegs++] = (typeof(f->segs[0])){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
}

/* Our own vdso: the kernel maps the same image into every 64-bit process. */
static Elf *open_vdso(struct uw_file *f)
{
	uintptr_t base = getauxval(AT_SYSINFO_EHDR);
	struct sym_maps self;
	const struct sym_mapping *m;

	if (!base || !sym_maps_read(getpid(), &self))
		return NULL;
	m = sym_maps_find(&self, base);
	if (m) {
		f->image = util_xmalloc(m->hi - m->lo);
		memcpy(f->image, (void *)base, m->hi - m->lo);
		f->elf = elf_memory(f->image, m->hi - m->lo);
	}
	sym_maps_free(&self);
	return f->elf;
}

static struct uw_file *file_open(const char *path, const char *alt, uint64_t dev, uint64_t ino)
{
	struct uw_file *f;

	f = util_xcalloc(1, sizeof(*f));
	f->used = ++tick;
	f->used_s = now_s();
	f->serial = ++serials ? serials : ++serials;
	f->dev = dev;
	f->ino = ino;
	f->fp = -1;
	elf_version(EV_CURRENT);
	if (!strcmp(path, "[vdso]")) {
		open_vdso(f);
	} else if ((f->elf = sym_elf_map(path))) {
		f->path = util_xstrdup(path);
	} else if (alt && (f->elf = sym_elf_map(alt))) {
		f->path = util_xstrdup(alt);
	}
	if (f->elf && elf_kind(f->elf) == ELF_K_ELF) {
		struct cfi_scan c;
		size_t size;
		read_segments(f);
		f->idlen = sym_build_id(f->elf, f->id, sizeof(f->id));
		cfi_scan(f->elf, &c);
		if (c.hdr_late && f->path)
			eh_only(f);
		f->eh = dwarf_getcfi_elf(eh_elf(f));
		f->debug_frame = c.debug_frame;
		if (!f->image) { /* the vdso's copy is on the heap */
			f->bytes = c.bytes;
			const char *base = cfi_base(f, &size);
			cfi_populate(&c, base, size);
		}
	}
	for (size_t i = 0; i < nfiles && f->idlen; i++)
		if (files[i]->idlen == f->idlen && !memcmp(files[i]->id, f->id, f->idlen) &&
		    !files[i]->same) {
			f->same = files[i];
			break;
		}
	files = util_xrealloc(files, (nfiles + 1) * sizeof(*files));
	files[nfiles++] = f;
	files_bytes += f->bytes;
	files_opened++;
	files_trim(f);
	return f;
}

static struct uw_file *find_file(uint64_t dev, uint64_t ino, const char *path)
{
	for (size_t i = 0; i < nfiles; i++)
		if (files[i]->dev == dev && files[i]->ino == ino && (ino || !strcmp(path, "[vdso]"))) {
			files[i]->used = ++tick;
			files[i]->used_s = now_s();
			return files[i];
		}
	return NULL;
}

struct uw_file *sym_uw_file_path(const char *path, uint64_t dev, uint64_t ino)
{
	struct uw_file *f = find_file(dev, ino, path);

	return f ? f : file_open(path, NULL, dev, ino);
}

struct uw_file *sym_uw_file(int pid, const struct sym_mapping *m)
{
	char alt[PATH_MAX + 64];
	struct uw_file *f;

	if (m->path[0] != '/' && strcmp(m->path, "[vdso]"))
		return NULL;
	if ((f = find_file(m->dev, m->ino, m->path)))
		return f->elf ? f : NULL;
	/* another mount namespace's file, or one deleted since: through /proc */
	snprintf(alt, sizeof(alt), "/proc/%d/map_files/%llx-%llx", pid, (unsigned long long)m->lo,
		 (unsigned long long)m->hi);
	f = file_open(m->path, alt, m->dev, m->ino);
	return f->elf ? f : NULL;
}

bool sym_uw_vaddr(const struct uw_file *f, const struct sym_mapping *m, uint64_t addr,
		  uint64_t *vaddr)
{
	uint64_t off = addr - m->lo + m->offset;

	for (int i = 0; i < f->nsegs; i++)
		if (off >= f->segs[i].offset && off < f->segs[i].offset + f->segs[i].size) {
			*vaddr = off - f->segs[i].offset + f->segs[i].vaddr;
			return true;
		}
	return false;
}

/*
 * .debug_frame: the file's own, else its separate debug file's. libdw
 * reads (and inflates) every DWARF section of a file it begins, so a file
 * without .debug_frame is not begun: a distribution's debug files have
 * none (their CFI is the .eh_frame of the file they go with).
 */
static Dwarf_CFI *debug_cfi(struct uw_file *f)
{
	char path[PATH_MAX];

	if (f->dbg_tried)
		return f->dcfi;
	f->dbg_tried = true;
	if (!f->path)
		return NULL;
	if (f->debug_frame) {
		f->dbg = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
		if (f->dbg && (f->dcfi = dwarf_getcfi(f->dbg)))
			return f->dcfi;
	}
	/* the debuglink is looked for beside the file's name: what map_files links to */
	char link[PATH_MAX];
	const char *name = f->path;
	ssize_t n = strncmp(f->path, "/proc/", 6) ? -1 : readlink(f->path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0;
		name = link;
	}
	if (!sym_debug_file(f->elf, name, path, sizeof(path)) || !(f->dbg_elf = sym_elf_map(path)))
		return NULL;
	struct cfi_scan c;
	size_t size;
	cfi_scan(f->dbg_elf, &c);
	if (!c.debug_frame) {
		elf_end(f->dbg_elf);
		f->dbg_elf = NULL;
		return NULL;
	}
	cfi_populate(&c, elf_rawfile(f->dbg_elf, &size), size);
	f->bytes += c.bytes;
	files_bytes += c.bytes; /* trimmed at the next open: f is in use */
	if (f->dbg)
		dwarf_end(f->dbg);
	f->dbg = dwarf_begin_elf(f->dbg_elf, DWARF_C_READ, NULL);
	f->dcfi = f->dbg ? dwarf_getcfi(f->dbg) : NULL;
	return f->dcfi;
}

/* A register rule in the simple shape: its kind and offset, or false. */
static bool simple_rule(Dwarf_Frame *fr, int reg, uint8_t *kind, int32_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t n;

	if (dwarf_frame_register(fr, reg, mem, &ops, &n) != 0)
		return false;
	*off = 0;
	if (n == 0) {
		*kind = ops ? RULE_UNDEF : RULE_SAME;
		return true;
	}
	bool value = ops[n - 1].atom == DW_OP_stack_value;
	if (value)
		n--;
	if (n == 1 && (ops[0].atom == DW_OP_regx || (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31))) {
		uint64_t r = ops[0].atom == DW_OP_regx ? ops[0].number : (uint64_t)(ops[0].atom - DW_OP_reg0);
		*kind = RULE_REG;
		*off = (int32_t)r;
		return !value && r < UW_NREGS;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa || n > 2)
		return false;
	if (n == 2 && ops[1].atom != DW_OP_plus_uconst)
		return false;
	int64_t v = n == 2 ? (int64_t)ops[1].number : 0;
	*kind = value ? RULE_VAL_OFFSET : RULE_OFFSET;
	*off = (int32_t)v;
	return *off == v;
}

/* The row of frame fr, in the simple shape if it has it. */
static void fill_row(struct uw_row *r, Dwarf_Frame *fr)
{
	Dwarf_Op *ops;
	size_t n;
	bool sig = false;
	int ra = dwarf_frame_info(fr, NULL, NULL, &sig);

	r->present = true;
	r->signal = sig;
	r->ra = ra >= 0 && ra < UW_NREGS ? (uint8_t)ra : UW_RIP;
	r->simple = false;
	if (dwarf_frame_cfa(fr, &ops, &n) != 0 || n != 1)
		return;
	uint64_t reg;
	int64_t off;
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	} else {
		return;
	}
	if (reg >= UW_NREGS || off != (int32_t)off)
		return;
	r->cfa_reg = (int8_t)reg;
	r->cfa_off = (int32_t)off;
	for (int i = 0; i < UW_NREGS; i++)
		if (!simple_rule(fr, i, &r->kind[i], &r->off[i]))
			return;
	r->simple = true;
}

/* Each file's .eh_frame CFI made anew: libdw's FDEs of it go (FDE_LOOKUPS) */
static void forget_fdes(void)
{
	lookups = 0;
	for (size_t i = 0; i < nfiles; i++)
		if (files[i]->eh) {
			dwarf_cfi_end(files[i]->eh);
			files[i]->eh = dwarf_getcfi_elf(eh_elf(files[i]));
		}
}

const struct uw_row *sym_uw_row(struct uw_file *f, uint64_t vaddr, Dwarf_Frame **frame)
{
	static struct uw_row scratch;
	uint32_t key = (f->same ? f->same : f)->serial;
	Dwarf_Frame *fr = NULL;

	if (!rows)
		rows = util_xcalloc_resident(ROWS, sizeof(*rows));
	struct uw_row *r = &rows[(vaddr ^ (vaddr >> 12) ^ key * 0x9e3779b1u) % ROWS];
	*frame = NULL;
	/* cached: a simple row, or none (cfa_reg -1); serials start at 1, so a zeroed row matches nothing */
	if (r->vaddr == vaddr && r->file == key)
		return r->present ? r : NULL;
	if (++lookups > FDE_LOOKUPS)
		forget_fdes();
	if (!(f->eh && dwarf_cfi_addrframe(f->eh, vaddr, &fr) == 0)) {
		Dwarf_CFI *d = debug_cfi(f);
		if (!d || dwarf_cfi_addrframe(d, vaddr, &fr) != 0)
			fr = NULL;
	}
	if (!fr) {
		memset(r, 0, sizeof(*r));
		r->vaddr = vaddr;
		r->file = key;
		r->cfa_reg = -1; /* looked up: none */
		return NULL;
	}
	memset(&scratch, 0, sizeof(scratch));
	fill_row(&scratch, fr);
	scratch.vaddr = vaddr;
	scratch.file = key;
	if (scratch.simple) {
		*r = scratch;
		free(fr);
		return r;
	}
	*frame = fr;
	return &scratch;
}

/*
 * Whether most functions that make a frame (FDE starts, from
 * .eh_frame_hdr's table) make it with push %rbp; mov %rsp,%rbp, rather
 * than by pushing other registers or moving %rsp alone.
 */
static int count_fp(struct uw_file *f)
{
	size_t shstr, size;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const uint8_t *h = NULL;
	const char *base = cfi_base(f, &size); /* the pages cfi_populate made resident */

	if (!f->elf || !base || elf_getshdrstrndx(f->elf, &shstr) != 0)
		return 0;
	while ((scn = elf_nextscn(f->elf, scn))) {
		const char *name;
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(f->elf, shstr, sh.sh_name)) &&
		    !strcmp(name, ".eh_frame_hdr")) {
			if (sh.sh_type != SHT_NOBITS && sh.sh_offset < size && sh.sh_size <= size - sh.sh_offset)
				h = (const uint8_t *)base + sh.sh_offset;
			break;
		}
	}
	/* version 1, eh_frame_ptr pcrel|sdata4, fde_count udata4, table datarel|sdata4 */
	if (!h || sh.sh_size < 12 || h[0] != 1 || h[1] != 0x1b || h[2] != 0x03 || h[3] != 0x3b)
		return 0;
	uint32_t count;
	memcpy(&count, h + 8, 4);
	if (12 + (uint64_t)count * 8 > sh.sh_size || !count || !f->path)
		return 0;
	/* read, not through the mapping: its pages would stay in lantern's RSS */
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	uint32_t step = count > FP_SAMPLE ? count / FP_SAMPLE : 1, seen = 0, fp = 0;
	for (uint32_t i = 0; i < count; i += step) {
		int32_t loc;
		uint8_t code[8] = { 0 };
		uint64_t vaddr, off = 0;
		bool found = false;
		memcpy(&loc, h + 12 + (uint64_t)i * 8, 4);
		vaddr = sh.sh_addr + (int64_t)loc;
		for (int s = 0; s < f->nsegs && !found; s++)
			if (vaddr >= f->segs[s].vaddr && vaddr + 8 <= f->segs[s].vaddr + f->segs[s].size) {
				off = vaddr - f->segs[s].vaddr + f->segs[s].offset;
				found = true;
			}
		if (!found || pread(fd, code, 8, (off_t)off) != 8)
			continue;
		const uint8_t *c = code;
		if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa) /* endbr64 */
			c += 4;
		if (c[0] == 0x55 && c[1] == 0x48 && c[2] == 0x89 && c[3] == 0xe5)
			fp++; /* push %rbp; mov %rsp,%rbp */
		else if (!(c[0] == 0x55 || c[0] == 0x53 || (c[0] == 0x41 && (c[1] & 0xf8) == 0x50) ||
			   (c[0] == 0x48 && (c[1] == 0x83 || c[1] == 0x81) && c[2] == 0xec)))
			continue; /* a leaf that saves nothing: either way */
		seen++;
	}
	close(fd);
	return seen && fp * 2 >= seen;
}

bool sym_uw_file_fp(struct uw_file *f)
{
	if (f->fp < 0)
		f->fp = count_fp(f);
	return f->fp > 0;
}

void sym_unwind_files(struct sym_unwind_files *st)
{
	*st = (struct sym_unwind_files){ files_opened, files_closed, nfiles, files_bytes };
}

void sym_uw_files_release(void)
{
	for (size_t i = 0; i < nfiles; i++)
		file_close(files[i]);
	free(files);
	files = NULL;
	nfiles = 0;
	files_bytes = 0;
	free(rows);
	rows = NULL;
}

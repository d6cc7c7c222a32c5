// SPDX-License-Identifier: MIT
#include "sym/elf.h"
#include "sym/debuginfo.h"
#include "sym/demangle.h"
#include "base/util.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <unistd.h>

struct elf_file {
	int fd;
	Elf *e;
};

static int open_elf(const char *path, struct elf_file *f, char *err, size_t errlen)
{
	struct stat st;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* a program or library; not /proc/kcore */
	if (fstat(f->fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (1ll << 32)) {
		snprintf(err, errlen, "%s is not a program or library file", path);
		close(f->fd);
		return -1;
	}
	f->e = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->e || elf_kind(f->e) != ELF_K_ELF) {
		snprintf(err, errlen, "%s is not an ELF file", path);
		if (f->e)
			elf_end(f->e);
		close(f->fd);
		return -1;
	}
	return 0;
}

static void close_elf(struct elf_file *f)
{
	elf_end(f->e);
	close(f->fd);
}

/* The file offset of a virtual address: through the PT_LOAD segment holding it. */
static int64_t vaddr_offset(Elf *e, uint64_t addr)
{
	size_t n;

	if (elf_getphdrnum(e, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz)
			return (int64_t)(addr - ph.p_vaddr + ph.p_offset);
	}
	return -1;
}

int sym_elf_needed(const char *path, char names[][ELF_NEEDED_LEN], int max)
{
	struct elf_file f;
	char err[256];
	Elf_Scn *scn = NULL;
	int n = 0;

	if (open_elf(path, &f, err, sizeof(err)) < 0)
		return -1;
	while ((scn = elf_nextscn(f.e, scn)) && n < max) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize && n < max; i++) {
			GElf_Dyn dyn;
			const char *name;
			if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
				continue;
			if ((name = elf_strptr(f.e, sh.sh_link, dyn.d_un.d_val)) &&
			    strlen(name) < ELF_NEEDED_LEN)
				strcpy(names[n++], name);
		}
	}
	close_elf(&f);
	return n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct elf_func *)a)->name, ((const struct elf_func *)b)->name);
}

/* rank of a symbol at an address others share: lower names it (elf.h) */
static uint8_t sym_rank(int type, const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);
	bool global = bind == STB_GLOBAL || bind == STB_WEAK;

	return (uint8_t)((type == SHT_DYNSYM ? 0 : global ? 1 : 2) * 2 + (bind == STB_WEAK));
}

/* The function symbols of se's symbol tables, placed through the segments of e. */
static void add_syms(Elf *se, Elf *e, struct elf_funcs *out, size_t *cap)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(se, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;
			int64_t off;
			if (!gelf_getsym(data, (int)i, &sym))
				continue;
			int type = GELF_ST_TYPE(sym.st_info);
			if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
			    !sym.st_value)
				continue;
			name = elf_strptr(se, sh.sh_link, sym.st_name);
			if (!name || !*name || *name == '@' || (off = vaddr_offset(e, sym.st_value)) < 0)
				continue;
			if (out->n == *cap) {
				*cap = *cap ? *cap * 2 : 256;
				out->v = util_xrealloc(out->v, *cap * sizeof(*out->v));
			}
			/* "memcpy@@GLIBC_2.14" (a .symtab's versioned name): memcpy */
			out->v[out->n++] = (struct elf_func){ util_xstrndup(name, strcspn(name, "@")), NULL,
							       sym.st_value, (uint64_t)off, sym.st_size,
							       sym_rank((int)sh.sh_type, &sym) };
		}
	}
}

static int by_name_rank(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->rank - y->rank;
}

/* The symbols of path's separate debug file and of its MiniDebugInfo (debuginfo.h). */
static void add_debug_syms(Elf *e, const char *path, struct elf_funcs *out, size_t *cap)
{
	char dpath[PATH_MAX], err[256];
	struct elf_file d;
	void *mem;
	Elf *mini;

	if (sym_debug_file(e, path, dpath, sizeof(dpath)) && open_elf(dpath, &d, err, sizeof(err)) == 0) {
		add_syms(d.e, e, out, cap);
		close_elf(&d);
	}
	if ((mini = sym_minidebug_open(e, &mem))) {
		add_syms(mini, e, out, cap);
		elf_end(mini);
		free(mem);
	}
}

int sym_elf_funcs_load(const char *path, struct elf_funcs *out, char *err, size_t errlen)
{
	struct elf_file f;
	size_t cap = 0;

	out->v = NULL;
	out->n = 0;
	if (open_elf(path, &f, err, errlen) < 0)
		return -1;
	add_syms(f.e, f.e, out, &cap);
	add_debug_syms(f.e, path, out, &cap);
	close_elf(&f);
	/* by name, once each, the best ranked (.symtab, .dynsym and the debug files repeat names) */
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_name_rank);
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (k && !strcmp(out->v[k - 1].name, out->v[i].name)) {
			free(out->v[i].name);
			continue;
		}
		out->v[k++] = out->v[i];
	}
	out->n = k;
	for (size_t i = 0; i < out->n; i++)
		out->v[i].demangled = sym_demangle(out->v[i].name);
	return 0;
}

void sym_elf_funcs_free(struct elf_funcs *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].demangled);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

const struct elf_func *sym_elf_funcs_find(const struct elf_funcs *f, const char *name)
{
	struct elf_func key = { .name = (char *)name };

	return f->n ? bsearch(&key, f->v, f->n, sizeof(*f->v), by_name) : NULL;
}

bool sym_elf_symbol(const char *path, const char *name, uint64_t *vaddr, uint64_t *size, bool *pie)
{
	struct elf_file f;
	char err[256];
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	bool found = false;

	if (open_elf(path, &f, err, sizeof(err)) < 0)
		return false;
	*pie = gelf_getehdr(f.e, &eh) && eh.e_type == ET_DYN;
	while (!found && (scn = elf_nextscn(f.e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;
			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF || !sym.st_value)
				continue;
			n = elf_strptr(f.e, sh.sh_link, sym.st_name);
			if (n && !strncmp(n, name, strlen(name)) && (!n[strlen(name)] || n[strlen(name)] == '@')) {
				*vaddr = sym.st_value;
				*size = sym.st_size;
				found = true;
				break;
			}
		}
	}
	close_elf(&f);
	return found;
}

int64_t sym_elf_addr_offset(const char *path, uint64_t addr, char *err, size_t errlen)
{
	struct elf_file f;
	int64_t off;

	if (open_elf(path, &f, err, errlen) < 0)
		return -1;
	off = vaddr_offset(f.e, addr);
	if (off < 0)
		snprintf(err, errlen, "no segment of %s holds address 0x%llx", path,
			 (unsigned long long)addr);
	close_elf(&f);
	return off;
}

int sym_elf_segments(const char *path, struct elf_segment *segs, int max)
{
	struct elf_file f;
	char err[256];
	size_t n;
	int k = 0;

	if (open_elf(path, &f, err, sizeof(err)) < 0)
		return -1;
	if (elf_getphdrnum(f.e, &n) == 0) {
		for (size_t i = 0; i < n && k < max; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(f.e, (int)i, &ph) && ph.p_type == PT_LOAD)
				segs[k++] = (struct elf_segment){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
		}
	}
	close_elf(&f);
	return k;
}

/* A section's header by name, or false. */
static bool find_section(Elf *e, const char *want, GElf_Shdr *out, Elf_Scn **scn_out)
{
	size_t shstr;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstr) != 0)
		return false;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		if (!gelf_getshdr(scn, out))
			continue;
		name = elf_strptr(e, shstr, out->sh_name);
		if (name && !strcmp(name, want)) {
			if (scn_out)
				*scn_out = scn;
			return true;
		}
	}
	return false;
}

#define NT_STAPSDT 3

int sym_elf_usdt_load(const char *path, struct usdt_sites *out, char *err, size_t errlen)
{
	struct elf_file f;
	GElf_Shdr sh, base_sh;
	Elf_Scn *scn;
	Elf_Data *data;
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off, cap = 0;
	bool have_base;

	out->v = NULL;
	out->n = 0;
	if (open_elf(path, &f, err, errlen) < 0)
		return -1;
	if (gelf_getclass(f.e) != ELFCLASS64 || !find_section(f.e, ".note.stapsdt", &sh, &scn) ||
	    !(data = elf_getdata(scn, NULL))) {
		close_elf(&f);
		return 0;
	}
	have_base = find_section(f.e, ".stapsdt.base", &base_sh, NULL);
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)data->d_buf + name_off;
		const char *desc = (const char *)data->d_buf + desc_off;
		uint64_t pc, base, sema;
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 || strcmp(owner, "stapsdt") ||
		    nh.n_descsz < 3 * 8 + 3)
			continue;
		memcpy(&pc, desc, 8);
		memcpy(&base, desc + 8, 8);
		memcpy(&sema, desc + 16, 8);
		/* provider\0name\0args\0, within the descriptor */
		const char *prov = desc + 24, *end = desc + nh.n_descsz;
		const char *name = memchr(prov, 0, end - prov);
		const char *args = name ? memchr(name + 1, 0, end - name - 1) : NULL;
		if (!name || !args || !memchr(args + 1, 0, end - args - 1))
			continue;
		name++;
		args++;
		/* prelinked or relocated: the base section says where it went */
		if (have_base && base)
			pc += base_sh.sh_addr - base;
		int64_t poff = vaddr_offset(f.e, pc), soff = sema ? vaddr_offset(f.e, sema) : 0;
		if (poff < 0 || soff < 0)
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 16;
			out->v = util_xrealloc(out->v, cap * sizeof(*out->v));
		}
		out->v[out->n++] = (struct usdt_site){ util_xstrdup(prov), util_xstrdup(name), util_xstrdup(args),
						       (uint64_t)poff, (uint64_t)soff };
	}
	close_elf(&f);
	return 0;
}

void sym_elf_usdt_free(struct usdt_sites *u)
{
	for (size_t i = 0; i < u->n; i++) {
		free(u->v[i].provider);
		free(u->v[i].name);
		free(u->v[i].args);
	}
	free(u->v);
	u->v = NULL;
	u->n = 0;
}

bool sym_elf_build_id_hex(const char *path, char *out, size_t n)
{
	struct elf_file f;
	char err[256];
	unsigned char id[64];
	size_t len;

	out[0] = 0;
	if (open_elf(path, &f, err, sizeof(err)) < 0)
		return false;
	len = sym_build_id(f.e, id, sizeof(id));
	if (len && 2 * len < n)
		sym_build_id_hex(id, len, out);
	close_elf(&f);
	return out[0] != 0;
}

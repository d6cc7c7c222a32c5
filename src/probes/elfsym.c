// SPDX-License-Identifier: MIT
#include "probes/elfsym.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct elf_func *)a)->name, ((const struct elf_func *)b)->name);
}

int elf_funcs_load(const char *path, struct elf_funcs *out, char *err, size_t errlen)
{
	struct elf_file f;
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	out->v = NULL;
	out->n = 0;
	if (open_elf(path, &f, err, errlen) < 0)
		return -1;
	while ((scn = elf_nextscn(f.e, scn))) {
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
			name = elf_strptr(f.e, sh.sh_link, sym.st_name);
			if (!name || !*name || (off = vaddr_offset(f.e, sym.st_value)) < 0)
				continue;
			if (out->n == cap) {
				cap = cap ? cap * 2 : 256;
				out->v = xrealloc(out->v, cap * sizeof(*out->v));
			}
			out->v[out->n++] = (struct elf_func){ xstrdup(name), sym.st_value, (uint64_t)off };
		}
	}
	close_elf(&f);
	/* by name, once each (.symtab and .dynsym repeat names) */
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_name);
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (k && !strcmp(out->v[k - 1].name, out->v[i].name)) {
			free(out->v[i].name);
			continue;
		}
		out->v[k++] = out->v[i];
	}
	out->n = k;
	return 0;
}

void elf_funcs_free(struct elf_funcs *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].name);
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

const struct elf_func *elf_funcs_find(const struct elf_funcs *f, const char *name)
{
	struct elf_func key = { .name = (char *)name };

	return f->n ? bsearch(&key, f->v, f->n, sizeof(*f->v), by_name) : NULL;
}

int64_t elf_addr_offset(const char *path, uint64_t addr, char *err, size_t errlen)
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

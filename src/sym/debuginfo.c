// SPDX-License-Identifier: MIT
/* Separate debug files and MiniDebugInfo: see debuginfo.h. */
#include "sym/debuginfo.h"
#include "base/util.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <limits.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MINIDEBUG_MAX (256u << 20) /* the most a .gnu_debugdata may unpack to */

size_t sym_build_id(Elf *e, unsigned char *id, size_t max)
{
	const void *p;
	ssize_t n = dwelf_elf_gnu_build_id(e, &p);

	if (n <= 0 || (size_t)n > max)
		return 0;
	memcpy(id, p, (size_t)n);
	return (size_t)n;
}

void sym_build_id_hex(const unsigned char *id, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * len] = 0;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The CRC32 of a whole file, as .gnu_debuglink keeps it. */
static bool file_crc(const char *path, uint32_t *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char buf[65536];
	uLong crc = crc32(0, NULL, 0);
	ssize_t n;

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)n);
	close(fd);
	*out = (uint32_t)crc;
	return n == 0;
}

/* --debuginfo's directories, colon-separated: searched before the others */
static char user_dirs[4096];

void sym_debug_dirs_add(const char *dirs)
{
	size_t n = strlen(user_dirs);

	snprintf(user_dirs + n, sizeof(user_dirs) - n, "%s%s", n ? ":" : "", dirs);
}

/* Each directory of a colon-separated list in turn: fn(dir, arg) until it returns true. */
static bool each_dir_of(const char *dirs, bool (*fn)(const char *dir, void *arg), void *arg)
{
	char dir[PATH_MAX];

	for (const char *p = dirs; *p;) {
		size_t n = strcspn(p, ":");
		if (n && n < sizeof(dir)) {
			memcpy(dir, p, n);
			dir[n] = 0;
			if (fn(dir, arg))
				return true;
		}
		p += n;
		if (*p == ':')
			p++;
	}
	return false;
}

/* Each debug directory in turn: fn(dir, arg) until it returns true. */
static bool each_debug_dir(bool (*fn)(const char *dir, void *arg), void *arg)
{
	const char *dirs = getenv("LANTERN_DEBUG_DIRS");

	if (!dirs || !*dirs)
		dirs = "/usr/lib/debug";
	return each_dir_of(dirs, fn, arg);
}

struct lookup {
	const char *hex;      /* build-id */
	const char *name;     /* debuglink */
	const char *folder;   /* of the file */
	const char *base;     /* the file's name */
	uint32_t crc;
	char *out;
	size_t n;
};

static bool by_build_id(const char *dir, void *arg)
{
	struct lookup *lk = arg;

	snprintf(lk->out, lk->n, "%s/.build-id/%.2s/%s.debug", dir, lk->hex, lk->hex + 2);
	return is_file(lk->out);
}

static bool link_ok(struct lookup *lk)
{
	uint32_t crc;

	return is_file(lk->out) && file_crc(lk->out, &crc) && crc == lk->crc;
}

static bool by_link_in_dir(const char *dir, void *arg)
{
	struct lookup *lk = arg;

	snprintf(lk->out, lk->n, "%s%s/%s", dir, lk->folder, lk->name);
	return link_ok(lk);
}

Elf *sym_elf_map(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	/* FDREAD: the file read in if it could not be mapped, and the descriptor let go */
	if (e && (elf_kind(e) != ELF_K_ELF || elf_cntl(e, ELF_C_FDREAD) != 0)) {
		elf_end(e);
		e = NULL;
	}
	close(fd);
	return e;
}

/* The build-id of the ELF file at path, as hex; false without one. */
static bool file_build_id(const char *path, char *hex)
{
	unsigned char id[64];
	size_t len = 0;
	Elf *e = sym_elf_map(path);

	if (e)
		len = sym_build_id(e, id, sizeof(id));
	if (len)
		sym_build_id_hex(id, len, hex);
	if (e)
		elf_end(e);
	return len > 0;
}

/*
 * A --debuginfo directory (relative: to the file's folder, as elfutils
 * reads its debuginfo path): the build-id's file, the debuglink's, or
 * FILE.debug when the file has no link (objcopy --only-keep-debug's
 * usual name), whose build-id must be the file's.
 */
static bool in_user_dir(const char *dir, void *arg)
{
	struct lookup *lk = arg;
	char d[PATH_MAX], hex[129];

	int w = dir[0] == '/' ? snprintf(d, sizeof(d), "%s", dir)
			      : snprintf(d, sizeof(d), "%s/%s", lk->folder, dir);
	if (w < 0 || (size_t)w >= sizeof(d))
		return false;
	if (lk->hex && by_build_id(d, lk))
		return true;
	if (lk->name) {
		snprintf(lk->out, lk->n, "%s/%s", d, lk->name);
		return link_ok(lk);
	}
	snprintf(lk->out, lk->n, "%s/%s.debug", d, lk->base);
	return is_file(lk->out) &&
	       (!lk->hex || (file_build_id(lk->out, hex) && !strcmp(hex, lk->hex)));
}

bool sym_debug_file(Elf *e, const char *path, char *out, size_t n)
{
	unsigned char id[64];
	char hex[2 * sizeof(id) + 1], folder[PATH_MAX];
	size_t len = sym_build_id(e, id, sizeof(id));
	struct lookup lk = { .out = out, .n = n };
	GElf_Word crc = 0;

	snprintf(folder, sizeof(folder), "%s", path);
	char *slash = strrchr(folder, '/');
	if (slash) {
		*slash = 0;
		lk.base = slash + 1;
	} else {
		snprintf(folder, sizeof(folder), ".");
		lk.base = path;
	}
	lk.folder = folder;
	if (len >= 2) {
		sym_build_id_hex(id, len, hex);
		lk.hex = hex;
	}
	lk.name = dwelf_elf_gnu_debuglink(e, &crc);
	if (lk.name && strchr(lk.name, '/'))
		lk.name = NULL;
	lk.crc = crc;
	if (*user_dirs && each_dir_of(user_dirs, in_user_dir, &lk))
		return true;
	if (lk.hex && each_debug_dir(by_build_id, &lk))
		return true;
	if (!lk.name)
		return false;
	/* beside the file, in its .debug/, under each debug directory */
	snprintf(out, n, "%s/%s", folder, lk.name);
	if (strcmp(out, path) && link_ok(&lk))
		return true;
	snprintf(out, n, "%s/.debug/%s", folder, lk.name);
	if (link_ok(&lk))
		return true;
	return each_debug_dir(by_link_in_dir, &lk);
}

/* xz-decompress in (n bytes); the bytes, malloc'ed, or NULL. */
static void *unxz(const uint8_t *in, size_t n, size_t *out_len)
{
	lzma_stream s = LZMA_STREAM_INIT;
	size_t cap = n * 4 + 4096, len = 0;
	uint8_t *out = NULL;
	lzma_ret r = LZMA_OK;

	if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK)
		return NULL;
	s.next_in = in;
	s.avail_in = n;
	do {
		if (cap > MINIDEBUG_MAX)
			break;
		out = util_xrealloc(out, cap);
		s.next_out = out + len;
		s.avail_out = cap - len;
		r = lzma_code(&s, LZMA_FINISH);
		len = cap - s.avail_out;
		cap *= 2;
	} while (r == LZMA_OK || (r == LZMA_BUF_ERROR && s.avail_out == 0));
	lzma_end(&s);
	if (r != LZMA_STREAM_END) {
		free(out);
		return NULL;
	}
	*out_len = len;
	return out;
}

Elf *sym_minidebug_open(Elf *e, void **mem)
{
	size_t shstr;
	Elf_Scn *scn = NULL;

	*mem = NULL;
	if (elf_getshdrstrndx(e, &shstr) != 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		size_t len;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstr, sh.sh_name)) ||
		    strcmp(name, ".gnu_debugdata") || !(d = elf_rawdata(scn, NULL)) || !d->d_size)
			continue;
		void *bytes = unxz(d->d_buf, d->d_size, &len);
		if (!bytes)
			return NULL;
		Elf *inner = elf_memory(bytes, len);
		if (!inner || elf_kind(inner) != ELF_K_ELF) {
			if (inner)
				elf_end(inner);
			free(bytes);
			return NULL;
		}
		*mem = bytes;
		return inner;
	}
	return NULL;
}

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

/* Each debug directory in turn: fn(dir, arg) until it returns true. */
static bool each_debug_dir(bool (*fn)(const char *dir, void *arg), void *arg)
{
	const char *dirs = getenv("LANTERN_DEBUG_DIRS");
	char dir[PATH_MAX];

	if (!dirs || !*dirs)
		dirs = "/usr/lib/debug";
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

struct lookup {
	const char *hex;      /* build-id */
	const char *name;     /* debuglink */
	const char *folder;   /* of the file */
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

bool sym_debug_file(Elf *e, const char *path, char *out, size_t n)
{
	unsigned char id[64];
	char hex[2 * sizeof(id) + 1], folder[PATH_MAX];
	size_t len = sym_build_id(e, id, sizeof(id));
	struct lookup lk = { .out = out, .n = n };
	GElf_Word crc;

	if (len >= 2) {
		sym_build_id_hex(id, len, hex);
		lk.hex = hex;
		if (each_debug_dir(by_build_id, &lk))
			return true;
	}
	lk.name = dwelf_elf_gnu_debuglink(e, &crc);
	if (!lk.name || strchr(lk.name, '/'))
		return false;
	lk.crc = crc;
	snprintf(folder, sizeof(folder), "%s", path);
	char *slash = strrchr(folder, '/');
	if (!slash)
		return false;
	*slash = 0;
	lk.folder = folder;
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

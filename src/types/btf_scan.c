// SPDX-License-Identifier: MIT
/*
 * A few members of one struct of vmlinux's BTF, read from the mapped file
 * without parsing all of it (see btf.h: types_btf_vmlinux_offsets). The
 * BTF format: a header, then the types one after the other (each a struct
 * btf_type and what its kind adds), then the strings.
 */
#include "types/btf.h"

#include <fcntl.h>
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes a type of kind k with vlen entries has after its struct btf_type; -1: a kind not known here */
static long extra(uint32_t k, uint32_t vlen)
{
	switch (k) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64);
	default:
		return -1;
	}
}

/* The string at off of the string section [s, s + len), or NULL */
static const char *str_at(const char *s, uint32_t len, uint32_t off)
{
	return off < len && memchr(s + off, 0, len - off) ? s + off : NULL;
}

/* Members of the struct at t (vlen of them) into offs; 0 when all are found */
static int members(const struct btf_type *t, const char *strs, uint32_t slen, const char *const *names,
		   uint32_t *offs, size_t n)
{
	const struct btf_member *m = (const struct btf_member *)(t + 1);
	bool kflag = BTF_INFO_KFLAG(t->info);
	size_t found = 0;

	for (uint32_t k = 0; k < BTF_INFO_VLEN(t->info); k++) {
		const char *name = str_at(strs, slen, m[k].name_off);
		uint32_t bits = kflag ? BTF_MEMBER_BIT_OFFSET(m[k].offset) : m[k].offset;
		for (size_t j = 0; name && j < n; j++)
			if (!strcmp(name, names[j])) {
				if (bits % 8 || (kflag && BTF_MEMBER_BITFIELD_SIZE(m[k].offset)))
					return -1;
				offs[j] = bits / 8;
				found++;
			}
	}
	return found == n ? 0 : -1;
}

static int scan(const uint8_t *data, size_t size, const char *sname, const char *const *names, uint32_t *offs,
		size_t n)
{
	const struct btf_header *h = (const void *)data;
	const uint8_t *p, *end;
	const char *strs;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC || h->hdr_len > size ||
	    (uint64_t)h->hdr_len + h->type_off + h->type_len > size ||
	    (uint64_t)h->hdr_len + h->str_off + h->str_len > size)
		return -1;
	p = data + h->hdr_len + h->type_off;
	end = p + h->type_len;
	strs = (const char *)data + h->hdr_len + h->str_off;
	while (p + sizeof(struct btf_type) <= end) {
		const struct btf_type *t = (const void *)p;
		uint32_t kind = BTF_INFO_KIND(t->info);
		long more = extra(kind, BTF_INFO_VLEN(t->info));
		const char *name;
		if (more < 0 || p + sizeof(*t) + more > end)
			return -1;
		if (kind == BTF_KIND_STRUCT && (name = str_at(strs, h->str_len, t->name_off)) && !strcmp(name, sname))
			return members(t, strs, h->str_len, names, offs, n);
		p += sizeof(*t) + more;
	}
	return -1;
}

int types_btf_vmlinux_offsets(const char *sname, const char *const *names, uint32_t *offs, size_t n)
{
	int fd, rc = -1;
	struct stat st;
	void *m;

	if (getenv("LANTERN_BTF") || (fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
		rc = scan(m, (size_t)st.st_size, sname, names, offs, n);
		munmap(m, (size_t)st.st_size);
	}
	close(fd);
	return rc;
}

// SPDX-License-Identifier: MIT
/* Kernel types from BTF: see btf.h. */
#include "types/btf.h"
#include "base/util.h"

#include <bpf/btf.h>
#include <stdarg.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A lazy pointer target's id: the object in the high bits, the type id below. */
#define OBJ_SHIFT 22
#define ID_MASK ((1u << OBJ_SHIFT) - 1)

static struct type *convert(struct btf_src *b, uint32_t obj, uint32_t id);

static struct type *resolve(struct type_src *src, uint32_t lazy)
{
	struct btf_src *b = (struct btf_src *)src;
	return convert(b, lazy >> OBJ_SHIFT, lazy & ID_MASK);
}

void types_btf_src_init(struct btf_src *b, struct arena *a)
{
	memset(b, 0, sizeof(*b));
	b->src.resolve = resolve;
	b->arena = a;
}

/*
 * vmlinux's BTF, parsed once per process and kept: every plan converts its
 * own types from it (tests and the fuzzer compile thousands of scripts).
 */
static struct btf *vmlinux;
static char vmlinux_err[256];
static bool vmlinux_tried;

void types_btf_src_free(struct btf_src *b)
{
	/* modules' BTF is split from vmlinux's: free them first; vmlinux's stays */
	for (uint32_t i = b->nobjs; i-- > 0;) {
		if (b->objs[i].btf != vmlinux)
			btf__free(b->objs[i].btf);
		free(b->objs[i].types);
	}
	free(b->objs);
	memset(b, 0, sizeof(*b));
}

static void add_obj(struct btf_src *b, struct btf *btf, const char *name)
{
	b->objs = util_xrealloc(b->objs, sizeof(*b->objs) * (b->nobjs + 1));
	snprintf(b->objs[b->nobjs].name, sizeof(b->objs[b->nobjs].name), "%s", name);
	b->objs[b->nobjs].btf = btf;
	b->objs[b->nobjs].ntypes = btf__type_cnt(btf);
	b->objs[b->nobjs].types = util_xcalloc(btf__type_cnt(btf), sizeof(struct type *));
	b->nobjs++;
}

/*
 * vmlinux's BTF, mapped: Linux 6.15 and later map the file, which read()
 * gives a page at a time (1,300 reads, a fresh page of memory each: 30 ms
 * of a lantern trace's start). Else as libbpf reads it.
 */
static struct btf *load_vmlinux(void)
{
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);
	struct btf *btf = NULL;
	struct stat st;
	void *m;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
		btf = btf__new(m, (uint32_t)st.st_size); /* a copy; NULL if refused */
		munmap(m, (size_t)st.st_size);
	}
	if (fd >= 0)
		close(fd);
	return btf ? btf : btf__load_vmlinux_btf();
}

bool types_btf_src_load(struct btf_src *b)
{
	const char *path = getenv("LANTERN_BTF");

	if (b->tried)
		return b->nobjs > 0;
	b->tried = true;
	if (path) {
		/* tests: another BTF, or none */
		struct btf *btf = btf__parse_raw(path);
		if (!btf) {
			snprintf(b->err, sizeof(b->err), "the kernel has no BTF (%s: %s)", path,
				 strerror(errno));
			return false;
		}
		add_obj(b, btf, "vmlinux");
		return true;
	}
	if (!vmlinux_tried) {
		vmlinux_tried = true;
		if (!(vmlinux = load_vmlinux()))
			snprintf(vmlinux_err, sizeof(vmlinux_err),
				 "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s)", strerror(errno));
	}
	if (!vmlinux) {
		snprintf(b->err, sizeof(b->err), "%s", vmlinux_err);
		return false;
	}
	add_obj(b, vmlinux, "vmlinux");
	return true;
}

/* Every module's BTF, read the first time vmlinux's lacks a name. */
static void load_modules(struct btf_src *b)
{
	DIR *d;
	struct dirent *de;

	if (b->mods_read || !b->nobjs || getenv("LANTERN_BTF"))
		return;
	b->mods_read = true;
	if (!(d = opendir("/sys/kernel/btf")))
		return;
	while ((de = readdir(d))) {
		struct btf *m;
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		if ((m = btf__load_module_btf(de->d_name, b->objs[0].btf)))
			add_obj(b, m, de->d_name);
	}
	closedir(d);
}

static const char *name_of(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);
	return n ? n : "";
}

/* An array of n bytes: what lantern cannot take apart (floats, __int128). */
static struct type *bytes(struct btf_src *b, uint32_t n)
{
	return type_array(b->arena, &ty_u8, n);
}

static struct type *convert_int(struct btf_src *b, const struct btf_type *t)
{
	uint8_t enc = btf_int_encoding(t);

	if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
		return bytes(b, t->size);
	return type_int(t->size, (enc & BTF_INT_SIGNED) || (enc & BTF_INT_CHAR));
}

static bool is_char(struct btf_src *b, uint32_t obj, uint32_t id)
{
	const struct btf *btf = b->objs[obj].btf;
	const struct btf_type *t;
	int r = btf__resolve_type(btf, id);

	if (r < 0 || !(t = btf__type_by_id(btf, r)) || !btf_is_int(t))
		return false;
	return t->size == 1 && ((btf_int_encoding(t) & BTF_INT_CHAR) ||
				!strcmp(name_of(btf, t), "char"));
}

static struct type *convert_array(struct btf_src *b, uint32_t obj, const struct btf_type *t,
				  uint32_t *read_size)
{
	const struct btf_array *a = btf_array(t);
	struct type *elem;

	if (read_size && is_char(b, obj, a->type)) {
		/* a member char[N]: a string, as bpftrace reads it */
		*read_size = a->nelems;
		return type_str(b->arena, a->nelems + 1);
	}
	elem = convert(b, obj, a->type);
	return type_array(b->arena, elem, a->nelems);
}

static struct type *convert_record(struct btf_src *b, uint32_t obj, uint32_t id,
				   const struct btf_type *t)
{
	const struct btf *btf = b->objs[obj].btf;
	const struct btf_member *m = btf_members(t);
	const char *n = name_of(btf, t);
	uint16_t vlen = btf_vlen(t);
	uint32_t align = 1;
	struct type *r = type_record(b->arena,
				     arena_printf(b->arena, "%s %s", btf_is_union(t) ? "union" : "struct",
						  *n ? n : "(anonymous)"),
				     t->size, 8, vlen);

	b->objs[obj].types[id] = r; /* before the members: they may point back */
	for (uint16_t i = 0; i < vlen; i++, m++) {
		struct field *f = &r->fields[i];
		uint32_t bits = btf_member_bit_offset(t, i), width = btf_member_bitfield_size(t, i);
		const struct btf_type *mt = btf__type_by_id(btf, btf__resolve_type(btf, m->type));
		f->name = arena_strdup(b->arena, btf__name_by_offset(btf, m->name_off));
		f->offset = bits / 8;
		if (width) {
			f->bit_off = bits % 8;
			f->bit_size = width;
		}
		if (mt && btf_is_array(mt))
			f->type = convert_array(b, obj, mt, &f->read_size);
		else
			f->type = convert(b, obj, m->type);
		align = MAX(align, f->type->align ? f->type->align : 1);
	}
	r->align = MIN(align, 8);
	return r;
}

/* A forward declaration: the definition of the same name, if any. */
static struct type *convert_fwd(struct btf_src *b, const struct btf_type *t, const char *name)
{
	struct type *full = types_btf_src_named(b, btf_kflag(t) ? "union" : "struct", name);

	if (full)
		return full;
	return type_record(b->arena, arena_printf(b->arena, "%s %s", btf_kflag(t) ? "union" : "struct", name),
			   0, 1, 0);
}

/* An enum's members: its values print by name (today's bpftrace) */
static const struct enum_info *enum_info(struct btf_src *b, const struct btf *btf,
					 const struct btf_type *t)
{
	struct enum_info *en = ARENA_NEW(b->arena, struct enum_info);
	const char *name = btf__name_by_offset(btf, t->name_off);
	uint16_t n = btf_vlen(t);

	en->name = name && *name ? arena_printf(b->arena, "enum %s", name) : "enum";
	en->names = ARENA_ARRAY(b->arena, const char *, n ? n : 1);
	en->values = ARENA_ARRAY(b->arena, int64_t, n ? n : 1);
	for (uint16_t i = 0; i < n; i++) {
		if (btf_is_enum(t)) {
			en->names[i] = btf__name_by_offset(btf, btf_enum(t)[i].name_off);
			en->values[i] = btf_kflag(t) ? (int64_t)btf_enum(t)[i].val
						   : (int64_t)(uint32_t)btf_enum(t)[i].val;
		} else {
			en->names[i] = btf__name_by_offset(btf, btf_enum64(t)[i].name_off);
			en->values[i] = (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
		}
	}
	en->n = n;
	return en;
}

static struct type *convert(struct btf_src *b, uint32_t obj, uint32_t id)
{
	const struct btf *btf;
	const struct btf_type *t;
	struct type *out;

	if (obj >= b->nobjs || id >= b->objs[obj].ntypes || !id)
		return &ty_void;
	if (b->objs[obj].types[id])
		return b->objs[obj].types[id];
	btf = b->objs[obj].btf;
	t = btf__type_by_id(btf, id);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		out = convert_int(b, t);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		out = t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8 ?
			      type_enum(b->arena, t->size, btf_kflag(t), enum_info(b, btf, t)) :
			      bytes(b, t->size);
		break;
	case BTF_KIND_PTR:
		out = type_ptr_lazy(b->arena, &b->src, obj << OBJ_SHIFT | t->type, false);
		break;
	case BTF_KIND_ARRAY:
		out = convert_array(b, obj, t, NULL);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return convert_record(b, obj, id, t);
	case BTF_KIND_FWD:
		out = convert_fwd(b, t, name_of(btf, t));
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		out = convert(b, obj, t->type);
		break;
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_FUNC:
		out = &ty_void; /* what a function pointer points to */
		break;
	default: {
		int64_t size = btf__resolve_size(btf, id);
		out = size > 0 ? bytes(b, (uint32_t)size) : &ty_void;
		break;
	}
	}
	b->objs[obj].types[id] = out;
	return out;
}

static int kind_of(const char *tag)
{
	if (!tag)
		return BTF_KIND_TYPEDEF;
	if (!strcmp(tag, "struct"))
		return BTF_KIND_STRUCT;
	if (!strcmp(tag, "union"))
		return BTF_KIND_UNION;
	return BTF_KIND_ENUM;
}

/* name in object obj: a type of kind (typedef: also a base type name); -1 if none */
static int32_t find(struct btf_src *b, uint32_t obj, int kind, const char *name)
{
	const struct btf *btf = b->objs[obj].btf;
	int32_t id = btf__find_by_name_kind(btf, name, kind);

	if (id > 0)
		return id;
	if (kind == BTF_KIND_TYPEDEF)
		id = btf__find_by_name_kind(btf, name, BTF_KIND_INT);
	if (id <= 0 && kind == BTF_KIND_ENUM)
		id = btf__find_by_name_kind(btf, name, BTF_KIND_ENUM64);
	/* a module's split BTF finds vmlinux's types too: only its own count */
	if (id > 0 && obj > 0 && (uint32_t)id < b->objs[0].ntypes)
		return -1;
	return id > 0 ? id : -1;
}

struct type *types_btf_src_named(struct btf_src *b, const char *tag, const char *name)
{
	int kind = kind_of(tag);

	if (!types_btf_src_load(b))
		return NULL;
	for (uint32_t pass = 0; pass < 2; pass++) {
		for (uint32_t obj = 0; obj < b->nobjs; obj++) {
			int32_t id = find(b, obj, kind, name);
			if (id > 0)
				return convert(b, obj, (uint32_t)id);
		}
		if (pass == 0)
			load_modules(b);
	}
	return NULL;
}

bool types_btf_src_percpu_var(struct btf_src *b, const char *name, uint32_t *id)
{
	const struct btf *btf;
	int32_t vid;

	if (!types_btf_src_load(b))
		return false;
	btf = b->objs[0].btf;
	vid = btf__find_by_name_kind(btf, name, BTF_KIND_VAR);
	if (vid <= 0)
		return false;
	/* a per-CPU one: listed in the .data..percpu section */
	for (uint32_t sid = 1; sid < b->objs[0].ntypes; sid++) {
		const struct btf_type *t = btf__type_by_id(btf, sid);
		if (!t || !btf_is_datasec(t) || strcmp(btf__name_by_offset(btf, t->name_off), ".data..percpu"))
			continue;
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++)
			if (v[i].type == (uint32_t)vid) {
				*id = (uint32_t)vid;
				return true;
			}
		return false;
	}
	return false;
}

bool types_btf_src_func(struct btf_src *b, const char *name, bool typedef_ptr, struct btf_func *out)
{
	const struct btf *btf;
	const struct btf_type *t;
	const struct btf_param *p;
	int32_t id;

	memset(out, 0, sizeof(*out));
	if (!types_btf_src_load(b))
		return false;
	btf = b->objs[0].btf;
	id = btf__find_by_name_kind(btf, name, typedef_ptr ? BTF_KIND_TYPEDEF : BTF_KIND_FUNC);
	if (id <= 0)
		return false;
	out->id = (uint32_t)id;
	t = btf__type_by_id(btf, id);
	/* FUNC -> FUNC_PROTO; TYPEDEF -> PTR -> FUNC_PROTO */
	t = btf__type_by_id(btf, t->type);
	if (typedef_ptr && t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return false;
	out->ret = convert(b, 0, t->type);
	p = btf_params(t);
	for (uint16_t i = 0; i < btf_vlen(t) && out->nparams < BTF_MAX_PARAMS; i++, p++) {
		struct func_param *o = &out->params[out->nparams++];
		const char *n = btf__name_by_offset(btf, p->name_off);
		o->name = arena_strdup(b->arena, n && *n ? n : "");
		o->type = convert(b, 0, p->type);
	}
	return true;
}

int types_btf_src_funcs(struct btf_src *b, const char *pattern, int (*fn)(const char *name, void *arg),
		  void *arg)
{
	const struct btf *btf;
	int n = 0;

	if (!types_btf_src_load(b))
		return -1;
	btf = b->objs[0].btf;
	for (uint32_t id = 1; id < b->objs[0].ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;
		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (name && util_wildcard_match(pattern, name)) {
			int rc = fn(name, arg);
			if (rc)
				return rc;
			n++;
		}
	}
	return n;
}

int types_btf_src_each_func(struct btf_src *b, bool modules,
			    int (*fn)(const char *obj, const char *name, uint32_t id, void *arg),
			    void *arg)
{
	if (!types_btf_src_load(b))
		return -1;
	if (modules)
		load_modules(b);
	for (uint32_t o = 0; o < b->nobjs; o++) {
		const struct btf *btf = b->objs[o].btf;
		/* a module's ids follow vmlinux's */
		for (uint32_t id = o ? b->objs[0].ntypes : 1; id < b->objs[o].ntypes; id++) {
			const struct btf_type *t = btf__type_by_id(btf, id);
			const char *name;
			if (!t || !btf_is_func(t) || !(name = btf__name_by_offset(btf, t->name_off)))
				continue;
			int rc = fn(b->objs[o].name, name, id, arg);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* vmlinux's enum constants, sorted by name: built on the first lookup, kept */
struct enum_const {
	const char *name;
	int64_t value;
	uint32_t id; /* its enum's type */
};
static struct enum_const *enums;
static size_t nenums;
static bool enums_built;

static int by_enum_name(const void *a, const void *b)
{
	return strcmp(((const struct enum_const *)a)->name, ((const struct enum_const *)b)->name);
}

static void index_enums(const struct btf *btf)
{
	size_t cap = 0;

	for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		uint16_t n = btf_vlen(t);
		if (!btf_is_any_enum(t))
			continue;
		if (nenums + n > cap) {
			cap = (nenums + n) * 2;
			enums = util_xrealloc(enums, cap * sizeof(*enums));
		}
		for (uint16_t i = 0; i < n; i++) {
			struct enum_const *e = &enums[nenums++];
			e->id = id;
			if (btf_is_enum(t)) {
				e->name = btf__name_by_offset(btf, btf_enum(t)[i].name_off);
				e->value = btf_kflag(t) ? (int64_t)btf_enum(t)[i].val
							: (int64_t)(uint32_t)btf_enum(t)[i].val;
			} else {
				e->name = btf__name_by_offset(btf, btf_enum64(t)[i].name_off);
				e->value = (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
			}
		}
	}
	if (nenums)
		qsort(enums, nenums, sizeof(*enums), by_enum_name);
}

bool types_btf_src_enum_value(struct btf_src *b, const char *name, int64_t *value,
			      struct type **type)
{
	struct enum_const key = { name, 0, 0 }, *hit;

	if (!types_btf_src_load(b))
		return false;
	if (b->objs[0].btf != vmlinux) {
		/* another BTF file (tests): looked through */
		const struct btf *btf = b->objs[0].btf;
		for (uint32_t id = 1; id < b->objs[0].ntypes; id++) {
			const struct btf_type *t = btf__type_by_id(btf, id);
			if (!btf_is_enum(t))
				continue;
			for (uint16_t i = 0; i < btf_vlen(t); i++)
				if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), name)) {
					*value = (int64_t)btf_enum(t)[i].val;
					*type = convert(b, 0, id);
					return true;
				}
		}
		return false;
	}
	if (!enums_built) {
		enums_built = true;
		index_enums(vmlinux);
	}
	hit = nenums ? bsearch(&key, enums, nenums, sizeof(*enums), by_enum_name) : NULL;
	if (hit) {
		*value = hit->value;
		*type = convert(b, 0, hit->id);
	}
	return hit != NULL;
}

static void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	sb_vprintf(ctx, fmt, ap);
}

bool types_btf_src_describe(struct btf_src *b, const char *tag, const char *name,
			    struct strbuf *out)
{
	int kind = !strcmp(tag, "struct") ? BTF_KIND_STRUCT
		   : !strcmp(tag, "union") ? BTF_KIND_UNION
					   : BTF_KIND_ENUM;

	if (!types_btf_src_load(b))
		return false;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			load_modules(b);
		for (uint32_t o = 0; o < b->nobjs; o++) {
			struct btf *btf = b->objs[o].btf;
			int id = btf__find_by_name_kind(btf, name, kind);
			const struct btf_type *t;
			if (id <= 0 || !(t = btf__type_by_id(btf, id)))
				continue;
			sb_printf(out, "%s %s {\n", tag, name);
			if (kind == BTF_KIND_ENUM) {
				const struct btf_enum *e = btf_enum(t);
				for (uint16_t i = 0; i < btf_vlen(t); i++)
					sb_printf(out, "\t%s = %d,\n", btf__name_by_offset(btf, e[i].name_off),
						  e[i].val);
				sb_puts(out, "};\n");
				return true;
			}
			/* each member as C declares it, by libbpf's declaration writer */
			struct btf_dump *d = btf_dump__new(btf, dump_printf, out, NULL);
			if (!d)
				return false;
			const struct btf_member *m = btf_members(t);
			for (uint16_t i = 0; i < btf_vlen(t); i++) {
				LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts,
					    .field_name = btf__name_by_offset(btf, m[i].name_off));
				sb_putc(out, '\t');
				btf_dump__emit_type_decl(d, m[i].type, &opts);
				if (btf_member_bitfield_size(t, i))
					sb_printf(out, ":%u", btf_member_bitfield_size(t, i));
				sb_puts(out, ";\n");
			}
			btf_dump__free(d);
			sb_puts(out, "};\n");
			return true;
		}
		if (b->mods_read)
			break;
	}
	return false;
}

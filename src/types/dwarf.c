// SPDX-License-Identifier: MIT
/* A program's types from DWARF: see dwarf.h. */
#include "types/dwarf.h"
#include "base/util.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* How deep types nest in each other (typedefs, arrays, members), at most */
#define DWARF_DEPTH_MAX 128

static struct type *convert(struct dwarf_src *d, Dwarf_Die *die);

static struct type *resolve(struct type_src *src, uint32_t id)
{
	struct dwarf_src *d = (struct dwarf_src *)src;
	Dwarf_Die die;

	if (id >= d->lazy.len || !dwarf_offdie(d->lazy.data[id].dw, d->lazy.data[id].off, &die))
		return &ty_void;
	return convert(d, &die);
}

void types_dwarf_src_init(struct dwarf_src *d, struct arena *a, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->src.resolve = resolve;
	d->arena = a;
	d->path = path;
	d->fd = -1;
}

void types_dwarf_src_free(struct dwarf_src *d)
{
	if (d->dw)
		dwarf_end(d->dw);
	if (d->fd >= 0)
		close(d->fd);
	vec_free(&d->lazy);
	vec_free(&d->done);
	d->dw = NULL;
	d->fd = -1;
}

bool types_dwarf_src_load(struct dwarf_src *d)
{
	if (d->tried)
		return d->dw != NULL;
	d->tried = true;
	char file[PATH_MAX];
	if (!d->find || !d->find(d->path, file, sizeof(file)))
		snprintf(file, sizeof(file), "%s", d->path);
	d->fd = open(file, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		snprintf(d->err, sizeof(d->err), "cannot open %.150s: %s", file, strerror(errno));
		return false;
	}
	d->dw = dwarf_begin(d->fd, DWARF_C_READ);
	if (!d->dw) {
		snprintf(d->err, sizeof(d->err), "%s has no debug info (DWARF): build it with -g", d->path);
		return false;
	}
	return true;
}

/* The DIE an attribute (DW_AT_type) refers to; false if none (void). */
static bool ref(Dwarf_Die *die, unsigned int at, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, at, &attr) && dwarf_formref_die(&attr, out);
}

static int64_t udata(Dwarf_Die *die, unsigned int at, int64_t dflt)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	if (!dwarf_attr_integrate(die, at, &attr) || dwarf_formudata(&attr, &w) != 0)
		return dflt;
	return (int64_t)w;
}

static struct type *bytes(struct dwarf_src *d, uint32_t n)
{
	return type_array(d->arena, &ty_u8, n);
}

static struct type *base_type(struct dwarf_src *d, Dwarf_Die *die)
{
	int size = dwarf_bytesize(die);
	int64_t enc = udata(die, DW_AT_encoding, DW_ATE_signed);

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return bytes(d, size > 0 ? (uint32_t)size : 0);
	if (enc == DW_ATE_float)
		return bytes(d, (uint32_t)size);
	return type_int((unsigned)size, enc == DW_ATE_signed || enc == DW_ATE_signed_char);
}

/* char, signed char: what a char[N] is made of */
static bool is_char(Dwarf_Die *elem)
{
	Dwarf_Die t;
	const char *n;

	if (dwarf_peel_type(elem, &t) != 0 || dwarf_tag(&t) != DW_TAG_base_type)
		return false;
	n = dwarf_diename(&t);
	return dwarf_bytesize(&t) == 1 && n && !strcmp(n, "char");
}

static struct type *array_type(struct dwarf_src *d, Dwarf_Die *die, uint32_t *read_size)
{
	Dwarf_Die elem, sub;
	uint32_t dims[8], ndims = 0;
	struct type *t;

	if (!ref(die, DW_AT_type, &elem))
		return &ty_void;
	if (dwarf_child(die, &sub) == 0) {
		do {
			int64_t n;
			if (dwarf_tag(&sub) != DW_TAG_subrange_type || ndims == 8)
				continue;
			n = udata(&sub, DW_AT_count, -1);
			if (n < 0)
				n = udata(&sub, DW_AT_upper_bound, -1) + 1;
			dims[ndims++] = n > 0 ? (uint32_t)n : 0;
		} while (dwarf_siblingof(&sub, &sub) == 0);
	}
	if (ndims == 1 && read_size && is_char(&elem)) {
		*read_size = dims[0];
		return type_str(d->arena, dims[0] + 1);
	}
	t = convert(d, &elem);
	for (uint32_t i = ndims; i-- > 0;)
		t = type_array(d->arena, t, dims[i]);
	return t;
}

static struct type *record_type(struct dwarf_src *d, Dwarf_Die *die, bool is_union)
{
	const char *name = dwarf_diename(die);
	Dwarf_Word size = 0;
	Dwarf_Die m;
	uint32_t n = 0, align = 1;
	struct type *r;

	if (dwarf_hasattr(die, DW_AT_declaration) && name) {
		/* a declaration: the definition elsewhere */
		struct type *full = types_dwarf_src_named(d, is_union ? "union" : "struct", name);
		if (full)
			return full;
	}
	if (dwarf_child(die, &m) == 0)
		do
			n += dwarf_tag(&m) == DW_TAG_member;
		while (dwarf_siblingof(&m, &m) == 0);
	dwarf_aggregate_size(die, &size);
	r = type_record(d->arena,
			arena_printf(d->arena, "%s %s", is_union ? "union" : "struct", name ? name : "(anonymous)"),
			(uint32_t)size, 8, n);
	struct dwarf_conv dc = { dwarf_cu_getdwarf(die->cu), dwarf_dieoffset(die), r };
	vec_push(&d->done, dc); /* before the members: they may point back */
	n = 0;
	if (dwarf_child(die, &m) == 0) {
		do {
			struct field *f;
			Dwarf_Die mt;
			int64_t bits;
			if (dwarf_tag(&m) != DW_TAG_member)
				continue;
			f = &r->fields[n++];
			f->name = arena_strdup(d->arena, dwarf_diename(&m) ? dwarf_diename(&m) : "");
			f->offset = (uint32_t)udata(&m, DW_AT_data_member_location, 0);
			if (!ref(&m, DW_AT_type, &mt))
				f->type = &ty_void;
			else if (dwarf_tag(&mt) == DW_TAG_array_type)
				f->type = array_type(d, &mt, &f->read_size);
			else
				f->type = convert(d, &mt);
			bits = udata(&m, DW_AT_bit_size, 0);
			if (bits > 0 && bits <= 64) {
				/* DWARF 4+: the bit offset from the struct's start */
				int64_t at = udata(&m, DW_AT_data_bit_offset, -1);
				if (at < 0) {
					/* DWARF 2/3: from the top of the storage unit (wrapping if nonsense) */
					uint64_t unit =
						(uint64_t)udata(&m, DW_AT_byte_size, f->type->size);
					uint64_t top = (uint64_t)udata(&m, DW_AT_bit_offset, 0);
					at = (int64_t)((uint64_t)f->offset * 8 + unit * 8 - top -
						       (uint64_t)bits);
				}
				/* in one 8-byte load, as the readers take bitfields; else a plain member */
				if (at >= 0 && at % 8 + bits <= 64) {
					f->offset = (uint32_t)(at / 8);
					f->bit_off = at % 8;
					f->bit_size = (uint8_t)bits;
				}
			}
			align = MAX(align, f->type->align ? f->type->align : 1);
		} while (dwarf_siblingof(&m, &m) == 0);
	}
	r->nfields = n;
	r->align = MIN(align, 8);
	return r;
}

static struct type *convert_die(struct dwarf_src *d, Dwarf_Die *die)
{
	Dwarf_Die t;

	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		return base_type(d, die);
	case DW_TAG_enumeration_type: {
		int size = dwarf_bytesize(die);
		return size == 1 || size == 2 || size == 4 || size == 8 ? type_int((unsigned)size, false)
									: &ty_u32;
	}
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		if (!ref(die, DW_AT_type, &t))
			return type_ptr(d->arena, &ty_void, true);
		struct dwarf_ref r = { dwarf_cu_getdwarf(t.cu), dwarf_dieoffset(&t) };
		vec_push(&d->lazy, r);
		return type_ptr_lazy(d->arena, &d->src, d->lazy.len - 1, true);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		return record_type(d, die, false);
	case DW_TAG_union_type:
		return record_type(d, die, true);
	case DW_TAG_array_type:
		return array_type(d, die, NULL);
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		return ref(die, DW_AT_type, &t) ? convert(d, &t) : &ty_void;
	default: {
		Dwarf_Word size = 0;
		return dwarf_aggregate_size(die, &size) == 0 && size ? bytes(d, (uint32_t)size) : &ty_void;
	}
	}
}

static struct type *convert(struct dwarf_src *d, Dwarf_Die *die)
{
	uint64_t off = dwarf_dieoffset(die);
	Dwarf *dw = dwarf_cu_getdwarf(die->cu);
	struct type *t;

	vec_foreach(&d->done, dc)
	{
		if (dc->off == off && dc->dw == dw)
			return dc->t;
	}
	/* a type made of itself (broken debug info: a typedef of itself) would never end */
	if (d->depth >= DWARF_DEPTH_MAX)
		return &ty_void;
	d->depth++;
	t = convert_die(d, die);
	d->depth--;
	if (dwarf_tag(die) != DW_TAG_structure_type && dwarf_tag(die) != DW_TAG_union_type &&
	    dwarf_tag(die) != DW_TAG_class_type) {
		struct dwarf_conv dc = { dw, off, t };
		vec_push(&d->done, dc);
	}
	return t;
}

/* fn(die, arg) for each top-level DIE of every compile unit, until it returns true */
static bool each_top_die(struct dwarf_src *d, bool (*fn)(Dwarf_Die *die, void *arg), void *arg)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie, child;
	uint8_t type;

	while (dwarf_get_units(d->dw, cu, &cu, NULL, &type, &cudie, &subdie) == 0) {
		/* a skeleton unit (-gsplit-dwarf): its DIEs are in its .dwo, if libdw found it */
		Dwarf_Die *u = type == DW_UT_skeleton && subdie.cu ? &subdie : &cudie;
		if (dwarf_child(u, &child) != 0)
			continue;
		do
			if (fn(&child, arg))
				return true;
		while (dwarf_siblingof(&child, &child) == 0);
	}
	return false;
}

struct find {
	int tag;
	const char *name;
	Dwarf_Die found;
	bool definition; /* a definition, not a declaration */
};

static bool match(Dwarf_Die *die, void *arg)
{
	struct find *f = arg;
	const char *n = dwarf_diename(die);

	if (dwarf_tag(die) != f->tag || !n || strcmp(n, f->name))
		return false;
	if (f->definition && (dwarf_hasattr(die, DW_AT_declaration) ||
			      (f->tag == DW_TAG_subprogram && !dwarf_hasattr(die, DW_AT_low_pc) &&
			       !dwarf_hasattr(die, DW_AT_ranges))))
		return false;
	f->found = *die;
	return true;
}

struct type *types_dwarf_src_named(struct dwarf_src *d, const char *tag, const char *name)
{
	struct find f = { .name = name, .definition = true };

	if (!types_dwarf_src_load(d))
		return NULL;
	f.tag = !tag			  ? DW_TAG_typedef :
		!strcmp(tag, "struct") ? DW_TAG_structure_type :
		!strcmp(tag, "union")  ? DW_TAG_union_type :
					 DW_TAG_enumeration_type;
	if (!each_top_die(d, match, &f))
		return NULL;
	return convert(d, &f.found);
}

/* The C spelling of a type DIE, for listing as bpftrace does ("struct node*", "const char*") */
static void c_name(Dwarf_Die *die, struct strbuf *out, unsigned depth)
{
	Dwarf_Die t;
	const char *n = dwarf_diename(die);

	if (depth >= DWARF_DEPTH_MAX) { /* a pointer to itself */
		sb_puts(out, "?");
		return;
	}
	switch (dwarf_tag(die)) {
	case DW_TAG_pointer_type:
		if (ref(die, DW_AT_type, &t))
			c_name(&t, out, depth + 1);
		else
			sb_puts(out, "void");
		sb_putc(out, '*'); /* "const char*", "char**": bpftrace's spelling */
		return;
	case DW_TAG_const_type:
		sb_puts(out, "const ");
		if (ref(die, DW_AT_type, &t))
			c_name(&t, out, depth + 1);
		return;
	case DW_TAG_structure_type:
		sb_printf(out, "struct %s", n ? n : "(anonymous)");
		return;
	case DW_TAG_union_type:
		sb_printf(out, "union %s", n ? n : "(anonymous)");
		return;
	case DW_TAG_enumeration_type:
		sb_printf(out, "enum %s", n ? n : "(anonymous)");
		return;
	default:
		sb_puts(out, n ? n : "?");
	}
}

bool types_dwarf_src_func(struct dwarf_src *d, const char *func, struct btf_func *out,
		    struct strbuf *ctypes)
{
	struct find f = { .tag = DW_TAG_subprogram, .name = func, .definition = true };
	Dwarf_Die p, t;

	memset(out, 0, sizeof(*out));
	if (!types_dwarf_src_load(d) || !each_top_die(d, match, &f))
		return false;
	out->ret = ref(&f.found, DW_AT_type, &t) ? convert(d, &t) : &ty_void;
	if (dwarf_child(&f.found, &p) != 0)
		return true;
	do {
		struct func_param *prm;
		if (dwarf_tag(&p) != DW_TAG_formal_parameter || out->nparams == BTF_MAX_PARAMS)
			continue;
		prm = &out->params[out->nparams++];
		prm->name = arena_strdup(d->arena, dwarf_diename(&p) ? dwarf_diename(&p) : "");
		prm->type = ref(&p, DW_AT_type, &t) ? convert(d, &t) : &ty_void;
		if (ctypes) {
			sb_puts(ctypes, "    ");
			if (ref(&p, DW_AT_type, &t))
				c_name(&t, ctypes, 0);
			sb_printf(ctypes, " %s\n", prm->name);
		}
	} while (dwarf_siblingof(&p, &p) == 0);
	return true;
}

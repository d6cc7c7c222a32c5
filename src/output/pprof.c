// SPDX-License-Identifier: MIT
/* The stack maps as a pprof profile: see pprof.h. */
#include "output/pprof.h"
#include "base/outfile.h"
#include "maps/mapread.h"
#include "output/folded.h"
#include "output/mapprint.h"
#include "output/profile.pb-c.h"
#include "output/writer.h"
#include "sym/symbols.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* A table of keys (strings) to ids, 1 up (open addressing). */
struct ids {
	char **keys;
	uint64_t *vals;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* key's id; *added: it is new (its id is n, the table's size) */
static uint64_t ids_get(struct ids *t, const char *key, bool *added)
{
	if (2 * (t->n + 1) > t->cap) {
		struct ids old = *t;
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->keys = util_xcalloc(t->cap, sizeof(char *));
		t->vals = util_xcalloc(t->cap, sizeof(uint64_t));
		t->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.keys[i]) {
				size_t h = hash_str(old.keys[i]) & (t->cap - 1);
				while (t->keys[h])
					h = (h + 1) & (t->cap - 1);
				t->keys[h] = old.keys[i];
				t->vals[h] = old.vals[i];
				t->n++;
			}
		free(old.keys);
		free(old.vals);
	}
	size_t h = hash_str(key) & (t->cap - 1);
	for (; t->keys[h]; h = (h + 1) & (t->cap - 1))
		if (!strcmp(t->keys[h], key)) {
			*added = false;
			return t->vals[h];
		}
	t->keys[h] = util_xstrdup(key);
	t->vals[h] = ++t->n;
	*added = true;
	return t->n;
}

static void ids_free(struct ids *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->keys[i]);
	free(t->keys);
	free(t->vals);
}

/* The profile being built */
struct pp {
	OutPprof__Profile prof;
	struct ids strs, funcs, maps, locs;
	size_t ntypes, col; /* sample types; the column of the map being walked */
	size_t cap_samples, cap_locs, cap_funcs, cap_maps;
	int64_t kernel_map; /* the id of [kernel.kallsyms], 0 before */
};

#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? (cap) * 2 : 64;                                            \
			(arr) = util_xrealloc((arr), (cap) * sizeof(*(arr)));                      \
		}                                                                                  \
	} while (0)

static int64_t str_id(struct pp *pp, const char *s)
{
	bool added;
	uint64_t id = ids_get(&pp->strs, s, &added) - 1; /* "" first, at 0 */

	if (added) {
		pp->prof.string_table = util_xrealloc(pp->prof.string_table, (id + 1) * sizeof(char *));
		pp->prof.string_table[id] = util_xstrdup(s);
		pp->prof.n_string_table = id + 1;
	}
	return (int64_t)id;
}

static uint64_t func_id(struct pp *pp, const char *name, const char *file)
{
	char key[4096];
	bool added;

	snprintf(key, sizeof(key), "%s\n%s", name, file);
	uint64_t id = ids_get(&pp->funcs, key, &added);
	if (added) {
		OutPprof__Function *f = util_xmalloc(sizeof(*f));
		out_pprof__function__init(f);
		f->id = id;
		f->name = f->system_name = str_id(pp, name);
		f->filename = str_id(pp, file);
		GROW(pp->prof.function, pp->prof.n_function, pp->cap_funcs);
		pp->prof.function[pp->prof.n_function++] = f;
	}
	return id;
}

static uint64_t mapping_id(struct pp *pp, const struct sym_umap *um, bool kernel)
{
	char key[4200];
	bool added;

	if (kernel)
		snprintf(key, sizeof(key), "[kernel.kallsyms]");
	else
		snprintf(key, sizeof(key), "%llx %llx %llx %s", (unsigned long long)um->lo,
			 (unsigned long long)um->hi, (unsigned long long)um->offset, um->path);
	uint64_t id = ids_get(&pp->maps, key, &added);
	if (added) {
		OutPprof__Mapping *m = util_xmalloc(sizeof(*m));
		out_pprof__mapping__init(m);
		m->id = id;
		m->memory_start = kernel ? 0xffff800000000000ull : um->lo;
		m->memory_limit = kernel ? UINT64_MAX : um->hi;
		m->file_offset = kernel ? 0 : um->offset;
		m->filename = str_id(pp, kernel ? "[kernel.kallsyms]" : um->path);
		m->build_id = str_id(pp, kernel ? "" : um->build_id);
		m->has_functions = true;
		m->has_inline_frames = !kernel;
		GROW(pp->prof.mapping, pp->prof.n_mapping, pp->cap_maps);
		pp->prof.mapping[pp->prof.n_mapping++] = m;
	}
	return id;
}

/* The location of a frame: its mapping, and its function when it has a name. */
static uint64_t location_id(struct pp *pp, bool user, int pid, uint64_t addr, bool leaf)
{
	char key[64];
	bool added;

	/* a return address and the same address as a leaf have different inlined functions */
	snprintf(key, sizeof(key), "%c%d %llx%s", user ? 'u' : 'k', user ? pid : 0,
		 (unsigned long long)addr, leaf ? "" : "r");
	uint64_t id = ids_get(&pp->locs, key, &added);
	if (!added)
		return id;
	OutPprof__Location *l = util_xmalloc(sizeof(*l));
	struct sym_umap um = { 0 };
	struct sym sym;
	out_pprof__location__init(l);
	l->id = id;
	l->address = addr;
	if (!user || sym_usym_mapping(pid, addr, &um))
		l->mapping_id = mapping_id(pp, &um, !user);
	if (sym_resolve(user, pid, addr, &sym)) {
		const char *inl[SYM_INLINE_MAX], *file = user && um.path ? um.path : "";
		/* the functions inlined there first, innermost first; the frame's own last */
		int n = user ? sym_usym_inlines(pid, addr - !leaf, inl, SYM_INLINE_MAX) : 0;
		l->line = util_xmalloc((size_t)(n + 1) * sizeof(*l->line));
		for (int i = 0; i <= n; i++) {
			OutPprof__Line *ln = util_xmalloc(sizeof(*ln));
			out_pprof__line__init(ln);
			ln->function_id = func_id(pp, i < n ? inl[i] : sym.name, file);
			l->line[l->n_line++] = ln;
		}
	}
	GROW(pp->prof.location, pp->prof.n_location, pp->cap_locs);
	pp->prof.location[pp->prof.n_location++] = l;
	return id;
}

/* The frames of one stack key field, the leaf first, appended to s. */
static void add_frames(struct pp *pp, const struct out_ctx *oc, OutPprof__Sample *s,
		       const struct type *t, const uint8_t *p)
{
	uint64_t ips[STACK_MAX_FRAMES] = { 0 };
	int pid = t->user ? (int)load_i64(p + 8) : 0;

	if (!maps_stack_read(oc->maps, t, load_i64(p), ips))
		return;
	for (uint32_t i = 0; i < t->count && i < STACK_MAX_FRAMES && ips[i]; i++) {
		s->location_id = util_xrealloc(s->location_id, (s->n_location_id + 1) * 8);
		s->location_id[s->n_location_id++] = location_id(pp, t->user, pid, ips[i], i == 0);
	}
}

static void add_label(struct pp *pp, const struct out_ctx *oc, OutPprof__Sample *s,
		      const struct map_info *m, uint32_t i, const uint8_t *p)
{
	const struct type *t = m->key->fields[i].type;
	const char *name = m->key_names && m->key_names[i] && *m->key_names[i] ? m->key_names[i] : NULL;
	OutPprof__Label *lb = util_xmalloc(sizeof(*lb));
	char kn[32];

	out_pprof__label__init(lb);
	snprintf(kn, sizeof(kn), "key%u", i);
	lb->key = str_id(pp, name ? name : kn);
	if (t->kind == TY_INT) {
		lb->num = out_value_int(t, p);
	} else {
		struct strbuf sb = { 0 };
		out_key_field_format(oc, &sb, t, p);
		lb->str = str_id(pp, sb_str(&sb));
		sb_free(&sb);
	}
	s->label = util_xrealloc(s->label, (s->n_label + 1) * sizeof(*s->label));
	s->label[s->n_label++] = lb;
}

static struct pp *walking; /* the profile the map walker's entries go to */

static void pp_map_entry(struct map_walk *w, const struct map_item *it)
{
	struct pp *pp = walking;
	const struct map_info *m = w->m;
	uint64_t count = out_folded_count(m->value, it);

	if (!pp || !count || !it->key || !out_map_has_stack_key(m))
		return;
	OutPprof__Sample *s = util_xmalloc(sizeof(*s));
	out_pprof__sample__init(s);
	/* kernel frames above user frames: the leaf first */
	for (int user = 0; user <= 1; user++)
		for (uint32_t i = 0; i < m->key->nfields; i++) {
			const struct type *ft = m->key->fields[i].type;
			if (ft->kind == TY_STACK && ft->user == user)
				add_frames(pp, w->oc, s, ft, it->key + m->key->fields[i].offset);
		}
	for (uint32_t i = 0; i < m->key->nfields; i++)
		if (m->key->fields[i].type->kind != TY_STACK)
			add_label(pp, w->oc, s, m, i, it->key + m->key->fields[i].offset);
	s->value = util_xcalloc(pp->ntypes, sizeof(int64_t));
	s->n_value = pp->ntypes;
	s->value[pp->col] = (int64_t)count;
	GROW(pp->prof.sample, pp->prof.n_sample, pp->cap_samples);
	pp->prof.sample[pp->prof.n_sample++] = s;
}

static void pp_none(struct map_walk *w)
{
}

static void pp_attached(struct strbuf *out, const struct out_ctx *oc, int nprobes)
{
	out_text_writer.attached(out, oc, nprobes);
}

const struct writer out_pprof_writer = {
	.attached = pp_attached,
	.text = out_text_text,
	.lost = out_text_lost,
	.value = out_text_value,
	.map_begin = pp_none,
	.map_entry = pp_map_entry,
	.map_end = pp_none,
};

/* The sample type of map m: its aggregation, and its name when there are several maps */
static void add_type(struct pp *pp, const struct map_info *m, size_t nmaps)
{
	OutPprof__ValueType *vt = util_xmalloc(sizeof(*vt));
	const char *agg = m->value->kind == TY_COUNT || m->value->kind == TY_HIST ||
					  m->value->kind == TY_LHIST
				  ? "samples"
				  : type_str_of(m->value);
	char name[256];

	out_pprof__value_type__init(vt);
	if (nmaps > 1)
		snprintf(name, sizeof(name), "@%s:%s", m->name, agg);
	else
		snprintf(name, sizeof(name), "%s", agg);
	vt->type = str_id(pp, name);
	vt->unit = str_id(pp, "count");
	pp->prof.sample_type = util_xrealloc(pp->prof.sample_type, (pp->ntypes + 1) * sizeof(vt));
	pp->prof.sample_type[pp->ntypes++] = vt;
	pp->prof.n_sample_type = pp->ntypes;
}

/* gzip of n bytes into out */
static bool gzip(const uint8_t *in, size_t n, struct strbuf *out)
{
	z_stream z = { 0 };
	uint8_t buf[65536];
	int rc;

	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	z.next_in = (uint8_t *)in;
	z.avail_in = (uInt)n;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = deflate(&z, Z_FINISH);
		sb_putn(out, (const char *)buf, sizeof(buf) - z.avail_out);
	} while (rc == Z_OK);
	deflateEnd(&z);
	return rc == Z_STREAM_END;
}

static void pp_free(struct pp *pp)
{
	OutPprof__Profile *p = &pp->prof;

	for (size_t i = 0; i < p->n_sample; i++) {
		for (size_t k = 0; k < p->sample[i]->n_label; k++)
			free(p->sample[i]->label[k]);
		free(p->sample[i]->label);
		free(p->sample[i]->location_id);
		free(p->sample[i]->value);
		free(p->sample[i]);
	}
	for (size_t i = 0; i < p->n_location; i++) {
		for (size_t k = 0; k < p->location[i]->n_line; k++)
			free(p->location[i]->line[k]);
		free(p->location[i]->line);
		free(p->location[i]);
	}
	for (size_t i = 0; i < p->n_function; i++)
		free(p->function[i]);
	for (size_t i = 0; i < p->n_mapping; i++)
		free(p->mapping[i]);
	for (size_t i = 0; i < p->n_sample_type; i++)
		free(p->sample_type[i]);
	for (size_t i = 0; i < p->n_string_table; i++)
		free(p->string_table[i]);
	free(p->sample);
	free(p->location);
	free(p->function);
	free(p->mapping);
	free(p->sample_type);
	free(p->string_table);
	ids_free(&pp->strs);
	ids_free(&pp->funcs);
	ids_free(&pp->maps);
	ids_free(&pp->locs);
}

static int write_file(const char *path, const struct strbuf *gz)
{
	FILE *f = fopen(path, "we");

	if (!f) {
		fprintf(stderr, "lantern: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fwrite(gz->s, 1, gz->len, f);
	return util_out_close(f, path) ? 0 : -1;
}

int out_pprof_write(const struct out_ctx *oc, const char *path)
{
	struct pp pp;
	struct out_ctx poc = *oc;
	struct strbuf sink = { 0 }, gz = { 0 };
	size_t nmaps = 0;
	int rc = -1;

	if (!out_plan_has_stack_map(oc->plan)) {
		fprintf(stderr, "lantern: pprof: no map is keyed by kstack or ustack "
				"(e.g. @[ustack, comm] = count()); %s not written\n", path);
		return -1;
	}
	memset(&pp, 0, sizeof(pp));
	out_pprof__profile__init(&pp.prof);
	str_id(&pp, ""); /* string 0 is "" */
	vec_foreach(&oc->plan->maps.user, mp) nmaps += out_map_has_stack_key(*mp);
	vec_foreach(&oc->plan->maps.user, mp)
	{
		if (out_map_has_stack_key(*mp))
			add_type(&pp, *mp, nmaps);
	}
	poc.writer = &out_pprof_writer;
	walking = &pp;
	vec_foreach(&oc->plan->maps.user, mp)
	{
		if (!out_map_has_stack_key(*mp))
			continue;
		out_map_print(&poc, *mp, 0, 1, &sink);
		pp.col++;
	}
	walking = NULL;
	pp.prof.time_nanos = (int64_t)time(NULL) * 1000000000;
	if (!pp.prof.n_sample) {
		fprintf(stderr, "lantern: pprof: no stacks were recorded; %s not written\n", path);
		goto out;
	}
	size_t n = out_pprof__profile__get_packed_size(&pp.prof);
	uint8_t *packed = util_xmalloc(n);
	out_pprof__profile__pack(&pp.prof, packed);
	if (gzip(packed, n, &gz))
		rc = write_file(path, &gz);
	free(packed);
out:
	sb_free(&sink);
	sb_free(&gz);
	pp_free(&pp);
	return rc;
}

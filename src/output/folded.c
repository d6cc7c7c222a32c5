// SPDX-License-Identifier: MIT
/*
 * The folded writer (-f folded): every map whose key holds a kstack or
 * ustack as folded stacks, the input of flamegraph.pl, inferno and
 * speedscope. One line per entry, root first:
 *
 *   @[kstack, ustack, comm] = count()
 *     ->  bash;main;read;entry_SYSCALL_64_[k];do_syscall_64_[k];ksys_read_[k] 42
 *
 * The other keys come first (comm, pid: the roots), in key order; then the
 * user stacks, then the kernel stacks (kernel frames marked "_[k]", as
 * stackcollapse-perf.pl --all marks them); the value last. Values are
 * count, sum, integers, min, max, avg, and hist/lhist's total count;
 * entries whose value is not positive are left out. With several stack
 * maps, each line starts with its map's name. Maps without a stack key,
 * and "Attaching N probes...", print nothing; printf output and lost
 * events print as in text.
 */
#include "base/outfile.h"
#include "output/folded.h"
#include "output/flamegraph.h"
#include "output/hist.h"
#include "output/mapprint.h"
#include "output/stats.h"
#include "output/writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool out_map_has_stack_key(const struct map_info *m)
{
	for (uint32_t i = 0; m->key && i < m->key->nfields; i++)
		if (m->key->fields[i].type->kind == TY_STACK)
			return true;
	return false;
}

bool out_plan_has_stack_map(const struct plan *p)
{
	vec_foreach(&p->maps.user, mp)
	{
		if (out_map_has_stack_key(*mp))
			return true;
	}
	return false;
}

/* How many of the plan's maps have a stack key. */
static size_t stack_maps(const struct plan *p)
{
	size_t n = 0;

	vec_foreach(&p->maps.user, mp)
	{
		if (out_map_has_stack_key(*mp))
			n++;
	}
	return n;
}

uint64_t out_folded_count(const struct type *t, const struct map_item *it)
{
	int64_t v;

	switch (t->kind) {
	case TY_HIST:
	case TY_LHIST:
		return out_hist_total(it->buckets, it->nbuckets);
	case TY_AVG:
		v = out_avg_value(load_i64(it->value), (uint64_t)load_i64(it->value + 8));
		break;
	case TY_COUNT:
		return (uint64_t)load_i64(it->value);
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_INT:
		v = out_value_int(t->kind == TY_INT ? t : &ty_s64, it->value);
		if (t->kind == TY_INT && !t->is_signed)
			return (uint64_t)v;
		break;
	default:
		return 0;
	}
	return v > 0 ? (uint64_t)v : 0;
}

/* Separate the frames of a line. */
static void frame_sep(struct strbuf *out, size_t start)
{
	if (out->len > start)
		sb_putc(out, ';');
}

/* A key that is not a stack, as one frame: its text, ';' and newlines made '_'. */
static void key_frame(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		      const uint8_t *data)
{
	size_t from = out->len;

	out_key_field_format(oc, out, t, data);
	for (size_t i = from; i < out->len; i++)
		if (out->s[i] == ';' || (unsigned char)out->s[i] < 0x20)
			out->s[i] = '_';
}

static void folded_map_entry(struct map_walk *w, const struct map_item *it)
{
	const struct map_info *m = w->m;
	const struct type *k = m->key;
	struct strbuf *out = w->out;
	uint64_t count = out_folded_count(m->value, it);

	if (!count || !it->key || !out_map_has_stack_key(m))
		return;
	size_t start = out->len;
	if (stack_maps(w->oc->plan) > 1)
		sb_printf(out, "@%s", m->name);
	for (uint32_t i = 0; i < k->nfields; i++) {
		if (k->fields[i].type->kind == TY_STACK)
			continue;
		frame_sep(out, start);
		key_frame(w->oc, out, k->fields[i].type, it->key + k->fields[i].offset);
	}
	/* user stacks below kernel stacks: the program called into the kernel */
	for (int user = 1; user >= 0; user--) {
		for (uint32_t i = 0; i < k->nfields; i++) {
			const struct type *ft = k->fields[i].type;
			if (ft->kind != TY_STACK || ft->user != user)
				continue;
			size_t before = out->len;
			frame_sep(out, start);
			if (!out_stack_folded(w->oc, out, ft, it->key + k->fields[i].offset, true))
				sb_truncate(out, before); /* no frames: no separator either */
		}
	}
	if (out->len == start)
		sb_puts(out, "[unknown]");
	sb_printf(out, " %llu\n", (unsigned long long)count);
}

static void folded_attached(struct strbuf *out, const struct out_ctx *oc, int nprobes)
{
}

static void folded_map_begin(struct map_walk *w)
{
}

static void folded_map_end(struct map_walk *w)
{
}

const struct writer out_folded_writer = {
	.attached = folded_attached,
	.text = out_text_text,
	.lost = out_text_lost,
	.value = out_text_value,
	.map_begin = folded_map_begin,
	.map_entry = folded_map_entry,
	.map_end = folded_map_end,
};

/* The folded lines in text, split into stacks (frames in place, in text). */
static size_t parse_folded(char *text, struct fg_stack **out, const char ***frames_out)
{
	size_t n = 0, cap = 0, nf = 0, fcap = 0;
	struct fg_stack *v = NULL;
	const char **frames = NULL;
	size_t *first = NULL;

	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		char *sp = strrchr(line, ' ');
		if (!sp || sp == line)
			continue;
		*sp = 0;
		uint64_t count = strtoull(sp + 1, NULL, 10);
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = util_xrealloc(v, cap * sizeof(*v));
			first = util_xrealloc(first, cap * sizeof(*first));
		}
		first[n] = nf;
		v[n] = (struct fg_stack){ .count = count };
		for (char *f = line, *semi; f; f = semi) {
			semi = strchr(f, ';');
			if (semi)
				*semi++ = 0;
			if (nf == fcap) {
				fcap = fcap ? 2 * fcap : 256;
				frames = util_xrealloc(frames, fcap * sizeof(*frames));
			}
			frames[nf++] = f;
			v[n].nframes++;
		}
		n++;
	}
	/* frames moved while growing: point the stacks at them now */
	for (size_t i = 0; i < n; i++)
		v[i].frames = frames + first[i];
	free(first);
	*out = v;
	*frames_out = frames;
	return n;
}

int out_flamegraph_write(const struct out_ctx *oc, const char *path, const char *title)
{
	struct out_ctx foc = *oc;
	struct strbuf folded = { 0 }, svg = { 0 };
	struct fg_stack *stacks = NULL;
	const char **frames = NULL;
	int rc = -1;

	if (!out_plan_has_stack_map(oc->plan)) {
		fprintf(stderr, "lantern: --flamegraph: no map is keyed by kstack or ustack "
				"(e.g. @[kstack, comm] = count()); %s not written\n", path);
		return -1;
	}
	foc.writer = &out_folded_writer;
	out_maps_print_all(&foc, &folded);
	size_t n = parse_folded(folded.s ? folded.s : (char *)"", &stacks, &frames);
	if (!out_flamegraph_svg(&svg, stacks, n, title)) {
		fprintf(stderr, "lantern: --flamegraph: no stacks were recorded; %s not written\n", path);
		goto out;
	}
	FILE *f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "lantern: cannot write %s: %s\n", path, strerror(errno));
		goto out;
	}
	fwrite(svg.s, 1, svg.len, f);
	if (!util_out_close(f, path))
		goto out;
	rc = 0;
out:
	free(stacks);
	free(frames);
	sb_free(&folded);
	sb_free(&svg);
	return rc;
}

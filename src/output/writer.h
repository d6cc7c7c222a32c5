/* SPDX-License-Identifier: MIT */
/*
 * Output writers: every piece of the output stream goes through the
 * writer of the output format chosen with -f. The runtime says what happened (probes
 * attached, a printf record, events lost, a map to print); the writer says
 * how it looks.
 *
 * Also folded.c (-f folded: stacks for flame graphs) and prometheus.c
 * (-f prometheus, --metrics).
 *
 *   event            text (text.c)                 json (json.c)
 *   probes attached  Attaching 2 probes...         {"type": "attached_probes", ...}
 *   printf, time()   the text as it is             {"type": "printf", "data": "..."}
 *   events lost      Lost 5 events                 {"type": "lost_events", ...}
 *   print(value)     the value                     {"type": "value", "data": ...}
 *   a map            @m[k]: v lines                {"type": "map", "data": {...}}
 *
 * Maps come from the map walker (mapprint.h), which reads, sorts, cuts
 * (top) and divides (div) the entries once for both writers. The rules of
 * each format are in FORMAT.md.
 */
#ifndef LANTERN_OUTPUT_WRITER_H
#define LANTERN_OUTPUT_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "plan/options.h"

struct map_walk;
struct map_item;
struct out_ctx;
struct type;

enum text_kind {
	TEXT_PRINTF, /* printf() */
	TEXT_TIME,   /* time() */
	TEXT_JOIN,   /* join(): the text without its newline */
	TEXT_SYSTEM, /* system(): the command's output */
	TEXT_CAT,    /* cat(): the file's bytes */
};

struct writer {
	/* "Attaching N probes..." (not called with -q) */
	void (*attached)(struct strbuf *out, const struct out_ctx *oc, int nprobes);
	/* the output of printf() or time(): n bytes, NULs included */
	void (*text)(struct strbuf *out, enum text_kind kind, const char *p, size_t n);
	/* n events the ring buffer could not take since the last report */
	void (*lost)(struct strbuf *out, const struct out_ctx *oc, uint64_t n);
	/* print(value): a value of type t at data */
	void (*value)(struct strbuf *out, const struct out_ctx *oc, const struct type *t,
		      const void *data);
	/* -k: helper failed with ret at line:col of file (NULL: a warning on stderr) */
	void (*helper_error)(struct strbuf *out, const struct out_ctx *oc, const char *helper,
			     int64_t ret, const char *file, uint32_t line, uint32_t col);
	/* a map: begin, every entry in order, end (w->n entries, maybe 0) */
	void (*map_begin)(struct map_walk *w);
	void (*map_entry)(struct map_walk *w, const struct map_item *it);
	void (*map_end)(struct map_walk *w);
};

extern const struct writer out_text_writer, out_json_writer, out_folded_writer, out_prometheus_writer;

/* The text writer's pieces, for writers that print these as text does. */
void out_text_text(struct strbuf *out, enum text_kind kind, const char *p, size_t n);
void out_text_lost(struct strbuf *out, const struct out_ctx *oc, uint64_t n);
void out_text_value(struct strbuf *out, const struct out_ctx *oc, const struct type *t,
		const void *data);

/* The writer of an output format (-f). */
const struct writer *out_writer_for(enum output_format f);

#endif

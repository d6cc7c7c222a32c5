// SPDX-License-Identifier: MIT
#include "types/tpformat.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/vec.h"
#include "sys/tracefs.h"
#include "types/tp_decl.h"

static void free_field(struct tp_field *f)
{
	free(f->name);
	free(f->decl);
	free(f->ctype);
	free(f->base);
}

void types_tp_format_free(struct tp_format *f)
{
	for (uint32_t i = 0; i < f->nfields; i++)
		free_field(&f->fields[i]);
	free(f->fields);
	free(f->category);
	free(f->event);
	memset(f, 0, sizeof(*f));
}

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s;
}

static bool starts(const char *s, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - s) >= n && !strncmp(s, prefix, n);
}

/* A decimal number in [s, end) that fits in 32 bits. */
static bool read_u32(const char *s, const char *end, uint32_t *out)
{
	uint64_t v = 0;

	s = skip_ws(s, end);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	if (s == end)
		return false;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10 + (*s - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

/*
 * "offset:8;\tsize:4;\tsigned:1;" after the declaration. offset and size
 * must be there; signed is absent on very old kernels.
 */
static bool read_attrs(const char *s, const char *end, struct tp_field *f)
{
	bool have_off = false, have_size = false;

	while ((s = skip_ws(s, end)) < end) {
		const char *colon = memchr(s, ':', end - s), *semi;
		uint32_t v;

		if (!colon)
			return false;
		semi = memchr(colon, ';', end - colon);
		if (!semi)
			semi = end;
		if (!read_u32(colon + 1, semi, &v))
			return false;
		if (starts(s, colon, "offset") && colon - s == 6) {
			f->offset = v;
			have_off = true;
		} else if (starts(s, colon, "size") && colon - s == 4) {
			f->size = v;
			have_size = true;
		} else if (starts(s, colon, "signed") && colon - s == 6) {
			f->is_signed = v != 0;
		}
		s = semi < end ? semi + 1 : end;
	}
	return have_off && have_size;
}

static int parse_field(const char *s, const char *end, struct tp_field *f)
{
	const char *semi = memchr(s, ';', end - s);

	if (!semi || !read_attrs(semi + 1, end, f))
		return -1;
	return types_tp_decl_parse(s, semi - s, f);
}

int types_tp_format_parse(const char *text, struct tp_format *out, char *err, size_t errlen)
{
	VEC(struct tp_field) fields = {0};
	unsigned lineno = 0;
	bool have_format = false;

	memset(out, 0, sizeof(*out));
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		const char *s = skip_ws(line, end);

		lineno++;
		if (starts(s, end, "field:") || starts(s, end, "field special:")) {
			struct tp_field f = {0};
			s = strchr(s, ':') + 1;
			if (parse_field(s, end, &f)) {
				free_field(&f);
				snprintf(err, errlen, "format line %u: cannot read field '%.*s'",
					 lineno, (int)(end - s), s);
				goto fail;
			}
			vec_push(&fields, f);
		} else if (starts(s, end, "name:") && !out->event) {
			s = skip_ws(s + 5, end);
			while (end > s && isspace((unsigned char)end[-1]))
				end--;
			out->event = util_xstrndup(s, end - s);
		} else if (starts(s, end, "ID:")) {
			if (!read_u32(s + 3, end, &out->id)) {
				snprintf(err, errlen, "format line %u: bad ID", lineno);
				goto fail;
			}
		} else if (starts(s, end, "format:")) {
			have_format = true;
		} else if (starts(s, end, "print fmt:")) {
			break;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!fields.len) {
		snprintf(err, errlen, "%s",
			 have_format ? "format file lists no fields"
				     : "not a tracepoint format file");
		goto fail;
	}
	out->fields = fields.data;
	out->nfields = (uint32_t)fields.len;
	return 0;

fail:
	vec_foreach(&fields, f) free_field(f);
	vec_free(&fields);
	types_tp_format_free(out);
	return -EINVAL;
}

void types_tp_format_set_category(struct tp_format *f, const char *cat)
{
	bool syscall = !strcmp(cat, "syscalls");

	free(f->category);
	f->category = util_xstrdup(cat);
	for (uint32_t i = 0; i < f->nfields; i++)
		if (syscall && f->fields[i].is_pointer)
			f->fields[i].is_user = true;
}

int types_tp_format_load(const char *cat, const char *ev, struct tp_format *out, char *err, size_t errlen)
{
	char *rel, *text;
	int r;

	memset(out, 0, sizeof(*out));
	if (!sys_tracefs_path(err, errlen))
		return -ENOENT;
	if (!sys_tracefs_event_exists(cat, ev)) {
		snprintf(err, errlen, "tracepoint %s:%s not found", cat, ev);
		return -ENOENT;
	}
	rel = util_xasprintf("events/%s/%s/format", cat, ev);
	text = sys_tracefs_read(rel, NULL);
	if (!text) {
		r = -errno;
		snprintf(err, errlen, "cannot read %s: %s", rel, strerror(errno));
		free(rel);
		return r;
	}
	r = types_tp_format_parse(text, out, err, errlen);
	free(text);
	if (r && errlen) {
		char *why = util_xstrdup(err);
		snprintf(err, errlen, "%s: %s", rel, why);
		free(why);
	}
	free(rel);
	if (r)
		return r;
	free(out->event);
	out->event = util_xstrdup(ev);
	types_tp_format_set_category(out, cat);
	return 0;
}

const struct tp_field *types_tp_format_field(const struct tp_format *f, const char *name)
{
	for (uint32_t i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

void types_tp_field_describe(const struct tp_field *fld, struct strbuf *sb)
{
	sb_printf(sb, "    %s\n", fld->decl);
}

void types_tp_format_describe(const struct tp_format *f, struct strbuf *sb)
{
	sb_printf(sb, "tracepoint:%s:%s\n", f->category ? f->category : "?",
		  f->event ? f->event : "?");
	for (uint32_t i = 0; i < f->nfields; i++)
		if (!f->fields[i].is_common)
			types_tp_field_describe(&f->fields[i], sb);
}

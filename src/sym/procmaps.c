// SPDX-License-Identifier: MIT
/* The files a process maps with execute permission, from /proc/PID/maps. */
#include "sym/procmaps.h"
#include "base/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether process pid sees other mounts than lantern (another mount namespace) */
static bool other_mntns(pid_t pid)
{
	struct stat self, other;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	return stat("/proc/self/ns/mnt", &self) == 0 && stat(path, &other) == 0 &&
	       (self.st_ino != other.st_ino || self.st_dev != other.st_dev);
}

bool sym_proc_path(pid_t pid, const char *file, char *out)
{
	if (pid > 0 && file[0] == '/' && other_mntns(pid)) {
		snprintf(out, PATH_MAX, "/proc/%d/root%s", (int)pid, file);
		return true;
	}
	snprintf(out, PATH_MAX, "%s", file);
	return false;
}

char **sym_proc_files(pid_t pid)
{
	char path[64], line[PATH_MAX + 256], perms[8], mapped[PATH_MAX], file[PATH_MAX + 32];
	char **files = util_xmalloc(sizeof(*files));
	bool other = other_mntns(pid);
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re"))) {
		free(files);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		struct stat st;
		bool seen = false;
		if (sscanf(line, "%*x-%*x %7s %*x %*s %*s %4095[^\n]", perms, mapped) != 2 ||
		    perms[2] != 'x' || mapped[0] != '/')
			continue;
		if (other)
			snprintf(file, sizeof(file), "/proc/%d/root%s", (int)pid, mapped);
		else
			snprintf(file, sizeof(file), "%s", mapped);
		if (stat(file, &st) < 0 || !S_ISREG(st.st_mode))
			continue; /* not a file, or " (deleted)" */
		for (size_t i = 0; i < n && !seen; i++)
			seen = !strcmp(files[i], file);
		if (seen)
			continue;
		files = util_xrealloc(files, (n + 2) * sizeof(*files));
		files[n++] = util_xstrdup(file);
	}
	fclose(f);
	files[n] = NULL;
	return files;
}

void sym_proc_files_free(char **files)
{
	for (char **f = files; f && *f; f++)
		free(*f);
	free(files);
}

void sym_maps_parse(char *text, struct sym_maps *out)
{
	size_t cap = 0;

	out->v = NULL;
	out->n = 0;
	out->text = text;
	out->len = text ? strlen(text) : 0;
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		unsigned long long lo, hi, off, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &lo, &hi, perms, &off, &maj, &min,
			   &ino, &pos) < 7)
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			out->v = util_xrealloc(out->v, cap * sizeof(*out->v));
		}
		out->v[out->n++] = (struct sym_mapping){
			lo, hi, off, ((uint64_t)maj << 32) | min, ino, perms[2] == 'x', line + pos,
		};
	}
}

bool sym_maps_read(pid_t pid, struct sym_maps *out)
{
	char path[64];
	size_t len = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	char *text = util_read_file(path, &len);
	if (!text || !len) { /* gone, or a zombie without memory */
		free(text);
		memset(out, 0, sizeof(*out));
		return false;
	}
	sym_maps_parse(text, out);
	return true;
}

void sym_maps_copy(const struct sym_maps *m, struct sym_maps *out)
{
	char *text = util_xmalloc(m->len + 1);

	memcpy(text, m->text, m->len + 1);
	*out = *m;
	out->text = text;
	out->v = util_xmalloc((m->n + 1) * sizeof(*m->v));
	for (size_t i = 0; i < m->n; i++) {
		out->v[i] = m->v[i];
		out->v[i].path = text + (m->v[i].path - m->text);
	}
}

void sym_maps_keep_exec(struct sym_maps *m)
{
	size_t n = 0, len = 0, at = 0;

	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].exec)
			len += strlen(m->v[i].path) + 1;
	char *text = util_xmalloc(len + 1);
	struct sym_mapping *v = util_xmalloc((m->n + 1) * sizeof(*v));
	for (size_t i = 0; i < m->n; i++) {
		if (!m->v[i].exec)
			continue;
		size_t l = strlen(m->v[i].path) + 1;
		memcpy(text + at, m->v[i].path, l);
		v[n] = m->v[i];
		v[n++].path = text + at;
		at += l;
	}
	text[at] = 0;
	free(m->v);
	free(m->text);
	m->v = util_xrealloc(v, (n + 1) * sizeof(*v));
	m->n = n;
	m->text = text;
	m->len = at;
}

void sym_maps_free(struct sym_maps *m)
{
	free(m->v);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

const struct sym_mapping *sym_maps_find(const struct sym_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && m->v[lo].lo <= addr ? &m->v[lo] : NULL;
}

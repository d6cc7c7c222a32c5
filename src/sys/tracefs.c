// SPDX-License-Identifier: MIT
#include "sys/tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/util.h"
#include "base/vec.h"

#define TRACEFS_DIR	"/sys/kernel/tracing"
#define DEBUGFS_DIR	"/sys/kernel/debug"
#define DEBUGFS_TRACING DEBUGFS_DIR "/tracing"

static char root[PATH_MAX];	/* "" until found */
static struct tp_events events; /* available_events, once read */
static bool events_loaded;

/* 0 when DIR/events is a directory, else a negative errno. */
static int has_events(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static bool kernel_has_fs(const char *fs)
{
	char *text = util_read_file("/proc/filesystems", NULL);
	bool found = false;

	if (!text)
		return true; /* cannot tell: do not claim it is missing */
	for (char *line = strtok(text, "\n"); line && !found; line = strtok(NULL, "\n")) {
		char *name = strrchr(line, '\t');
		found = !strcmp(name ? name + 1 : line, fs);
	}
	free(text);
	return found;
}

/*
 * Mount fs on dir unless it is there already (a second mount on top would
 * change nothing but clutter the mount table). Mounts stay after lantern
 * exits, as with perf and bpftrace.
 */
static int try_mount(const char *fs, long magic, const char *dir)
{
	struct statfs sf;

	if (!statfs(dir, &sf) && sf.f_type == magic)
		return 0;
	if (mount("nodev", dir, fs, MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return -errno;
	return 0;
}

static void set_root(const char *dir)
{
	snprintf(root, sizeof(root), "%s", dir);
}

/* Why neither place worked, from the errors met on the way. */
static void explain(int e_trace, int e_debug, char *err, size_t errlen)
{
	int e = e_trace == -EPERM || e_trace == -EACCES ? e_trace : e_debug;

	if (e == -EPERM && geteuid() == 0)
		/* root without CAP_SYS_ADMIN (a container): someone else must mount it */
		snprintf(err, errlen,
			 "cannot use tracefs: not mounted, and mounting it is not permitted here "
			 "(%s); mount it first: mount -t tracefs nodev " TRACEFS_DIR,
			 strerror(-e));
	else if (e == -EPERM || e == -EACCES)
		snprintf(err, errlen,
			 "cannot use tracefs: %s (%s). lantern needs root: run it with sudo",
			 e == -EACCES ? "permission denied reading " TRACEFS_DIR "/events"
				      : "not mounted, and mounting it is not permitted",
			 strerror(-e));
	else if (!kernel_has_fs("tracefs") && !kernel_has_fs("debugfs"))
		snprintf(err, errlen,
			 "this kernel has no tracefs (built without CONFIG_FTRACE/CONFIG_TRACING): "
			 "tracepoints are unavailable");
	else
		snprintf(err, errlen,
			 "cannot find tracefs: no events/ in " TRACEFS_DIR
			 " (%s) or " DEBUGFS_TRACING
			 " (%s); try: mount -t tracefs nodev " TRACEFS_DIR,
			 strerror(-e_trace), strerror(-e_debug));
}

const char *sys_tracefs_path(char *err, size_t errlen)
{
	int e_trace, e_debug;

	if (root[0])
		return root;

	/* 1. Where it usually is. */
	e_trace = has_events(TRACEFS_DIR);
	if (!e_trace)
		goto found_tracefs;

	/* 2. Not mounted (a fresh machine, a container): mount it. */
	if (e_trace == -ENOENT) {
		e_trace = try_mount("tracefs", TRACEFS_MAGIC, TRACEFS_DIR);
		if (!e_trace) {
			e_trace = has_events(TRACEFS_DIR);
			if (!e_trace)
				goto found_tracefs;
		}
	}

	/* 3. Old kernels: tracefs under debugfs, which may need mounting. */
	e_debug = has_events(DEBUGFS_TRACING);
	if (e_debug == -ENOENT) {
		e_debug = try_mount("debugfs", DEBUGFS_MAGIC, DEBUGFS_DIR);
		if (!e_debug)
			e_debug = has_events(DEBUGFS_TRACING);
	}
	if (!e_debug) {
		set_root(DEBUGFS_TRACING);
		return root;
	}
	explain(e_trace, e_debug, err, errlen);
	return NULL;

found_tracefs:
	set_root(TRACEFS_DIR);
	return root;
}

void sys_debugfs_mount(void)
{
	(void)try_mount("debugfs", DEBUGFS_MAGIC, DEBUGFS_DIR);
}

void sys_tracefs_set_path(const char *path)
{
	sys_tracefs_release();
	root[0] = 0;
	if (path)
		set_root(path);
}

/* A category or event name that is safe to put in a path. */
static bool valid_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

static bool hidden_category(const char *cat)
{
	return !strcmp(cat, "ftrace");
}

/* ROOT/events/CAT[/EV[/FILE]] into buf; false when a name is unusable. */
static bool event_path(char *buf, size_t len, const char *cat, const char *ev, const char *file)
{
	const char *r = sys_tracefs_path(NULL, 0);
	int n;

	if (!r || !valid_name(cat) || (ev && !valid_name(ev)) || hidden_category(cat))
		return false;
	n = snprintf(buf, len, "%s/events/%s%s%s%s%s", r, cat, ev ? "/" : "", ev ? ev : "",
		     file ? "/" : "", file ? file : "");
	return n > 0 && (size_t)n < len;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

bool sys_tracefs_category_exists(const char *cat)
{
	char path[PATH_MAX];

	return event_path(path, sizeof(path), cat, NULL, NULL) && is_dir(path);
}

bool sys_tracefs_event_exists(const char *cat, const char *ev)
{
	char path[PATH_MAX];

	return event_path(path, sizeof(path), cat, ev, NULL) && is_dir(path);
}

int sys_tracefs_event_id(const char *cat, const char *ev)
{
	char path[PATH_MAX], *text, *end;
	long id;

	if (!event_path(path, sizeof(path), cat, ev, "id"))
		return -ENOENT;
	text = util_read_file(path, NULL);
	if (!text)
		return errno ? -errno : -EIO;
	id = strtol(text, &end, 10);
	if (end == text || id < 0 || id > INT_MAX || (*end && *end != '\n'))
		id = -EINVAL;
	free(text);
	return (int)id;
}

char *sys_tracefs_read(const char *rel, size_t *len)
{
	const char *r = sys_tracefs_path(NULL, 0);
	char path[PATH_MAX];

	if (!r) {
		errno = ENOENT;
		return NULL;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", r, rel) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return util_read_file(path, len);
}

const struct tp_events *sys_tracefs_events(char *err, size_t errlen)
{
	char *text;

	if (events_loaded)
		return &events;
	if (!sys_tracefs_path(err, errlen))
		return NULL;
	text = sys_tracefs_read("available_events", NULL);
	if (!text) {
		snprintf(err, errlen, "cannot read %s/available_events: %s", root, strerror(errno));
		return NULL;
	}
	sys_tp_events_parse(&events, text);
	free(text);
	events_loaded = true;
	return &events;
}

void sys_tracefs_release(void)
{
	if (events_loaded)
		sys_tp_events_free(&events);
	events_loaded = false;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Events of one category whose names match ev_pat: one readdir. */
static int match_in_category(const char *cat, const char *ev_pat, tp_event_fn fn, void *arg,
			     char *err, size_t errlen)
{
	char path[PATH_MAX];
	VEC(char *) names = {0};
	struct dirent *d;
	DIR *dir;
	bool stop = false;
	int n = 0;

	if (!event_path(path, sizeof(path), cat, NULL, NULL))
		return 0;
	dir = opendir(path);
	if (!dir) {
		int e = errno;
		if (e == ENOENT || e == ENOTDIR)
			return 0;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		return -e;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !util_wildcard_match(ev_pat, d->d_name))
			continue;
		if (d->d_type == DT_UNKNOWN) {
			char sub[PATH_MAX + 256];
			snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
			if (!is_dir(sub))
				continue;
		} else if (d->d_type != DT_DIR) {
			continue; /* enable, filter */
		}
		vec_push(&names, util_xstrdup(d->d_name));
	}
	closedir(dir);

	if (names.len)
		qsort(names.data, names.len, sizeof(*names.data), cmp_cstr);
	for (size_t i = 0; i < names.len; i++) {
		int r = stop || !fn ? 0 : fn(cat, names.data[i], arg);
		if (r) {
			n = r;
			stop = true;
		} else if (!stop) {
			n++;
		}
		free(names.data[i]);
	}
	vec_free(&names);
	return n;
}

int sys_tracefs_events_match(const char *cat_pat, const char *ev_pat, tp_event_fn fn, void *arg,
			 char *err, size_t errlen)
{
	const struct tp_events *all;

	if (!sys_tracefs_path(err, errlen))
		return -ENOENT;
	if (!util_has_wildcard(cat_pat)) {
		if (util_has_wildcard(ev_pat))
			return match_in_category(cat_pat, ev_pat, fn, arg, err, errlen);
		if (!sys_tracefs_event_exists(cat_pat, ev_pat))
			return 0;
		return fn ? (fn(cat_pat, ev_pat, arg) ?: 1) : 1;
	}
	all = sys_tracefs_events(err, errlen);
	if (!all)
		return -EIO;
	return sys_tp_events_match(all, cat_pat, ev_pat, fn, arg);
}

int sys_tracefs_suggest(const char *cat, const char *ev, struct tp_suggestions *out, char *err,
		    size_t errlen)
{
	const struct tp_events *all = sys_tracefs_events(err, errlen);

	memset(out, 0, sizeof(*out));
	if (!all)
		return -EIO;
	sys_tp_events_suggest(all, cat, ev, out);
	return 0;
}

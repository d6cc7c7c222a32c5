// SPDX-License-Identifier: MIT
/* Values printed from what a program hands over raw: see value_text.h. */
#include "output/value_text.h"
#include "output/escape.h"
#include "sys/syscalls.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fnmatch.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

bool out_value_text_kind(const struct type *t)
{
	switch (t->kind) {
	case TY_BUF:
	case TY_INET:
	case TY_MACADDR:
	case TY_STRERROR:
	case TY_CGPATH:
	case TY_USERNAME:
		return true;
	default:
		return false;
	}
}

static uint64_t get_u64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/*
 * strerror(n), signal_name(n), syscall_name(n): a signal 0 to 64 as
 * strsignal(3) says it, beyond "N/A"; a system call's name, or "Unknown
 * syscall" (today's bpftrace's tables)
 */
static void num_name(struct strbuf *out, uint32_t table, int64_t v)
{
	const char *name;

	switch (table) {
	case NAME_SIGNAL:
		sb_puts(out, (int32_t)v >= 0 && (int32_t)v <= 64 ? strsignal((int32_t)v) : "N/A");
		break;
	case NAME_SYSCALL:
		name = (int32_t)v >= 0 ? sys_syscall_name((int32_t)v) : NULL;
		sb_puts(out, name ? name : "Unknown syscall");
		break;
	default:
		sb_puts(out, strerror((int)v));
	}
}

static void inet_text(struct strbuf *out, const uint8_t *p)
{
	char text[INET6_ADDRSTRLEN];
	int af = (int)get_u64(p);

	if (inet_ntop(af == AF_INET6 ? AF_INET6 : AF_INET, p + 8, text, sizeof(text)))
		sb_puts(out, text);
}

/* The directory under dir (path rel) whose inode is id; rel is extended in place. */
static bool cgroup_find(const char *dir, char *rel, size_t cap, uint64_t id, int depth)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	bool found = false;

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	d = opendir(path);
	if (!d)
		return false;
	size_t len = strlen(rel);
	while (!found && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(rel + len, cap - len, "/%s", de->d_name);
		if (de->d_ino == id)
			found = true;
		else if (depth < 64)
			found = cgroup_find(dir, rel, cap, id, depth + 1);
		if (!found)
			rel[len] = 0;
	}
	closedir(d);
	return found;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The hierarchies mounted under /sys/fs/cgroup: cgroup2 first, as
 * "unified", then the v1 ones by their directory's name.
 */
static void cgroup_path_text(struct strbuf *out, uint64_t id, const char *filter)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], *names[64];
	int n = 0, first = 0;
	bool any = false;

	if (!f)
		return;
	while (n < 64 && fgets(line, sizeof(line), f)) {
		char mnt[1024], fstype[64];
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s", fstype) != 1 || strncmp(mnt, "/sys/fs/cgroup", 14))
			continue;
		if (!strcmp(fstype, "cgroup2")) {
			names[n] = names[0];
			names[0] = strdup(mnt);
			first = 1;
			n++;
		} else if (!strcmp(fstype, "cgroup")) {
			names[n++] = strdup(mnt);
		}
	}
	fclose(f);
	qsort(names + first, n - first, sizeof(*names), cmp_str);
	for (int i = 0; i < n; i++) {
		char rel[4096] = "";
		struct stat st;
		const char *base = strrchr(names[i], '/');
		base = i < first ? "unified" : base ? base + 1 : names[i];
		if (filter && fnmatch(filter, base, 0)) {
			free(names[i]);
			continue;
		}
		if (!stat(names[i], &st) && st.st_ino == id)
			strcpy(rel, "/");
		else if (!cgroup_find(names[i], rel, sizeof(rel), id, 0))
			rel[0] = 0;
		if (rel[0]) {
			sb_printf(out, "%s%s:%s", any ? "," : "", base, rel);
			any = true;
		}
		free(names[i]);
	}
}

void out_value_text(struct strbuf *out, const struct type *t, const void *data)
{
	const uint8_t *p = data;

	switch (t->kind) {
	case TY_BUF: {
		uint64_t n = get_u64(p);
		out_fmt_buf(out, p + 8, n < t->count ? n : t->count, BUF_STYLE_R);
		break;
	}
	case TY_INET:
		inet_text(out, p);
		break;
	case TY_MACADDR:
		sb_printf(out, "%02X:%02X:%02X:%02X:%02X:%02X", p[0], p[1], p[2], p[3], p[4], p[5]);
		break;
	case TY_STRERROR:
		num_name(out, t->count, (int64_t)get_u64(p));
		break;
	case TY_CGPATH:
		cgroup_path_text(out, get_u64(p), t->name);
		break;
	case TY_USERNAME: {
		uint64_t uid = get_u64(p);
		struct passwd *pw = getpwuid((uid_t)uid);
		if (pw)
			sb_puts(out, pw->pw_name);
		else
			sb_printf(out, "%llu", (unsigned long long)uid);
		break;
	}
	default:
		break;
	}
}

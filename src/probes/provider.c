// SPDX-License-Identifier: MIT
#include "probes/provider.h"
#include "base/util.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Probe types lantern knows but cannot run yet: named, so errors are clear. */
#define PENDING(var, pid, n, a) static const struct provider var = { .id = pid, .name = n, .alias = a }
PENDING(prov_kfunc, PROV_KFUNC, "kfunc", "f");
PENDING(prov_kretfunc, PROV_KRETFUNC, "kretfunc", "fr");
PENDING(prov_watchpoint, PROV_WATCHPOINT, "watchpoint", "w");

const struct provider *const providers[PROV_COUNT_] = {
	[PROV_BEGIN] = &prov_begin,
	[PROV_END] = &prov_end,
	[PROV_TRACEPOINT] = &prov_tracepoint,
	[PROV_INTERVAL] = &prov_interval,
	[PROV_RAWTRACEPOINT] = &prov_rawtracepoint,
	[PROV_KPROBE] = &prov_kprobe,
	[PROV_KRETPROBE] = &prov_kretprobe,
	[PROV_UPROBE] = &prov_uprobe,
	[PROV_URETPROBE] = &prov_uretprobe,
	[PROV_USDT] = &prov_usdt,
	[PROV_PROFILE] = &prov_profile,
	[PROV_SOFTWARE] = &prov_software,
	[PROV_HARDWARE] = &prov_hardware,
	[PROV_KFUNC] = &prov_kfunc,
	[PROV_KRETFUNC] = &prov_kretfunc,
	[PROV_WATCHPOINT] = &prov_watchpoint,
};

const struct provider *provider_lookup(const char *name)
{
	for (int i = 0; i < PROV_COUNT_; i++) {
		const struct provider *p = providers[i];
		if (!strcmp(name, p->name) || (p->alias && !strcmp(name, p->alias)))
			return p;
	}
	/* bpftrace's other spellings */
	if (!strcmp(name, "fentry"))
		return &prov_kfunc;
	if (!strcmp(name, "fexit"))
		return &prov_kretfunc;
	return NULL;
}

struct probe_inst *inst_add(struct session *s, struct probe *p, struct attach_point *ap,
			    const struct provider *prov, const char *name)
{
	struct probe_inst *in = ARENA_NEW(&s->arena, struct probe_inst);

	in->probe = p;
	in->ap = ap;
	in->prov = prov;
	in->name = arena_strdup(&s->arena, name);
	in->prog = -1;
	/* the same name twice (two probes on one tracepoint) shares an id */
	in->probe_id = s->probe_names.len;
	for (size_t i = 0; i < s->probe_names.len; i++)
		if (!strcmp(s->probe_names.data[i], in->name)) {
			in->probe_id = i;
			break;
		}
	if (in->probe_id == s->probe_names.len)
		vec_push(&s->probe_names, in->name);
	vec_push(&s->insts, in);
	return in;
}

int perf_event_open_fd(void *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, flags);
}

int attach_perf_event_on(struct session *s, struct prog_desc *pd, struct probe_inst *in,
			 struct perf_event_attr *attr, pid_t pid, int cpu, const char *what, char *err,
			 size_t errlen)
{
	int pfd = perf_event_open_fd(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	struct attachment a = { .link_fd = -1, .perf_fd = pfd, .inst = in };

	if (pfd < 0) {
		if (pid > 0)
			snprintf(err, errlen, "cannot open %s %s for process %d: %s", what, in->name,
				 (int)pid, strerror(errno));
		else
			snprintf(err, errlen, "cannot open %s %s on CPU %d: %s", what, in->name, cpu,
				 strerror(errno));
		return -1;
	}

	a.link_fd = bpf_link_create(pd->fd, pfd, BPF_PERF_EVENT, NULL);
	if (a.link_fd < 0) {
		/* kernels before 5.15: the ioctl */
		if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, pd->fd) < 0 ||
		    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			snprintf(err, errlen, "cannot attach the program to %s: %s", in->name,
				 strerror(errno));
			close(pfd);
			return -1;
		}
		a.link_fd = -1;
	}
	vec_push(&s->attachments, a);
	return 0;
}

int attach_perf_event(struct session *s, struct prog_desc *pd, struct probe_inst *in,
		      struct perf_event_attr *attr, const char *what, char *err, size_t errlen)
{
	return attach_perf_event_on(s, pd, in, attr, -1, 0, what, err, errlen);
}

int online_cpus(int *cpus, int max)
{
	char *text = read_file("/sys/devices/system/cpu/online", NULL);
	int n = 0;

	if (!text) {
		long k = sysconf(_SC_NPROCESSORS_ONLN);
		for (long i = 0; i < k && n < max; i++)
			cpus[n++] = (int)i;
		return n;
	}
	/* "0-3,5,7-8" */
	for (char *p = text; *p && *p != '\n';) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && n < max; c++)
			cpus[n++] = (int)c;
		p = end + (*end == ',');
	}
	free(text);
	return n;
}

int attach_perf_event_cpus(struct session *s, struct prog_desc *pd, struct probe_inst *in,
			   struct perf_event_attr *attr, const char *what, char *err,
			   size_t errlen)
{
	int cpus[1024], n = online_cpus(cpus, ARRAY_SIZE(cpus)), done = 0;

	for (int i = 0; i < n; i++) {
		if (attach_perf_event_on(s, pd, in, attr, -1, cpus[i], what, err, errlen) == 0)
			done++;
		else if (errno != ENODEV) /* ENODEV: it went offline since */
			return -1;
	}
	if (!done) {
		snprintf(err, errlen, "cannot open %s %s: no CPU is online", what, in->name);
		return -1;
	}
	return 0;
}

static int read_int_after(const char *path, const char *prefix)
{
	char *text = read_file(path, NULL);
	int v = -1;

	if (text && !strncmp(text, prefix, strlen(prefix)))
		v = atoi(text + strlen(prefix));
	free(text);
	return v;
}

int probe_pmu(const char *dir, int *retbit)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/format/retprobe", dir);
	*retbit = read_int_after(path, "config:");
	snprintf(path, sizeof(path), "%s/type", dir);
	return read_int_after(path, "");
}

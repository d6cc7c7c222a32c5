// SPDX-License-Identifier: MIT
#include "sys/perf.h"
#include "base/util.h"

#include <bpf/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int sys_perf_event_open_fd(void *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, flags);
}

int sys_perf_attach_prog(int pfd, int prog_fd, int *link_fd)
{
	*link_fd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, NULL);
	if (*link_fd >= 0)
		return 0;
	/* kernels before 5.15: the ioctl */
	*link_fd = -1;
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 ||
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return -1;
	return 0;
}

int sys_online_cpus(int *cpus, int max)
{
	char *text = util_read_file("/sys/devices/system/cpu/online", NULL);
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

static int read_int_after(const char *path, const char *prefix)
{
	char *text = util_read_file(path, NULL);
	int v = -1;

	if (text && !strncmp(text, prefix, strlen(prefix)))
		v = atoi(text + strlen(prefix));
	free(text);
	return v;
}

int sys_probe_pmu(const char *dir, int *retbit)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/format/retprobe", dir);
	*retbit = read_int_after(path, "config:");
	snprintf(path, sizeof(path), "%s/type", dir);
	return read_int_after(path, "");
}

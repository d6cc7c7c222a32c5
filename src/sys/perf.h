/* SPDX-License-Identifier: MIT */
/*
 * perf_event_open(2) and what goes with it: the online CPUs, the probe
 * PMUs (kprobe, uprobe) and attaching a loaded BPF program to a perf
 * event.
 */
#ifndef LANTERN_SYS_PERF_H
#define LANTERN_SYS_PERF_H

#include <stdbool.h>
#include <sys/types.h>

/* perf_event_open(2): an fd, or -1 with errno. */
int sys_perf_event_open_fd(void *attr, pid_t pid, int cpu, int group, unsigned long flags);
/*
 * Run prog_fd on every occurrence of perf event pfd: a BPF link (its fd in
 * *link_fd), or on kernels before 5.15 the ioctl (*link_fd = -1). 0, or -1
 * with errno.
 */
int sys_perf_attach_prog(int pfd, int prog_fd, int *link_fd);
/*
 * The perf type of a kprobe or uprobe PMU (dir: its directory in
 * /sys/bus/event_source/devices), or -1 when the kernel has none;
 * *retbit: the config bit that makes a return probe (-1: none).
 */
int sys_probe_pmu(const char *dir, int *retbit);
/* The online CPUs' numbers, at most max of them; how many. */
int sys_online_cpus(int *cpus, int max);

#endif

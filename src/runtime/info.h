/* SPDX-License-Identifier: MIT */
/* --info: what the kernel and lantern support, as bpftrace's sections. */
#ifndef LANTERN_RUNTIME_INFO_H
#define LANTERN_RUNTIME_INFO_H

#include <stdio.h>

/* Probe the kernel and print the sections to f; 0. */
int rt_info_print(FILE *f, const char *version);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The files a process maps: where a process's probes are (usdt with no
 * FILE or a wildcard FILE under -p, `lantern -l -p PID`).
 */
#ifndef LANTERN_SYM_PROCMAPS_H
#define LANTERN_SYM_PROCMAPS_H

#include <sys/types.h>

/*
 * The distinct regular files process pid maps with execute permission,
 * in address order (its program first), as absolute paths; NULL-ended,
 * free with sym_proc_files_free(). NULL when the process cannot be read.
 */
char **sym_proc_files(pid_t pid);
void sym_proc_files_free(char **files);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The files a process maps: where a process's probes are (usdt with no
 * FILE or a wildcard FILE under -p, `lantern -l -p PID`), and its
 * mappings by address, for naming and unwinding its user stacks.
 */
#ifndef LANTERN_SYM_PROCMAPS_H
#define LANTERN_SYM_PROCMAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The distinct regular files process pid maps with execute permission,
 * in address order (its program first), as absolute paths (through
 * /proc/PID/root when it is in another mount namespace, as bpftrace lists
 * them); NULL-ended, free with sym_proc_files_free(). NULL when the
 * process cannot be read.
 */
char **sym_proc_files(pid_t pid);
/*
 * The path of file (absolute, as process pid sees it) from lantern's
 * mount namespace: file itself, or /proc/PID/root/file when the process
 * is in another one (then true); out has PATH_MAX bytes.
 */
bool sym_proc_path(pid_t pid, const char *file, char *out);
void sym_proc_files_free(char **files);

/* One line of /proc/PID/maps. */
struct sym_mapping {
	uint64_t lo, hi; /* [lo, hi) */
	uint64_t offset; /* of the file at lo */
	uint64_t dev, ino;
	bool exec;
	const char *path; /* "/usr/bin/x", "[vdso]", or "" (anonymous); in the text */
};

struct sym_maps {
	struct sym_mapping *v; /* by address */
	size_t n;
	char *text; /* the lines the paths point into (their newlines made NULs) */
	size_t len; /* of text */
};

/* Parse the text of /proc/PID/maps (taken: freed by sym_maps_free). */
void sym_maps_parse(char *text, struct sym_maps *out);
/* Read and parse /proc/pid/maps; false when the process cannot be read. */
bool sym_maps_read(pid_t pid, struct sym_maps *out);
void sym_maps_free(struct sym_maps *m);
/* A copy of m (its text copied too). */
void sym_maps_copy(const struct sym_maps *m, struct sym_maps *out);
/*
 * Keep only the executable mappings, their paths in a text of their own:
 * what naming and unwinding code addresses need, a tenth of a compiler's
 * maps (caches of hundreds of processes keep them).
 */
void sym_maps_keep_exec(struct sym_maps *m);
/* The mapping holding addr, or NULL. */
const struct sym_mapping *sym_maps_find(const struct sym_maps *m, uint64_t addr);

#endif

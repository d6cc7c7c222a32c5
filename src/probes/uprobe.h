/* SPDX-License-Identifier: MIT */
/* Inside probes/: what uprobes and USDT probes share. */
#ifndef LANTERN_PROBES_UPROBE_H
#define LANTERN_PROBES_UPROBE_H

#include "probes/probes.h"

/* A probed instruction of a file (probe_inst.data). */
struct uprobe_inst {
	const char *path;      /* the executable or library */
	const char *func;      /* uprobe: the function (or address) as `func` names it; usdt: the probe */
	const char *usdt_args; /* usdt: where its arguments are ("-4@%edi 8@-16(%rbp)") */
	uint64_t offset;       /* file offset of the probed instruction */
	uint64_t func_off;     /* uprobe:FILE:FUNC+OFFSET: OFFSET (args are known at 0 only) */
	uint64_t ref_ctr;      /* usdt: file offset of the probe's semaphore, 0 without */
};

#define UPROBE_PMU_DIR "/sys/bus/event_source/devices/uprobe"

/* The uprobe PMU's perf type, or -1; *retbit: the config bit for returns. */
int prov_uprobe_pmu(int *retbit);
/*
 * FILE of an attach point -> an absolute path of an existing file (out:
 * PATH_MAX bytes): a path, a program in $PATH or a library name; with a
 * pid, a library of that process first.
 */
bool prov_resolve_file(const char *file, char *out, pid_t pid);
/* The same; *shown: the path as -l shows it (FILE as given, or the library found) */
bool prov_resolve_file_shown(const char *file, char *out, char *shown, pid_t pid);
/*
 * The files FILE of an attach point or a list query names, as shown: one
 * file; with a wildcard, the matching files (the process's mapped files
 * when pid, else the file system's ELF files); empty or NULL, the files
 * process pid maps (only its program when exe_only). NULL-ended, free
 * with sym_proc_files_free(); NULL when FILE names nothing.
 */
char **prov_probe_files(const char *file, pid_t pid, bool exe_only);
struct elf_funcs;
/* A probe instance at file offset offset of path, named PROVIDER:PATH:FUNC */
struct uprobe_inst *prov_uprobe_add(struct plan *p, struct probe *pr, struct attach_point *ap,
				    const struct provider *prov, const char *path, const char *func,
				    uint64_t offset);
/* "did you mean ...?": the function of f whose name is closest to name */
void prov_uprobe_suggest(struct plan *p, const struct elf_funcs *f, const char *name);
/* uprobe:FILE:ADDRESS (uprobe_at.c): 0, or -1 reported */
int prov_uprobe_expand_addr(struct plan *p, const struct provider *prov, struct probe *pr,
			    struct attach_point *ap, const char *path);
/* uprobe:FILE:FUNCTION+OFFSET (fn: FUNCTION, off: OFFSET): 0, or -1 reported */
int prov_uprobe_expand_offset(struct plan *p, const struct provider *prov, struct probe *pr,
			      struct attach_point *ap, const char *path,
			      const struct elf_funcs *funcs, const char *fn, const char *off);
/* uprobe:FILE@SOURCE:LINE[:COLUMN] (uprobe_at.c): 0, or -1 reported */
int prov_uprobe_expand_line(struct plan *p, const struct provider *prov, struct probe *pr,
			    struct attach_point *ap);
void prov_uprobe_prog_setup(struct plan *p, struct prog *pg);
/* An instance's site (PROV_F_LIFO): its file and offset, entry or return */
uint64_t prov_uprobe_site(const struct probe_inst *in);
int prov_uprobe_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		  const struct probe_inst *in, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * User stacks from a snapshot: the registers and a copy of the top of the
 * stack (what a BPF program copied when the event fired), unwound in user
 * space from the call frame information of the mapped files (.eh_frame,
 * else .debug_frame, of the file or of its separate debug file), as perf
 * does with --call-graph dwarf. Callable by any front end: registers,
 * stack bytes and a pid in, return addresses out.
 *
 * Why libdw's CFI reader and our own frame stepping (unwind.c, uwfile.c),
 * rather than libdwfl's dwfl_thread_getframes() or libunwind: libdw is
 * linked already (DWARF types) and parses the CIEs and FDEs of .eh_frame
 * and .debug_frame (dwarf_cfi_addrframe), from the file or its debug file;
 * what is left, applying a row's register rules to the snapshot, is short
 * (unwind.c). Keeping that step ours lets the tables be cached once per
 * build-id for every process that maps the file, and each row once per
 * address (sampling hits the same return addresses over and over), with
 * no allocation per frame; libdwfl keeps its state per process (a Dwfl
 * and its modules per address space, frames allocated one by one), and
 * libunwind would be one more library serving the same tables through
 * memory callbacks.
 */
#ifndef LANTERN_SYM_UNWIND_H
#define LANTERN_SYM_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* x86-64's DWARF register numbers (the System V ABI): the order of sym_uregs */
enum {
	UW_RAX, UW_RDX, UW_RCX, UW_RBX, UW_RSI, UW_RDI, UW_RBP, UW_RSP,
	UW_R8, UW_R9, UW_R10, UW_R11, UW_R12, UW_R13, UW_R14, UW_R15,
	UW_RIP, /* the return address column */
	UW_NREGS
};

struct sym_uregs {
	uint64_t r[UW_NREGS];
};

/* The registers of a copy of the kernel's struct pt_regs (sys/arch.h's layout). */
void sym_uregs_from_pt_regs(struct sym_uregs *out, const void *pt_regs);

/* Why an unwind stopped */
enum sym_unwind_end {
	UW_END_OUTERMOST, /* the outermost frame (_start, a thread's start): the whole stack */
	UW_END_MAX,	  /* as many frames as asked for */
	UW_END_SNAPSHOT,  /* a frame was beyond the copy of the stack */
	UW_END_NO_MAP,	  /* an address no mapping of the process holds */
	UW_END_NO_CFI,	  /* no call frame information and no frame pointer to follow */
	UW_END_BAD,	  /* a frame that does not move up the stack */
	UW_END_COUNT_
};

struct sym_unwind_info {
	enum sym_unwind_end end;
	uint64_t used; /* bytes of the copy the frames reached (from its start) */
};

/*
 * The return addresses of the stack of process pid (the pc first), at
 * most max, into ips; how many. stack holds len bytes copied from
 * regs->r[UW_RSP] up. The process's mappings are read once and again when
 * an address falls outside them (and kept after it exits).
 */
int sym_unwind(int pid, const struct sym_uregs *regs, const uint8_t *stack, size_t len,
	       uint64_t *ips, int max, struct sym_unwind_info *info);

/*
 * Whether the program process pid runs keeps frame pointers (most of its
 * functions start with push %rbp; mov %rsp,%rbp): 1, 0, or -1 when the
 * process cannot be read. *dev and *ino name the file (to notice an exec).
 */
int sym_unwind_exe_fp(int pid, uint64_t *dev, uint64_t *ino);
/* The same, of a file. */
int sym_unwind_file_fp(const char *path);

/* The unwinder's files: opened and closed so far, open now, their CFI's bytes (uwfile.c) */
struct sym_unwind_files {
	uint64_t opened, closed, open, bytes;
};
void sym_unwind_files(struct sym_unwind_files *st);

/* Drop what is cached of process pid's mappings. */
void sym_unwind_forget(int pid);
/* Free every cache. */
void sym_unwind_release(void);

#endif

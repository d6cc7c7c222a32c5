/* SPDX-License-Identifier: MIT */
/*
 * Addresses to names, for printing stacks: kernel addresses through
 * /proc/kallsyms, user addresses through the process's mappings and the
 * mapped files' symbols (while the process lives). Loaded on first use,
 * cached until symbols_release().
 */
#ifndef LANTERN_OUTPUT_SYMBOLS_H
#define LANTERN_OUTPUT_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

struct sym {
	const char *name;   /* the function */
	uint64_t offset;    /* addr - its start */
	const char *module; /* user: the file's path */
};

bool ksym_resolve(uint64_t addr, struct sym *out);
bool usym_resolve(int pid, uint64_t addr, struct sym *out);
/* The address of a kernel symbol (any kind kallsyms lists), or 0. */
uint64_t ksym_address(const char *name);
void symbols_release(void);

#endif

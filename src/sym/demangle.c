// SPDX-License-Identifier: MIT
/*
 * Demangling through the C++ runtime's own __cxa_demangle, opened with
 * dlopen() the first time a C++ name ("_Z...") comes by: a C program that
 * meets no C++ pays nothing, and lantern links no C++ runtime.
 */
#include "sym/demangle.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *mangled, char *out, size_t *len, int *status);

static bool disabled; /* cpp_demangle = false */

void sym_demangle_disable(void)
{
	disabled = true;
}

static bool demangle_off(void)
{
	if (disabled)
		return true;
	const char *e = getenv("LANTERN_NO_CPP_DEMANGLE");

	if (!e)
		e = getenv("BPFTRACE_NO_CPP_DEMANGLE");
	return e && *e && strcmp(e, "0");
}

char *sym_demangle(const char *name)
{
	static cxa_demangle_fn fn;
	static bool tried, off;
	int status = -1;

	if (strncmp(name, "_Z", 2))
		return NULL;
	if (!tried) {
		tried = true;
		off = demangle_off();
		void *lib = off ? NULL : dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
		if (lib)
			*(void **)&fn = dlsym(lib, "__cxa_demangle");
	}
	if (off || !fn)
		return NULL;
	char *d = fn(name, NULL, NULL, &status);
	if (status != 0) {
		free(d);
		return NULL;
	}
	return d;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a script through compile(), everything short of the
 * kernel -- lexer, parser, probe expansion, type checking, code
 * generation, register allocation and assembly. Tracepoints come from the
 * fixture tracefs tree (tests/unit/fixtures/tpformat), so runs are
 * deterministic and offline. Positional parameters: "1", "hello". Two
 * syscall tracepoints of a probe already make a raw_syscalls group (the
 * fixture has few of them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "sys/tracefs.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures/tpformat"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sys_tracefs_set_path(FIXTURES);
	setenv("LANTERN_SYSGROUP_MIN", "2", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *params[] = { "1", "hello" };
	struct compile_opts o = { .script_name = "fuzz", .params = params, .nparams = 2 };
	struct plan p;
	char *text;

	if (size > 64 * 1024)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	o.script = text;
	compile(&p, &o, NULL);
	plan_free(&p);
	free(text);
	return 0;
}

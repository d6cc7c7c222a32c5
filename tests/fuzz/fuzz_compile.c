// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a script through everything short of the kernel --
 * lexer, parser, probe expansion, type checking, code generation, register
 * allocation and assembly. Tracepoints come from the fixture tracefs tree
 * (tests/unit/fixtures/tpformat), so runs are deterministic and offline.
 * Positional parameters: "1", "hello". Two syscall tracepoints of a probe
 * already make a raw_syscalls group (the fixture has few of them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/regalloc.h"
#include "parse/parser.h"
#include "probes/tracefs.h"
#include "runtime/load.h"
#include "sema/sema.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures/tpformat"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	tracefs_set_path(FIXTURES);
	setenv("LANTERN_SYSGROUP_MIN", "2", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *params[] = { "1", "hello" };
	struct options o = { .script_name = "fuzz", .params = params, .nparams = 2 };
	struct session s;
	char *text;

	if (size > 64 * 1024)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	o.script = text;
	session_init(&s, &o);

	s.prog = parse_program(&s.arena, &s.src, &s.diag);
	if (s.prog && sema_expand(&s) == 0 && sema_check(&s) == 0) {
		plan_programs(&s);
		plan_maps(&s);
		if (generate(&s) == 0) {
			vec_foreach(&s.progs, pp)
			{
				struct prog_desc *pd = *pp;
				char err[256];
				if (regalloc(&pd->ir, err, sizeof(err)) == 0)
					pd->ninsns = ir_assemble(&pd->ir, NULL, &pd->insns, err, sizeof(err));
			}
		}
	}

	session_free(&s);
	free(text);
	return 0;
}

// SPDX-License-Identifier: MIT
/* Programs of several functions: see funcs.h. */
#include "codegen/funcs.h"
#include "codegen/regalloc.h"

#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ir_btf_funcs(const struct ir_btf_func *funcs, uint32_t n, struct arena *arena, struct ir_linked *out,
		 char *err, size_t errlen)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	uint32_t size;
	int lng;

	if (!btf || (lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED)) < 0)
		goto fail;
	out->func_info = ARENA_ARRAY(arena, struct bpf_func_info, n);
	for (uint32_t k = 0; k < n; k++) {
		int proto = btf__add_func_proto(btf, lng), fn;
		char arg[16]; /* "a" and an int: -O1 with the sanitizers checks the widest */
		if (proto < 0)
			goto fail;
		for (int a = 0; a < funcs[k].nargs; a++) {
			snprintf(arg, sizeof(arg), "a%d", a);
			if (btf__add_func_param(btf, arg, lng) < 0)
				goto fail;
		}
		fn = btf__add_func(btf, funcs[k].name, funcs[k].global || !k ? BTF_FUNC_GLOBAL : BTF_FUNC_STATIC,
				   proto);
		if (fn < 0)
			goto fail;
		out->func_info[k] = (struct bpf_func_info){ .insn_off = funcs[k].insn, .type_id = (uint32_t)fn };
	}
	raw = btf__raw_data(btf, &size);
	if (!raw)
		goto fail;
	out->btf = arena_alloc(arena, size);
	memcpy(out->btf, raw, size);
	out->btf_size = size;
	out->nfuncs = n;
	btf__free(btf);
	return 0;
fail:
	snprintf(err, errlen, "cannot describe the program's functions in BTF");
	btf__free(btf);
	return -1;
}

/* linked functions' BTF: each a FUNC of a FUNC_PROTO of longs */
static int make_btf(const struct ir_func *funcs, uint32_t n, const uint32_t *start, struct arena *arena,
		    struct ir_linked *out, char *err, size_t errlen)
{
	struct ir_btf_func *f = util_xcalloc(n, sizeof(*f));
	int rc;

	for (uint32_t k = 0; k < n; k++)
		f[k] = (struct ir_btf_func){ funcs[k].name, funcs[k].nargs, funcs[k].linkage == IR_GLOBAL,
					     start[k] };
	rc = ir_btf_funcs(f, n, arena, out, err, errlen);
	free(f);
	return rc;
}

/* Calls and addresses of function k: pc-relative */
static int relocate(struct bpf_insn *code, uint32_t total, const uint32_t *start, uint32_t n, char *err,
		    size_t errlen)
{
	for (uint32_t pc = 0; pc < total; pc++) {
		struct bpf_insn *b = &code[pc];
		bool call = b->code == (BPF_JMP | BPF_CALL) && b->src_reg == BPF_PSEUDO_CALL;
		bool addr = b->code == (BPF_LD | BPF_DW | BPF_IMM) && b->src_reg == BPF_PSEUDO_FUNC;
		if (call || addr) {
			if (b->imm < 0 || (uint32_t)b->imm >= n) {
				snprintf(err, errlen, "internal error: a call to function %d of %u", b->imm, n);
				return -1;
			}
			b->imm = (int32_t)start[b->imm] - (int32_t)(pc + 1);
		}
		if (b->code == (BPF_LD | BPF_DW | BPF_IMM))
			pc++;
	}
	return 0;
}

int ir_link(struct ir_func *funcs, uint32_t n, struct arena *arena, struct ir_linked *out, struct strbuf *dump,
	    char *err, size_t errlen)
{
	struct bpf_insn **parts = util_xcalloc(n, sizeof(*parts));
	uint32_t *start = util_xcalloc(n + 1, sizeof(*start));
	int rc = -1;

	memset(out, 0, sizeof(*out));
	for (uint32_t k = 0; k < n; k++) {
		int len;
		if (ir_regalloc(&funcs[k].ir, err, errlen) < 0 ||
		    (len = ir_assemble(&funcs[k].ir, &parts[k], err, errlen)) < 0)
			goto done;
		start[k + 1] = start[k] + (uint32_t)len;
	}
	out->n = start[n];
	out->insns = util_xcalloc(out->n ? out->n : 1, sizeof(*out->insns));
	for (uint32_t k = 0; k < n; k++)
		memcpy(out->insns + start[k], parts[k], sizeof(*out->insns) * (start[k + 1] - start[k]));
	if (relocate(out->insns, out->n, start, n, err, errlen) < 0 ||
	    (n > 1 && make_btf(funcs, n, start, arena, out, err, errlen) < 0)) {
		free(out->insns);
		out->insns = NULL;
		goto done;
	}
	for (uint32_t k = 0; dump && k < n; k++) {
		if (k)
			sb_printf(dump, "fn%u %s (%s):\n", k, funcs[k].name,
				  funcs[k].linkage == IR_GLOBAL ? "global" : "static");
		ir_bpf_dump_range(out->insns, (int)start[k], (int)start[k + 1], dump);
	}
	rc = 0;
done:
	for (uint32_t k = 0; k < n; k++)
		free(parts[k]);
	free(parts);
	free(start);
	return rc;
}

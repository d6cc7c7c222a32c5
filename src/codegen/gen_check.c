// SPDX-License-Identifier: MIT
/*
 * -k and -kk (as bpftrace): a helper that fails sends user space a record
 * with its return value, and lantern prints a warning at the call's place
 * in the script. -k checks every helper but the probe reads, -kk those too.
 */
#include "codegen/gen.h"
#include "plan/options.h"

static const char *helper_name(int32_t helper, bool *read)
{
	*read = false;
	switch (helper) {
	case BPF_FUNC_map_update_elem:
		return "map_update_elem";
	case BPF_FUNC_map_delete_elem:
		return "map_delete_elem";
	}
	*read = true;
	switch (helper) {
	case BPF_FUNC_probe_read_user:
		return "probe_read_user";
	case BPF_FUNC_probe_read_kernel:
		return "probe_read_kernel";
	case BPF_FUNC_probe_read_user_str:
		return "probe_read_user_str";
	case BPF_FUNC_probe_read_kernel_str:
		return "probe_read_kernel_str";
	case BPF_FUNC_probe_read_str:
		return "probe_read_str";
	default:
		return "probe_read";
	}
}

void gen_helper_check(struct gen *g, int32_t helper, struct span sp)
{
	int level = g->p->opts->helper_check;
	struct record_desc *r;
	struct type *el[1] = { &ty_s64 };
	bool read;
	const char *name = helper_name(helper, &read);

	if (!level || (read && level < 2))
		return;
	r = ARENA_NEW(&g->p->arena, struct record_desc);
	r->kind = REC_HELPER_ERROR;
	r->text = name;
	r->span = sp;
	r->args = type_tuple(&g->p->arena, el, 1);
	r->size = 8 + r->args->size;
	uint32_t id = plan_add_record(g->p, r);

	// ret = r0; if (ret < 0) send { id, ret }; r0 = ret
	int32_t ret = ir_vreg(g->ir), ok = ir_label(g->ir);
	emit(g->ir, MOV64_REG(ret, R0));
	emit(g->ir, JMP_IMM(BPF_JSGE, ret, 0, ok));
	uint32_t off = gen_scratch_alloc(g, r->size);
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, id));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, ret, off + 8));
	gen_output(g, off, r->size, false);
	emit(g->ir, LABEL(ok));
	emit(g->ir, MOV64_REG(R0, ret));
}

void gen_runtime_error(struct gen *g, struct span sp, const char *text)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
	uint32_t id, off;

	r->kind = REC_RUNTIME_ERROR;
	r->text = text;
	r->span = sp;
	r->size = 8;
	id = plan_add_record(g->p, r);
	off = gen_scratch_alloc(g, 8);
	emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, id));
	gen_output(g, off, 8, false);
}

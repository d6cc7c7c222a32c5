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

/* The record of a failure of helper name at sp: its id */
static uint32_t helper_record(struct gen *g, const char *name, struct span sp)
{
	struct record_desc *r = ARENA_NEW(&g->p->arena, struct record_desc);
	struct type *el[1] = { &ty_s64 };

	r->kind = REC_HELPER_ERROR;
	r->text = name;
	r->span = sp;
	r->args = type_tuple(&g->p->arena, el, 1);
	r->size = 8 + r->args->size;
	return plan_add_record(g->p, r);
}

/* send { id, ret } */
static void send_failure(struct gen *g, uint32_t id, int32_t ret)
{
	uint32_t off = gen_scratch_alloc(g, 16);

	emit(g->ir, ST_MEM(BPF_DW, g->scratch, off, id));
	emit(g->ir, STX_MEM(BPF_DW, g->scratch, ret, off + 8));
	gen_output(g, off, 16, false);
}

void gen_helper_check(struct gen *g, int32_t helper, struct span sp)
{
	int level = g->p->opts->helper_check;
	bool read;

	if (g->p->modern && level) /* today's bpftrace has one level: -k checks the reads too */
		level = 2;
	const char *name = helper_name(helper, &read);

	if (!level || (read && level < 2))
		return;
	uint32_t id = helper_record(g, name, sp);

	// ret = r0; if (ret < 0) send { id, ret }; r0 = ret
	int32_t ret = ir_vreg(g->ir), ok = ir_label(g->ir);
	emit(g->ir, MOV64_REG(ret, R0));
	emit(g->ir, JMP_IMM(BPF_JSGE, ret, 0, ok));
	send_failure(g, id, ret);
	emit(g->ir, LABEL(ok));
	emit(g->ir, MOV64_REG(R0, ret));
}

void gen_lookup_check(struct gen *g, int32_t p, struct span sp)
{
	if (g->p->opts->helper_check < (g->p->modern ? 1 : 2))
		return;
	uint32_t id = helper_record(g, "map_lookup_elem", sp);

	// if (!p) send { id, 0 }
	int32_t found = ir_label(g->ir);
	emit(g->ir, JMP_IMM(BPF_JNE, p, 0, found));
	send_failure(g, id, p);
	emit(g->ir, LABEL(found));
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

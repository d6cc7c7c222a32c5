// SPDX-License-Identifier: MIT
/*
 * The syscall-group policy, all of it: when many syscalls:sys_enter_X (or
 * sys_exit_X) tracepoints of one probe run as a single program on
 * raw_syscalls:sys_enter (sys_exit), the map that program looks the
 * syscall number up in, and the code that does it.
 *
 * Attaching and detaching hundreds of tracepoints takes seconds (each
 * detach waits for RCU grace periods); one raw tracepoint takes nothing.
 * Below SYSGROUP_MIN tracepoints, separate ones are cheaper for the
 * syscalls not traced, which then run no program at all. A probe that
 * reads `args` fields other than those every syscall has (__syscall_nr,
 * and ret on exit) keeps its tracepoints: the others differ per syscall.
 * LANTERN_SYSGROUP_MIN overrides it (tests and benchmarks compare both).
 */
#include "probes/tracepoint.h"
#include "sys/arch.h"
#include "sys/syscalls.h"

#include <stdlib.h>
#include <string.h>

#define SYSGROUP_MIN 8

static enum sys_group group_of(const struct probe_inst *in)
{
	const struct tp_inst *ti = in->data;

	if (in->prov != &prov_tracepoint || ti->sysnr < 0)
		return SYSGROUP_NONE;
	return !strncmp(ti->event, "sys_enter_", 10) ? SYSGROUP_ENTER : SYSGROUP_EXIT;
}

static uint32_t group_min(void)
{
	const char *e = getenv("LANTERN_SYSGROUP_MIN");
	return MAX(e ? (uint32_t)strtoul(e, NULL, 10) : SYSGROUP_MIN, 1);
}

/* The group's map: each syscall of the group -> its probe id + 1. */
static int group_map(struct plan *p, struct probe *pr, enum sys_group kind, uint32_t n)
{
	int map = maps_add(&p->maps, kind == SYSGROUP_ENTER ? "sys_enter" : "sys_exit",
			   BPF_MAP_TYPE_ARRAY, 4, 4, SYSCALL_NR_LIMIT);
	struct bpf_map_desc *d = &p->maps.bpf.data[map];
	uint32_t *kv = ARENA_ARRAY(&p->arena, uint32_t, 2 * n), k = 0;

	vec_foreach(&p->insts, ip)
	{
		const struct tp_inst *ti = (*ip)->data;
		if ((*ip)->probe != pr || group_of(*ip) != kind || k == n)
			continue;
		kv[2 * k] = (uint32_t)ti->sysnr;
		kv[2 * k + 1] = (*ip)->probe_id + 1;
		k++;
	}
	d->init = (const uint8_t *)kv;
	d->ninit = k;
	return map;
}

struct prog *prov_sysgroup_prog(struct plan *p, struct probe_inst *in)
{
	static const char *const enter_fields[] = { "__syscall_nr", NULL };
	static const char *const exit_fields[] = { "__syscall_nr", "ret", NULL };
	enum sys_group kind = group_of(in);
	uint32_t n = 0;

	if (!kind || !sema_probe_args_only(in->probe, kind == SYSGROUP_ENTER ? enter_fields : exit_fields))
		return NULL;
	vec_foreach(&p->progs, pp)
	{
		const struct sys_group_prog *sg = (*pp)->data;
		if ((*pp)->probe == in->probe && (*pp)->inst->prov == &prov_tracepoint && sg &&
		    sg->kind == kind)
			return *pp;
	}
	vec_foreach(&p->insts, ip)
	{
		if ((*ip)->probe == in->probe && group_of(*ip) == kind)
			n++;
	}
	if (n < group_min())
		return NULL;

	struct prog *pg = plan_add_prog(p, in->probe, in);
	struct sys_group_prog *sg = ARENA_NEW(&p->arena, struct sys_group_prog);
	sg->kind = kind;
	sg->map = group_map(p, in->probe, kind, n);
	pg->data = sg;
	pg->name = arena_printf(&p->arena, "%s%s (%u tracepoints as raw_syscalls:%s)", in->ap->text,
				in->probe->naps > 1 ? ",..." : "", n, prov_sysgroup_tracepoint(pg));
	return pg;
}

const char *prov_sysgroup_tracepoint(const struct prog *pg)
{
	const struct sys_group_prog *sg = pg->data;
	return sg->kind == SYSGROUP_ENTER ? "sys_enter" : "sys_exit";
}

/*
 * A raw_syscalls group program: its context is u64 args[], args[0] the
 * task's struct pt_regs * and args[1] the syscall number (sys_enter) or
 * return value (sys_exit; the number is then regs->orig_ax). The group's
 * map gives the probe id + 1 of the number, or 0: not traced. Like the
 * syscalls:* tracepoints it stands for, it ignores 32-bit tasks (their
 * numbers are another table's), checked by their code segment: a 64-bit
 * task's `int $0x80` is a 32-bit syscall with a 64-bit segment, which the
 * tracepoints skip and this counts by its number. sys_enter looks the
 * number up first: untraced syscalls leave before the costlier read.
 */
static void gen_sys_regs(struct gen *g, int16_t slot, int32_t from)
{
	const struct arch_regs *r = sys_arch_regs();
	struct ir *ir = g->ir;

	// probe_read_kernel(slot, cs - from + 8, args[0] + from); leave if cs is 32-bit
	emit(ir, MOV64_REG(R1, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R1, slot));
	emit(ir, MOV64_IMM(R2, r->cs - from + 8));
	emit(ir, LDX_MEM(BPF_DW, R3, g->ctx, 0));
	emit(ir, ALU64_IMM(BPF_ADD, R3, from));
	emit(ir, CALL(BPF_FUNC_probe_read_kernel, 3));
	emit(ir, JMP_IMM(BPF_JNE, R0, 0, g->out));
	emit(ir, LDX_MEM(BPF_H, R0, R10, slot + r->cs - from));
	emit(ir, JMP_IMM(BPF_JEQ, R0, r->cs32, g->out));
}

void prov_sysgroup_prologue(struct gen *g)
{
	const struct sys_group_prog *sg = g->pg->data;
	const struct arch_regs *r = sys_arch_regs();
	struct ir *ir = g->ir;
	bool enter = sg->kind == SYSGROUP_ENTER;
	int16_t slot = ir_stack(ir, (uint32_t)(r->cs - r->sys_nr) + 8);
	int32_t nr = ir_vreg(ir), id = ir_vreg(ir);

	if (enter) {
		emit(ir, LDX_MEM(BPF_DW, nr, g->ctx, 8));
	} else {
		gen_sys_regs(g, slot, r->sys_nr);
		emit(ir, LDX_MEM(BPF_DW, nr, R10, slot));
	}
	// id = map[nr] - 1 (nr < SYSCALL_NR_LIMIT, unsigned), or leave
	emit(ir, JMP_IMM(BPF_JGE, nr, SYSCALL_NR_LIMIT, g->out));
	emit(ir, STX_MEM(BPF_W, R10, nr, slot));
	emit(ir, LD_MAP(R1, sg->map));
	emit(ir, MOV64_REG(R2, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R2, slot));
	emit(ir, CALL(BPF_FUNC_map_lookup_elem, 2));
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, g->out));
	emit(ir, LDX_MEM(BPF_W, id, R0, 0));
	emit(ir, JMP_IMM(BPF_JEQ, id, 0, g->out));
	emit(ir, ALU64_IMM(BPF_SUB, id, 1));
	if (enter)
		gen_sys_regs(g, slot, r->cs);
	g->probe_id = id;
	g->sys_nr = nr;
}

struct val prov_sysgroup_field(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir);

	if (!strcmp(e->u.field.name, "ret")) // raw_syscalls:sys_exit's args[1]
		emit(g->ir, LDX_MEM(BPF_DW, r, g->ctx, 8));
	else // __syscall_nr (sysgroup_prog allows no other field)
		emit(g->ir, MOV64_REG(r, g->sys_nr));
	gen_extend(g, r, e->type);
	return reg_val(e->type, r);
}

// SPDX-License-Identifier: MIT
/*
 * The code of today's bpftrace's builtins about the task and the clock:
 * ncpus, usermode, has_cpid, probetype, nsecs(clock), pid(ns), tid(ns)
 * (their checks: sema/check_stdlib.c).
 */
#include "codegen/gen.h"
#include "codegen/gen_stdlib.h"
#include "plan/provider.h"
#include "sys/arch.h"

#include <string.h>
#include <sys/stat.h>

/* The inode of the initial pid namespace (the kernel's PROC_PID_INIT_INO) */
#define PID_INIT_INO 0xEFFFFFFCu

/* ncpus: the possible CPUs */
struct val gen_ncpus(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, MOV64_CONST(r, LC_NCPUS));
	return reg_val(e->type, r);
}

/* has_cpid: cpid != 0 */
struct val gen_has_cpid(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir), c = ir_vreg(g->ir), done = ir_label(g->ir);

	// r = cpid != 0
	emit(g->ir, MOV64_CONST(c, LC_CPID));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, JMP_IMM(BPF_JEQ, c, 0, done));
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, LABEL(done));
	return reg_val(e->type, r);
}

/*
 * usermode: (regs->cs & 3) == 3. begin and end run when lantern asks for
 * them, from user space: 1.
 */
struct val gen_usermode(struct gen *g, struct expr *e)
{
	int32_t r = ir_vreg(g->ir), cs = ir_vreg(g->ir), done = ir_label(g->ir);

	if (g->inst->prov->flags & PROV_F_USER) {
		emit(g->ir, MOV64_IMM(r, 1));
		return reg_val(e->type, r);
	}
	// cs = *(u64 *)(ctx + offsetof(struct pt_regs, cs)); r = (cs & 3) == 3
	emit(g->ir, LDX_MEM(BPF_DW, cs, g->ctx, sys_arch_regs()->cs));
	emit(g->ir, ALU64_IMM(BPF_AND, cs, 3));
	emit(g->ir, MOV64_IMM(r, 0));
	emit(g->ir, JMP_IMM(BPF_JNE, cs, 3, done));
	emit(g->ir, MOV64_IMM(r, 1));
	emit(g->ir, LABEL(done));
	return reg_val(e->type, r);
}

/* A string known now, in scratch */
static struct val const_str(struct gen *g, struct type *t, const char *s)
{
	uint32_t off = gen_scratch_alloc(g, t->size);
	struct expr lit = { .kind = EXPR_STR, .type = t };

	lit.u.str = s;
	lit.u.len = (uint32_t)strlen(s);
	gen_expr_into(g, &lit, t, g->scratch, off);
	return mem_val(t, g->scratch, off);
}

/* probetype: the probe type's name, a constant of the instance */
struct val gen_probetype(struct gen *g, struct expr *e)
{
	return const_str(g, e->type, plan_probetype_name(g->inst->prov));
}

/* nsecs(clock): 0 monotonic, 1 boot, 2 tai, 3 sw_tai (boot + the TAI offset at load) */
struct val gen_nsecs(struct gen *g, struct expr *e)
{
	static const int32_t helpers[] = { BPF_FUNC_ktime_get_ns, BPF_FUNC_ktime_get_boot_ns,
					   BPF_FUNC_ktime_get_tai_ns, BPF_FUNC_ktime_get_boot_ns };
	intptr_t k = (intptr_t)e->info;
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, CALL(helpers[k], 0));
	emit(g->ir, MOV64_REG(r, R0));
	if (k == 3) {
		// r += CLOCK_TAI - CLOCK_BOOTTIME, measured when the programs load
		int32_t off = ir_vreg(g->ir);
		emit(g->ir, LD_CONST(off, LC_TAI_OFFSET));
		emit(g->ir, ALU64_REG(BPF_ADD, r, off));
	}
	return reg_val(e->type, r);
}

/* lantern's pid namespace: its device and inode; false when it is the initial one */
static bool own_pid_ns(uint64_t *dev, uint64_t *ino)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) < 0 || st.st_ino == PID_INIT_INO)
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

/*
 * The current task's process id (tgid) or thread id (pid), as the initial
 * pid namespace numbers it (init) or as lantern's own does: the same
 * unless lantern runs in another pid namespace, where
 * bpf_get_ns_current_pid_tgid gives them (0 for a task it cannot see).
 */
int32_t gen_task_id(struct gen *g, bool tgid, bool init)
{
	int32_t r = ir_vreg(g->ir);

	if (init) {
		emit(g->ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
		emit(g->ir, MOV64_REG(r, R0));
	} else {
		emit(g->ir, MOV64_REG(r, gen_pid_tgid(g)));
	}
	// r = tgid ? r >> 32 : (u32)r
	if (tgid)
		emit(g->ir, ALU64_IMM(BPF_RSH, r, 32));
	else
		emit(g->ir, MOV32_REG(r, r));
	return r;
}

int32_t gen_pid_tgid(struct gen *g)
{
	int32_t r = ir_vreg(g->ir);
	uint64_t dev, ino;

	if (!own_pid_ns(&dev, &ino)) {
		emit(g->ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
		emit(g->ir, MOV64_REG(r, R0));
		return r;
	}
	// struct bpf_pidns_info ns = {0}; get_ns_current_pid_tgid(dev, ino, &ns, 8);
	// r = *(u64 *)&ns: tgid << 32 | pid, as get_current_pid_tgid lays them out
	struct loc ns = gen_temp_alloc(g, 8);
	emit(g->ir, ST_MEM(BPF_DW, ns.base, ns.off, 0));
	emit(g->ir, LD_IMM64(R1, (int64_t)dev));
	emit(g->ir, LD_IMM64(R2, (int64_t)ino));
	emit(g->ir, MOV64_REG(R3, ns.base));
	emit(g->ir, ALU64_IMM(BPF_ADD, R3, ns.off));
	emit(g->ir, MOV64_IMM(R4, 8));
	emit(g->ir, CALL(BPF_FUNC_get_ns_current_pid_tgid, 4));
	emit(g->ir, LDX_MEM(BPF_DW, r, ns.base, ns.off));
	return r;
}

/* pid(curr_ns|init), tid(curr_ns|init) */
struct val gen_pid_ns(struct gen *g, struct expr *e)
{
	return reg_val(e->type, gen_task_id(g, e->id == FN_PID, (intptr_t)e->info == 1));
}

// SPDX-License-Identifier: MIT
/*
 * From allocated IR to the final struct bpf_insn[]: labels become offsets;
 * the subprograms follow the program, and a reference to one (LD_FUNC)
 * becomes its distance, as the kernel reads BPF_PSEUDO_FUNC.
 */
#include "codegen/regalloc.h"

#include <stdio.h>
#include <stdlib.h>

static int slots(const struct ir_insn *i)
{
	switch (i->kind) {
	case IR_LABEL:
		return 0;
	case IR_LD_IMM64:
	case IR_LD_MAP:
	case IR_LD_MAP_VALUE:
	case IR_LD_CONST:
	case IR_LD_KSYM:
	case IR_LD_FUNC:
		return 2;
	default:
		return 1;
	}
}

static int count_slots(const struct ir *ir)
{
	int n = 0;

	vec_foreach(&ir->insns, i) n += slots(i);
	return n;
}

/* Where each function starts: the program at 0, then its subprograms. */
static int *func_starts(const struct ir *ir)
{
	int *start = util_xcalloc(ir->subs.len + 1, sizeof(int));
	int n = count_slots(ir);

	for (size_t k = 0; k < ir->subs.len; k++) {
		start[k] = n;
		n += count_slots(ir->subs.data[k]);
	}
	start[ir->subs.len] = n;
	return start;
}

uint32_t ir_funcs(const struct ir *ir, struct code_func **out)
{
	int *start;

	*out = NULL;
	if (!ir->subs.len)
		return 0;
	start = func_starts(ir);
	*out = util_xcalloc(ir->subs.len + 1, sizeof(**out));
	(*out)[0] = (struct code_func){ 0, FUNC_MAIN };
	for (size_t k = 0; k < ir->subs.len; k++)
		(*out)[k + 1] = (struct code_func){ (uint32_t)start[k], ir->subs.data[k]->kind };
	free(start);
	return (uint32_t)ir->subs.len + 1;
}

/* One function's instructions at code[base...]; sub_start: where each subprogram starts. */
static int assemble_one(const struct ir *ir, struct bpf_insn *code, int base, const int *sub_start,
			size_t nsubs, char *err, size_t errlen)
{
	int32_t *label_pc = util_xcalloc(ir->next_label + 1, sizeof(int32_t));
	int n = 0;

	vec_foreach(&ir->insns, i)
	{
		if (i->kind == IR_LABEL)
			label_pc[i->label] = n;
		n += slots(i);
	}
	n = 0;
	vec_foreach(&ir->insns, i)
	{
		struct bpf_insn *b = &code[base + n];
		if (i->kind == IR_LABEL)
			continue;
		if (i->dst >= VREG0 || i->src >= VREG0) {
			snprintf(err, errlen, "internal error: virtual register left after allocation");
			goto fail;
		}
		b->code = i->code;
		b->dst_reg = i->dst < 0 ? 0 : i->dst;
		b->src_reg = i->src < 0 ? 0 : i->src;
		b->off = i->off;
		b->imm = i->imm;
		if (i->kind == IR_LD_IMM64) {
			b->src_reg = 0;
			b->imm = (uint32_t)i->imm64;
			b[1].imm = (uint32_t)((uint64_t)i->imm64 >> 32);
		} else if (i->kind == IR_LD_MAP) {
			b->src_reg = BPF_PSEUDO_MAP_FD;
		} else if (i->kind == IR_LD_MAP_VALUE) {
			b->src_reg = BPF_PSEUDO_MAP_VALUE; /* b[1].imm: offset 0 */
		} else if (i->kind == IR_LD_CONST) {
			b->src_reg = BPF_PSEUDO_LOAD_CONST;
		} else if (i->kind == IR_LD_KSYM) {
			b->src_reg = BPF_PSEUDO_BTF_ID; /* b[1].imm 0: vmlinux's */
		} else if (i->kind == IR_LD_FUNC) {
			b->src_reg = BPF_PSEUDO_FUNC;
			if (nsubs) { /* one of ir.subs: its place is known now */
				if (i->imm < 0 || (size_t)i->imm >= nsubs) {
					snprintf(err, errlen, "internal error: a reference to no subprogram");
					goto fail;
				}
				b->imm = sub_start[i->imm] - (base + n + 1);
			} /* else the function's index until ir_link() */
		} else if (ir_is_jump(i) && i->label >= 0) {
			long off = (long)label_pc[i->label] - (n + 1);
			if (off < INT16_MIN || off > INT16_MAX) {
				snprintf(err, errlen, "the program is too long: a jump spans %ld instructions",
					 off);
				goto fail;
			}
			b->off = off;
		}
		if (i->lconst)
			b->src_reg = BPF_PSEUDO_LOAD_CONST;
		n += slots(i);
	}
	free(label_pc);
	return n;
fail:
	free(label_pc);
	return -1;
}

int ir_assemble(const struct ir *ir, struct bpf_insn **out, char *err, size_t errlen)
{
	int *start = func_starts(ir);
	int total = start[ir->subs.len];
	struct bpf_insn *code = util_xcalloc(total ? total : 1, sizeof(*code));
	int rc = assemble_one(ir, code, 0, start, ir->subs.len, err, errlen);

	for (size_t k = 0; rc >= 0 && k < ir->subs.len; k++)
		rc = assemble_one(ir->subs.data[k], code, start[k], start, ir->subs.len, err, errlen);
	free(start);
	if (rc < 0) {
		free(code);
		return -1;
	}
	*out = code;
	return total;
}

void ir_bpf_dump(const struct bpf_insn *insns, int n, struct strbuf *out)
{
	ir_bpf_dump_range(insns, 0, n, out);
}

void ir_bpf_dump_range(const struct bpf_insn *insns, int from, int n, struct strbuf *out)
{
	for (int k = from; k < n; k++) {
		const struct bpf_insn *b = &insns[k];
		struct ir_insn i = IRI(b->code, b->dst_reg, b->src_reg, b->off, b->imm);
		sb_printf(out, "%4d: ", k);
		/* a subprogram's call or address: where it starts (the kernel reads it pc-relative) */
		if (b->code == (BPF_JMP | BPF_CALL) && b->src_reg == BPF_PSEUDO_CALL) {
			sb_printf(out, "call func@%d\n", k + 1 + b->imm);
			continue;
		}
		if (b->code == (BPF_LD | BPF_DW | BPF_IMM) && b->src_reg == BPF_PSEUDO_FUNC && k + 1 < n) {
			sb_printf(out, "r%d = &func@%d\n", b->dst_reg, k + 1 + b->imm);
			k++;
			continue;
		}
		if (b->src_reg == BPF_PSEUDO_LOAD_CONST && b->code != (BPF_LD | BPF_DW | BPF_IMM)) {
			i.src = NO_REG;
			i.lconst = true;
		}
		if (b->code == (BPF_LD | BPF_DW | BPF_IMM) && k + 1 < n) {
			i.kind = b->src_reg == BPF_PSEUDO_MAP_FD     ? IR_LD_MAP :
				 b->src_reg == BPF_PSEUDO_MAP_VALUE  ? IR_LD_MAP_VALUE :
				 b->src_reg == BPF_PSEUDO_LOAD_CONST ? IR_LD_CONST :
				 b->src_reg == BPF_PSEUDO_BTF_ID     ? IR_LD_KSYM :
								       IR_LD_IMM64;
			i.imm64 = (uint32_t)b->imm | (uint64_t)(uint32_t)b[1].imm << 32;
			k++;
		}
		ir_format_insn(out, &i);
		sb_putc(out, '\n');
	}
}

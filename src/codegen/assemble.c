// SPDX-License-Identifier: MIT
/* From allocated IR to the final struct bpf_insn[]: labels become offsets. */
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
	case IR_LD_CONST:
	case IR_LD_FUNC:
		return 2;
	default:
		return 1;
	}
}

int ir_assemble(const struct ir *ir, struct bpf_insn **out, char *err, size_t errlen)
{
	int32_t *label_pc = util_xcalloc(ir->next_label + 1, sizeof(int32_t));
	struct bpf_insn *code;
	int n = 0;

	vec_foreach(&ir->insns, i)
	{
		if (i->kind == IR_LABEL)
			label_pc[i->label] = n;
		n += slots(i);
	}
	code = util_xcalloc(n ? n : 1, sizeof(*code));
	n = 0;
	vec_foreach(&ir->insns, i)
	{
		struct bpf_insn *b = &code[n];
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
		} else if (i->kind == IR_LD_CONST) {
			b->src_reg = BPF_PSEUDO_LOAD_CONST;
		} else if (i->kind == IR_LD_FUNC) {
			b->src_reg = BPF_PSEUDO_FUNC; /* imm: the function's index until ir_link() */
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
	*out = code;
	return n;
fail:
	free(label_pc);
	free(code);
	return -1;
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
		/* a subprogram's call or address (ir_link): pc-relative, as the kernel reads it */
		if (b->code == (BPF_JMP | BPF_CALL) && b->src_reg == BPF_PSEUDO_CALL) {
			sb_printf(out, "call pc%+d\n", b->imm);
			continue;
		}
		if (b->code == (BPF_LD | BPF_DW | BPF_IMM) && b->src_reg == BPF_PSEUDO_FUNC && k + 1 < n) {
			sb_printf(out, "r%d = &pc%+d\n", b->dst_reg, b->imm);
			k++;
			continue;
		}
		if (b->src_reg == BPF_PSEUDO_LOAD_CONST && b->code != (BPF_LD | BPF_DW | BPF_IMM)) {
			i.src = NO_REG;
			i.lconst = true;
		}
		if (b->code == (BPF_LD | BPF_DW | BPF_IMM) && k + 1 < n) {
			i.kind = b->src_reg == BPF_PSEUDO_MAP_FD	 ? IR_LD_MAP :
				 b->src_reg == BPF_PSEUDO_LOAD_CONST ? IR_LD_CONST :
								       IR_LD_IMM64;
			i.imm64 = (uint32_t)b->imm | (uint64_t)(uint32_t)b[1].imm << 32;
			k++;
		}
		ir_format_insn(out, &i);
		sb_putc(out, '\n');
	}
}

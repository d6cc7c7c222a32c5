// SPDX-License-Identifier: MIT
#include "codegen/ir.h"

#include <stdio.h>

void ir_init(struct ir *ir)
{
	*ir = (struct ir){ .next_vreg = VREG0, .parent = -1 };
}

void ir_free(struct ir *ir)
{
	vec_foreach(&ir->subs, sp)
	{
		ir_free(*sp);
		free(*sp);
	}
	vec_free(&ir->subs);
	vec_free(&ir->insns);
}

int32_t ir_new_sub(struct ir *ir, enum code_func_kind kind, int32_t parent)
{
	struct ir *sub = util_xmalloc(sizeof(*sub));

	ir_init(sub);
	sub->kind = kind;
	sub->parent = parent;
	vec_push(&ir->subs, sub);
	return (int32_t)ir->subs.len - 1;
}

int32_t ir_vreg(struct ir *ir)
{
	return ir->next_vreg++;
}

int32_t ir_label(struct ir *ir)
{
	return ir->next_label++;
}

int16_t ir_stack(struct ir *ir, uint32_t n)
{
	ir->stack_size += ALIGN_UP(n, 8);
	return -(int16_t)ir->stack_size;
}

void ir_regs_of(const struct ir_insn *i, struct ir_regs *r)
{
	uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
	bool x = BPF_SRC(i->code) == BPF_X;

	r->nuse = r->ndef = 0;
#define USE(reg) (r->use[r->nuse++] = (reg))
#define DEF(reg) (r->def[r->ndef++] = (reg))
	switch (i->kind) {
	case IR_LABEL:
		return;
	case IR_LD_IMM64:
	case IR_LD_MAP:
	case IR_LD_MAP_VALUE:
	case IR_LD_CONST:
	case IR_LD_KSYM:
	case IR_LD_FUNC:
		DEF(i->dst);
		return;
	}
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_MOV) {
			if (x)
				USE(i->src);
		} else if (op == BPF_END) {
			USE(i->dst); /* a byte swap: BPF_TO_BE is the BPF_X bit */
		} else {
			USE(i->dst);
			if (x && op != BPF_NEG)
				USE(i->src);
		}
		DEF(i->dst);
		break;
	case BPF_LDX:
		USE(i->src);
		DEF(i->dst);
		break;
	case BPF_ST:
		USE(i->dst);
		break;
	case BPF_STX:
		USE(i->dst);
		USE(i->src);
		if (BPF_MODE(i->code) == BPF_ATOMIC && (i->imm & BPF_FETCH))
			DEF(i->src);
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL) {
			for (int a = 1; a <= i->nargs; a++)
				USE(a);
			for (int c = R0; c <= R5; c++)
				DEF(c);
		} else if (op == BPF_EXIT) {
			USE(R0);
		} else if (op != BPF_JA) {
			USE(i->dst);
			if (x)
				USE(i->src);
		}
		break;
	}
#undef USE
#undef DEF
}

const char *ir_helper_name(int32_t id)
{
#define FN(x) [BPF_FUNC_##x] = #x
	static const char *const names[] = { __BPF_FUNC_MAPPER(FN) };
#undef FN
	if (id >= 0 && (size_t)id < ARRAY_SIZE(names) && names[id])
		return names[id];
	return "unknown";
}

static void fmt_reg(struct strbuf *out, int32_t reg, bool w)
{
	if (reg >= VREG0)
		sb_printf(out, "%%%d%s", reg - VREG0, w ? "w" : "");
	else
		sb_printf(out, "%c%d", w ? 'w' : 'r', reg);
}

static const char *size_name(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B:
		return "u8";
	case BPF_H:
		return "u16";
	case BPF_W:
		return "u32";
	default:
		return "u64";
	}
}

static const char *alu_op(uint8_t op)
{
	switch (op) {
	case BPF_ADD:
		return "+=";
	case BPF_SUB:
		return "-=";
	case BPF_MUL:
		return "*=";
	case BPF_DIV:
		return "/=";
	case BPF_OR:
		return "|=";
	case BPF_AND:
		return "&=";
	case BPF_LSH:
		return "<<=";
	case BPF_RSH:
		return ">>=";
	case BPF_MOD:
		return "%=";
	case BPF_XOR:
		return "^=";
	case BPF_ARSH:
		return "s>>=";
	default:
		return "?=";
	}
}

static const char *jmp_op(uint8_t op)
{
	switch (op) {
	case BPF_JEQ:
		return "==";
	case BPF_JNE:
		return "!=";
	case BPF_JGT:
		return ">";
	case BPF_JGE:
		return ">=";
	case BPF_JLT:
		return "<";
	case BPF_JLE:
		return "<=";
	case BPF_JSGT:
		return "s>";
	case BPF_JSGE:
		return "s>=";
	case BPF_JSLT:
		return "s<";
	case BPF_JSLE:
		return "s<=";
	case BPF_JSET:
		return "&";
	default:
		return "?";
	}
}

static void fmt_mem(struct strbuf *out, uint8_t code, int32_t base, int16_t off)
{
	sb_printf(out, "*(%s *)(", size_name(code));
	fmt_reg(out, base, false);
	sb_printf(out, " %+d)", off);
}

static void fmt_target(struct strbuf *out, const struct ir_insn *i)
{
	if (i->label >= 0)
		sb_printf(out, "L%d", i->label);
	else
		sb_printf(out, "pc%+d", i->off);
}

void ir_format_insn(struct strbuf *out, const struct ir_insn *i)
{
	uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
	bool x = BPF_SRC(i->code) == BPF_X;

	switch (i->kind) {
	case IR_LABEL:
		sb_printf(out, "L%d:", i->label);
		return;
	case IR_LD_IMM64:
		fmt_reg(out, i->dst, false);
		sb_printf(out, " = %#llx ll", (unsigned long long)i->imm64);
		return;
	case IR_LD_MAP:
		fmt_reg(out, i->dst, false);
		sb_printf(out, " = map[%d]", i->imm);
		return;
	case IR_LD_MAP_VALUE:
		fmt_reg(out, i->dst, false);
		sb_printf(out, " = &map[%d][0]", i->imm);
		return;
	case IR_LD_CONST:
		fmt_reg(out, i->dst, false);
		sb_printf(out, " = %s ll", plan_load_const_name(i->imm));
		return;
	case IR_LD_FUNC:
		fmt_reg(out, i->dst, false);
		sb_printf(out, " = &sub%d", i->imm);
		return;
	case IR_LD_KSYM:
		fmt_reg(out, i->dst, false);
		sb_printf(out, " = &ksym[btf %d]", i->imm);
		return;
	}
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64: {
		bool w = cls == BPF_ALU;
		fmt_reg(out, i->dst, w);
		if (op == BPF_NEG) {
			sb_puts(out, " = -");
			fmt_reg(out, i->dst, w);
			return;
		}
		if (op == BPF_END) {
			sb_printf(out, " = be%d ", i->imm);
			fmt_reg(out, i->dst, false);
			return;
		}
		sb_printf(out, " %s ", op == BPF_MOV ? "=" : alu_op(op));
		if (x)
			fmt_reg(out, i->src, w);
		else if (i->lconst)
			sb_puts(out, plan_load_const_name(i->imm));
		else
			sb_printf(out, "%d", i->imm);
		return;
	}
	case BPF_LDX:
		fmt_reg(out, i->dst, false);
		sb_puts(out, " = ");
		fmt_mem(out, i->code, i->src, i->off);
		return;
	case BPF_ST:
		fmt_mem(out, i->code, i->dst, i->off);
		sb_printf(out, " = %d", i->imm);
		return;
	case BPF_STX:
		if (BPF_MODE(i->code) == BPF_ATOMIC) {
			sb_puts(out, "lock ");
			fmt_mem(out, i->code, i->dst, i->off);
			sb_printf(out, " %s ", alu_op(i->imm & ~BPF_FETCH));
		} else {
			fmt_mem(out, i->code, i->dst, i->off);
			sb_puts(out, " = ");
		}
		fmt_reg(out, i->src, false);
		return;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL && i->src == BPF_PSEUDO_CALL) {
			sb_printf(out, "call fn%d", i->imm);
		} else if (op == BPF_CALL) {
			sb_printf(out, "call %s#%d", ir_helper_name(i->imm), i->imm);
		} else if (op == BPF_EXIT) {
			sb_puts(out, "exit");
		} else if (op == BPF_JA) {
			sb_puts(out, "goto ");
			fmt_target(out, i);
		} else {
			sb_puts(out, "if ");
			fmt_reg(out, i->dst, cls == BPF_JMP32);
			sb_printf(out, " %s ", jmp_op(op));
			if (x)
				fmt_reg(out, i->src, cls == BPF_JMP32);
			else if (i->lconst)
				sb_puts(out, plan_load_const_name(i->imm));
			else
				sb_printf(out, "%#x", i->imm);
			sb_puts(out, " goto ");
			fmt_target(out, i);
		}
		return;
	}
	sb_printf(out, "(unknown opcode %#x)", i->code);
}

static void dump_insns(const struct ir *ir, struct strbuf *out)
{
	vec_foreach(&ir->insns, i)
	{
		if (i->kind != IR_LABEL)
			sb_puts(out, "  ");
		ir_format_insn(out, i);
		sb_putc(out, '\n');
	}
}

void ir_dump(const struct ir *ir, struct strbuf *out)
{
	static const char *const kinds[] = {
		[FUNC_MAIN] = "program",
		[FUNC_LOOP_CB] = "bpf_loop callback",
		[FUNC_MAP_CB] = "bpf_for_each_map_elem callback",
	};

	dump_insns(ir, out);
	for (size_t k = 0; k < ir->subs.len; k++) {
		sb_printf(out, "sub%zu: (%s)\n", k, kinds[ir->subs.data[k]->kind]);
		dump_insns(ir->subs.data[k], out);
	}
}

/* Drop instructions no path reaches (code after exit() or return): the
   verifier rejects unreachable instructions. */
void ir_prune(struct ir *ir)
{
	size_t n = ir->insns.len, o = 0;
	int32_t *label_at = util_xmalloc(sizeof(int32_t) * (ir->next_label + 1));
	bool *live = util_xcalloc(n + 1, 1);
	size_t *stack = util_xmalloc(sizeof(size_t) * (n + 1)), sp = 0;

	for (int32_t l = 0; l <= ir->next_label; l++)
		label_at[l] = -1;
	for (size_t i = 0; i < n; i++)
		if (ir->insns.data[i].kind == IR_LABEL)
			label_at[ir->insns.data[i].label] = i;
	if (n)
		stack[sp++] = 0;
	while (sp) {
		size_t i = stack[--sp];
		while (i < n && !live[i]) {
			const struct ir_insn *in = &ir->insns.data[i];
			live[i] = true;
			if (ir_is_jump(in) && in->label >= 0 && label_at[in->label] >= 0 &&
			    !live[label_at[in->label]])
				stack[sp++] = label_at[in->label];
			if (in->kind == IR_INSN &&
			    (in->code == (BPF_JMP | BPF_JA) || in->code == (BPF_JMP | BPF_EXIT)))
				break;
			i++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct ir_insn *in = &ir->insns.data[i];
		if (!live[i])
			continue;
		/* goto L; L: -> nothing */
		if (in->kind == IR_INSN && in->code == (BPF_JMP | BPF_JA)) {
			size_t k = i + 1;
			while (k < n && ir->insns.data[k].kind == IR_LABEL && ir->insns.data[k].label != in->label)
				k++;
			if (k < n && ir->insns.data[k].kind == IR_LABEL)
				continue;
		}
		ir->insns.data[o++] = *in;
	}
	ir->insns.len = o;
	free(label_at);
	free(live);
	free(stack);
}

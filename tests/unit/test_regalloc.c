// SPDX-License-Identifier: MIT
/*
 * Register allocation, tested by running the result: random IR programs
 * (arithmetic, branches, loops, helper calls that clobber r0-r5) go through
 * regalloc() and ir_assemble(), and a small eBPF interpreter here runs the
 * instructions. The value each program leaves in r0 must be the one
 * computed while the program was built.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/regalloc.h"

#define CLOBBER 0xdeadbeefcafef00dull
#define CALL_RESULT 42

/* Run insns; returns r0. Helper calls clobber r1-r5 and return 42. */
static uint64_t interp(const struct bpf_insn *code, int n)
{
	uint64_t r[11] = { 0 };
	uint8_t stack[512];
	int pc = 0, steps = 0;

	memset(stack, 0x5a, sizeof(stack));
	r[10] = (uint64_t)(uintptr_t)(stack + sizeof(stack));
	while (pc < n && steps++ < 1000000) {
		const struct bpf_insn *i = &code[pc];
		uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
		uint64_t src = BPF_SRC(i->code) == BPF_X ? r[i->src_reg] : (uint64_t)(int64_t)i->imm;
		uint64_t *d = &r[i->dst_reg];
		pc++;
		switch (cls) {
		case BPF_ALU64:
			switch (op) {
			case BPF_MOV: *d = src; break;
			case BPF_ADD: *d += src; break;
			case BPF_SUB: *d -= src; break;
			case BPF_MUL: *d *= src; break;
			case BPF_DIV: *d = src ? *d / src : 0; break;
			case BPF_MOD: *d = src ? *d % src : *d; break;
			case BPF_OR: *d |= src; break;
			case BPF_AND: *d &= src; break;
			case BPF_XOR: *d ^= src; break;
			case BPF_LSH: *d <<= (src & 63); break;
			case BPF_RSH: *d >>= (src & 63); break;
			case BPF_ARSH: *d = (uint64_t)((int64_t)*d >> (src & 63)); break;
			case BPF_NEG: *d = -*d; break;
			default: fail_msg("alu64 op %#x", op);
			}
			break;
		case BPF_ALU:
			if (op != BPF_MOV)
				fail_msg("alu32 op %#x", op);
			*d = (uint32_t)src;
			break;
		case BPF_LDX:
			assert_int_equal(BPF_SIZE(i->code), BPF_DW);
			memcpy(d, (void *)(uintptr_t)(r[i->src_reg] + i->off), 8);
			break;
		case BPF_STX:
			assert_int_equal(BPF_SIZE(i->code), BPF_DW);
			memcpy((void *)(uintptr_t)(r[i->dst_reg] + i->off), &r[i->src_reg], 8);
			break;
		case BPF_LD:
			*d = (uint32_t)i->imm | (uint64_t)(uint32_t)code[pc].imm << 32;
			pc++;
			break;
		case BPF_JMP: {
			bool t = false;
			switch (op) {
			case BPF_JA: t = true; break;
			case BPF_JEQ: t = *d == src; break;
			case BPF_JNE: t = *d != src; break;
			case BPF_JGT: t = *d > src; break;
			case BPF_JGE: t = *d >= src; break;
			case BPF_JLT: t = *d < src; break;
			case BPF_JLE: t = *d <= src; break;
			case BPF_JSGT: t = (int64_t)*d > (int64_t)src; break;
			case BPF_JSLT: t = (int64_t)*d < (int64_t)src; break;
			case BPF_CALL:
				for (int k = 1; k <= 5; k++)
					r[k] = CLOBBER + k;
				r[0] = CALL_RESULT;
				break;
			case BPF_EXIT:
				return r[0];
			default: fail_msg("jmp op %#x", op);
			}
			if (t && op != BPF_CALL)
				pc += i->off;
			break;
		}
		default:
			fail_msg("class %#x", cls);
		}
		assert_true(pc >= 0 && pc <= n);
	}
	fail_msg("program did not exit");
	return 0;
}

static uint64_t run(struct ir *ir)
{
	struct bpf_insn *code;
	char err[256];
	int n;

	if (ir_regalloc(ir, err, sizeof(err)) < 0)
		fail_msg("regalloc: %s", err);
	n = ir_assemble(ir, &code, err, sizeof(err));
	if (n < 0)
		fail_msg("assemble: %s", err);
	for (int k = 0; k < n; k++)
		assert_true(code[k].dst_reg <= 10 && code[k].src_reg <= 10);
	uint64_t v = interp(code, n);
	free(code);
	return v;
}

/* n values live across a helper call, then summed: more than r6-r9 can hold. */
static void test_live_across_call(void **state)
{
	for (int n = 1; n <= 40; n++) {
		struct ir ir;
		int32_t v[40], sum;
		uint64_t want = 0;
		ir_init(&ir);
		for (int i = 0; i < n; i++) {
			v[i] = ir_vreg(&ir);
			emit(&ir, MOV64_IMM(v[i], 1000 + i * 7));
			want += 1000 + i * 7;
		}
		emit(&ir, CALL(BPF_FUNC_ktime_get_ns, 0));
		sum = ir_vreg(&ir);
		emit(&ir, MOV64_REG(sum, R0)); /* 42 */
		want += CALL_RESULT;
		for (int i = 0; i < n; i++)
			emit(&ir, ALU64_REG(BPF_ADD, sum, v[i]));
		emit(&ir, MOV64_REG(R0, sum));
		emit(&ir, EXIT_INSN());
		assert_int_equal(run(&ir), want);
		ir_free(&ir);
	}
}

/* Helper arguments: values moved into r1..r5 must not clobber each other. */
static void test_call_arguments(void **state)
{
	struct ir ir;
	int32_t a[5], saved;

	ir_init(&ir);
	for (int i = 0; i < 5; i++) {
		a[i] = ir_vreg(&ir);
		emit(&ir, MOV64_IMM(a[i], i + 1));
	}
	/* r1..r5 = a[4]..a[0]: a reversed permutation needs care */
	for (int i = 0; i < 5; i++)
		emit(&ir, MOV64_REG(R1 + i, a[4 - i]));
	/* r0 = r1*10000 + r2*1000 + r3*100 + r4*10 + r5, before any call */
	saved = ir_vreg(&ir);
	emit(&ir, MOV64_IMM(saved, 0));
	for (int i = 0; i < 5; i++) {
		emit(&ir, ALU64_IMM(BPF_MUL, saved, 10));
		emit(&ir, ALU64_REG(BPF_ADD, saved, R1 + i));
	}
	emit(&ir, MOV64_REG(R0, saved));
	emit(&ir, EXIT_INSN());
	assert_int_equal(run(&ir), 54321);
	ir_free(&ir);
}

/* A loop: values live around the back edge. */
static void test_loop(void **state)
{
	struct ir ir;
	int32_t i = 0, acc, k[6];
	int32_t head, done;
	uint64_t want = 0;

	ir_init(&ir);
	head = ir_label(&ir);
	done = ir_label(&ir);
	i = ir_vreg(&ir);
	acc = ir_vreg(&ir);
	emit(&ir, MOV64_IMM(i, 0));
	emit(&ir, MOV64_IMM(acc, 0));
	for (int j = 0; j < 6; j++) {
		k[j] = ir_vreg(&ir);
		emit(&ir, MOV64_IMM(k[j], j + 1));
	}
	emit(&ir, LABEL(head));
	emit(&ir, JMP_IMM(BPF_JGE, i, 10, done));
	emit(&ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	for (int j = 0; j < 6; j++)
		emit(&ir, ALU64_REG(BPF_ADD, acc, k[j]));
	emit(&ir, ALU64_IMM(BPF_ADD, i, 1));
	emit(&ir, JA(head));
	emit(&ir, LABEL(done));
	for (int it = 0; it < 10; it++)
		want += 21;
	emit(&ir, MOV64_REG(R0, acc));
	emit(&ir, EXIT_INSN());
	assert_int_equal(run(&ir), want);
	ir_free(&ir);
}

/* Random straight-line and branching programs with calls. */
static void test_random(void **state)
{
	srand(12345);
	for (int iter = 0; iter < 400; iter++) {
		struct ir ir;
		int32_t regs[64];
		uint64_t vals[64];
		int nv = 0, steps = 5 + rand() % 60;
		ir_init(&ir);
		for (int s = 0; s < steps; s++) {
			int kind = rand() % 10;
			if (nv < 2 || kind < 3) {
				if (nv == 64)
					continue;
				int64_t c = rand() % 1000 - 500;
				regs[nv] = ir_vreg(&ir);
				emit(&ir, MOV64_IMM(regs[nv], c));
				vals[nv++] = c;
			} else if (kind < 7) {
				/* x = a op b into a new register */
				int a = rand() % nv, b = rand() % nv;
				static const uint8_t ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_XOR, BPF_OR, BPF_AND };
				uint8_t op = ops[rand() % 6];
				uint64_t x = vals[a], y = vals[b];
				if (nv == 64)
					continue;
				regs[nv] = ir_vreg(&ir);
				emit(&ir, MOV64_REG(regs[nv], regs[a]));
				emit(&ir, ALU64_REG(op, regs[nv], regs[b]));
				vals[nv++] = op == BPF_ADD ? x + y : op == BPF_SUB ? x - y : op == BPF_MUL ? x * y
					   : op == BPF_XOR ? x ^ y : op == BPF_OR ? x | y : x & y;
			} else if (kind < 8) {
				emit(&ir, CALL(BPF_FUNC_get_prandom_u32, 0));
			} else {
				/* if (a == a) b += 3; (always taken) and a never-taken branch */
				int a = rand() % nv, b = rand() % nv;
				int32_t skip = ir_label(&ir), over = ir_label(&ir);
				emit(&ir, JMP_REG(BPF_JNE, regs[a], regs[a], skip));
				emit(&ir, ALU64_IMM(BPF_ADD, regs[b], 3));
				vals[b] += 3;
				emit(&ir, LABEL(skip));
				emit(&ir, JMP_REG(BPF_JEQ, regs[a], regs[a], over));
				emit(&ir, ALU64_IMM(BPF_ADD, regs[b], 1000));
				emit(&ir, LABEL(over));
			}
		}
		/* r0 = xor of everything, so every value must have survived */
		int32_t h = ir_vreg(&ir);
		uint64_t want = 0;
		emit(&ir, MOV64_IMM(h, 0));
		for (int i = 0; i < nv; i++) {
			emit(&ir, ALU64_IMM(BPF_MUL, h, 31));
			emit(&ir, ALU64_REG(BPF_XOR, h, regs[i]));
			want = want * 31 ^ vals[i];
		}
		emit(&ir, MOV64_REG(R0, h));
		emit(&ir, EXIT_INSN());
		assert_int_equal(run(&ir), want);
		ir_free(&ir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_across_call),
		cmocka_unit_test(test_call_arguments),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

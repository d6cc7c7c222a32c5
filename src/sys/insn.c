// SPDX-License-Identifier: MIT
/*
 * x86-64 instruction lengths: prefixes, then REX, VEX (C4, C5) or EVEX
 * (62) or XOP (8F), an opcode of one of the maps (one byte, 0F, 0F 38, 0F 3A), its
 * ModRM, SIB and displacement, and its immediate. Only what decides the
 * length is decoded.
 */
#include "sys/insn.h"

#include <stdbool.h>

/* Bit i: one-byte opcode i has a ModRM byte. */
static const uint32_t modrm_1[8] = {
	/* 00-1F: ALU r/m forms x0-x3, x8-xB */
	0x0f0f0f0f,
	/* 20-3F */
	0x0f0f0f0f,
	/* 40-5F: REX, push/pop: none */
	0x00000000,
	/* 60-7F: 62 (EVEX, handled apart), 63 movsxd, 69, 6B imul */
	0x00000a08,
	/* 80-9F: 80-8F */
	0x0000ffff,
	/* A0-BF: none */
	0x00000000,
	/* C0-DF: C0 C1 C4 C5 C6 C7, D0-D3, D8-DF */
	0xff0f00f3,
	/* E0-FF: F6 F7 FE FF */
	0xc0c00000,
};

/* Bit i: 0F opcode i has a ModRM byte. */
static const uint32_t modrm_0f[8] = {
	/* 00-1F: 00-03, 0D, 0F, 10-1F */
	0xffffa00f,
	/* 20-3F: 20-23, 28-2F (38 and 3A escape to the three-byte maps) */
	0x0000ff0f,
	/* 40-5F */
	0xffffffff,
	/* 60-7F: all but 77, 7A, 7B */
	0xf37fffff,
	/* 80-9F: 90-9F */
	0xffff0000,
	/* A0-BF: A3 A4 A5 AB AC AD AE AF, B0-BF */
	0xfffff838,
	/* C0-DF: C0-C7, D0-DF */
	0xffff00ff,
	/* E0-FF */
	0xffffffff,
};

static bool bit(const uint32_t *t, uint8_t op)
{
	return t[op >> 5] >> (op & 31) & 1;
}

/* The bytes after ModRM (SIB, displacement) in 64-bit mode; -1 past n. */
static int modrm_len(const uint8_t *p, size_t n)
{
	uint8_t mod, rm;
	int len = 1;

	if (n < 1)
		return -1;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (n < 2)
			return -1;
		len++;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4; /* no base: disp32 */
	} else if (mod == 0 && rm == 5) {
		len += 4; /* rip-relative */
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	return len;
}

/* Immediate bytes of one-byte opcode op (osz: 2 or 4, the operand size; w: REX.W). */
static int imm_1(uint8_t op, uint8_t reg, int osz, bool w, bool asz32)
{
	if (op < 0x40 && (op & 7) == 4)
		return 1;
	if (op < 0x40 && (op & 7) == 5)
		return osz;
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xb0 && op <= 0xb7) || (op >= 0xe0 && op <= 0xe7))
		return 1;
	if (op >= 0xb8 && op <= 0xbf)
		return w ? 8 : osz;
	if (op >= 0xa0 && op <= 0xa3)
		return asz32 ? 4 : 8; /* moffs */
	switch (op) {
	case 0x6a: case 0x6b: case 0x80: case 0x83: case 0xa8: case 0xc0: case 0xc1: case 0xc6:
	case 0xcd: case 0xeb:
		return 1;
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
		return osz;
	case 0xc2: case 0xca:
		return 2;
	case 0xc8:
		return 3;
	case 0xe8: case 0xe9:
		return 4;
	case 0xf6:
		return reg < 2 ? 1 : 0;
	case 0xf7:
		return reg < 2 ? osz : 0;
	}
	return 0;
}

/* One-byte opcodes that do not exist in 64-bit mode. */
static bool invalid_1(uint8_t op)
{
	switch (op) {
	case 0x06: case 0x07: case 0x0e: case 0x16: case 0x17: case 0x1e: case 0x1f: case 0x27:
	case 0x2f: case 0x37: case 0x3f: case 0x60: case 0x61: case 0x82: case 0x9a: case 0xce:
	case 0xd4: case 0xd5: case 0xd6: case 0xea:
		return true;
	}
	return false;
}

/* Map 1 (0F) opcodes with an imm8, legacy, VEX or EVEX encoded. */
static bool imm8_0f(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xa4 || op == 0xac || op == 0xba ||
	       (op >= 0xc2 && op <= 0xc6) || op == 0x0f;
}

/* VEX or EVEX: the prefix bytes (3 or 2 or 4) are at p; the rest of the instruction */
static int vex_len(const uint8_t *p, size_t n, int pre, int map)
{
	int len = pre, m;
	uint8_t op;

	if ((size_t)len + 1 > n)
		return -1;
	op = p[len++];
	if (map == 1 && op == 0x77 && pre != 4)
		return len; /* vzeroupper, vzeroall */
	if ((m = modrm_len(p + len, n - len)) < 0)
		return -1;
	len += m;
	if (map == 3 || (map == 1 && imm8_0f(op)))
		len++;
	return len;
}

int sys_insn_len_x86_64(const uint8_t *p, size_t n)
{
	bool osz16 = false, asz32 = false, w = false;
	size_t i = 0;
	int m, len;
	uint8_t op;

	/* legacy prefixes and REX (at most 14 bytes of them: an instruction is at most 15);
	   a REX not right before the opcode is ignored */
	for (; i < n && i < 14; i++) {
		uint8_t b = p[i];
		if ((b & 0xf0) == 0x40) {
			w = b & 8;
			continue;
		}
		if (b == 0x66)
			osz16 = true;
		else if (b == 0x67)
			asz32 = true;
		else if (b != 0x26 && b != 0x2e && b != 0x36 && b != 0x3e && b != 0x64 && b != 0x65 &&
			 b != 0xf0 && b != 0xf2 && b != 0xf3)
			break;
		w = false;
	}
	if (i >= n)
		return -1;
	op = p[i];
	if (op == 0xc5) /* 2-byte VEX: map 0F */
		return (len = vex_len(p + i, n - i, 2, 1)) < 0 ? -1 : (int)i + len;
	if (op == 0xc4 && i + 1 < n) /* 3-byte VEX: map in the low bits */
		return (len = vex_len(p + i, n - i, 3, p[i + 1] & 0x1f)) < 0 ? -1 : (int)i + len;
	if (op == 0x62 && i + 1 < n) /* EVEX */
		return (len = vex_len(p + i, n - i, 4, p[i + 1] & 7)) < 0 ? -1 : (int)i + len;
	if (op == 0x8f && i + 1 < n && (p[i + 1] & 0x1f) >= 8) { /* AMD XOP (not pop r/m) */
		int map = p[i + 1] & 0x1f;
		if ((len = vex_len(p + i, n - i, 3, 0)) < 0)
			return -1;
		return (int)i + len + (map == 8 ? 1 : map == 0xa ? 4 : 0);
	}
	if (op != 0x0f) {
		if (invalid_1(op))
			return -1;
		len = (int)i + 1;
		uint8_t reg = 0;
		if (bit(modrm_1, op)) {
			if ((m = modrm_len(p + len, n - len)) < 0)
				return -1;
			reg = p[len] >> 3 & 7;
			len += m;
		}
		len += imm_1(op, reg, osz16 ? 2 : 4, w, asz32);
		return len <= 15 && (size_t)len <= n ? len : -1;
	}
	/* 0F: the two-byte map, or the three-byte maps 0F 38 and 0F 3A */
	if (++i >= n)
		return -1;
	op = p[i];
	len = (int)i + 1;
	if (op == 0x38 || op == 0x3a) {
		if ((size_t)len >= n || (m = modrm_len(p + len + 1, n - len - 1)) < 0)
			return -1;
		len += 1 + m + (op == 0x3a);
	} else {
		if (bit(modrm_0f, op)) {
			if ((m = modrm_len(p + len, n - len)) < 0)
				return -1;
			len += m;
		} else if (op == 0x04 || op == 0x0a || op == 0x0c || (op >= 0x24 && op <= 0x27) ||
			   op == 0x36 || op == 0x39 || (op >= 0x3b && op <= 0x3f) || op == 0xa6 ||
			   op == 0xa7 || op == 0x7a || op == 0x7b) {
			return -1;
		}
		if (op >= 0x80 && op <= 0x8f)
			len += 4; /* jcc rel32 */
		else if (imm8_0f(op))
			len += 1;
	}
	return len <= 15 && (size_t)len <= n ? len : -1;
}

int sys_insn_boundary(const uint8_t *code, size_t n, size_t off, size_t *before, size_t *after)
{
	size_t pos = 0, prev = 0;

#if defined(__x86_64__)
	while (pos < off) {
		int len = sys_insn_len_x86_64(code + pos, n - pos);
		if (len <= 0)
			return -1;
		prev = pos;
		pos += (size_t)len;
	}
#elif defined(__aarch64__)
	prev = off & ~(size_t)3;
	pos = off % 4 ? prev + 4 : off;
#else
	(void)code;
	(void)n;
	return off == 0 ? 1 : -1;
#endif
	*before = prev;
	*after = pos;
	return pos == off;
}

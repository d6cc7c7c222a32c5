/* SPDX-License-Identifier: MIT */
/*
 * USDT probe arguments: each site's note says where its arguments are, as
 * assembly operands with a size ("-4@%edi 8@-16(%rbp) 4@$5": a signed
 * 4-byte register, an 8-byte stack slot, a constant).
 */
#ifndef LANTERN_TYPES_USDT_ARGS_H
#define LANTERN_TYPES_USDT_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum usdt_arg_kind {
	USDT_ARG_CONST, /* $5 */
	USDT_ARG_REG,	/* %edi: the register's value */
	USDT_ARG_MEM,	/* -16(%rbp): memory at the register's value + val;
			   -88(%rsp,%rax,8): + the index register's value * scale */
};

struct usdt_arg {
	enum usdt_arg_kind kind;
	unsigned size; /* bytes: 1, 2, 4 or 8 */
	bool is_signed;
	int16_t reg;   /* REG, MEM: offset in struct pt_regs */
	int16_t index; /* MEM: the index register's offset, -1 without */
	uint8_t scale; /* MEM: what the index is multiplied by (1, 2, 4, 8) */
	int64_t val;   /* CONST: the value, of size bytes, extended by its sign; MEM: the displacement */
};

/* How many arguments an args string has. */
unsigned types_usdt_arg_count(const char *args);
/* Argument n of an args string; -1 with err set (a form lantern cannot read). */
int types_usdt_arg(const char *args, unsigned n, struct usdt_arg *out, char *err, size_t errlen);

#endif

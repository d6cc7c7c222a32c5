// SPDX-License-Identifier: MIT
#include "ast/ast.h"

static const char *const op_names[OP_COUNT_] = {
	[OP_NONE] = "", [OP_LOR] = "||",   [OP_LAND] = "&&",   [OP_BOR] = "|",
	[OP_BXOR] = "^", [OP_BAND] = "&",  [OP_EQ] = "==",     [OP_NE] = "!=",
	[OP_LT] = "<",	 [OP_LE] = "<=",   [OP_GT] = ">",      [OP_GE] = ">=",
	[OP_SHL] = "<<", [OP_SHR] = ">>",  [OP_ADD] = "+",     [OP_SUB] = "-",
	[OP_MUL] = "*",	 [OP_DIV] = "/",   [OP_MOD] = "%",     [OP_NEG] = "-",
	[OP_PLUS] = "+", [OP_LNOT] = "!",  [OP_BNOT] = "~",    [OP_DEREF] = "*",
	[OP_ADDR] = "&", [OP_PREINC] = "++", [OP_PREDEC] = "--", [OP_POSTINC] = "++",
	[OP_POSTDEC] = "--",
};

const char *ast_op_str(enum op op)
{
	return op < OP_COUNT_ ? op_names[op] : "?";
}

void ast_note_modern(struct program *prog, struct span sp, const char *what)
{
	if (prog->modern_what)
		return;
	prog->modern_what = what;
	prog->modern_span = sp;
}

/* SPDX-License-Identifier: MIT */
/*
 * Integer constant expressions as C headers and #define lines write them:
 * literals (decimal, hex, octal, with U/L suffixes; 'c'), ( ), unary - + ~ !,
 * * / % + - << >> < <= > >= == != & ^ | && || ?:, casts to integer types
 * ("(unsigned long)1"), and names of other constants. No preprocessor
 * beyond that.
 */
#ifndef LANTERN_TYPES_CEXPR_H
#define LANTERN_TYPES_CEXPR_H

#include <stdbool.h>
#include <stdint.h>

/* What a name in the expression is worth; false when it is unknown. */
typedef bool (*cexpr_name_fn)(void *ctx, const char *name, int64_t *value);

/* Evaluate text (up to its end); false when it is not such an expression. */
bool types_cexpr_eval(const char *text, cexpr_name_fn names, void *ctx, int64_t *value);

#endif

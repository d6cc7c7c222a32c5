/* SPDX-License-Identifier: MIT */
/* Growable arrays: VEC(int) v = {0}; vec_push(&v, 3); vec_free(&v); */
#ifndef LANTERN_BASE_VEC_H
#define LANTERN_BASE_VEC_H

#include <stdlib.h>

#include "base/util.h"

#define VEC(T)                                                                                     \
	struct {                                                                                   \
		T *data;                                                                           \
		size_t len, cap;                                                                   \
	}

#define vec_reserve(v, n)                                                                          \
	do {                                                                                       \
		if ((v)->len + (n) > (v)->cap) {                                                   \
			size_t c_ = (v)->cap ? (v)->cap * 2 : 8;                                   \
			while (c_ < (v)->len + (n))                                                \
				c_ *= 2;                                                           \
			(v)->data = util_xrealloc((v)->data, c_ * sizeof(*(v)->data));                  \
			(v)->cap = c_;                                                             \
		}                                                                                  \
	} while (0)

#define vec_push(v, x)                                                                             \
	do {                                                                                       \
		vec_reserve(v, 1);                                                                 \
		(v)->data[(v)->len++] = (x);                                                       \
	} while (0)

#define vec_last(v) ((v)->data[(v)->len - 1])

#define vec_free(v)                                                                                \
	do {                                                                                       \
		free((v)->data);                                                                   \
		(v)->data = NULL;                                                                  \
		(v)->len = (v)->cap = 0;                                                           \
	} while (0)

#define vec_foreach(v, it) for (__typeof__((v)->data + 0) it = (v)->data; it && it < (v)->data + (v)->len; it++)

#endif

/* SPDX-License-Identifier: MIT */
/* Internal to sema: the checking context shared by check.c and builtins.c. */
#ifndef LANTERN_SEMA_CHECK_H
#define LANTERN_SEMA_CHECK_H

#include "sema/sema.h"

struct check {
	struct session *s;
	struct probe *probe;
	struct probe_inst *inst;
	VEC(struct var_info *) vars;
	bool final;   /* report errors (the last pass) */
	bool changed; /* a map type was learned or widened */
	int loops;    /* while loops around the current statement */
};

#define CERR(c, sp, code, ...)                                                                     \
	do {                                                                                       \
		if ((c)->final)                                                                    \
			diag_error(&(c)->s->diag, (sp), (code), __VA_ARGS__);                      \
	} while (0)
#define CHINT(c, ...)                                                                              \
	do {                                                                                       \
		if ((c)->final)                                                                    \
			diag_hint(&(c)->s->diag, __VA_ARGS__);                                     \
	} while (0)

struct type *check_expr(struct check *c, struct expr *e);
/* e must be an integer (or pointer): reports and returns false otherwise. */
bool check_int(struct check *c, struct expr *e, const char *what);
/* e must be an integer constant; *v receives it. */
bool check_const_int(struct check *c, struct expr *e, int64_t *v, const char *what);

/* e.field / e->field and e[i] (check_access.c) */
struct type *check_field(struct check *c, struct expr *e);
struct type *check_index(struct check *c, struct expr *e);

struct map_info *map_get(struct check *c, const char *name, struct span sp);
/* Record / verify the key types of a map access. */
void map_learn_keys(struct check *c, struct map_info *m, struct expr *map_expr);
void map_learn_value(struct check *c, struct map_info *m, struct type *t, struct span sp);

#endif

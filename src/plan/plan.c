// SPDX-License-Identifier: MIT
#include "plan/plan.h"
#include "plan/provider.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void plan_init(struct plan *p, const struct compile_opts *opts)
{
	memset(p, 0, sizeof(*p));
	p->opts = opts;
	source_init(&p->src, opts->script_name, opts->script, strlen(opts->script));
	diag_init(&p->diag, &p->src);
	maps_init(&p->maps);
	type_env_init(&p->types, &p->arena);
}

const char *plan_param(const struct plan *p, uint32_t n)
{
	return n >= 1 && n <= (uint32_t)p->opts->nparams ? p->opts->params[n - 1] : NULL;
}

bool plan_param_int(const struct plan *p, uint32_t n, int64_t *v)
{
	const char *text = plan_param(p, n);
	char *end;

	*v = 0;
	if (!text)
		return true;
	if (!*text)
		return false;
	errno = 0;
	*v = strtoll(text, &end, 0);
	if (errno == ERANGE && text[0] != '-') {
		/* past INT64_MAX: an unsigned 64-bit number (0xffffffffffffffff) */
		errno = 0;
		*v = (int64_t)strtoull(text, &end, 0);
	}
	return !*end && !errno;
}

void plan_free(struct plan *p)
{
	vec_foreach(&p->progs, pp)
	{
		free((*pp)->insns);
		vec_free(&(*pp)->insts);
		vec_free(&(*pp)->vars);
	}
	vec_foreach(&p->deferred, d) d->fn(d->p);
	vec_free(&p->deferred);
	vec_free(&p->insts);
	vec_free(&p->probe_names);
	vec_free(&p->progs);
	vec_free(&p->records);
	vec_free(&p->script_options);
	vec_free(&p->expansions);
	maps_free(&p->maps);
	type_env_free(&p->types);
	diag_free(&p->diag);
	source_free(&p->src);
	arena_free(&p->arena);
}

void plan_defer_free(struct plan *p, void (*fn)(void *), void *ptr)
{
	struct deferred d = { fn, ptr };
	vec_push(&p->deferred, d);
}

struct probe_inst *plan_add_inst(struct plan *p, struct probe *pr, struct attach_point *ap,
				 const struct provider *prov, const char *name)
{
	struct probe_inst *in = ARENA_NEW(&p->arena, struct probe_inst);

	in->probe = pr;
	in->ap = ap;
	in->prov = prov;
	in->name = arena_strdup(&p->arena, name);
	in->prog = -1;
	/* the same name twice (two probes on one tracepoint) shares an id */
	in->probe_id = p->probe_names.len;
	for (size_t i = 0; i < p->probe_names.len; i++)
		if (!strcmp(p->probe_names.data[i], in->name)) {
			in->probe_id = i;
			break;
		}
	if (in->probe_id == p->probe_names.len)
		vec_push(&p->probe_names, in->name);
	vec_push(&p->insts, in);
	return in;
}

struct prog *plan_add_prog(struct plan *p, struct probe *pr, struct probe_inst *in)
{
	struct prog *pg = ARENA_NEW(&p->arena, struct prog);

	pg->probe = pr;
	pg->inst = in;
	pg->index = p->progs.len;
	pg->name = in->name;
	vec_push(&p->progs, pg);
	return pg;
}

void plan_prog_attach_inst(struct prog *pg, struct probe_inst *in)
{
	in->prog = pg->index;
	vec_push(&pg->insts, in);
}

uint32_t plan_add_record(struct plan *p, struct record_desc *r)
{
	vec_push(&p->records, r);
	return p->records.len - 1;
}

struct prog *plan_prog_of(const struct plan *p, int provider_id)
{
	vec_foreach(&p->insts, ip)
	{
		if ((int)(*ip)->prov->id == provider_id && (*ip)->prog >= 0)
			return p->progs.data[(*ip)->prog];
	}
	return NULL;
}

const struct provider *plan_provider_find(const struct provider *const *table, const char *name)
{
	for (int i = 0; i < PROV_COUNT_; i++) {
		const struct provider *pv = table[i];
		if (!strcmp(name, pv->name) || (pv->alias && !strcmp(name, pv->alias)))
			return pv;
	}
	/* bpftrace's other spellings */
	if (!strcmp(name, "fentry"))
		return table[PROV_KFUNC];
	if (!strcmp(name, "fexit"))
		return table[PROV_KRETFUNC];
	return NULL;
}

const struct provider *plan_provider_find_nocase(const struct provider *const *table,
						 const char *name)
{
	for (int i = 0; i < PROV_COUNT_; i++) {
		const struct provider *pv = table[i];
		if (!strcasecmp(name, pv->name) || (pv->alias && !strcasecmp(name, pv->alias)))
			return pv;
	}
	if (!strcasecmp(name, "fentry"))
		return table[PROV_KFUNC];
	if (!strcasecmp(name, "fexit"))
		return table[PROV_KRETFUNC];
	return NULL;
}

const char *plan_probetype_name(const struct provider *prov)
{
	switch (prov->id) {
	case PROV_BEGIN:
	case PROV_END:
	case PROV_SELF:
		return "special";
	case PROV_KFUNC:
		return "fentry";
	case PROV_KRETFUNC:
		return "fexit";
	default:
		return prov->name;
	}
}

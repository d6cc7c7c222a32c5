// SPDX-License-Identifier: MIT
/*
 * From typed AST to loaded programs: plan programs and maps, generate code,
 * create maps, allocate registers, assemble, load (with the verifier's log
 * on failure), and attach.
 */
#include "runtime/load.h"
#include "codegen/gen.h"
#include "codegen/regalloc.h"
#include "codegen/scratch.h"
#include "probes/provider.h"
#include "probes/syscalls.h"
#include "runtime/bpfsys.h"
#include "sema/sema.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int add_bpf_map(struct session *s, const char *name, enum bpf_map_type type,
		       uint32_t key_size, uint32_t value_size, uint32_t max_entries)
{
	struct bpf_map_desc d = { .name = name, .type = type, .key_size = key_size,
				  .value_size = value_size, .max_entries = max_entries, .fd = -1 };
	vec_push(&s->bpf_maps, d);
	return s->bpf_maps.len - 1;
}

/*
 * The ring buffer: big when a traced event prints (printf, join, system,
 * cat: probe_prints), small when only BEGIN/END print or records are rare
 * (exit, print, time): its pages are mapped into lantern and count in its
 * memory. LANTERN_RINGBUF_KB overrides.
 */
static uint32_t ringbuf_bytes(struct session *s)
{
	const char *e = getenv("LANTERN_RINGBUF_KB");
	long page = sysconf(_SC_PAGESIZE);
	uint64_t want = 64 * 1024;
	uint64_t n = page;

	vec_foreach(&s->insts, ip)
	{
		enum provider_id id = (*ip)->prov->id;
		if (id != PROV_BEGIN && id != PROV_END && probe_prints((*ip)->probe))
			want = 2u << 20;
	}
	if (e)
		want = strtoull(e, NULL, 10) * 1024;

	/* a power of two, at least a page */
	while (n < want && n < (1u << 30))
		n <<= 1;
	return n;
}

void plan_maps(struct session *s)
{
	vec_foreach(&s->maps, mp)
	{
		struct map_info *m = *mp;
		struct type *v = m->value;
		bool bucket = v->kind == TY_HIST || v->kind == TY_LHIST;
		enum bpf_map_type type = BPF_MAP_TYPE_HASH;
		uint32_t max = 4096;

		m->percpu = type_is_agg(v);
		m->array = !m->key && v->kind == TY_COUNT;
		m->key_size = (m->key ? m->key->size : 8) + (bucket ? 8 : 0);
		if (m->array) {
			type = BPF_MAP_TYPE_PERCPU_ARRAY;
			m->key_size = 4;
			max = 1;
		} else if (m->percpu) {
			type = BPF_MAP_TYPE_PERCPU_HASH;
			if (bucket)
				max = 4096 * 4;
		}
		m->bpf_map = add_bpf_map(s, arena_printf(&s->arena, "@%s", m->name), type, m->key_size,
					 v->size, max);
	}
	vec_foreach(&s->progs, pp)
	{
		struct prog_desc *pd = *pp;
		if (pd->sysgroup)
			pd->sysmap = add_bpf_map(s, pd->sysgroup == SYSGROUP_ENTER ? "sys_enter" : "sys_exit",
						 BPF_MAP_TYPE_ARRAY, 4, 4, SYSCALL_NR_LIMIT);
	}
	s->scratch_map = add_bpf_map(s, "scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1);
	s->ringbuf_map = add_bpf_map(s, "events", BPF_MAP_TYPE_RINGBUF, 0, 0, ringbuf_bytes(s));
	s->lost_map = add_bpf_map(s, "lost", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1);
}

/* One stack trace map per kind (kernel, user) and depth: the kernel tells
   stacks apart by their first `frames` frames. */
const struct stack_map *stack_map_find(struct session *s, const struct type *t)
{
	vec_foreach(&s->stack_maps, sm)
	{
		if (sm->user == t->user && sm->frames == t->count)
			return sm;
	}
	return NULL;
}

int stack_map_for(struct session *s, const struct type *t)
{
	const struct stack_map *found = stack_map_find(s, t);

	if (found)
		return found->bpf_map;
	struct stack_map sm = { t->user, t->count, -1 };
	sm.bpf_map = add_bpf_map(s, arena_printf(&s->arena, "%cstack%u", t->user ? 'u' : 'k', t->count),
				 BPF_MAP_TYPE_STACK_TRACE, 4, t->count * 8, 4096);
	vec_push(&s->stack_maps, sm);
	return sm.bpf_map;
}

static struct prog_desc *new_prog(struct session *s, struct probe *p, struct probe_inst *in)
{
	struct prog_desc *pd = ARENA_NEW(&s->arena, struct prog_desc);

	pd->probe = p;
	pd->inst = in;
	pd->fd = -1;
	pd->sysmap = -1;
	pd->index = s->progs.len;
	pd->name = in->name;
	vec_push(&s->progs, pd);
	return pd;
}

/*
 * A probe on this many syscalls:sys_enter_X (or sys_exit_X) tracepoints or
 * more runs as one program on raw_syscalls:sys_enter (sys_exit) that looks
 * the syscall number up: attaching and detaching hundreds of tracepoints
 * takes seconds (each detach waits for RCU grace periods), one raw
 * tracepoint takes nothing. Below it, separate tracepoints are cheaper for
 * the syscalls not traced, which then run no program at all. A probe that
 * reads `args` fields other than those every syscall has (__syscall_nr,
 * and ret on exit) keeps its tracepoints: the others differ per syscall.
 * LANTERN_SYSGROUP_MIN overrides it (tests and benchmarks compare both).
 */
#define SYSGROUP_MIN 8

static struct prog_desc *new_group(struct session *s, struct probe *p, struct probe_inst *in,
				   enum sys_group sg, uint32_t n)
{
	struct prog_desc *pd = new_prog(s, p, in);

	pd->sysgroup = sg;
	pd->name = arena_printf(&s->arena, "%s%s (%u tracepoints as raw_syscalls:%s)", in->ap->text,
				p->naps > 1 ? ",..." : "", n,
				sg == SYSGROUP_ENTER ? "sys_enter" : "sys_exit");
	return pd;
}

void plan_programs(struct session *s)
{
	const char *e = getenv("LANTERN_SYSGROUP_MIN");
	uint32_t group_min = MAX(e ? (uint32_t)strtoul(e, NULL, 10) : SYSGROUP_MIN, 1);

	for (uint32_t i = 0; i < s->prog->nprobes; i++) {
		struct probe *p = s->prog->probes[i];
		static const char *const enter_fields[] = { "__syscall_nr", NULL };
		static const char *const exit_fields[] = { "__syscall_nr", "ret", NULL };
		bool per = probe_per_instance(p);
		bool can[SYSGROUP_EXIT + 1] = { false, probe_args_only(p, enter_fields),
						probe_args_only(p, exit_fields) };
		struct prog_desc *shared = NULL, *group[SYSGROUP_EXIT + 1] = { NULL };
		uint32_t in_group[SYSGROUP_EXIT + 1] = { 0 };

		vec_foreach(&s->insts, ip)
		{
			if ((*ip)->probe == p)
				in_group[tp_sys_group(*ip)]++;
		}
		vec_foreach(&s->insts, ip)
		{
			struct probe_inst *in = *ip;
			struct prog_desc *pd = shared;
			enum sys_group sg;
			if (in->probe != p)
				continue;
			sg = tp_sys_group(in);
			if (can[sg] && in_group[sg] >= group_min) {
				if (!group[sg])
					group[sg] = new_group(s, p, in, sg, in_group[sg]);
				pd = group[sg];
			} else if (!pd) {
				pd = new_prog(s, p, in);
				if (!per)
					shared = pd;
			}
			in->prog = pd->index;
			vec_push(&pd->insts, in);
		}
	}
}

int generate(struct session *s)
{
	uint32_t scratch = 8;
	int rc = 0;

	vec_foreach(&s->progs, pp)
	{
		struct prog_desc *pd = *pp;
		sema_retype(s, pd);
		pd->type = pd->inst->prov->prog_type(s, pd);
		/* A probe that prints on kernel events would see lantern's own
		   writes of what it printed, and feed on them. */
		pd->skip_self = pd->inst->prov->id == PROV_TRACEPOINT &&
				(probe_prints(pd->probe) || probe_calls(pd->probe, FN_PRINT) ||
				 probe_calls(pd->probe, FN_TIME));
		if (gen_program(s, pd) < 0)
			rc = -1;
		scratch = MAX(scratch, pd->scratch_size);
	}
	s->bpf_maps.data[s->scratch_map].value_size = scratch;
	s->bpf_maps.data[s->scratch_map].max_entries = s->progs.len ? s->progs.len : 1;
	return rc;
}

static void map_name(char *out, size_t n, const char *name)
{
	/* BPF object names: 15 characters of [A-Za-z0-9_.] */
	size_t k = 0;

	for (const char *p = "lt_"; *p && k + 1 < n; p++)
		out[k++] = *p;
	for (const char *p = name + (*name == '@'); *p && k + 1 < n && k < 15; p++)
		out[k++] = (isalnum((unsigned char)*p) || *p == '_' || *p == '.') ? *p : '_';
	out[k] = 0;
}

int create_maps(struct session *s)
{
	vec_foreach(&s->bpf_maps, d)
	{
		char name[16];
		map_name(name, sizeof(name), d->name);
		d->fd = sys_map_create(d->type, name, d->key_size, d->value_size, d->max_entries);
		if (d->fd >= 0 && s->opts->verbose)
			fprintf(stderr,
				"lantern: map %s: type %d, key %u bytes, value %u bytes, %u "
				"entries\n",
				d->name, d->type, d->key_size, d->value_size, d->max_entries);
		if (d->fd < 0) {
			int e = errno;
			diag_error(&s->diag, SPAN_NONE, E_MAP_CREATE,
				   "cannot create map %s (key %u bytes, value %u bytes, %u "
				   "entries): %s",
				   d->name, d->key_size, d->value_size, d->max_entries,
				   strerror(e));
			if (e == EPERM)
				diag_hint(&s->diag, "lantern needs root (CAP_BPF and CAP_PERFMON)");
			return -1;
		}
	}
	/* each syscall of a raw_syscalls group: its probe id + 1 */
	vec_foreach(&s->progs, pp)
	{
		struct prog_desc *pd = *pp;
		if (!pd->sysgroup)
			continue;
		vec_foreach(&pd->insts, ip)
		{
			uint32_t key = (*ip)->sysnr, value = (*ip)->probe_id + 1;
			if (bpf_map_update_elem(s->bpf_maps.data[pd->sysmap].fd, &key, &value, 0) <
			    0) {
				diag_error(&s->diag, SPAN_NONE, E_MAP_CREATE,
					   "cannot fill the syscall map of %s: %s", pd->name,
					   strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

static int load_prog(struct session *s, struct prog_desc *pd)
{
	char name[16];
	size_t logsz = 4u << 20;
	char *log;

	map_name(name, sizeof(name), pd->name);
	pd->fd = sys_prog_load(pd->type, name, pd->insns, pd->ninsns, NULL, 0);
	if (pd->fd >= 0)
		return 0;

	/* Again, with the verifier's log. */
	log = xmalloc(logsz);
	log[0] = 0;
	pd->fd = sys_prog_load(pd->type, name, pd->insns, pd->ninsns, log, logsz);
	if (pd->fd >= 0) {
		free(log);
		return 0;
	}
	int e = errno;
	diag_error(&s->diag, pd->probe->span, E_VERIFIER,
		   "the kernel refused the program of %s: %s", pd->name, strerror(e));
	if (log[0]) {
		/* the end of the log says why */
		size_t len = strlen(log);
		const char *start = log;
		int lines = 0;
		for (const char *p = log + len; p > log; p--)
			if (p[-1] == '\n' && ++lines > 40) {
				start = p;
				break;
			}
		sb_printf(&s->diag.out, "verifier log%s:\n%s", start != log ? " (last 40 lines)" : "",
			  start);
	} else if (e == EPERM) {
		diag_hint(&s->diag, "lantern needs root (CAP_BPF and CAP_PERFMON)");
	}
	free(log);
	return -1;
}

int load_programs(struct session *s)
{
	int *fds = xmalloc(sizeof(int) * (s->bpf_maps.len + 1));
	char err[256];
	int rc = 0;

	/* -d bpf creates no maps: the listing shows map numbers instead of fds */
	for (size_t i = 0; i < s->bpf_maps.len; i++)
		fds[i] = s->opts->dump ? (int)i : s->bpf_maps.data[i].fd;
	vec_foreach(&s->progs, pp)
	{
		struct prog_desc *pd = *pp;
		if (regalloc(&pd->ir, err, sizeof(err)) < 0 ||
		    (pd->ninsns = ir_assemble(&pd->ir, fds, &pd->insns, err, sizeof(err))) < 0) {
			diag_error(&s->diag, pd->probe->span, E_CODEGEN, "%s: %s", pd->name, err);
			rc = -1;
			continue;
		}
		if ((s->opts->dump & DUMP_BPF)) {
			struct strbuf sb = { 0 };
			sb_printf(&sb, "; %s\n", pd->name);
			bpf_dump(pd->insns, pd->ninsns, &sb);
			fputs(sb_str(&sb), stdout);
			sb_free(&sb);
		}
		if (s->opts->dump)
			continue; /* -d: show, do not load */
		if (load_prog(s, pd) < 0) {
			rc = -1;
			break;
		}
		if (s->opts->verbose)
			fprintf(stderr,
				"lantern: %s: %d instructions, %u bytes of scratch, %zu attach "
				"point%s\n",
				pd->name, pd->ninsns, pd->scratch_size, pd->insts.len,
				pd->insts.len == 1 ? "" : "s");
	}
	free(fds);
	return rc;
}

int attach_all(struct session *s)
{
	/* Tests make the Nth attachment fail, to check the teardown of the others. */
	const char *inject = getenv("LANTERN_TEST_FAIL_ATTACH");
	int fail_at = inject ? atoi(inject) : 0, n = 0;
	char err[512];

	vec_foreach(&s->progs, pp)
	{
		struct prog_desc *pd = *pp;
		vec_foreach(&pd->insts, ip)
		{
			struct probe_inst *in = *ip;
			if (!in->prov->attach)
				continue;
			if (++n == fail_at) {
				diag_error(&s->diag, in->ap->span, E_ATTACH,
					   "cannot attach %s: failure injected by "
					   "LANTERN_TEST_FAIL_ATTACH",
					   in->name);
				return -1;
			}
			if (in->prov->attach(s, pd, in, err, sizeof(err)) < 0) {
				diag_error(&s->diag, in->ap->span, E_ATTACH, "%s", err);
				return -1;
			}
		}
	}
	return 0;
}

struct closer {
	struct attachment *a;
	size_t n;
};

static void close_attachments(struct attachment *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i].link_fd >= 0)
			close(a[i].link_fd);
		if (a[i].perf_fd >= 0)
			close(a[i].perf_fd);
	}
}

static void *closer_main(void *arg)
{
	struct closer *c = arg;
	close_attachments(c->a, c->n);
	return NULL;
}

/*
 * Releasing a tracepoint attachment waits for an RCU grace period in the
 * kernel (tens of milliseconds). One after another, hundreds of probes take
 * half a minute; released from many threads at once, their waits share
 * grace periods.
 */
#define CLOSERS 64

void detach_all(struct session *s)
{
	size_t n = s->attachments.len, nthreads = MIN(CLOSERS, n / 4);
	pthread_t tid[CLOSERS];
	struct closer work[CLOSERS];
	size_t started = 0, done = 0;

	if (!n)
		return;

	for (size_t t = 0; t < nthreads; t++) {
		size_t end = n * (t + 1) / nthreads;
		work[t] = (struct closer){ s->attachments.data + done, end - done };
		if (pthread_create(&tid[t], NULL, closer_main, &work[t]) != 0)
			break;
		done = end;
		started++;
	}
	close_attachments(s->attachments.data + done, n - done);
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	s->attachments.len = 0;
}

void release_all(struct session *s)
{
	detach_all(s);
	vec_foreach(&s->progs, pp)
	{
		struct prog_desc *pd = *pp;
		if (pd->fd >= 0)
			close(pd->fd);
		pd->fd = -1;
		free(pd->insns);
		pd->insns = NULL;
		ir_free(&pd->ir);
		vec_free(&pd->insts);
		vec_free(&pd->vars);
	}
	vec_foreach(&s->bpf_maps, d)
	{
		if (d->fd >= 0)
			close(d->fd);
		d->fd = -1;
	}
}

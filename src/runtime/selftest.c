// SPDX-License-Identifier: MIT
/*
 * --test and --bench: the script's test:NAME (bench:NAME) probes, run one
 * by one by lantern (BPF_PROG_TEST_RUN), after BEGIN and before END; no
 * other probe is attached.
 *
 * A test passes when it returns 0 and neither calls exit() with a status
 * other than 0 nor reports an error (errorf, a failed assert). What a test
 * prints is shown only when it fails, between its RUN and FAILED lines, in
 * the layout of bpftrace's --test (googletest's); the status is 1 when a
 * test failed.
 *
 * A benchmark runs until it has run for at least a millisecond, the
 * number of runs growing tenfold (then doubling) each time, its output
 * thrown away; the table gives the mean time of a run, which includes the
 * system call that runs it (a raw tracepoint program runs once per call).
 * A benchmark that returns non-zero is skipped; one that reports an error
 * fails the run.
 */
#include "output/json.h"
#include "runtime/loop.h"
#include "runtime/records.h"
#include "sys/ringbuf.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define GREEN "\033[32m"
#define RED "\033[31m"
#define RESET "\033[0m"

struct runner {
	struct session *s;
	struct loop l;
	struct ringbuf rb;
};

/* Everything the probes sent, handled now */
static void drain(struct runner *r)
{
	r->l.deadline = UINT64_MAX;
	while (sys_ringbuf_consume(&r->rb) > 0)
		;
	rt_out_flush(r->s);
}

/* Run prog once; its return value, or -1 with errno when it could not run */
static int64_t run_once(struct runner *r, const struct prog *pg, uint64_t *ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	uint64_t t0 = util_now_ns();

	if (bpf_prog_test_run_opts(r->s->prog_fds[pg->index], &opts) < 0)
		return -1;
	*ns = util_now_ns() - t0;
	return opts.retval;
}

/* A test's or benchmark's name: NAME of test:NAME */
static const char *name_of(const struct probe_inst *in)
{
	return in->data;
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "(12 us)": the time a test took */
static void put_duration(FILE *f, uint64_t ns)
{
	if (ns >= 1000000000ull)
		fprintf(f, " (%llu s)\n", (unsigned long long)(ns / 1000000000ull));
	else if (ns >= 1000000ull)
		fprintf(f, " (%llu ms)\n", (unsigned long long)(ns / 1000000ull));
	else if (ns >= 1000ull)
		fprintf(f, " (%llu us)\n", (unsigned long long)(ns / 1000ull));
	else
		fprintf(f, " (%llu ns)\n", (unsigned long long)ns);
}

/* One test, its output caught; whether it passed */
static bool run_test(struct runner *r, const struct probe_inst *in, uint64_t *ns,
		     char **text, size_t *len)
{
	struct session *s = r->s;
	const struct prog *pg = s->plan.progs.data[in->prog];
	FILE *out = s->out, *err = s->errout, *mem = open_memstream(text, len);
	uint64_t errors = r->l.script_errors;
	int64_t ret;

	if (!mem)
		return false;
	fflush(out);
	s->out = s->errout = mem;
	s->exit_code = 0;
	r->l.exit_seen = false;
	ret = run_once(r, pg, ns);
	if (ret < 0)
		fprintf(mem, "ERROR: cannot run %s: %s\n", in->name, strerror(errno));
	drain(r);
	fclose(mem);
	s->out = out;
	s->errout = err;
	return ret == 0 && s->exit_code == 0 && r->l.script_errors == errors;
}

static int run_tests(struct runner *r)
{
	struct session *s = r->s;
	FILE *f = s->out;
	size_t n = 0, failed = 0, i = 0;
	bool *passed;

	vec_foreach(&s->plan.insts, ip) n += (*ip)->prov->id == PROV_TEST;
	passed = util_xcalloc(n + 1, sizeof(*passed));
	fprintf(f, GREEN "[==========]" RESET " Running %zu %s.\n", n, plural(n, "test", "tests"));
	vec_foreach(&s->plan.insts, ip)
	{
		const struct probe_inst *in = *ip;
		char *text = NULL;
		size_t len = 0;
		uint64_t ns = 0;
		if (in->prov->id != PROV_TEST || in->prog < 0)
			continue;
		fprintf(f, GREEN "[ RUN      ]" RESET " %s\n", name_of(in));
		passed[i] = run_test(r, in, &ns, &text, &len);
		if (passed[i]) {
			fprintf(f, GREEN "[       OK ]" RESET " %s", name_of(in));
		} else {
			/* what it printed, without its blank lines */
			for (char *line = text, *next; line && *line; line = next) {
				next = strchr(line, '\n');
				size_t ll = next ? (size_t)(next - line) : strlen(line);
				if (ll)
					fprintf(f, "%.*s\n", (int)ll, line);
				next = next ? next + 1 : NULL;
			}
			fprintf(f, RED "[  FAILED  ]" RESET " %s", name_of(in));
			failed++;
		}
		put_duration(f, ns);
		free(text);
		i++;
	}
	fprintf(f, GREEN "[==========]" RESET " %zu %s ran.\n", n, plural(n, "test", "tests"));
	fprintf(f, GREEN "[  PASSED  ]" RESET " %zu %s.\n", n - failed,
		plural(n - failed, "test", "tests"));
	if (failed) {
		fprintf(f, RED "[  FAILED  ]" RESET " %zu %s, listed below:\n", failed,
			plural(failed, "test", "tests"));
		i = 0;
		vec_foreach(&s->plan.insts, ip)
		{
			if ((*ip)->prov->id != PROV_TEST || (*ip)->prog < 0)
				continue;
			if (!passed[i++])
				fprintf(f, RED "[  FAILED  ]" RESET " %s\n", name_of(*ip));
		}
	}
	free(passed);
	return failed ? 1 : 0;
}

/* One benchmark: the mean time of a run over at least a millisecond, and the runs */
static int run_bench(struct runner *r, const struct probe_inst *in, uint64_t *mean,
		     uint64_t *iters)
{
	struct session *s = r->s;
	const struct prog *pg = s->plan.progs.data[in->prog];
	FILE *out = s->out, *err = s->errout, *null = fopen("/dev/null", "we");
	uint64_t n = 1, total, errors = r->l.script_errors;
	int rc = 0;

	if (!null)
		return -1;
	s->out = s->errout = null;
	for (;;) {
		uint64_t ns;
		int64_t ret = 0;
		total = 0;
		s->exit_code = 0;
		for (uint64_t k = 0; k < n && ret == 0; k++) {
			ret = run_once(r, pg, &ns);
			total += ns;
			if (!(k & 1023))
				drain(r);
		}
		drain(r);
		if (ret < 0 || s->exit_code || r->l.script_errors != errors) {
			rc = -1;
			break;
		}
		if (ret != 0) { /* it asks to be skipped */
			rc = 1;
			break;
		}
		if (total >= 1000000 || n >= (1ull << 24))
			break;
		n *= total < 100000 ? 10 : 2;
	}
	fclose(null);
	s->out = out;
	s->errout = err;
	*mean = n ? total / n : 0;
	*iters = n;
	return rc;
}

static int run_benches(struct runner *r)
{
	struct session *s = r->s;
	FILE *f = s->out;
	size_t width = 40;
	int status = 0;
	bool head = false;

	vec_foreach(&s->plan.insts, ip) if ((*ip)->prov->id == PROV_BENCH) width =
		MAX(width, strlen(name_of(*ip)));
	vec_foreach(&s->plan.insts, ip)
	{
		const struct probe_inst *in = *ip;
		uint64_t mean = 0, iters = 0;
		if (in->prov->id != PROV_BENCH || in->prog < 0)
			continue;
		bool json = s->opts->r.format == OUTPUT_JSON;
		if (!head && !json) {
			fprintf(f, "%-*s%-15s%s\n", (int)width + 1, "Benchmark", "Time(ns)", "Iterations");
			for (size_t k = 0; k < width + 1 + 15 + 10; k++)
				fputc('-', f);
			fputc('\n', f);
			head = true;
		}
		int rc = run_bench(r, in, &mean, &iters);
		if (rc < 0) {
			fprintf(stderr, "ERROR: Benchmark '%s' failed.\n", name_of(in));
			status = 1;
		} else if (rc == 0 && json) { /* bpftrace's object */
			struct strbuf sb = { 0 };
			sb_puts(&sb, "{\"type\": \"benchmark_result\", \"data\": {");
			out_json_string(&sb, name_of(in), strlen(name_of(in)));
			sb_printf(&sb, ": {\"average\": %llu, \"iters\": %llu}}}\n",
				  (unsigned long long)mean, (unsigned long long)iters);
			fputs(sb_str(&sb), f);
			sb_free(&sb);
		} else if (rc == 0) {
			fprintf(f, "%-*s%-15llu%llu\n", (int)width + 1, name_of(in),
				(unsigned long long)mean, (unsigned long long)iters);
		}
	}
	return status;
}

int rt_run_selftests(struct session *s)
{
	struct runner r = { .s = s, .l = { .s = s } };
	int rbfd = live_fd(&s->maps, s->plan.maps.ringbuf), status;

	if (sys_ringbuf_open(&r.rb, rbfd, rt_on_record, &r.l) < 0) {
		fprintf(stderr, "ERROR: cannot read the probes' output: %s\n", strerror(errno));
		return -1;
	}
	rt_run_special(s, PROV_BEGIN);
	drain(&r);
	int begin_status = s->exit_code;
	status = s->opts->r.mode == RUN_BENCH ? run_benches(&r) : run_tests(&r);
	rt_run_special(s, PROV_END);
	drain(&r);
	s->exit_code = status ? status : begin_status;
	sb_free(&r.l.line);
	sb_free(&r.l.text);
	sys_ringbuf_close(&r.rb);
	return 0;
}

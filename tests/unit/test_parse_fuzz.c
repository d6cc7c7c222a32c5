// SPDX-License-Identifier: MIT
/*
 * Robustness: every prefix of valid scripts, and many random mutations of
 * them, must parse to a program or fail with exactly one error; never crash,
 * hang or read outside the text. Run under ASan/UBSan:
 *
 *   make BUILD=build-asan SAN="-fsanitize=address,undefined" unit
 *
 * Each text is copied into a buffer of exactly its length (no final NUL),
 * so that an over-read is caught by ASan. LANTERN_FUZZ_ITERS changes the
 * number of mutations (default 20000), LANTERN_FUZZ_SEED the random seed.
 */
#include "parse_util.h"

#include <dirent.h>

static const char *const corpus[] = {
	"tracepoint:syscalls:sys_enter_openat /pid == 1234/ { printf(\"%s %s\\n\", comm, "
	"str(args->filename)); }",
	"#include <linux/sched.h>\n#define X 1\nstruct s { int a; union { char b; } c; };\n"
	"kprobe:a,kprobe:b / 10 / 2 > pid / { @m[tid, \"k\"] += (uint8)arg0; $x = @m[tid, \"k\"]; "
	"}",
	"BEGIN { if ($x) { @a = 1; } else if ($y > 2) { @b = 2 } else { @c++; --$d } "
	"unroll (3) { @i++; } while ($i < 10) { $i++; if ($i == 5) { continue; } break; } "
	"return; }",
	"uprobe:\"/bin/x y\":\"ns::f\" , uretprobe:/bin/bash:readline/retval > 0/ "
	"{ $t = (1, \"two\", (3, 4)); @[$t.0] = sizeof(struct task_struct); "
	"$c = (struct task_struct **)curtask; $s = $c->mm.x; $a = $arr[1][2]; }",
	"interval:s:1 { $a = 1 ? 2 : $b ? 3 : 4; $b = -~!*&$x; $c = 0x1f | 017 ^ 1_000 & 1e3; "
	"$d = 'a' + '\\n'; printf(\"\\x41\\101\\0\\t\\\"\"); exit(); } // end\n/* c */ END { }",
	"profile:hz:99 { @[kstack(perf, 3), ustack, comm] = count(); @h = hist(nsecs - @s[tid]); "
	"delete(@s[tid]); print(@h, 10); clear(@); $p = (foo *)0; $q = (foo)-1; $r = $1 + $#; }",
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static size_t parses, accepted;

/* Parse text[0..n) from an exact-size copy; check the outcome is sane. */
static void parse_exact(const char *text, size_t n)
{
	char *buf = util_xmalloc(n ? n : 1);
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct program *prog;

	memcpy(buf, text, n);
	source_init(&src, "fuzz", buf, n);
	diag_init(&d, &src);
	prog = parse_program(&a, &src, &d);
	parses++;
	if (prog) {
		struct strbuf out = { 0 };

		accepted++;
		if (d.errors)
			fail_msg("a program and %d errors for:\n%.*s", d.errors, (int)n, text);
		for (uint32_t i = 0; i < prog->nprobes; i++) {
			const struct probe *pr = prog->probes[i];

			assert_true(pr->naps >= 1 && pr->body && pr->body->kind == STMT_BLOCK);
			assert_true(pr->span.lo < pr->span.hi && pr->span.hi <= n);
			assert_true(pr->body->span.hi <= n);
		}
		ast_dump(prog, &out);
		assert_true(out.len > 0);
		sb_free(&out);
	} else if (d.errors != 1) {
		fail_msg("NULL with %d errors for:\n%.*s", d.errors, (int)n, text);
	}
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
	free(buf);
}

static void all_prefixes(const char *text, size_t n)
{
	for (size_t k = 0; k <= n; k++)
		parse_exact(text, k);
}

static char *fixture_dir(void)
{
	const char *file = __FILE__;
	const char *slash = strrchr(file, '/');

	return slash ? util_xasprintf("%.*s/fixtures", (int)(slash - file), file) : util_xstrdup("fixtures");
}

/* The corpus: the scripts above and the fixture tools. */
struct texts {
	char **v;
	size_t *len;
	size_t n;
};

static struct texts load_texts(void)
{
	struct texts t = { 0 };
	char *dir = fixture_dir();
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = ARRAY_SIZE(corpus) + 64;

	t.v = util_xcalloc(cap, sizeof(*t.v));
	t.len = util_xcalloc(cap, sizeof(*t.len));
	for (size_t i = 0; i < ARRAY_SIZE(corpus); i++) {
		t.v[t.n] = util_xstrdup(corpus[i]);
		t.len[t.n++] = strlen(corpus[i]);
	}
	while (d && (de = readdir(d)) && t.n < cap) {
		size_t len = strlen(de->d_name);
		char *path;

		if (len < 4 || strcmp(de->d_name + len - 3, ".bt"))
			continue;
		path = util_xasprintf("%s/%s", dir, de->d_name);
		t.v[t.n] = util_read_file(path, &t.len[t.n]);
		if (t.v[t.n])
			t.n++;
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return t;
}

static void free_texts(struct texts *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	free(t->len);
}

static void test_corpus_parses(void **state)
{
	struct texts t = load_texts();
	(void)state;

	for (size_t i = 0; i < t.n; i++) {
		bool ok;
		char *out = parse_text_n(t.v[i], t.len[i], &ok);

		if (!ok)
			fail_msg("corpus text %zu does not parse:\n%s", i, out);
		free(out);
	}
	free_texts(&t);
}

static void test_prefixes(void **state)
{
	struct texts t = load_texts();
	(void)state;

	parses = accepted = 0;
	for (size_t i = 0; i < t.n; i++)
		all_prefixes(t.v[i], t.len[i]);
	print_message("%zu prefixes parsed, %zu accepted\n", parses, accepted);
	free_texts(&t);
}

static const char interesting[] = "{}()[]/\"'\\:;,$@#*+-<>=!&|^~?.%_0123456789xeu \n\t";

static void mutate(char *buf, size_t *n, size_t cap)
{
	size_t pos = *n ? rng() % *n : 0;
	unsigned what = (unsigned)(rng() % 6);

	switch (what) {
	case 0: /* replace a byte with an interesting one */
		if (*n)
			buf[pos] = interesting[rng() % (sizeof(interesting) - 1)];
		break;
	case 1: /* replace a byte with any byte */
		if (*n)
			buf[pos] = (char)(rng() & 0xff);
		break;
	case 2: /* insert an interesting byte */
		if (*n < cap) {
			memmove(buf + pos + 1, buf + pos, *n - pos);
			buf[pos] = interesting[rng() % (sizeof(interesting) - 1)];
			(*n)++;
		}
		break;
	case 3: /* delete a run */
		if (*n) {
			size_t k = 1 + rng() % 8;

			if (k > *n - pos)
				k = *n - pos;
			memmove(buf + pos, buf + pos + k, *n - pos - k);
			*n -= k;
		}
		break;
	case 4: /* duplicate a run */
		if (*n) {
			size_t k = 1 + rng() % 16;

			if (k > *n - pos)
				k = *n - pos;
			if (*n + k <= cap) {
				memmove(buf + pos + k, buf + pos, *n - pos);
				(*n) += k;
			}
		}
		break;
	default: /* cut the text short */
		*n = pos;
		break;
	}
}

static void test_mutations(void **state)
{
	struct texts t = load_texts();
	const char *env = getenv("LANTERN_FUZZ_ITERS");
	const char *seed = getenv("LANTERN_FUZZ_SEED");
	long iters = env ? atol(env) : 20000;
	(void)state;

	if (seed && strtoull(seed, NULL, 0))
		rng_state = strtoull(seed, NULL, 0);

	parses = accepted = 0;
	for (long it = 0; it < iters; it++) {
		size_t i = rng() % t.n, n = t.len[i], cap = n + 256;
		char *buf = util_xmalloc(cap);
		int rounds = 1 + (int)(rng() % 4);

		memcpy(buf, t.v[i], n);
		for (int r = 0; r < rounds; r++)
			mutate(buf, &n, cap);
		parse_exact(buf, n);
		free(buf);
	}
	print_message("%zu mutants parsed, %zu accepted\n", parses, accepted);
	free_texts(&t);
}

/* Random bytes, mostly punctuation: nothing should come through. */
static void test_noise(void **state)
{
	char buf[512];
	(void)state;

	for (int it = 0; it < 5000; it++) {
		size_t n = rng() % sizeof(buf);

		for (size_t k = 0; k < n; k++)
			buf[k] = rng() % 4 ? interesting[rng() % (sizeof(interesting) - 1)]
					   : (char)(rng() & 0xff);
		/* After an attach point, so that the body parser sees the noise too. */
		if (n > 8)
			memcpy(buf, "BEGIN { ", 8);
		parse_exact(buf, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_parses),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

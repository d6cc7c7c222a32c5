// SPDX-License-Identifier: MIT
/*
 * Real scripts: every tool bpftrace installs in /usr/sbin (NAME.bt) must parse
 * (skipped when bpftrace is not installed), and the copies under
 * fixtures/ must give their golden dumps (fixtures/NAME.ast).
 *
 * LANTERN_UPDATE_GOLDENS=1 rewrites the .ast files from the current parser;
 * review the diff before committing it.
 */
#include "parse_util.h"

#include <dirent.h>
#include <glob.h>

static char *fixture_dir(void)
{
	const char *file = __FILE__; /* tests/unit/test_parse_tools.c */
	const char *slash = strrchr(file, '/');

	if (!slash)
		return util_xstrdup("fixtures");
	return util_xasprintf("%.*s/fixtures", (int)(slash - file), file);
}

static char *parse_file(const char *path, bool *ok)
{
	size_t len;
	char *text = util_read_file(path, &len);
	char *out;

	if (!text)
		fail_msg("cannot read %s", path);
	out = parse_text_n(text, len, ok);
	free(text);
	return out;
}

static void test_installed_tools(void **state)
{
	glob_t g;
	int bad = 0;
	(void)state;

	if (glob("/usr/sbin/*.bt", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		globfree(&g);
		skip();
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		bool ok;
		char *out = parse_file(g.gl_pathv[i], &ok);

		if (!ok) {
			print_error("%s does not parse:\n%s", g.gl_pathv[i], out);
			bad++;
		}
		free(out);
	}
	print_message("parsed %zu tools from /usr/sbin\n", g.gl_pathc);
	globfree(&g);
	if (bad)
		fail_msg("%d tools failed to parse", bad);
}

static void test_fixtures(void **state)
{
	char *dir = fixture_dir();
	bool update = getenv("LANTERN_UPDATE_GOLDENS") != NULL;
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0, bad = 0;
	(void)state;

	if (!d)
		fail_msg("no fixture directory %s", dir);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char *bt, *ast, *want, *got;
		bool ok;

		if (len < 4 || strcmp(de->d_name + len - 3, ".bt"))
			continue;
		bt = util_xasprintf("%s/%s", dir, de->d_name);
		ast = util_xasprintf("%s/%.*s.ast", dir, (int)(len - 3), de->d_name);
		got = parse_file(bt, &ok);
		if (!ok) {
			print_error("%s does not parse:\n%s", bt, got);
			bad++;
		} else if (update) {
			FILE *f = fopen(ast, "w");

			if (!f || fputs(got, f) < 0 || fclose(f))
				fail_msg("cannot write %s", ast);
		} else if (!(want = util_read_file(ast, &len))) {
			print_error("%s: missing golden %s\n", bt, ast);
			bad++;
		} else {
			if (strcmp(want, got)) {
				print_error("%s: dump differs from %s\n--- got\n%s", bt, ast, got);
				bad++;
			}
			free(want);
		}
		n++;
		free(got);
		free(bt);
		free(ast);
	}
	closedir(d);
	free(dir);
	if (n < 5)
		fail_msg("only %d fixtures found", n);
	if (bad)
		fail_msg("%d of %d fixtures failed", bad, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_installed_tools),
		cmocka_unit_test(test_fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

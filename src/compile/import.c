// SPDX-License-Identifier: MIT
/*
 * `import "path";` (today's bpftrace): other files read into the script
 * before anything else is done with it.
 *
 *   x.bt    a script: its probes, macros, functions, map declarations and
 *           C definitions join the importing script's (its probes first);
 *           it may import too, but has no config block
 *   x.h     a C header: its #define constants and struct, union, enum and
 *           typedef definitions, as the script's own (other declarations
 *           are skipped)
 *   DIR     every .bt and .h file in it (not its subdirectories)
 *   x.bpf.c C code: refused. bpftrace compiles it when the script runs;
 *           lantern has no C compiler at run time, by design.
 *
 * A relative path is looked for in the directory of the script that
 * imports it (for -e, the current directory), as bpftrace does, then in
 * each -I directory (lantern's addition). As in bpftrace, a file or
 * directory in a directory anyone may write to is refused, and a file is
 * read once however many times it is imported; a file that imports one
 * of the files importing it is an error. The imported text is appended
 * to the plan's source (base/source.h), so errors in it show its name
 * and lines.
 */
#include "compile/compile.h"
#include "parse/parser.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IMPORT_FILES_MAX 256
#define IMPORT_BYTES_MAX (16u << 20)

struct importer {
	struct plan *p;
	VEC(const char *) loaded; /* real paths of the files read */
	VEC(const char *) chain;  /* the files importing the one being read (real paths) */
	VEC(const char *) names;  /* the same, as found (for messages) */
	uint64_t bytes;
	/* what the imports bring, in order */
	VEC(struct preamble *) pre;
	VEC(struct probe *) probes;
	VEC(struct macro_def *) macros;
	VEC(struct fn_def *) fns;
	VEC(struct map_decl) decls;
};

static int import_items(struct importer *im, const struct program *prog, const char *dir);

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* The directory of a path: "." for a bare name */
static const char *dir_of(struct plan *p, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	return arena_strndup(&p->arena, path, (size_t)(slash - path));
}

static bool world_writable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && (st.st_mode & S_IWOTH) && !S_ISLNK(st.st_mode);
}

/* Where a path names an existing file or directory, or NULL (*tried: where it looked) */
static const char *find(struct importer *im, const char *path, const char *dir, struct strbuf *tried)
{
	const struct compile_opts *o = im->p->opts;
	struct stat st;

	for (int i = -1; i < (path[0] == '/' ? 0 : o->ninclude_dirs); i++) {
		const char *d = i < 0 ? dir : o->include_dirs[i];
		const char *c = path[0] == '/' || !strcmp(d, ".") ? path
				: arena_printf(&im->p->arena, "%s/%s", d, path);
		if (!stat(c, &st))
			return c;
		sb_printf(tried, "%s%s", tried->len ? ", " : "", c);
	}
	return NULL;
}

static bool in(const char *const *v, size_t n, const char *real)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] && !strcmp(v[i], real))
			return true;
	return false;
}

/* what a merged program brings */
static void merge(struct importer *im, struct program *sub)
{
	for (uint32_t i = 0; i < sub->npre; i++)
		vec_push(&im->pre, sub->pre[i]);
	for (uint32_t i = 0; i < sub->nprobes; i++)
		vec_push(&im->probes, sub->probes[i]);
	for (uint32_t i = 0; i < sub->nmacros; i++)
		vec_push(&im->macros, sub->macros[i]);
	for (uint32_t i = 0; i < sub->nfns; i++)
		vec_push(&im->fns, sub->fns[i]);
	for (uint32_t i = 0; i < sub->ndecls; i++)
		vec_push(&im->decls, sub->decls[i]);
	if (sub->modern_what)
		ast_note_modern(im->p->ast, sub->modern_span, sub->modern_what);
}

/* A script or a header, read once: parsed and merged */
static int import_file(struct importer *im, const char *path, bool header, struct span sp)
{
	struct plan *p = im->p;
	char real[PATH_MAX];
	struct program *sub;
	size_t len;
	char *text;
	uint32_t lo;
	int rc;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	if (in(im->chain.data, im->chain.len, real)) {
		struct strbuf chain = { 0 };
		for (size_t i = 0; i < im->chain.len; i++)
			if (im->chain.data[i])
				sb_printf(&chain, "%s imports ", im->names.data[i]);
		diag_error(&p->diag, sp, E_RECURSIVE, "the imports go round in a circle: %s%s",
			   sb_str(&chain), path);
		diag_hint(&p->diag, "a file cannot import a file that imports it; move what both "
				    "need to a third file");
		sb_free(&chain);
		return -1;
	}
	if (in(im->loaded.data, im->loaded.len, real))
		return 0; /* read already: once is enough */
	text = util_read_file(path, &len);
	if (!text) {
		diag_error(&p->diag, sp, E_IMPORT, "cannot read import %s: %s", path, strerror(errno));
		return -1;
	}
	im->bytes += len;
	if (im->loaded.len >= IMPORT_FILES_MAX || im->bytes > IMPORT_BYTES_MAX) {
		diag_error(&p->diag, sp, E_IMPORT, "too much to import: more than %d files or %u MiB",
			   IMPORT_FILES_MAX, IMPORT_BYTES_MAX >> 20);
		free(text);
		return -1;
	}
	vec_push(&im->loaded, arena_strdup(&p->arena, real));
	lo = source_append(&p->src, arena_strdup(&p->arena, path), text, len);
	free(text);
	sub = parse_program_at(&p->arena, &p->src, SPAN(lo, lo + (uint32_t)len),
			 header ? PARSE_HEADER : PARSE_SCRIPT, &p->diag);
	if (!sub)
		return -1;
	if (sub->nconfig) {
		diag_error(&p->diag, sub->config[0].span, E_IMPORT,
			   "an imported script has no config block");
		diag_hint(&p->diag, "the config block goes in the script that is run");
		return -1;
	}
	vec_push(&im->chain, arena_strdup(&p->arena, real));
	vec_push(&im->names, path);
	rc = import_items(im, sub, dir_of(p, path));
	im->chain.len--;
	im->names.len--;
	merge(im, sub);
	return rc;
}

/* What a name's suffix makes of it: 1 a script, 2 a header, 0 other, -1 refused */
static int kind_of(struct plan *p, const char *path, struct span sp, bool in_dir)
{
	if (has_suffix(path, ".bt"))
		return 1;
	if (has_suffix(path, ".h"))
		return 2;
	if (has_suffix(path, ".c")) {
		diag_error(&p->diag, sp, E_UNSUPPORTED,
			   "%s is C code: importing it needs a C compiler when the script runs, "
			   "which lantern does without by design",
			   path);
		diag_hint(&p->diag, "lantern imports scripts (.bt) and C headers (.h); write the C "
				    "functions as functions (fn) or macros of a .bt file");
		return -1;
	}
	if (has_suffix(path, ".o")) {
		diag_error(&p->diag, sp, E_UNSUPPORTED,
			   "%s is a compiled object: lantern does not link BPF objects into its "
			   "programs",
			   path);
		diag_hint(&p->diag, "lantern imports scripts (.bt) and C headers (.h)");
		return -1;
	}
	if (in_dir)
		return 0;
	diag_error(&p->diag, sp, E_IMPORT, "%s is not a file lantern imports", path);
	diag_hint(&p->diag, "lantern imports scripts (.bt), C headers (.h) and directories of them");
	return -1;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .bt and .h file of a directory, by name */
static int import_dir(struct importer *im, const char *path, struct span sp)
{
	struct plan *p = im->p;
	VEC(char *) names = { 0 };
	struct dirent *de;
	DIR *d = opendir(path);
	int rc = 0;

	if (!d) {
		diag_error(&p->diag, sp, E_IMPORT, "cannot read import %s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			vec_push(&names, arena_printf(&p->arena, "%s/%s", path, de->d_name));
	closedir(d);
	if (names.len)
		qsort(names.data, names.len, sizeof(char *), cmp_names);
	for (size_t i = 0; i < names.len && !rc; i++) {
		struct stat st;
		int k;
		if (stat(names.data[i], &st) || !S_ISREG(st.st_mode))
			continue;
		k = kind_of(p, names.data[i], sp, true);
		if (k < 0)
			rc = -1;
		else if (k)
			rc = import_file(im, names.data[i], k == 2, sp);
	}
	vec_free(&names);
	return rc;
}

static int import_one(struct importer *im, const struct import_item *it, const char *dir)
{
	struct plan *p = im->p;
	struct strbuf tried = { 0 };
	const char *path;
	struct stat st;
	int k;

	/* C code is refused whether it is there or not */
	if ((has_suffix(it->path, ".c") || has_suffix(it->path, ".o")) &&
	    kind_of(p, it->path, it->span, false) < 0)
		return -1;
	path = find(im, it->path, dir, &tried);
	if (!path) {
		diag_error(&p->diag, it->span, E_IMPORT, "cannot find import \"%s\"", it->path);
		diag_hint(&p->diag, "looked for %s (a relative path is the importing script's "
				    "directory's, then each -I directory's)",
			  sb_str(&tried));
		sb_free(&tried);
		return -1;
	}
	sb_free(&tried);
	if (world_writable(path) || world_writable(dir_of(p, path))) {
		diag_error(&p->diag, it->span, E_IMPORT,
			   "refusing to import %s: anyone may write to it or to its directory", path);
		diag_hint(&p->diag, "as bpftrace: move it where only its owner can change it");
		return -1;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return import_dir(im, path, it->span);
	k = kind_of(p, path, it->span, false);
	return k < 0 ? -1 : import_file(im, path, k == 2, it->span);
}

static int import_items(struct importer *im, const struct program *prog, const char *dir)
{
	for (uint32_t i = 0; i < prog->nimports; i++)
		if (import_one(im, &prog->imports[i], dir) < 0)
			return -1;
	return 0;
}

/* a + b into a new arena array */
#define JOIN(p, T, first, nfirst, second, nsecond, out, nout)                                     \
	do {                                                                                       \
		T *v_ = ARENA_ARRAY(&(p)->arena, T, (nfirst) + (nsecond) + 1);                     \
		for (size_t i_ = 0; i_ < (size_t)(nfirst); i_++)                                   \
			v_[i_] = (first)[i_];                                                      \
		for (size_t i_ = 0; i_ < (size_t)(nsecond); i_++)                                  \
			v_[(nfirst) + i_] = (second)[i_];                                          \
		(out) = v_;                                                                        \
		(nout) = (uint32_t)((nfirst) + (nsecond));                                         \
	} while (0)

static int join(struct importer *im)
{
	struct program *a = im->p->ast;

	/* imported C definitions and probes first: the script's may use their types */
	JOIN(im->p, struct preamble *, im->pre.data, im->pre.len, a->pre, a->npre, a->pre, a->npre);
	JOIN(im->p, struct probe *, im->probes.data, im->probes.len, a->probes, a->nprobes,
	     a->probes, a->nprobes);
	JOIN(im->p, struct macro_def *, a->macros, a->nmacros, im->macros.data, im->macros.len,
	     a->macros, a->nmacros);
	JOIN(im->p, struct fn_def *, a->fns, a->nfns, im->fns.data, im->fns.len, a->fns, a->nfns);
	JOIN(im->p, struct map_decl, a->decls, a->ndecls, im->decls.data, im->decls.len, a->decls,
	     a->ndecls);
	for (uint32_t i = 0; i < a->nprobes; i++)
		a->probes[i]->index = i;
	for (uint32_t i = 0; i < a->ndecls; i++)
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(a->decls[i].name, a->decls[j].name)) {
				diag_error(&im->p->diag, a->decls[i].span, E_REDECLARED,
					   "@%s is declared twice", a->decls[i].name);
				return -1;
			}
	return 0;
}

int compile_imports(struct plan *p)
{
	struct importer im = { .p = p };
	char real[PATH_MAX];
	int rc;

	if (!p->ast->nimports)
		return 0;
	/* the script itself, for imports that lead back to it */
	vec_push(&im.chain, realpath(p->opts->script_name, real) ? arena_strdup(&p->arena, real) : NULL);
	vec_push(&im.names, p->opts->script_name);
	rc = import_items(&im, p->ast, dir_of(p, p->opts->script_name));
	if (rc == 0)
		rc = join(&im);
	vec_free(&im.loaded);
	vec_free(&im.chain);
	vec_free(&im.names);
	vec_free(&im.pre);
	vec_free(&im.probes);
	vec_free(&im.macros);
	vec_free(&im.fns);
	vec_free(&im.decls);
	return rc;
}

// SPDX-License-Identifier: MIT
/* The files a process maps with execute permission, from /proc/PID/maps. */
#include "sym/procmaps.h"
#include "base/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char **sym_proc_files(pid_t pid)
{
	char path[64], line[PATH_MAX + 256], perms[8], file[PATH_MAX];
	char **files = util_xmalloc(sizeof(*files));
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re"))) {
		free(files);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		struct stat st;
		bool seen = false;
		if (sscanf(line, "%*x-%*x %7s %*x %*s %*s %4095[^\n]", perms, file) != 2 ||
		    perms[2] != 'x' || file[0] != '/' || stat(file, &st) < 0 || !S_ISREG(st.st_mode))
			continue; /* not a file, or " (deleted)" */
		for (size_t i = 0; i < n && !seen; i++)
			seen = !strcmp(files[i], file);
		if (seen)
			continue;
		files = util_xrealloc(files, (n + 2) * sizeof(*files));
		files[n++] = util_xstrdup(file);
	}
	fclose(f);
	files[n] = NULL;
	return files;
}

void sym_proc_files_free(char **files)
{
	for (char **f = files; f && *f; f++)
		free(*f);
	free(files);
}

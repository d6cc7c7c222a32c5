// SPDX-License-Identifier: MIT
#include "runtime/child.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

/*
 * The file execvp() would run for name (a path, or the first executable in
 * $PATH), malloc'd, or NULL. The child runs it with one execve(): a traced
 * child shows no failed execve() per $PATH entry (bpftrace does the same).
 */
static char *resolve(const char *name)
{
	char buf[4096];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? strdup(name) : NULL;
	if (path_search(name, buf, sizeof(buf)))
		return strdup(buf);
	errno = ENOENT;
	return NULL;
}

int child_spawn(struct session *s)
{
	wordexp_t we = { 0 };
	char **argv = s->opts->cmd_argv;
	char *file;
	int pipefd[2];
	pid_t pid;

	if (!argv) {
		if (wordexp(s->opts->cmd, &we, WRDE_NOCMD) != 0 || we.we_wordc == 0) {
			fprintf(stderr, "lantern: cannot parse the command '%s'\n", s->opts->cmd);
			return -1;
		}
		argv = we.we_wordv;
	}
	file = resolve(argv[0]);
	if (!file) {
		fprintf(stderr, "lantern: %s: cannot run '%s': %s\n", s->opts->cmd ? "-c" : "trace",
			argv[0], strerror(errno));
		if (!s->opts->cmd_argv)
			wordfree(&we);
		return -1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(file);
		if (!s->opts->cmd_argv)
			wordfree(&we);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "lantern: fork: %s\n", strerror(errno));
		free(file);
		if (!s->opts->cmd_argv)
			wordfree(&we);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		char c;
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1)
			_exit(127); /* lantern gave up before starting us */
		execv(file, argv);
		fprintf(stderr, "lantern: cannot run %s: %s\n", file, strerror(errno));
		_exit(127);
	}
	free(file);
	if (!s->opts->cmd_argv)
		wordfree(&we);
	close(pipefd[0]);
	s->cpid = pid;
	s->child_go_fd = pipefd[1];
	return 0;
}

void child_release(struct session *s)
{
	if (s->child_go_fd >= 0) {
		if (write(s->child_go_fd, "g", 1) != 1)
			fprintf(stderr, "lantern: cannot start the child: %s\n", strerror(errno));
		close(s->child_go_fd);
		s->child_go_fd = -1;
	}
}

void child_reap(struct session *s)
{
	if (s->child_go_fd >= 0) {
		close(s->child_go_fd); /* never released: it exits by itself */
		s->child_go_fd = -1;
	}
	if (!s->cpid || s->child_exited)
		return;
	if (waitpid(s->cpid, &s->child_status, WNOHANG) == s->cpid) {
		s->child_exited = true;
		return;
	}
	kill(s->cpid, SIGTERM);
	waitpid(s->cpid, &s->child_status, 0);
	s->child_exited = true;
}

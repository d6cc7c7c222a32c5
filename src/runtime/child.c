// SPDX-License-Identifier: MIT
#include "runtime/child.h"
#include "base/util.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
	if (util_path_search(name, buf, sizeof(buf)))
		return strdup(buf);
	errno = ENOENT;
	return NULL;
}

/*
 * -c CMD as words, as bpftrace splits it: at blanks, and nothing else.
 * Quotes and backslashes are the command's own characters (-c "echo 'A'"
 * passes 'A', quotes included), nothing is expanded ($VAR, *, ~) and no
 * shell runs. A NULL-terminated malloc'd vector (the words follow it in
 * the same block), or NULL with err set.
 */
char **rt_child_split(const char *cmd, char *err, size_t errlen)
{
	size_t n = strlen(cmd), nwords = 0;
	char **argv = util_xmalloc((n / 2 + 2) * sizeof(char *) + n + 1);
	char *out = (char *)(argv + n / 2 + 2);
	const char *p = cmd;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		argv[nwords++] = out;
		while (*p && !(*p == ' ' || *p == '\t' || *p == '\n'))
			*out++ = *p++;
		*out++ = 0;
	}
	argv[nwords] = NULL;
	if (!nwords) {
		snprintf(err, errlen, "the command is empty");
		free(argv);
		return NULL;
	}
	return argv;
}

/*
 * The command's process until it execs: it waits for lantern's go on a
 * pipe, then runs the file. It shares lantern's memory (CLONE_VM, as
 * posix_spawn's child does) rather than copying it: a fork copies the page
 * tables of lantern's whole heap and then faults on every page lantern
 * writes while the child waits (compiling and loading: about half a
 * millisecond of the start). Sharing, it may touch nothing lantern
 * changes: its own stack (a static one), its own descriptors (not shared),
 * system calls, and the file and arguments below, kept until lantern ends.
 */
static struct spawn {
	char *file;
	char **argv, **words;
	int rfd, wfd;
} spawn;


static void spawn_free(void)
{
	free(spawn.file);
	free(spawn.words);
	spawn = (struct spawn){ 0 };
}

static void say(const char *s)
{
	ssize_t UNUSED n = write(2, s, strlen(s));
}

static int child_main(void *arg)
{
	char c;
	sigset_t none;

	(void)arg;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	close(spawn.wfd);
	if (read(spawn.rfd, &c, 1) != 1)
		_exit(127); /* lantern gave up before starting us */
	execv(spawn.file, spawn.argv);
	/* no stdio streams: lantern's FILE locks are its own (and they look like ours) */
	char msg[PATH_MAX + 128];
	snprintf(msg, sizeof(msg), "lantern: cannot run %s: %s\n", spawn.file, strerrordesc_np(errno));
	say(msg);
	_exit(127);
}

static pid_t start_child(void)
{
#ifdef __SANITIZE_ADDRESS__
	/* AddressSanitizer keeps per-thread state where a CLONE_VM child would share it: fork */
	pid_t pid = fork();
	if (pid == 0)
		child_main(NULL);
	return pid;
#else
	/* its stack: a few frames of system call wrappers (and an error message) */
	static char stack[64 * 1024] __attribute__((aligned(16)));
	return clone(child_main, stack + sizeof(stack), CLONE_VM | SIGCHLD, NULL);
#endif
}

int rt_child_spawn(struct session *s)
{
	char **argv = s->opts->r.cmd_argv, **words = NULL;
	char *file, err[64];
	int pipefd[2];
	pid_t pid;


	if (!argv) {
		if (!(words = rt_child_split(s->opts->r.cmd, err, sizeof(err)))) {
			fprintf(stderr, "ERROR: -c '%s': %s\n", s->opts->r.cmd, err);
			return -1;
		}
		argv = words;
	}
	file = resolve(argv[0]);
	if (!file) {
		if (s->opts->r.cmd)
			fprintf(stderr,
				"ERROR: Failed to fork child: path '%s' does not exist or is not "
				"executable (%s)\n",
				argv[0], strerror(errno));
		else
			fprintf(stderr, "lantern: trace: cannot run '%s': %s\n", argv[0],
				strerror(errno));
		free(words);
		return -1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(file);
		free(words);
		return -1;
	}
	fflush(NULL);
	spawn = (struct spawn){ file, argv, words, pipefd[0], pipefd[1] };
	pid = start_child();
	close(pipefd[0]);
	if (pid < 0) {
		fprintf(stderr, "ERROR: fork: %s\n", strerror(errno));
		spawn_free();
		close(pipefd[1]);
		return -1;
	}
	s->cpid = pid;
	s->child_go_fd = pipefd[1];
	return 0;
}

/* Whether task pid is in the read() of its pipe: /proc/PID/syscall gives its call's number */
static bool in_read(pid_t pid)
{
	char path[64], buf[64];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return true; /* no way to know (no CONFIG_HAVE_ARCH_TRACEHOOK): go on */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	/* "running" while it runs; else the number of the call it sleeps in */
	return buf[0] != 'r' && strtol(buf, NULL, 10) == SYS_read;
}

void rt_child_wait_blocked(struct session *s)
{
	uint64_t until = util_now_ns() + 1000000000ull;

	if (s->cpid <= 0 || s->child_go_fd < 0)
		return;
	while (!in_read(s->cpid) && util_now_ns() < until) {
		struct timespec ts = { 0, 20000 };
		nanosleep(&ts, NULL);
	}
}

void rt_child_release(struct session *s)
{
	if (s->child_go_fd >= 0) {
		if (write(s->child_go_fd, "g", 1) != 1)
			fprintf(stderr, "ERROR: cannot start the child: %s\n", strerror(errno));
		close(s->child_go_fd);
		s->child_go_fd = -1;
	}
}

void rt_child_reap(struct session *s)
{
	if (s->child_go_fd >= 0) {
		close(s->child_go_fd); /* never released: it exits by itself */
		s->child_go_fd = -1;
	}
	if (s->cpid && !s->child_exited) {
		if (waitpid(s->cpid, &s->child_status, WNOHANG) != s->cpid) {
			kill(s->cpid, SIGTERM);
			waitpid(s->cpid, &s->child_status, 0);
		}
		s->child_exited = true;
	}
	spawn_free(); /* the child has run its file, or ended: what it shared goes */
}

// SPDX-License-Identifier: MIT
/*
 * record: runs lantern for the test suites and records how each run ended,
 * so that a test checks lantern's own status (not the one of the last
 * command of a pipeline) and the kernel objects lantern held.
 *
 *   record LANTERN [ARGS...]
 *
 * Without LANTERN_TEST_RUNS in the environment it just execs LANTERN. With
 * it (a directory), the run takes the next free number N (mkdir RUNS/N, so
 * runs number in the order they start) and writes in RUNS/N:
 *
 *   cmd      its arguments, on one line
 *   pid      lantern's pid (not the wrapper's, which the shell sees as $!)
 *   held     the BPF programs, maps and links lantern held when it exited
 *            ("prog 12", as tests/runtime/objects.sh prints them), read
 *            from its fdinfo at its ptrace exit stop, where its descriptors
 *            are still open
 *   seen     instead of held, with LANTERN_TEST_SAMPLE set (LeakSanitizer
 *            builds: LSan ptraces the process itself at exit): the objects
 *            lantern held, sampled every 10 ms while it ran
 *   status   its exit status, or 128+N when signal N killed it (as the
 *            shell shows it); written last: a run without one never ended
 *
 * lantern hands its probes' release to a child of its own that outlives it
 * (a few hundred ms). The wrapper is its subreaper, and returns once that
 * child too is gone (at most 10 s): the next test never runs under the
 * probes of the last one (a uretprobe left on libc puts its trampoline's
 * syscall into every program started meanwhile). LANTERN_TEST_NO_REAP set:
 * the wrapper returns at once (a test that kills that child itself).
 *
 * With LANTERN_TEST_PIDFILE set (tests/runtime/sync.sh's attached), lantern's
 * pid goes to that file too, and the variable out of lantern's environment.
 *
 * The wrapper ends as lantern did (the same status, or the same signal).
 * Signals sent to it (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGQUIT,
 * SIGALRM, SIGCONT) are passed on to lantern; SIGSTOP cannot be caught:
 * stop lantern's own pid. Lantern runs in the wrapper's process group, with
 * its signal mask and dispositions: the wrapper changes nothing it sees.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t child;
static const int forwarded[] = {SIGINT,	 SIGTERM, SIGHUP,  SIGUSR1,
				SIGUSR2, SIGQUIT, SIGALRM, SIGCONT};

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static void die(const char *what)
{
	fprintf(stderr, "record: %s: %s\n", what, strerror(errno));
	exit(125);
}

/* The next free RUNS/N: mkdir is atomic, so concurrent runs never share one. */
static int take_run(const char *runs, char *dir, size_t size)
{
	for (int n = 1; n < 100000; n++) {
		snprintf(dir, size, "%s/%d", runs, n);
		if (mkdir(dir, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			die(runs);
	}
	errno = ENOSPC;
	die(runs);
	return -1;
}

static FILE *open_in(const char *dir, const char *name, const char *mode)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, mode);
	if (!f)
		die(path);
	return f;
}

/* "prog 12", "map 7", "link 3" for each BPF object PID holds (duplicates are fine) */
static void held_objects(pid_t pid, FILE *out)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char file[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
		FILE *f = fopen(file, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char kind[8];
			unsigned long id;
			if (sscanf(line, "%7[a-z]_id: %lu", kind, &id) == 2 &&
			    (!strcmp(kind, "prog") || !strcmp(kind, "map") ||
			     !strcmp(kind, "link")))
				fprintf(out, "%s %lu\n", kind, id);
		}
		fclose(f);
	}
	closedir(d);
	fflush(out);
}

/* ptrace's view: signals pass through, group stops stay stops, the exit stop shows the fds */
static int wait_traced(FILE *objects)
{
	int st;

	for (;;) {
		if (waitpid(child, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			die("waitpid");
		}
		if (WIFEXITED(st) || WIFSIGNALED(st))
			return st;
		if (!WIFSTOPPED(st))
			continue;
		int sig = WSTOPSIG(st), event = (unsigned)st >> 16;
		if (event == PTRACE_EVENT_EXIT) {
			held_objects(child, objects);
			ptrace(PTRACE_CONT, child, 0, 0);
		} else if (event == PTRACE_EVENT_STOP) {
			if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
				ptrace(PTRACE_LISTEN, child, 0, 0); /* stopped until SIGCONT */
			else
				ptrace(PTRACE_CONT, child, 0, 0);
		} else {
			ptrace(PTRACE_CONT, child, 0, sig); /* deliver the signal */
		}
	}
}

static int wait_sampling(FILE *objects)
{
	const struct timespec tick = {0, 10 * 1000 * 1000};
	int st;

	for (;;) {
		held_objects(child, objects);
		pid_t w = waitpid(child, &st, WNOHANG);
		if (w < 0 && errno != EINTR)
			die("waitpid");
		if (w == child)
			return st;
		nanosleep(&tick, NULL);
	}
}

/* Children of ours named lantern: release children of a lantern that ended */
static bool lantern_orphans(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool any = false;

	if (!d)
		return false;
	while (!any && (e = readdir(d))) {
		char path[300], buf[512];
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		char *open_paren = strchr(buf, '('), *close_paren = strrchr(buf, ')');
		char state;
		int ppid;
		if (!open_paren || !close_paren ||
		    sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2)
			continue;
		*close_paren = 0;
		any = ppid == getpid() && state != 'Z' && !strcmp(open_paren + 1, "lantern");
	}
	closedir(d);
	return any;
}

static void wait_release(void)
{
	const struct timespec tick = {0, 10 * 1000 * 1000};

	for (int i = 0; i < 1000; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!lantern_orphans())
			return;
		nanosleep(&tick, NULL);
	}
}

/* End as lantern did: its status, or its signal (without a core of our own). */
static void end_like(int st)
{
	if (WIFEXITED(st))
		exit(WEXITSTATUS(st));
	int sig = WTERMSIG(st);
	struct rlimit no_core = {0, 0};
	sigset_t all;
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigaddset(&all, sig);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	raise(sig);
	exit(128 + sig);
}

int main(int argc, char **argv)
{
	const char *runs = getenv("LANTERN_TEST_RUNS");
	bool sample = getenv("LANTERN_TEST_SAMPLE");
	const char *pidfile = getenv("LANTERN_TEST_PIDFILE");
	FILE *pid_file = NULL;
	char dir[PATH_MAX];
	int go[2], st;

	if (argc < 2) {
		fputs("usage: record LANTERN [ARGS...]\n", stderr);
		return 125;
	}
	if (pidfile && *pidfile) {
		pid_file = fopen(pidfile, "we");
		if (!pid_file)
			die(pidfile);
		unsetenv("LANTERN_TEST_PIDFILE");
	}
	if (!runs || !*runs) {
		if (pid_file) {
			fprintf(pid_file, "%d\n", getpid());
			fclose(pid_file);
		}
		execv(argv[1], argv + 1);
		die(argv[1]);
	}
	take_run(runs, dir, sizeof(dir));
	FILE *f = open_in(dir, "cmd", "we");
	for (int i = 2; i < argc; i++)
		fprintf(f, "%s%s", i > 2 ? " " : "", argv[i]);
	fputc('\n', f);
	fclose(f);
	FILE *objects = open_in(dir, sample ? "seen" : "held", "we");

	/* lantern's release child comes to us when lantern ends */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* the child waits for the word to exec, so that it is traced from its first instruction */
	if (pipe2(go, O_CLOEXEC) < 0)
		die("pipe");
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(125);
		execv(argv[1], argv + 1);
		fprintf(stderr, "record: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	child = pid;
	close(go[0]);
	/* the wrapper's own signals (lantern keeps the ones it was given) */
	sigset_t mask;
	sigemptyset(&mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		struct sigaction sa = {.sa_handler = forward};
		sigaction(forwarded[i], &sa, NULL); /* no SA_RESTART: waitpid sees EINTR */
		sigaddset(&mask, forwarded[i]);
	}
	sigaddset(&mask, SIGCHLD);
	signal(SIGCHLD, SIG_DFL); /* ignored, the kernel would reap lantern before waitpid */
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	if (!sample && ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL) < 0)
		die("ptrace");
	f = open_in(dir, "pid", "we");
	fprintf(f, "%d\n", pid);
	fclose(f);
	if (pid_file) {
		fprintf(pid_file, "%d\n", pid);
		fclose(pid_file);
	}
	if (write(go[1], "x", 1) != 1)
		die("write");
	close(go[1]);

	st = sample ? wait_sampling(objects) : wait_traced(objects);
	child = 0;
	fclose(objects);
	if (!getenv("LANTERN_TEST_NO_REAP"))
		wait_release();
	f = open_in(dir, "status", "we");
	fprintf(f, "%d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	fclose(f);
	end_like(st);
	return 125;
}

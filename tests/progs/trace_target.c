// SPDX-License-Identifier: MIT
/*
 * Workloads for lantern trace's runtime tests, each compared with strace:
 *
 *   trace_target threads     two threads, each writing and reading a pipe
 *   trace_target fork        a child that writes and exits 7; the parent waits
 *   trace_target signal      a SIGUSR1 handler, the signal sent to itself, then
 *                            a child killed by SIGKILL
 *   trace_target coldpath    openat() of a path in a page not yet touched (a
 *                            file mapping): eBPF cannot read it at entry
 *   trace_target structs     calls whose structures strace decodes: sockets
 *                            and their addresses, poll, clock_gettime, uname,
 *                            openat2's struct open_how
 *   trace_target io          epoll events, iovecs (writev, readv) and
 *                            msghdrs (sendmsg, recvmsg)
 *   trace_target sockets     TCP over IPv4 and IPv6 and a UNIX socket pair,
 *                            each used once, alive 300 ms more (-yy)
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *worker(void *arg)
{
	int fds[2];
	char buf[16];

	if (pipe(fds) < 0)
		return NULL;
	if (write(fds[1], arg, strlen(arg)) < 0 || read(fds[0], buf, sizeof(buf)) < 0)
		perror("pipe");
	close(fds[0]);
	close(fds[1]);
	return NULL;
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got = sig;
}

static int threads(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, worker, "thread a");
	pthread_join(a, NULL);
	pthread_create(&b, NULL, worker, "thread b");
	pthread_join(b, NULL);
	return 0;
}

static int forked(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		/* the parent is in wait4 before the child ends, as under strace */
		struct timespec later = { 0, 50 * 1000 * 1000 };
		nanosleep(&later, NULL);
		if (write(1, "child\n", 6) < 0)
			_exit(1);
		_exit(7);
	}
	waitpid(pid, &status, 0);
	return WEXITSTATUS(status) == 7 ? 0 : 1;
}

static int signalled(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pid_t pid;

	int ready[2];
	char c;

	sigaction(SIGUSR1, &sa, NULL);
	kill(getpid(), SIGUSR1);
	if (pipe(ready) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		/* running: then it waits to be killed */
		if (write(ready[1], "r", 1) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(ready[0], &c, 1) != 1)
		return 1;
	/* time to reach pause(): strace shows it unfinished, "pause() = ?" */
	struct timespec pause_time = { 0, 50 * 1000 * 1000 };
	nanosleep(&pause_time, NULL);
	/* SIGCHLD held until the child is reaped: it comes after wait4 under
	   strace and lantern alike, however fast the child dies (before wait4
	   or during it, a race) */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	return got == SIGUSR1 ? 0 : 1;
}

static int coldpath(void)
{
	/* a file whose second page holds a path; mapped, never touched */
	char tmpl[] = "/tmp/lantern-coldpath", page[8192] = { 0 };
	int fd = open(tmpl, O_RDWR | O_CREAT | O_TRUNC, 0600);
	char *map;

	strcpy(page + 4096, "/etc/hostname");
	if (fd < 0 || write(fd, page, sizeof(page)) != sizeof(page))
		return 1;
	unlink(tmpl);
	map = mmap(NULL, sizeof(page), PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 1;
	fd = (int)syscall(SYS_openat, AT_FDCWD, map + 4096, O_RDONLY);
	close(fd);
	return fd >= 0 ? 0 : 1;
}

static int structs(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	struct timespec ts;
	struct utsname u;
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	int s;

	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	connect(s, (struct sockaddr *)&in, sizeof(in));
	close(s);
	strcpy(un.sun_path, "/nonexistent/lantern.sock");
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	connect(s, (struct sockaddr *)&un, sizeof(un));
	close(s);
	poll(&pfd, 1, 0);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	uname(&u);
	s = (int)syscall(SYS_openat2, AT_FDCWD, "/etc/hostname", &how, sizeof(how));
	close(s);
	how = (struct open_how){ .flags = O_WRONLY | O_CREAT | O_EXCL, .mode = 0600, .resolve = RESOLVE_BENEATH };
	syscall(SYS_openat2, AT_FDCWD, "/nonexistent/lantern", &how, sizeof(how));
	return 0;
}

static int io(void)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 42 }, got[4];
	char a[3], b[20], c[16];
	struct iovec out[2] = { { "hello", 5 }, { " world\n", 7 } };
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec one = { c, sizeof(c) };
	struct msghdr snd = { .msg_iov = out, .msg_iovlen = 2 };
	struct msghdr rcv = { .msg_iov = &one, .msg_iovlen = 1 };
	int p[2], sv[2], e = epoll_create1(EPOLL_CLOEXEC);

	if (e < 0 || pipe(p) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	epoll_ctl(e, EPOLL_CTL_ADD, p[0], &ev);
	writev(p[1], out, 2);
	epoll_wait(e, got, 4, 1000);
	epoll_wait(e, got, 4, 0);
	readv(p[0], in, 2);
	epoll_ctl(e, EPOLL_CTL_DEL, p[0], NULL);
	sendmsg(sv[0], &snd, 0);
	recvmsg(sv[1], &rcv, MSG_DONTWAIT);
	return 0;
}

static int tcp_pair(int family)
{
	struct sockaddr_storage ss = { .ss_family = (sa_family_t)family };
	socklen_t len = family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	int l = socket(family, SOCK_STREAM, 0), c = socket(family, SOCK_STREAM, 0), a;
	char buf[4];

	if (family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	else
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(l, (struct sockaddr *)&ss, len) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&ss, &len) < 0 || connect(c, (struct sockaddr *)&ss, len) < 0)
		return -1;
	a = accept(l, NULL, NULL);
	send(c, "hi", 2, 0);
	return recv(a, buf, sizeof(buf), 0) == 2 ? 0 : -1;
}

static int sockets(void)
{
	int sv[2];
	char c;

	if (tcp_pair(AF_INET) < 0 || tcp_pair(AF_INET6) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	send(sv[0], "z", 1, 0);
	recv(sv[1], &c, 1, 0);
	usleep(300000); /* the sockets live until lantern prints */
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "threads"))
		return threads();
	if (!strcmp(mode, "fork"))
		return forked();
	if (!strcmp(mode, "signal"))
		return signalled();
	if (!strcmp(mode, "coldpath"))
		return coldpath();
	if (!strcmp(mode, "structs"))
		return structs();
	if (!strcmp(mode, "io"))
		return io();
	if (!strcmp(mode, "sockets"))
		return sockets();
	fprintf(stderr, "usage: trace_target threads|fork|signal|coldpath|structs|io|sockets\n");
	return 2;
}

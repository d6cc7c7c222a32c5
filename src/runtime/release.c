// SPDX-License-Identifier: MIT
/*
 * Releasing a session's kernel objects without making the user wait.
 *
 * The kernel's release of a tracepoint or uprobe attachment waits for RCU
 * grace periods (tens of milliseconds each), and the user's prompt need
 * not: the last references go to a helper process that releases them and
 * exits. The helper shares lantern's memory (CLONE_VM) rather than copying
 * it, and stays until lantern has exited: lantern's exit then only drops
 * its hold on the address space, and the helper's exit tears it down (the
 * ring buffer's mapping, the heap: about a millisecond of the exit). The
 * helper closes its standard streams at once (a pipeline does not wait for
 * it), leaves the terminal's process group and takes no signal from it
 * (they stay blocked); killed anyway, it releases all the same, as the
 * kernel closes a dead process's descriptors.
 */
#include "runtime/load.h"

#include <bpf/bpf.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

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
		if (a[i].map)
			munmap(a[i].map, a[i].map_len);
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
 * grace periods. A thread each when they are few (lantern trace -e's
 * four: the kernel serialises the perf events' waits, not their links').
 */
#define CLOSERS 64

static void close_all(struct attach_ctx *ac)
{
	size_t n = ac->list.len, nthreads = MIN(CLOSERS, n);
	pthread_t tid[CLOSERS];
	struct closer work[CLOSERS];
	size_t started = 0, done = 0;

	if (!n)
		return;

	for (size_t t = 0; t < nthreads; t++) {
		size_t end = n * (t + 1) / nthreads;
		work[t] = (struct closer){ ac->list.data + done, end - done };
		if (pthread_create(&tid[t], NULL, closer_main, &work[t]) != 0)
			break;
		done = end;
		started++;
	}
	close_attachments(ac->list.data + done, n - done);
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	ac->list.len = 0;
}

/*
 * Stop the probes: with programs that check the stop flag, one write to
 * it (their release, which waits for the kernel's grace periods, comes
 * with the rest in rt_release_all()); else release them now.
 */
void rt_detach_all(struct session *s)
{
	uint32_t zero = 0;
	uint64_t one = 1;

	if (s->plan.checks_stop &&
	    bpf_map_update_elem(live_fd(&s->maps, s->plan.maps.stop), &zero, &one, BPF_ANY) == 0)
		return;
	close_all(&s->attach);
}

/*
 * The helper and the processes it closes with. They share lantern's
 * memory, which lantern goes on changing (freeing, printing) until it
 * exits: they touch only this block, which lantern never frees (its exit
 * leaves it to them), and make system calls; no C library state of
 * lantern's (stdio, malloc, threads) is theirs to use.
 */
#define HELPER_STACK (32 * 1024)
#define CLOSER_STACK (16 * 1024)

struct helper {
	int *fds;     /* the attachments' descriptors */
	size_t n;     /* how many */
	int wait_fd;  /* read end of a pipe whose write end only lantern holds */
	int spare_fd; /* ... that write end, closed in the helper */
	char *stacks; /* HELPER_STACK, then a CLOSER_STACK per closer */
	pid_t resume[8]; /* processes to continue once the closes are done (ac->resume) */
	size_t nresume;
	struct part {
		int *fds;
		size_t n;
	} part[CLOSERS];
};

static int close_part(void *arg)
{
	const struct part *p = arg;

	for (size_t i = 0; i < p->n; i++)
		close(p->fds[i]);
	return 0;
}

static int helper_main(void *arg)
{
	struct helper *h = arg;
	size_t nparts = MIN((size_t)CLOSERS, h->n), done = 0;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	char c;

	for (int fd = 0; fd <= 2; fd++)
		dup2(null, fd);
	close(h->spare_fd);
	setsid(); /* out of the terminal's process group */
	for (size_t t = 0; t < nparts; t++) {
		size_t end = h->n * (t + 1) / nparts;
		h->part[t] = (struct part){ h->fds + done, end - done };
		done = end;
		/* CLONE_FILES: its close drops the helper's reference, not a copy's */
		char *top = h->stacks + HELPER_STACK + (t + 1) * CLOSER_STACK;
		if (clone(close_part, top, CLONE_VM | CLONE_FILES | SIGCHLD, &h->part[t]) < 0)
			close_part(&h->part[t]);
	}
	/* (no EINTR: the session's signals stay blocked, and errno is lantern's) */
	while (waitpid(-1, NULL, 0) > 0)
		;
	/* the probes are gone: a process one of them stopped after lantern continued it goes on */
	for (size_t i = 0; i < h->nresume; i++)
		kill(h->resume[i], SIGCONT);
	/* lantern's exit ends this read: the address space is then the helper's alone */
	if (read(h->wait_fd, &c, 1) < 0)
		_exit(1);
	_exit(0);
}

/*
 * The helper, given copies of every descriptor (maps and programs too: it
 * holds them until it exits); true when it runs. The session's own
 * descriptors then close without waiting, and its memory may be left
 * mapped (s->exit_shared).
 */
static bool hand_over_release(struct session *s)
{
	size_t n = s->attach.list.len, nfds = 0, head;
	struct helper *h;
	int p[2];

	if (!n || getenv("LANTERN_RELEASE_INLINE"))
		return false;
#ifdef __SANITIZE_ADDRESS__
	/* AddressSanitizer keeps per-thread state a CLONE_VM process would share */
	return false;
#endif
	head = ALIGN_UP(sizeof(*h) + 2 * n * sizeof(int), 64);
	h = mmap(NULL, head + HELPER_STACK + MIN((size_t)CLOSERS, 2 * n) * CLOSER_STACK,
		 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (h == MAP_FAILED)
		return false;
	h->fds = (int *)(h + 1);
	vec_foreach(&s->attach.list, a)
	{
		if (a->link_fd >= 0)
			h->fds[nfds++] = a->link_fd;
		if (a->perf_fd >= 0)
			h->fds[nfds++] = a->perf_fd;
	}
	h->n = nfds;
	h->stacks = (char *)h + head;
	h->nresume = MIN(s->attach.resume.len, ARRAY_SIZE(h->resume));
	for (size_t i = 0; i < h->nresume; i++)
		h->resume[i] = s->attach.resume.data[i];
	if (pipe2(p, O_CLOEXEC) < 0)
		return false; /* the block stays mapped: a few pages, lantern ends soon */
	h->wait_fd = p[0];
	h->spare_fd = p[1];
	if (clone(helper_main, h->stacks + HELPER_STACK, CLONE_VM | SIGCHLD, h) < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	close(p[0]); /* p[1] stays open until lantern exits */
	/* its copies hold the attachments: closing these does not wait */
	close_attachments(s->attach.list.data, n);
	s->attach.list.len = 0;
	s->exit_shared = true;
	return true;
}

void rt_release_all(struct session *s)
{
	if (!hand_over_release(s))
		close_all(&s->attach);
	attach_watches_release(&s->attach);
	vec_free(&s->attach.list);
	vec_free(&s->attach.resume);
	for (size_t i = 0; s->prog_fds && i < s->plan.progs.len; i++)
		if (s->prog_fds[i] >= 0)
			close(s->prog_fds[i]);
	free(s->prog_fds);
	s->prog_fds = NULL;
	maps_close(&s->maps);
}

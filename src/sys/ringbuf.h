/* SPDX-License-Identifier: MIT */
/*
 * The consumer side of a BPF ring buffer map (ringbuf.c), lantern's own
 * rather than libbpf's ring_buffer: libbpf publishes the consumer position
 * after every record, and each publication pulls the position's cache line
 * away from the CPUs that produce, which read it on every reserve. This
 * one publishes it every RINGBUF_RELEASE bytes and at the end of a batch.
 */
#ifndef LANTERN_SYS_RINGBUF_H
#define LANTERN_SYS_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

#define RINGBUF_RELEASE (256 * 1024)

/* A record: 0 to go on, < 0 to stop after it. */
typedef int (*ringbuf_fn)(void *ctx, void *data, size_t size);

struct ringbuf {
	int fd;
	uint64_t mask; /* data size - 1 */
	unsigned long *consumer, *producer;
	uint8_t *data;	/* mapped once */
	size_t page, size;
	uint8_t *tmp;	/* a record that wraps, copied */
	size_t tmp_cap;
	ringbuf_fn fn;
	void *ctx;
};

/* Map the ring buffer of map fd (it stays the caller's). 0, or -1 with errno. */
int sys_ringbuf_open(struct ringbuf *rb, int fd, ringbuf_fn fn, void *ctx);
/*
 * Map fd's ring buffer now (a thread that made it, while the session does
 * other work: the kernel fills the page tables of the whole area, about
 * a millisecond for 8 MB); sys_ringbuf_open() of that fd takes the
 * mapping. 0, or -1 with errno. sys_ringbuf_unpremap(): drop it unused.
 */
int sys_ringbuf_premap(int fd);
void sys_ringbuf_unpremap(void);
/* Every record ready (until fn says stop): how many were handled. */
long sys_ringbuf_consume(struct ringbuf *rb);
void sys_ringbuf_close(struct ringbuf *rb);
/*
 * Close it but leave it mapped: in a process about to exit whose address
 * space another process shares and tears down (runtime/release.c), the
 * unmapping (half a millisecond for 8 MB) would only delay the exit.
 */
void sys_ringbuf_abandon(struct ringbuf *rb);

#endif

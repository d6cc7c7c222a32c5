// SPDX-License-Identifier: MIT
/*
 * A BPF ring buffer, read (see ringbuf.h). The kernel's layout: a page
 * holding the consumer position (ours to write), a page holding the
 * producer position, then the data, mapped twice in a row so that a
 * record that wraps reads straight. Each record starts with an 8-byte
 * header: its length, with a BUSY bit while its producer writes it and a
 * DISCARD bit when it was dropped, and records are 8-byte aligned.
 */
#include "sys/ringbuf.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int sys_ringbuf_open(struct ringbuf *rb, int fd, ringbuf_fn fn, void *ctx)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	void *p;

	memset(rb, 0, sizeof(*rb));
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return -1;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1))) {
		errno = EINVAL;
		return -1;
	}
	rb->fd = fd;
	rb->fn = fn;
	rb->ctx = ctx;
	rb->page = (size_t)sysconf(_SC_PAGESIZE);
	rb->mask = info.max_entries - 1;
	p = mmap(NULL, rb->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	rb->consumer = p;
	rb->size = rb->page + 2 * (size_t)info.max_entries;
	p = mmap(NULL, rb->size, PROT_READ, MAP_SHARED, fd, (off_t)rb->page);
	if (p == MAP_FAILED) {
		munmap(rb->consumer, rb->page);
		rb->consumer = NULL;
		return -1;
	}
	rb->producer = p;
	rb->data = (uint8_t *)p + rb->page;
	return 0;
}

long sys_ringbuf_consume(struct ringbuf *rb)
{
	unsigned long cons = __atomic_load_n(rb->consumer, __ATOMIC_RELAXED), released = cons;
	long n = 0;

	for (;;) {
		unsigned long prod = __atomic_load_n(rb->producer, __ATOMIC_ACQUIRE);
		if (cons >= prod)
			break;
		while (cons < prod) {
			uint32_t *hdr = (uint32_t *)(rb->data + (cons & rb->mask));
			uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out; /* its producer is still writing it */
			uint32_t size = len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
			cons += (size + BPF_RINGBUF_HDR_SZ + 7) & ~7u;
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				n++;
				if (rb->fn(rb->ctx, (uint8_t *)hdr + BPF_RINGBUF_HDR_SZ, size) < 0) {
					__atomic_store_n(rb->consumer, cons, __ATOMIC_RELEASE);
					return n;
				}
			}
			/* give producers room now and then, not after every record */
			if (cons - released >= RINGBUF_RELEASE) {
				__atomic_store_n(rb->consumer, cons, __ATOMIC_RELEASE);
				released = cons;
			}
		}
	}
out:
	if (cons != released)
		__atomic_store_n(rb->consumer, cons, __ATOMIC_RELEASE);
	return n;
}

void sys_ringbuf_close(struct ringbuf *rb)
{
	if (rb->producer)
		munmap(rb->producer, rb->size);
	if (rb->consumer)
		munmap(rb->consumer, rb->page);
	rb->producer = rb->consumer = NULL;
}

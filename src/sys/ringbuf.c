// SPDX-License-Identifier: MIT
/*
 * A BPF ring buffer, read (see ringbuf.h). The kernel's layout: a page
 * holding the consumer position (ours to write), a page holding the
 * producer position, then the data, which the kernel lets a reader map
 * twice in a row so that a record that wraps reads straight. It is mapped
 * once here (filling and clearing the page tables of 16 MB took half a
 * millisecond at each end of a run), and the rare record that wraps is
 * copied whole. Each record starts with an 8-byte header (which never
 * wraps: records are 8-byte aligned): its length, with a BUSY bit while
 * its producer writes it and a DISCARD bit when it was dropped.
 */
#include "sys/ringbuf.h"
#include "base/util.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct ringbuf premapped; /* consumer NULL: none */

int sys_ringbuf_open(struct ringbuf *rb, int fd, ringbuf_fn fn, void *ctx)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	void *p;

	if (premapped.consumer && premapped.fd == fd) {
		*rb = premapped;
		rb->fn = fn;
		rb->ctx = ctx;
		memset(&premapped, 0, sizeof(premapped));
		return 0;
	}
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
	rb->size = rb->page + (size_t)info.max_entries;
	p = mmap(NULL, rb->size, PROT_READ, MAP_SHARED, fd, (off_t)rb->page);
	if (p == MAP_FAILED) {
		munmap(rb->consumer, rb->page);
		rb->consumer = NULL;
		return -1;
	}
	rb->producer = p;
	rb->data = (uint8_t *)p + rb->page;
	/* not in forked children (the command before its exec, the release child): fork
	   would copy the page table of every page of the buffer */
	madvise(rb->consumer, rb->page, MADV_DONTFORK);
	madvise(p, rb->size, MADV_DONTFORK);
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
			size_t at = (cons & rb->mask) + BPF_RINGBUF_HDR_SZ, end = rb->mask + 1;
			cons += (size + BPF_RINGBUF_HDR_SZ + 7) & ~7u;
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				uint8_t *rec = rb->data + at;
				if (at >= end) {
					rec = rb->data + (at - end);
				} else if (at + size > end) { /* it wraps: copied whole */
					if (size > rb->tmp_cap) {
						rb->tmp = util_xrealloc(rb->tmp, size);
						rb->tmp_cap = size;
					}
					memcpy(rb->tmp, rb->data + at, end - at);
					memcpy(rb->tmp + (end - at), rb->data, size - (end - at));
					rec = rb->tmp;
				}
				n++;
				if (rb->fn(rb->ctx, rec, size) < 0) {
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

void sys_ringbuf_abandon(struct ringbuf *rb)
{
	rb->producer = rb->consumer = NULL;
	sys_ringbuf_close(rb);
}

void sys_ringbuf_close(struct ringbuf *rb)
{
	if (rb->producer && 0)
		munmap(rb->producer, rb->size);
	if (rb->consumer)
		munmap(rb->consumer, rb->page);
	rb->producer = rb->consumer = NULL;
	free(rb->tmp);
	rb->tmp = NULL;
	rb->tmp_cap = 0;
}

int sys_ringbuf_premap(int fd)
{
	struct ringbuf rb;

	sys_ringbuf_unpremap();
	if (sys_ringbuf_open(&rb, fd, NULL, NULL) < 0)
		return -1;
	premapped = rb;
	return 0;
}

void sys_ringbuf_unpremap(void)
{
	if (premapped.consumer)
		sys_ringbuf_close(&premapped);
	memset(&premapped, 0, sizeof(premapped));
}

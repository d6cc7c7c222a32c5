// SPDX-License-Identifier: MIT
// A seed of fuzz_elf (tests/fuzz/README.md says how it is built)
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
typedef unsigned int u32;
typedef long long s64;
enum color { RED, GREEN = 4, BLUE };
struct point { int x, y; };
struct list { struct list *next, *prev; };
union u { long as_long; unsigned char bytes[8]; float f; };
struct node {
	int id;
	char name[12];
	struct point pos;
	unsigned int flags : 3;
	unsigned int kind : 5;
	int delta : 6;
	union { long as_long; unsigned char bytes[8]; } u;
	struct { short a, b; };
	struct node *next;
	const volatile long values[4][2];
	enum color c;
	u32 (*fn)(struct node *, const char *);
	struct list l;
	double d;
	_Bool ok;
	struct opaque *op;
};
struct s { struct node *n; union u uu; s64 big; char *str; const char **argv; };
__attribute__((section(".probes"), used)) volatile unsigned short lantern_tick_semaphore, lantern_done_semaphore;
__attribute__((noinline, used)) int lantern_visit(struct node *n, int depth)
{
	int sum = 0;
	__asm__ volatile("" ::: "memory");
	for (; n && depth >= 0; n = n->next, depth--)
		sum += n->id + n->pos.x;
	STAP_PROBE3(lantern, tick, sum, depth, n);
	return sum;
}
__attribute__((noinline, used)) long lantern_sum(const long *values, int n, struct s *x, union u y, enum color c)
{
	long s = 0;
	__asm__ volatile("" ::: "memory");
	for (int i = 0; i < n; i++)
		s += values[i];
	STAP_PROBE2(lantern, done, s, c);
	return s + x->big + y.as_long;
}
void _start(void)
{
	static struct node nodes[2];
	struct s x = { 0 };
	union u y = { 0 };
	nodes[0].next = &nodes[1];
	lantern_sum((const long *)nodes[0].values, lantern_visit(nodes, 2), &x, y, BLUE);
	for (;;)
		;
}

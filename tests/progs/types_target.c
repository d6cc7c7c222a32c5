// SPDX-License-Identifier: MIT
/*
 * A program with structs, arrays, bitfields, unions and nested pointers,
 * built with debug info, for the tests of types in user space: it builds a
 * list of three nodes and calls lantern_visit(head, depth) N times, then
 * lantern_sum(values, 4).
 *
 *   types_target N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	int x, y;
};

struct node {
	int id;
	char name[12];
	struct point pos;
	unsigned int flags : 3;
	unsigned int kind : 5;
	int delta : 6;
	union {
		long as_long;
		unsigned char bytes[8];
	} u;
	struct node *next;
	long values[4];
};

__attribute__((noinline, used)) int lantern_visit(struct node *n, int depth)
{
	int sum = 0;

	__asm__ volatile("" ::: "memory");
	for (; n && depth >= 0; n = n->next, depth--)
		sum += n->id + n->pos.x;
	return sum;
}

__attribute__((noinline, used)) long lantern_sum(const long *values, int n)
{
	long s = 0;

	__asm__ volatile("" ::: "memory");
	for (int i = 0; i < n; i++)
		s += values[i];
	return s;
}

int main(int argc, char **argv)
{
	static struct node nodes[3];
	long n = argc > 1 ? atol(argv[1]) : 1, total = 0;

	for (int i = 0; i < 3; i++) {
		nodes[i].id = 10 + i;
		snprintf(nodes[i].name, sizeof(nodes[i].name), "node-%d", i);
		nodes[i].pos = (struct point){ i * 100, -i };
		nodes[i].flags = 5;
		nodes[i].kind = 17 + i;
		nodes[i].delta = -3 * i;
		nodes[i].u.as_long = 0x1122334455667788L;
		nodes[i].next = i < 2 ? &nodes[i + 1] : NULL;
		for (int k = 0; k < 4; k++)
			nodes[i].values[k] = (i + 1) * (k + 1);
	}
	for (long k = 0; k < n; k++)
		total += lantern_visit(&nodes[0], 2);
	total += lantern_sum(nodes[1].values, 4);
	return total == 0;
}

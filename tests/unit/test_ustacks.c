// SPDX-License-Identifier: MIT
/*
 * The table of user stacks unwound in user space (maps/ustacks.h): equal
 * stacks are one id, a snapshot's token names the stack it became, and a
 * map key's tokens resolve (or say their snapshot was lost, or their
 * stack refused by the full table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "maps/ustacks.h"

static uint64_t token(uint64_t cpu, uint64_t seq)
{
	return STACK_ID_TOKEN | cpu << STACK_TOKEN_CPU_SHIFT | seq;
}

static void test_intern(void **state)
{
	struct live_maps lm = { 0 };
	uint64_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 4 }, out[4];

	int64_t ia = maps_ustack_intern(&lm, a, 3), ib = maps_ustack_intern(&lm, b, 3);
	assert_true(ia & STACK_ID_INTERN);
	assert_true(ia != ib);
	assert_int_equal(maps_ustack_intern(&lm, a, 3), ia);
	assert_int_equal(maps_ustack_intern(&lm, a, 2), maps_ustack_intern(&lm, b, 2));
	/* many stacks: the index grows */
	for (uint64_t i = 0; i < 5000; i++) {
		uint64_t c[] = { i, i + 1 };
		assert_int_equal(maps_ustack_intern(&lm, c, 2), maps_ustack_intern(&lm, c, 2));
	}
	assert_true(maps_ustack_frames(&lm, ib, out, 4));
	assert_int_equal(out[2], 4);
	assert_int_equal(out[3], 0);
	maps_ustacks_free(&lm);
}

static void test_tokens(void **state)
{
	struct live_maps lm = { 0 };
	uint64_t a[] = { 7, 8 };
	int64_t id = maps_ustack_intern(&lm, a, 2);

	maps_ustack_token_set(&lm, token(1, 5), id);
	maps_ustack_token_set(&lm, token(0, 100000), id);
	assert_int_equal(maps_ustack_token_get(&lm, token(1, 5)), id);
	assert_int_equal(maps_ustack_token_get(&lm, token(0, 100000)), id);
	assert_int_equal(maps_ustack_token_get(&lm, token(1, 6)), -1); /* never came */
	assert_int_equal(maps_ustack_token_get(&lm, token(3, 1)), -1);
	maps_ustacks_free(&lm);
}

static void test_key_resolve(void **state)
{
	struct live_maps lm = { 0 };
	struct arena ar = { 0 };
	struct type *el[2] = { type_stack(&ar, true, false, 127), &ty_u64 };
	struct type *key = type_tuple(&ar, el, 2);
	uint8_t k[32] = { 0 };
	uint64_t a[] = { 9 }, tok = token(0, 1), other = token(0, 2);
	int64_t id = maps_ustack_intern(&lm, a, 1), got;

	maps_ustack_token_set(&lm, tok, id);
	memcpy(k + key->fields[0].offset, &tok, 8);
	assert_true(maps_key_has_ustack(key));
	assert_int_equal(maps_key_ustacks_resolve(&lm, key, k, false), USTACKS_OK);
	memcpy(&got, k + key->fields[0].offset, 8);
	assert_int_equal(got, id);
	memcpy(k + key->fields[0].offset, &other, 8);
	assert_int_equal(maps_key_ustacks_resolve(&lm, key, k, false), USTACKS_LOST);
	maps_ustacks_free(&lm);
	arena_free(&ar);
}

/* A stack the full table refuses: its updates are refused, not lost (their snapshot came) */
static void test_table_full(void **state)
{
	struct live_maps lm = { 0 };
	struct arena ar = { 0 };
	struct type *el[1] = { type_stack(&ar, true, false, 127) };
	struct type *key = type_tuple(&ar, el, 1);
	uint8_t k[16] = { 0 };
	uint64_t a[] = { 1 }, b[] = { 2 }, tok = token(0, 7);

	maps_ustack_limit(&lm, 1);
	assert_true(maps_ustack_intern(&lm, a, 1) >= 0);
	int64_t id = maps_ustack_intern(&lm, b, 1);
	assert_true(id < 0);
	maps_ustack_token_set(&lm, tok, id);
	assert_int_equal(maps_ustack_token_get(&lm, tok), MAPS_USTACK_REFUSED);
	memcpy(k + key->fields[0].offset, &tok, 8);
	assert_int_equal(maps_key_ustacks_resolve(&lm, key, k, false), USTACKS_REFUSED);
	maps_ustacks_free(&lm);
	arena_free(&ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_key_resolve),
		cmocka_unit_test(test_table_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

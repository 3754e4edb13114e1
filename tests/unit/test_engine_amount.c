/*
 * test_engine_amount.c - how -n/-k end a test: per direction, by bytes or
 * by blocks of the block length, from the end of omit, and only the client
 * ends it; and the strict decimal parser bench's counts and times go through.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "../../src/engine/engine_int.h"

static void make_test(struct nd_test *t, uint64_t bytes, uint64_t blocks, int omit, bool server)
{
	struct nd_engine_params p;

	nd_engine_params_init(&p);
	p.bytes_total = bytes;
	p.blocks_total = blocks;
	p.omit_sec = omit;
	p.len_bytes = 1000;
	assert_int_equal(nd_test_init(t, &p, server), 0);
}

static void test_per_direction(void **state)
{
	struct nd_test t;

	(void)state;
	make_test(&t, 5000, 0, 0, false);
	/* 3000 each way is 6000 in all, but neither direction moved 5000. */
	assert_false(nd_test_amount_add(&t, true, 3000));
	assert_false(nd_test_amount_add(&t, false, 3000));
	assert_false(atomic_load(&t.limit_reached));
	assert_int_equal(nd_test_amount_left(&t), 2000);
	assert_true(nd_test_amount_add(&t, false, 2000));
	assert_true(atomic_load(&t.limit_reached));
	nd_test_free(&t);
}

static void test_blocks_and_server(void **state)
{
	struct nd_test t;

	(void)state;
	make_test(&t, 0, 3, 0, true);
	assert_int_equal(nd_test_amount_left(&t), 3000);
	assert_false(nd_test_amount_add(&t, true, 2999));
	assert_true(nd_test_amount_add(&t, true, 1));
	assert_int_equal(nd_test_amount_left(&t), 0);
	/* The server's sender stops, but only the client ends the test. */
	assert_false(atomic_load(&t.limit_reached));
	nd_test_free(&t);
}

static void test_timed_and_omit(void **state)
{
	struct nd_test t;

	(void)state;
	make_test(&t, 0, 0, 0, false);
	assert_false(nd_test_amount_add(&t, true, UINT64_MAX / 2));
	assert_true(nd_test_amount_left(&t) == UINT64_MAX);
	nd_test_free(&t);
	make_test(&t, 100, 0, 2, false);
	assert_false(nd_test_amount_add(&t, true, 1000));	/* during omit */
	atomic_store(&t.amount_counting, true);
	assert_true(nd_test_amount_add(&t, true, 100));
	nd_test_free(&t);
}

static void test_parse_decimal(void **state)
{
	const char *bad[] = { "nan", "NaN", "inf", "-inf", "infinity", "0x10", "", ".", "-",
			      "e5", "1e999", "1e-400", "+" };
	const char *end;
	double v;

	(void)state;
	assert_int_equal(nd_parse_decimal("1.5M", &v, &end), 0);
	assert_true(v == 1.5 && strcmp(end, "M") == 0);
	assert_int_equal(nd_parse_decimal("2e3", &v, &end), 0);
	assert_true(v == 2000 && *end == '\0');
	assert_int_equal(nd_parse_decimal("1e", &v, &end), 0);
	assert_true(v == 1 && strcmp(end, "e") == 0);
	assert_int_equal(nd_parse_decimal("-1", &v, &end), 0);
	assert_true(v == -1);
	assert_int_equal(nd_parse_decimal(".5", &v, &end), 0);
	assert_true(v == 0.5);
	assert_int_equal(nd_parse_decimal("1e-300", &v, &end), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(nd_parse_decimal(bad[i], &v, &end), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_direction),
		cmocka_unit_test(test_blocks_and_server),
		cmocka_unit_test(test_timed_and_omit),
		cmocka_unit_test(test_parse_decimal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

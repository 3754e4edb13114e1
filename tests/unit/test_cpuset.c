/*
 * test_cpuset.c - the kernel's CPU mask ("ff,ffffffff") and list
 * ("0-3,8,10-11") forms, empty and garbage input.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nicdoctor/cpuset.h"

static void test_masks(void **state)
{
	struct nd_cpuset set;
	char buf[512];

	(void)state;
	assert_int_equal(nd_cpuset_parse_mask("ff,ffffffff", &set), 0);
	assert_int_equal(nd_cpuset_count(&set), 40);
	assert_true(nd_cpuset_has(&set, 39));
	assert_false(nd_cpuset_has(&set, 40));
	assert_string_equal(nd_cpuset_format_list(&set, buf, sizeof(buf)), "0-39");
	assert_int_equal(nd_cpuset_parse_mask("00000000,0000000f", &set), 0);
	assert_int_equal(nd_cpuset_count(&set), 4);
	assert_int_equal(nd_cpuset_first(&set), 0);
	assert_int_equal(nd_cpuset_parse_mask("0000,03000003", &set), 0);	/* iavf mail */
	assert_string_equal(nd_cpuset_format_list(&set, buf, sizeof(buf)), "0-1,24-25");
	assert_int_equal(nd_cpuset_parse_mask("000", &set), 0);			/* rps off, 12 CPUs */
	assert_true(nd_cpuset_empty(&set));
	assert_int_equal(nd_cpuset_first(&set), -1);
	assert_int_equal(nd_cpuset_parse_mask("10\n", &set), 0);
	assert_true(nd_cpuset_has(&set, 4));
	assert_int_equal(nd_cpuset_count(&set), 1);
}

static void test_lists(void **state)
{
	struct nd_cpuset set;
	char buf[512];

	(void)state;
	assert_int_equal(nd_cpuset_parse_list("0-3,8,10-11", &set), 0);
	assert_int_equal(nd_cpuset_count(&set), 7);
	assert_true(nd_cpuset_has(&set, 8));
	assert_false(nd_cpuset_has(&set, 9));
	assert_string_equal(nd_cpuset_format_list(&set, buf, sizeof(buf)), "0-3,8,10-11");
	assert_string_equal(nd_cpuset_format_mask(&set, buf, sizeof(buf)), "00000d0f");
	assert_int_equal(nd_cpuset_parse_list("", &set), 0);
	assert_true(nd_cpuset_empty(&set));
	assert_int_equal(nd_cpuset_parse_list("5\n", &set), 0);
	assert_int_equal(nd_cpuset_first(&set), 5);
}

static void test_garbage(void **state)
{
	struct nd_cpuset set;

	(void)state;
	assert_int_equal(nd_cpuset_parse_list("a-b", &set), -EINVAL);
	assert_int_equal(nd_cpuset_parse_list("3-1", &set), -EINVAL);
	assert_int_equal(nd_cpuset_parse_list("0-", &set), -EINVAL);
	assert_int_equal(nd_cpuset_parse_list("1,,2", &set), -EINVAL);
	assert_true(nd_cpuset_parse_list("99999", &set) < 0);	/* beyond ND_CPUSET_BITS */
	assert_int_equal(nd_cpuset_parse_mask("xyz", &set), -EINVAL);
	assert_int_equal(nd_cpuset_parse_mask("", &set), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_run_cmd.c - nd_run_capture: output taken, a missing program, a
 * failing one, and the two ways a child is killed: past its deadline, and
 * writing more than the caller takes (which once would have blocked it
 * forever on a full pipe while we waited for it).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "nicdoctor/sysfs_util.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_output(void **state)
{
	char *argv[] = { "printf", "a\\nb", NULL }, *text = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(nd_run_capture(argv, 5000, 100, &text, &len), 0);
	assert_int_equal(len, 3);
	assert_string_equal(text, "a\nb");
	free(text);
}

static void test_missing_and_failing(void **state)
{
	char *missing[] = { "nd-no-such-program-here", NULL }, *fails[] = { "false", NULL };
	char *text = NULL;
	size_t len;

	(void)state;
	assert_int_equal(nd_run_capture(missing, 1000, 100, &text, &len), -ENOENT);
	assert_int_equal(nd_run_capture(fails, 1000, 100, &text, &len), -EIO);
	assert_null(text);
}

static void test_killed(void **state)
{
	char *sleeper[] = { "sleep", "30", NULL }, *chatty[] = { "yes", NULL }, *text = NULL;
	size_t len;
	double t0 = now();

	(void)state;
	assert_int_equal(nd_run_capture(sleeper, 200, 100, &text, &len), -ETIMEDOUT);
	assert_true(now() - t0 < 5);
	t0 = now();
	assert_int_equal(nd_run_capture(chatty, 10000, 4096, &text, &len), -E2BIG);
	assert_true(now() - t0 < 5);
	assert_null(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_missing_and_failing),
		cmocka_unit_test(test_killed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_engine_intervals.c - the -J interval store stays bounded on a long
 * run (-t 86400 -i 0.1 is 864000 ticks) and still covers the whole test:
 * kept intervals are contiguous and their bytes add up to what moved.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/engine/engine_int.h"

/* One UDP stream with no socket: ticks sample only its counters. */
static void one_stream_test(struct nd_test *t, int streams)
{
	struct nd_engine_params p;

	nd_engine_params_init(&p);
	p.udp = true;
	p.streams = streams;
	assert_int_equal(nd_test_init(t, &p, false), 0);
	for (int i = 0; i < streams; i++) {
		t->streams[i].fd = -1;
		t->streams[i].test = t;
		t->streams[i].sending = true;
	}
	t->streams_count = streams;
	t->keep_intervals = true;
	t->omit_done = true;
	t->t_start = t->t_omit_end = t->t_last_iv = 1000.0;
}

static void test_store_is_bounded(void **state)
{
	struct nd_test t;
	const int ticks = 40000;
	uint64_t total = 0, kept = 0;

	(void)state;
	one_stream_test(&t, 1);
	for (int i = 1; i <= ticks; i++) {
		atomic_fetch_add(&t.streams[0].bytes, (uint64_t)i);
		total += (uint64_t)i;
		assert_int_equal(nd_test_tick(&t, 1000.0 + i * 0.1), 0);
	}
	/* 32768 records over (1 stream + its sum) per interval. */
	assert_true(t.intervals_count <= 16384);
	assert_true(t.intervals_count >= 16384 / 4);
	assert_true(t.intervals[0].start_sec == 0.0);
	for (int i = 0; i < t.intervals_count; i++) {
		if (i > 0)
			assert_true(t.intervals[i].start_sec == t.intervals[i - 1].end_sec);
		kept += t.intervals[i].streams[0].bytes;
	}
	assert_true(t.intervals[t.intervals_count - 1].end_sec > ticks * 0.1 - 0.01);
	assert_true(kept == total);
	nd_test_free(&t);
}

static void test_short_run_kept_whole(void **state)
{
	struct nd_test t;

	(void)state;
	one_stream_test(&t, 4);
	for (int i = 1; i <= 100; i++)
		assert_int_equal(nd_test_tick(&t, 1000.0 + i), 0);
	assert_int_equal(t.intervals_count, 100);
	assert_true(t.intervals[99].end_sec - t.intervals[99].start_sec == 1.0);
	nd_test_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_is_bounded),
		cmocka_unit_test(test_short_run_kept_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

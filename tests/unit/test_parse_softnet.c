/*
 * test_parse_softnet.c - /proc/net/softnet_stat with 9, 11, 13 and 15
 * columns from real captures (tests/fixtures/raw/), and bad input; also
 * the iperf3 version and triple-sysctl parsers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "raw_fixture.h"

#include "nicdoctor/parse.h"

static struct nd_softnet *parse_raw(const char *name)
{
	struct nd_softnet *sn = calloc(1, sizeof(*sn));
	char *text = raw(name);

	assert_non_null(sn);
	assert_int_equal(nd_parse_softnet(text, sn), 0);
	free(text);
	return sn;
}

static void test_9_columns(void **state)
{
	struct nd_softnet *sn = parse_raw("softnet_stat-kernel-2_6_32.txt");

	(void)state;
	assert_int_equal(sn->count, 6);
	assert_int_equal(sn->cpu[0].columns, 9);
	assert_int_equal(sn->cpu[0].processed, 0x6dcad223);
	assert_int_equal(sn->cpu[4].time_squeeze, 5);
	assert_int_equal(sn->cpu[5].cpu, 5);		/* row index: no CPU column */
	free(sn);
	sn = parse_raw("softnet_stat-2001-dropped.txt");
	assert_int_equal(sn->count, 2);
	assert_int_equal(sn->cpu[0].dropped, 0x2382);
	assert_int_equal(sn->cpu[1].dropped, 0x247c);
	free(sn);
}

static void test_11_columns(void **state)
{
	struct nd_softnet *sn = parse_raw("softnet_stat-virtio-8cpu-11col.txt");

	(void)state;
	assert_int_equal(sn->count, 8);
	assert_int_equal(sn->cpu[5].columns, 11);
	assert_int_equal(sn->cpu[5].time_squeeze, 0x17d4);
	assert_int_equal(sn->cpu[5].received_rps, 0x4f5);
	assert_int_equal(sn->cpu[7].cpu, 7);
	free(sn);
}

static void test_13_and_15_columns(void **state)
{
	struct nd_softnet *sn = parse_raw("softnet_stat-kernel-5_10_47.txt");

	(void)state;
	assert_int_equal(sn->count, 2);
	assert_int_equal(sn->cpu[1].columns, 13);
	assert_int_equal(sn->cpu[1].cpu, 1);		/* column 13 (index 12) */
	assert_int_equal(sn->cpu[0].time_squeeze, 0x383);
	free(sn);
	sn = parse_raw("softnet_stat-kernel-6_4_7.txt");
	assert_int_equal(sn->count, 2);
	assert_int_equal(sn->cpu[1].columns, 15);
	assert_int_equal(sn->cpu[1].cpu, 1);
	assert_int_equal(sn->cpu[1].processed, 0x6d1ebe);
	free(sn);
}

static void test_cpu_column_skips_offline(void **state)
{
	struct nd_softnet *sn = calloc(1, sizeof(*sn));
	const char *text =
		"00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000007 00000000\n"
		"00000020 00000001 00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000003 00000004 00000000 00000003\n";

	(void)state;
	assert_int_equal(nd_parse_softnet(text, sn), 0);
	assert_int_equal(sn->cpu[0].backlog_len, 7);
	assert_int_equal(sn->cpu[1].cpu, 3);
	assert_int_equal(sn->cpu[1].received_rps, 3);
	assert_int_equal(sn->cpu[1].flow_limit, 4);
	free(sn);
}

static void test_bad_input(void **state)
{
	struct nd_softnet *sn = calloc(1, sizeof(*sn));

	(void)state;
	assert_int_equal(nd_parse_softnet("", sn), -EINVAL);
	assert_int_equal(nd_parse_softnet("0 0 0 0 0 0 0 0\n", sn), -EINVAL);	/* 8 columns */
	assert_int_equal(nd_parse_softnet("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", sn), -EINVAL);
	assert_int_equal(nd_parse_softnet("0 0 0 0 0 0 0 0 zz\n", sn), -EINVAL);
	assert_int_equal(nd_parse_softnet("11111111111111111 0 0 0 0 0 0 0 0\n", sn), -EINVAL);
	assert_int_equal(nd_parse_softnet(NULL, sn), -EINVAL);
	free(sn);
}

static void test_iperf3_version_and_triple(void **state)
{
	int major = 0, minor = 0;
	uint64_t max = 0;

	(void)state;
	assert_int_equal(nd_parse_iperf3_version("iperf 3.12 (cJSON 1.7.15)\nLinux vm ...", &major, &minor), 0);
	assert_int_equal(major, 3);
	assert_int_equal(minor, 12);
	assert_int_equal(nd_parse_iperf3_version("iperf 3.1.3\n", &major, &minor), 0);
	assert_int_equal(minor, 1);
	assert_int_equal(nd_parse_iperf3_version("iperf version 2.1.9", &major, &minor), -EINVAL);
	assert_int_equal(nd_parse_iperf3_version("", &major, &minor), -EINVAL);
	assert_int_equal(nd_parse_triple_max("4096\t131072\t6291456\n", &max), 0);
	assert_int_equal(max, 6291456);
	assert_int_equal(nd_parse_triple_max("4096 131072", &max), -EINVAL);
	assert_int_equal(nd_parse_triple_max("4096 131072 x", &max), -EINVAL);
	assert_int_equal(nd_parse_triple_max("1 2 3 4", &max), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_9_columns),
		cmocka_unit_test(test_11_columns),
		cmocka_unit_test(test_13_and_15_columns),
		cmocka_unit_test(test_cpu_column_skips_offline),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_iperf3_version_and_triple),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

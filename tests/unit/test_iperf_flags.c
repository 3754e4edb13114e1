/*
 * test_iperf_flags.c - iperf3 3.21's flags as bench reads them: --dscp
 * names and numbers, --cntl-ka's parts, -f letters, --fq-rate units,
 * HOST%DEV splitting, -f's fixed units in the text, and the 3.21 keys of
 * the parameters sent and read back; -d's levels, and which word a bad
 * option is named by.
 */
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "../../src/cmd/iperf_flags.h"
#include "../../src/engine/engine_int.h"

static int flag(int c, const char *arg, struct nd_engine_params *p)
{
	struct nd_iperf_out o = { 0 };
	char why[200];

	return nd_iperf_flag(c, arg, p, &o, why, sizeof(why));
}

static void test_dscp(void **state)
{
	struct nd_engine_params p;

	(void)state;
	nd_engine_params_init(&p);
	assert_int_equal(flag(ND_OPT_DSCP, "EF", &p), 0);
	assert_int_equal(p.tos, 0xb8);
	assert_int_equal(flag(ND_OPT_DSCP, "af41", &p), 0);
	assert_int_equal(p.tos, 0x88);
	assert_int_equal(flag(ND_OPT_DSCP, "0x2e", &p), 0);	/* EF as a number */
	assert_int_equal(p.tos, 0xb8);
	assert_int_equal(flag(ND_OPT_DSCP, "010", &p), 0);	/* octal, as iperf3 */
	assert_int_equal(p.tos, 8 << 2);
	assert_int_equal(flag(ND_OPT_DSCP, "64", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_DSCP, "nosuch", &p), -EINVAL);
}

static void test_cntl_ka(void **state)
{
	struct nd_engine_params p;

	(void)state;
	nd_engine_params_init(&p);
	assert_int_equal(flag(ND_OPT_CNTL_KA, NULL, &p), 0);
	assert_true(p.cntl_ka);
	assert_int_equal(p.cntl_ka_idle, 0);
	assert_int_equal(flag(ND_OPT_CNTL_KA, "30/5/3", &p), 0);
	assert_int_equal(p.cntl_ka_idle, 30);
	assert_int_equal(p.cntl_ka_intv, 5);
	assert_int_equal(p.cntl_ka_cnt, 3);
	nd_engine_params_init(&p);
	assert_int_equal(flag(ND_OPT_CNTL_KA, "/7/", &p), 0);
	assert_int_equal(p.cntl_ka_intv, 7);
	assert_int_equal(p.cntl_ka_idle, 0);
	/* iperf3: the idle time must exceed interval x count. */
	assert_int_equal(flag(ND_OPT_CNTL_KA, "10/5/3", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CNTL_KA, "x", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CNTL_KA, "1/2/3/4", &p), -EINVAL);
}

static void test_format_and_rates(void **state)
{
	struct nd_engine_params p;
	char buf[32];

	(void)state;
	nd_engine_params_init(&p);
	assert_int_equal(flag('f', "x", &p), -EINVAL);
	assert_int_equal(flag('f', "mm", &p), -EINVAL);
	assert_int_equal(flag('f', "G", &p), 0);
	assert_int_equal(flag(ND_OPT_FQ_RATE, "5m", &p), 0);
	assert_int_equal(p.fq_rate_bps, 5000000);
	assert_int_equal(flag(ND_OPT_FQ_RATE, "1.5G", &p), 0);
	assert_int_equal(p.fq_rate_bps, 1500000000ULL);
	assert_int_equal(flag(ND_OPT_FQ_RATE, "5x", &p), -EINVAL);
	assert_int_equal(flag('L', "0x100000", &p), -EINVAL);
	assert_int_equal(flag('L', "0xfffff", &p), 0);
	assert_int_equal(flag(ND_OPT_SCTP, NULL, &p), -ENOTSUP);
	/* -f k: bits in Kbits; -f M: bits shown as MBytes; 0: adaptive. */
	nd_out_fmt_unit(buf, sizeof(buf), 2.5e9, true, 'k');
	assert_string_equal(buf, "2500000 Kbits");
	nd_out_fmt_unit(buf, sizeof(buf), 8.0 * 1048576 * 3, true, 'M');
	assert_string_equal(buf, "3.00 MBytes");
	nd_out_fmt_unit(buf, sizeof(buf), 2.5e9, true, 0);
	assert_string_equal(buf, "2.50 Gbits");
}

static void test_split_dev(void **state)
{
	struct nd_engine_params p;
	struct nd_iperf_out o = { 0 };

	(void)state;
	nd_engine_params_init(&p);
	p.host = "10.0.0.2%eth1";
	p.bind_addr = "10.0.0.1";
	nd_iperf_split_dev(&p, &o);
	assert_string_equal(p.host, "10.0.0.2");
	assert_string_equal(p.bind_dev, "eth1");
	/* A link-local literal keeps its scope: that % is not --bind-dev. */
	nd_engine_params_init(&p);
	p.host = "fe80::1%eth0";
	nd_iperf_split_dev(&p, &o);
	assert_string_equal(p.host, "fe80::1%eth0");
	assert_null(p.bind_dev);
	nd_engine_params_init(&p);
	p.host = "h";
	p.bind_addr = "192.0.2.1%veth0";
	nd_iperf_split_dev(&p, &o);
	assert_string_equal(p.bind_addr, "192.0.2.1");
	assert_string_equal(p.bind_dev, "veth0");
}

/* The 3.21 keys go out as its client sends them and come back on the server. */
static void test_params_roundtrip(void **state)
{
	struct nd_engine_params p, q;
	struct nd_wire_extra x;
	cJSON *o = NULL;
	char err[160];

	(void)state;
	nd_engine_params_init(&p);
	p.host = "h";
	p.udp = true;
	p.fq_rate_bps = 5000000;
	p.extra_data = "tag";
	p.dont_fragment = true;
	p.gsro = true;
	p.server_affinity = 1;
	p.pacing_timer_usec = 2000;
	assert_int_equal(nd_params_to_json(&p, &o), 0);
	assert_int_equal(cJSON_GetObjectItem(o, "fqrate")->valuedouble, 5000000);
	assert_int_equal(cJSON_GetObjectItem(o, "gro")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(o, "server_affinity")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(o, "pacing_timer")->valueint, 2000);
	assert_int_equal(nd_params_from_json(o, &q, &x, err, sizeof(err)), 0);
	assert_int_equal(q.fq_rate_bps, 5000000);
	assert_true(q.dont_fragment);
	assert_true(q.gsro);
	assert_string_equal(q.extra_data, "tag");
	cJSON_Delete(o);
}

/* getopt_long over WORDS until it fails; what the error would name. */
static void problem(const char *expect, int n, char **words)
{
	static const struct option longs[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "debug", optional_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	char buf[300];
	int c;

	optind = 0;	/* glibc: start over, clusters included */
	opterr = 0;
	while ((c = getopt_long(n, words, "p:dRZ", longs, NULL)) != -1 && c != '?' && c != ':')
		;
	assert_true(c == '?' || c == ':');
	nd_option_problem(buf, sizeof(buf), n, words);
	assert_string_equal(buf, expect);
}

static void test_bad_option_named(void **state)
{
	char *a[] = { "bench", "-p", "5874", "-d=1", NULL };
	char *b[] = { "bench", "-Q", NULL };
	char *c[] = { "bench", "-RQZ", "-t", NULL };
	char *d[] = { "bench", "-Z", "-RQ", NULL };
	char *e[] = { "bench", "-R", "-p", NULL };
	char *f[] = { "bench", "--nope", NULL };
	char *g[] = { "bench", "--port", NULL };
	char *h[] = { "bench", "-Q", "-xQ", NULL };

	(void)state;
	problem("'-=' (in '-d=1')", 4, a);	/* the word before was named */
	problem("'-Q'", 2, b);
	problem("'-Q' (in '-RQZ')", 3, c);
	problem("'-Q' (in '-RQ')", 3, d);
	problem("'-p'", 3, e);			/* its value missing */
	problem("'--nope'", 2, f);
	problem("'--port'", 2, g);
	problem("'-Q'", 3, h);			/* not the later '-xQ' */
}

static void test_debug_levels(void **state)
{
	(void)state;
	assert_int_equal(nd_iperf_debug_level(NULL), 4);
	assert_int_equal(nd_iperf_debug_level("0"), 4);
	assert_int_equal(nd_iperf_debug_level("2"), 2);
	assert_int_equal(nd_iperf_debug_level("5"), -EINVAL);
	assert_int_equal(nd_iperf_debug_level("=1"), -EINVAL);
	assert_int_equal(nd_iperf_debug_level(""), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dscp),
		cmocka_unit_test(test_cntl_ka),
		cmocka_unit_test(test_format_and_rates),
		cmocka_unit_test(test_split_dev),
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_bad_option_named),
		cmocka_unit_test(test_debug_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

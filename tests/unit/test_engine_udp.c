/*
 * test_engine_udp.c - UDP loss, out-of-order and jitter accounting on
 * crafted datagram sequences, the datagram header, /proc/stat parsing and
 * the parameter validation of the iperf3 protocol.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/engine/engine_int.h"

static void feed(struct nd_udp_acct *a, const uint64_t *seqs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		nd_udp_acct_datagram(a, seqs[i], 1.0, 1.0001);
}

static void test_in_order(void **state)
{
	struct nd_udp_acct a;
	const uint64_t seqs[] = { 1, 2, 3, 4, 5 };

	(void)state;
	nd_udp_acct_init(&a);
	feed(&a, seqs, 5);
	assert_int_equal(a.highest_seq, 5);
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 0);
	assert_int_equal(a.received, 5);
}

static void test_gaps(void **state)
{
	struct nd_udp_acct a;
	const uint64_t seqs[] = { 1, 2, 5, 6, 10 };	/* 3,4 and 7,8,9 missing */

	(void)state;
	nd_udp_acct_init(&a);
	feed(&a, seqs, 5);
	assert_int_equal(a.highest_seq, 10);
	assert_int_equal(a.lost, 5);
	assert_int_equal(a.out_of_order, 0);
}

static void test_first_datagram_lost(void **state)
{
	struct nd_udp_acct a;
	const uint64_t seqs[] = { 3, 4 };

	(void)state;
	nd_udp_acct_init(&a);
	feed(&a, seqs, 2);
	assert_int_equal(a.lost, 2);
}

static void test_reordering_takes_loss_back(void **state)
{
	struct nd_udp_acct a;
	const uint64_t seqs[] = { 1, 3, 2, 4, 6, 5 };

	(void)state;
	nd_udp_acct_init(&a);
	feed(&a, seqs, 6);
	assert_int_equal(a.highest_seq, 6);
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 2);
}

static void test_duplicates(void **state)
{
	struct nd_udp_acct a;
	const uint64_t seqs[] = { 1, 2, 2, 3, 3, 3 };
	const uint64_t gap_then_dup[] = { 1, 3, 3 };

	(void)state;
	nd_udp_acct_init(&a);
	feed(&a, seqs, 6);
	/* iperf3 counts a duplicate as out of order; no loss goes below 0. */
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 3);
	nd_udp_acct_init(&a);
	feed(&a, gap_then_dup, 3);
	/* ...and a duplicate takes a loss back, as iperf3 does. */
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 1);
}

static void test_64bit_counters(void **state)
{
	struct nd_udp_acct a;
	uint8_t buf[16];
	uint64_t seq = 0, base = (1ULL << 32) + 5;
	double sent = 0;

	(void)state;
	nd_udp_acct_init(&a);
	nd_udp_acct_datagram(&a, base, 1, 1);
	nd_udp_acct_datagram(&a, base + 3, 1, 1);
	assert_int_equal(a.highest_seq, base + 3);
	assert_int_equal(a.lost, base - 1 + 2);	/* 1..base-1 never seen, and 2 more */
	nd_udp_hdr_write(buf, base, true, 1234.5);
	assert_int_equal(nd_udp_hdr_read(buf, sizeof(buf), true, &seq, &sent), 0);
	assert_true(seq == base);
	assert_true(sent > 1234.49 && sent < 1234.51);
	assert_int_equal(nd_udp_hdr_read(buf, 12, true, &seq, &sent), -EINVAL);
	nd_udp_hdr_write(buf, 0x01020304, false, 0);
	assert_int_equal(nd_udp_hdr_read(buf, 12, false, &seq, &sent), 0);
	assert_int_equal(seq, 0x01020304);
	assert_int_equal(buf[8], 0x01);
	assert_int_equal(buf[11], 0x04);
}

static void test_jitter(void **state)
{
	struct nd_udp_acct a;

	(void)state;
	nd_udp_acct_init(&a);
	/* Constant transit: no jitter, whatever the clock offset. */
	for (int i = 1; i <= 10; i++)
		nd_udp_acct_datagram(&a, (uint64_t)i, i * 0.001, 500.0 + i * 0.001);
	assert_true(a.jitter_sec < 1e-9);
	/* One transit jump of 16 ms: J = 16 ms / 16 = 1 ms (RFC 1889). */
	nd_udp_acct_datagram(&a, 11, 0.011, 500.011 + 0.016);
	assert_true(a.jitter_sec > 0.00099 && a.jitter_sec < 0.00101);
}

static void test_proc_stat(void **state)
{
	struct nd_cpu_snap a, b;
	struct nd_engine_cpu_share out[4];
	const char *t0 = "cpu  10 0 10 100 0 0 0 0 0 0\n"
			 "cpu0 10 0 10 100 0 0 0 0 0 0\ncpu1 0 0 0 100 0 0 0 0\nintr 5\n";
	const char *t1 = "cpu  10 0 10 100 0 0 0 0 0 0\n"
			 "cpu0 40 0 40 120 0 0 20 0 0 0\ncpu1 0 0 0 200 0 0 0 0\n";

	(void)state;
	assert_int_equal(nd_parse_proc_stat(t0, &a), 0);
	assert_int_equal(a.count, 2);
	assert_int_equal(nd_parse_proc_stat(t1, &b), 0);
	assert_int_equal(nd_cpu_shares(&a, &b, out, 4), 2);
	/* cpu0: 30+30+20 busy of 100 ticks, 20 of them softirq. */
	assert_true(out[0].busy_pct > 79.9 && out[0].busy_pct < 80.1);
	assert_true(out[0].softirq_pct > 19.9 && out[0].softirq_pct < 20.1);
	assert_true(out[1].busy_pct < 0.1);
	assert_int_equal(nd_parse_proc_stat("intr 1\n", &a), -EINVAL);
}

static int params(const char *json, struct nd_engine_params *p)
{
	struct nd_wire_extra x;
	char err[128];
	cJSON *o = cJSON_Parse(json);
	int rc = nd_params_from_json(o, p, &x, err, sizeof(err));

	cJSON_Delete(o);
	return rc;
}

static void test_params_validation(void **state)
{
	struct nd_engine_params p;

	(void)state;
	assert_int_equal(params("{\"tcp\":true,\"time\":2,\"parallel\":4,\"reverse\":false}", &p), 0);
	assert_true(p.reverse);	/* presence means on, even false (doc §2) */
	assert_int_equal(p.streams, 4);
	assert_int_equal(params("{\"tcp\":true,\"time\":1,\"parallel\":129}", &p), -EINVAL);
	assert_int_equal(params("{\"tcp\":true,\"time\":1,\"parallel\":0}", &p), -EINVAL);
	assert_int_equal(params("{\"udp\":true,\"time\":1,\"len\":8}", &p), -EINVAL);
	assert_int_equal(params("{\"udp\":true,\"time\":1,\"len\":65508}", &p), -EINVAL);
	assert_int_equal(params("{\"tcp\":true,\"time\":86401}", &p), -EINVAL);
	assert_int_equal(params("{\"tcp\":true,\"time\":1,\"omit\":601}", &p), -EINVAL);
	assert_int_equal(params("{\"tcp\":true,\"time\":\"x\"}", &p), -EINVAL);
	assert_int_equal(params("{\"tcp\":true,\"time\":0}", &p), -EINVAL);
	assert_int_equal(params("{\"tcp\":true,\"time\":0,\"num\":1000}", &p), 0);
}

static void test_json_unsigned_minus_one(void **state)
{
	cJSON *o = cJSON_Parse("{\"a\":18446744073709551615,\"b\":5,\"c\":-1}");

	(void)state;
	assert_int_equal(nd_json_int(o, "a", 0), -1);
	assert_int_equal(nd_json_int(o, "b", 0), 5);
	assert_int_equal(nd_json_int(o, "c", 0), -1);
	assert_int_equal(nd_json_int(o, "missing", 7), 7);
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_first_datagram_lost),
		cmocka_unit_test(test_reordering_takes_loss_back),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_64bit_counters),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_params_validation),
		cmocka_unit_test(test_json_unsigned_minus_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_spread.c - flows that cover queues and members (src/spread/): the
 * balance rule and the source-port picker with a stand-in bucket function
 * (as a bond's layer3+4 or RSS gives one), Toeplitz against Microsoft's
 * RSS verification suite (IPv4 and IPv6, addresses only and with TCP
 * ports), the RX queue through an indirection table, -R's ports (hashed
 * the way the peer's packets arrive), the summary of a
 * run's per-queue counters and its sentence, --cport FIRST-LAST parsing.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/cmd/iperf_flags.h"
#include "nicdoctor/spread.h"

/* Microsoft's verification key ("Verifying the RSS Hash Calculation"). */
static const uint8_t ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

struct ms_vector {
	const char *dst, *src;
	uint16_t dport, sport;
	uint32_t addrs_only, with_tcp;
};

static const struct ms_vector ms_v4[] = {
	{ "161.142.100.80", "66.9.149.187", 1766, 2794, 0x323e8fc2, 0x51ccc178 },
	{ "65.69.140.83", "199.92.111.2", 4739, 14230, 0xd718262a, 0xc626b0ea },
	{ "12.22.207.184", "24.19.198.95", 38024, 12898, 0xd2d0a5de, 0x5c2b394a },
	{ "209.142.163.6", "38.27.205.30", 2217, 48228, 0x82989176, 0xafc7327f },
	{ "202.188.127.2", "153.39.163.191", 1303, 44251, 0x5d1809c5, 0x10e828a2 },
};

static const struct ms_vector ms_v6[] = {
	{ "3ffe:2501:200:3::1", "3ffe:2501:200:1fff::7", 1766, 2794, 0x2cc18cd5, 0x40207d3d },
	{ "ff02::1", "3ffe:501:8::260:97ff:fe40:efab", 4739, 14230, 0x0f0c461c, 0xdde51bbf },
	{ "fe80::200:f8ff:fe21:67cf", "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 38024, 44251,
	  0x4b61e985, 0x02d1feef },
};

/* The input as RSS reads it: src addr, dst addr, [src port, dst port]. */
static uint32_t ms_hash(const struct ms_vector *v, int af, bool ports)
{
	uint8_t in[36];
	size_t alen = af == AF_INET ? 4 : 16, n = 2 * alen;

	assert_int_equal(inet_pton(af, v->src, in), 1);
	assert_int_equal(inet_pton(af, v->dst, in + alen), 1);
	if (ports) {
		in[n++] = (uint8_t)(v->sport >> 8);
		in[n++] = (uint8_t)v->sport;
		in[n++] = (uint8_t)(v->dport >> 8);
		in[n++] = (uint8_t)v->dport;
	}
	return nd_toeplitz(ms_key, sizeof(ms_key), in, n);
}

static void test_toeplitz_ms_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ms_v4) / sizeof(ms_v4[0]); i++) {
		assert_int_equal(ms_hash(&ms_v4[i], AF_INET, false), ms_v4[i].addrs_only);
		assert_int_equal(ms_hash(&ms_v4[i], AF_INET, true), ms_v4[i].with_tcp);
	}
	for (size_t i = 0; i < sizeof(ms_v6) / sizeof(ms_v6[0]); i++) {
		assert_int_equal(ms_hash(&ms_v6[i], AF_INET6, false), ms_v6[i].addrs_only);
		assert_int_equal(ms_hash(&ms_v6[i], AF_INET6, true), ms_v6[i].with_tcp);
	}
	/* A key too short for the input hashes nothing. */
	assert_int_equal(nd_toeplitz(ms_key, 8, ms_key, 12), 0);
}

static void test_rss_queue(void **state)
{
	static struct nd_rss_conf rss;
	uint8_t src[4], dst[4];

	(void)state;
	memcpy(rss.key, ms_key, sizeof(ms_key));
	rss.key_len = sizeof(ms_key);
	rss.indir_size = 128;
	for (unsigned i = 0; i < rss.indir_size; i++)
		rss.indir[i] = i % 4;	/* ethtool -X equal 4 */
	rss.rx_queues = 4;
	inet_pton(AF_INET, "66.9.149.187", src);
	inet_pton(AF_INET, "161.142.100.80", dst);
	/* 0x51ccc178: entry 0x78 = 120, queue 0 */
	assert_int_equal(nd_rss_queue(&rss, src, dst, 4, 2794, 1766), -EINVAL);
	rss.toeplitz = true;
	assert_int_equal(nd_rss_queue(&rss, src, dst, 4, 2794, 1766), 0x78 % 4);
	rss.indir[0x78] = 3;
	assert_int_equal(nd_rss_queue(&rss, src, dst, 4, 2794, 1766), 3);
	rss.indir_size = 0;
	assert_int_equal(nd_rss_queue(&rss, src, dst, 4, 2794, 1766), -EINVAL);
}

/* Ports for -R: the NIC hashes the reverse flow, the peer's address and
 * port first; the chosen ports' queues differ. */
static void test_rss_pick(void **state)
{
	static struct nd_rss_conf rss;
	uint8_t peer[4], local[4];
	uint16_t ports[4];
	int queues[4];

	(void)state;
	memcpy(rss.key, ms_key, sizeof(ms_key));
	rss.key_len = sizeof(ms_key);
	rss.indir_size = 128;
	for (unsigned i = 0; i < rss.indir_size; i++)
		rss.indir[i] = i % 4;
	rss.indir[0x78] = 2;	/* 0x51ccc178's entry, not its i % 4 */
	rss.rx_queues = 4;
	inet_pton(AF_INET, "66.9.149.187", peer);
	inet_pton(AF_INET, "161.142.100.80", local);
	assert_int_equal(nd_rss_pick_ports(&rss, peer, local, 4, 2794, 1766, 1766, 1, ports,
					   queues), -EINVAL);	/* not Toeplitz */
	rss.toeplitz = true;
	/* Microsoft's first vector, seen from its destination: our port 1766. */
	assert_int_equal(nd_rss_pick_ports(&rss, peer, local, 4, 2794, 1766, 1766, 1, ports,
					   queues), 1);
	assert_int_equal(ports[0], 1766);
	assert_int_equal(queues[0], 2);
	assert_int_equal(nd_rss_pick_ports(&rss, peer, local, 4, 5201, 40000, 40200, 4, ports,
					   queues), 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(nd_rss_queue(&rss, peer, local, 4, 5201, ports[i]), queues[i]);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(queues[i], queues[j]);
	}
}

static void test_wanted(void **state)
{
	unsigned count[4] = { 1, 0, 1, 0 };

	(void)state;
	assert_false(nd_spread_wanted(count, 4, 0));
	assert_true(nd_spread_wanted(count, 4, 1));
	assert_true(nd_spread_wanted(count, 4, 3));
	assert_false(nd_spread_wanted(count, 4, -1));	/* unknown queue */
	assert_false(nd_spread_wanted(count, 4, 4));
	count[1] = count[3] = 1;			/* all even: any */
	assert_true(nd_spread_wanted(count, 4, 2));
}

/* A bond-like formula: even ports all on member 0 (iperf2 #494's trap) is
 * what a naive +1 walk from an even port would half-hit. */
static int by_mod(uint16_t port, void *arg)
{
	return (int)(port % *(unsigned *)arg);
}

static int skewed(uint16_t port, void *arg)
{
	(void)arg;
	if (port == 6003)
		return -1;		/* unusable (busy) */
	return port < 6010 ? 0 : port < 6012 ? 1 : 2;
}

static void test_pick(void **state)
{
	uint16_t ports[8];
	int buckets[8];
	unsigned m = 4;

	(void)state;
	/* Four ports cover four buckets, in order. */
	assert_int_equal(nd_spread_pick(5900, 5919, 4, 4, by_mod, &m, ports, buckets), 4);
	assert_int_equal(ports[0], 5900);
	assert_int_equal(ports[3], 5903);
	/* Six flows on four: every bucket once before any twice. */
	assert_int_equal(nd_spread_pick(5901, 5919, 6, 4, by_mod, &m, ports, buckets), 4);
	assert_int_equal(buckets[0] + buckets[1] + buckets[2] + buckets[3], 0 + 1 + 2 + 3);
	assert_int_equal(ports[4], 5905);
	assert_int_equal(ports[5], 5906);
	/* Skewed: buckets 1 and 2 are reached before bucket 0 gets a second. */
	assert_int_equal(nd_spread_pick(6000, 6020, 3, 3, skewed, NULL, ports, buckets), 3);
	assert_int_equal(ports[0], 6000);
	assert_int_equal(ports[1], 6010);
	assert_int_equal(ports[2], 6012);
	assert_int_equal(nd_spread_pick(6000, 6020, 5, 3, skewed, NULL, ports, buckets), 3);
	assert_int_equal(ports[3], 6001);	/* second round */
	assert_int_equal(ports[4], 6011);
	/* Too few usable ports; bad arguments. */
	assert_int_equal(nd_spread_pick(6002, 6004, 3, 3, skewed, NULL, ports, NULL), -ERANGE);
	assert_int_equal(nd_spread_pick(6004, 6002, 1, 3, skewed, NULL, ports, NULL), -EINVAL);
	assert_int_equal(nd_spread_pick(6000, 6002, 1, 0, skewed, NULL, ports, NULL), -EINVAL);
	/* A range on one bucket covers one. */
	assert_int_equal(nd_spread_pick(6000, 6002, 2, 3, skewed, NULL, ports, NULL), 1);
}

static void test_summary(void **state)
{
	static struct nd_spread_summary s;
	char line[200];

	(void)state;
	s.queues = 4;
	s.flows = 4;
	for (unsigned i = 0; i < 4; i++)
		s.q[i] = (struct nd_spread_queue){ .id = i, .packets = 8000 + i, .flows = 1 };
	nd_spread_summarize(&s);
	assert_int_equal(s.carrying, 4);
	nd_spread_sentence(&s, "TX", line, sizeof(line));
	assert_string_equal(line, "4 flows on 4 of 4 TX queues");
	/* The ephemeral run: one queue held one packet. */
	s.q[2].packets = 1;
	s.q[1].packets = 16000;
	nd_spread_summarize(&s);
	assert_int_equal(s.carrying, 3);
	nd_spread_sentence(&s, "TX", line, sizeof(line));
	assert_string_equal(line, "4 flows on 3 of 4 TX queues: tx-2 carried 1 packet");
	/* Two flows on four queues: two carrying is all there can be. */
	s.flows = 2;
	s.q[0].packets = s.q[2].packets = 3;
	nd_spread_summarize(&s);
	nd_spread_sentence(&s, "RX", line, sizeof(line));
	assert_string_equal(line, "2 flows on 2 of 4 RX queues");
	/* A queue below a quarter of an even share does not count. */
	s.flows = 4;
	for (unsigned i = 0; i < 4; i++)
		s.q[i].packets = i == 3 ? 499 : 3000;	/* share 9499/4 = 2374, a quarter 593 */
	nd_spread_summarize(&s);
	assert_int_equal(s.carrying, 3);
	nd_spread_sentence(&s, "TX", line, sizeof(line));
	assert_string_equal(line, "4 flows on 3 of 4 TX queues: tx-3 carried 499 packets");
}

static int flag(int c, const char *arg, struct nd_engine_params *p)
{
	struct nd_iperf_out o = { 0 };
	char why[200];

	return nd_iperf_flag(c, arg, p, &o, why, sizeof(why));
}

static void test_cport_range(void **state)
{
	struct nd_engine_params p;

	(void)state;
	nd_engine_params_init(&p);
	assert_int_equal(flag(ND_OPT_CPORT, "5900", &p), 0);
	assert_int_equal(p.cport, 5900);
	assert_int_equal(p.cport_last, 0);	/* iperf3's meaning: PORT+i */
	assert_int_equal(flag(ND_OPT_CPORT, "5900-5919", &p), 0);
	assert_int_equal(p.cport, 5900);
	assert_int_equal(p.cport_last, 5919);
	assert_int_equal(flag(ND_OPT_CPORT, "5900-5900", &p), 0);
	assert_int_equal(p.cport_last, 5900);
	assert_int_equal(flag(ND_OPT_CPORT, "5919-5900", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CPORT, "5900-", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CPORT, "-5900", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CPORT, "0-10", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CPORT, "1-65536", &p), -EINVAL);
	assert_int_equal(flag(ND_OPT_CPORT, "1234567-2", &p), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toeplitz_ms_vectors),
		cmocka_unit_test(test_rss_queue),
		cmocka_unit_test(test_rss_pick),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_cport_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

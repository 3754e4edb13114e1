/*
 * test_facts_json.c - facts <-> JSON: a populated facts survives the round
 * trip unchanged, unknown groups keep their reason, and hostile input
 * (wrong types, out-of-range numbers, oversized arrays and strings) never
 * crashes and yields unknown or clamped values.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/facts_json.h"

static struct nd_facts *facts_new(void)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	return f;
}

static void fill_netlink(struct nd_facts *f)
{
	nd_status_set_known(&f->link.st);
	f->link.ifindex = 4;
	f->link.mtu = 9000;
	f->link.min_mtu = 68;
	f->link.max_mtu = 9216;
	nd_strlcpy(f->link.operstate, "up", sizeof(f->link.operstate));
	f->link.carrier = true;
	f->link.rx_queues = 8;
	f->link.tx_queues = 8;
	nd_strlcpy(f->link.qdisc, "mq", sizeof(f->link.qdisc));
	nd_strlcpy(f->link.mac, "02:fc:00:00:00:01", sizeof(f->link.mac));
	f->link.stats.rx_bytes = UINT64_MAX;	/* beyond a double's exact range */
	f->link.stats.tx_bytes = (1ULL << 53) + 1;
	f->link.stats.rx_missed = 7;
	f->link.stats.rx_over = 3;

	nd_status_set_known(&f->qdisc.st);
	nd_strlcpy(f->qdisc.kind, "tbf", sizeof(f->qdisc.kind));
	f->qdisc.rate_bps = 100000000;

	nd_status_set_known(&f->linkmodes.st);
	f->linkmodes.speed_mbps = -1;
	f->linkmodes.duplex = -1;
	f->linkmodes.autoneg = true;
	f->linkmodes.n_supported = 2;
	nd_strlcpy(f->linkmodes.supported[0], "1000baseT/Full", 48);
	nd_strlcpy(f->linkmodes.supported[1], "10000baseT/Full", 48);
	f->linkmodes.n_advertised = 1;
	nd_strlcpy(f->linkmodes.advertised[0], "10000baseT/Full", 48);

	nd_status_set_unknown(&f->channels.st, "ethtool netlink: channels: %s",
			      "Operation not supported");
	nd_status_set_known(&f->features.st);
	f->features.count = 2;
	nd_strlcpy(f->features.f[0].name, "rx-gro", sizeof(f->features.f[0].name));
	f->features.f[0].active = f->features.f[0].wanted = true;
	nd_strlcpy(f->features.f[1].name, "tx-lockless", sizeof(f->features.f[1].name));
	f->features.f[1].fixed = true;
	nd_status_set_known(&f->rings.st);
	f->rings.rx = 256;
	f->rings.rx_max = 4096;
	f->rings.tx_max = 4096;
	nd_status_set_known(&f->coalesce.st);
	f->coalesce.rx_usecs = 50;
	f->coalesce.adaptive_tx = true;
	nd_status_set_known(&f->pause.st);
	f->pause.rx = true;
	nd_status_set_known(&f->rss.st);
	f->rss.size = 128;
	for (unsigned i = 0; i < f->rss.size; i++)
		f->rss.indir[i] = i % 3;
	nd_status_set_known(&f->nicstats.st);
	f->nicstats.count = 2;
	nd_strlcpy(f->nicstats.s[0].name, "rx_queue_0_drops", 48);
	f->nicstats.s[0].value = 12345678901ULL;
	nd_strlcpy(f->nicstats.s[1].name, "tx_timeout", 48);
	nd_status_set_known(&f->drvinfo.st);
	nd_strlcpy(f->drvinfo.driver, "ixgbe", sizeof(f->drvinfo.driver));
	nd_strlcpy(f->drvinfo.bus_info, "0000:09:00.0", sizeof(f->drvinfo.bus_info));
}

static void fill_host(struct nd_facts *f)
{
	nd_strlcpy(f->ifname, "eth0", sizeof(f->ifname));
	nd_strlcpy(f->hostname, "host1", sizeof(f->hostname));
	nd_strlcpy(f->kernel, "6.18.0", sizeof(f->kernel));
	f->as_root = true;

	nd_status_set_known(&f->pci.st);
	nd_strlcpy(f->pci.dev.address, "0000:09:00.0", sizeof(f->pci.dev.address));
	f->pci.dev.vendor_id = 0x8086;
	f->pci.dev.device_id = 0x10fb;
	f->pci.dev.is_pcie = f->pci.dev.link_known = true;
	f->pci.dev.cap_gts = 5.0;
	f->pci.dev.sta_gts = 2.5;
	f->pci.dev.cap_width = 8;
	f->pci.dev.sta_width = 1;
	f->pci.dev.mps_bytes = 256;
	f->pci.numa_node = -1;
	f->pci.n_upstream = 1;
	nd_strlcpy(f->pci.upstream[0].port_type, "root_port", 24);
	f->pci.upstream[0].cap2_max_gts = 7.877;
	nd_strlcpy(f->pci.upstream[0].link_reason, "no permission", ND_REASON_LEN);

	nd_status_set_known(&f->queues.st);
	f->queues.n_rx = 2;
	f->queues.n_tx = 1;
	nd_cpuset_parse_list("0-3,8", &f->queues.rps_cpus[1]);
	f->queues.rps_flow_cnt[0] = 4096;
	nd_cpuset_parse_list("1", &f->queues.xps_cpus[0]);
	f->queues.xps_known[0] = true;

	nd_status_set_known(&f->irqs.st);
	f->irqs.n_cpu_columns = 4;
	f->irqs.count = 1;
	f->irqs.irq[0].irq = 42;
	nd_strlcpy(f->irqs.irq[0].name, "eth0-TxRx-0", 64);
	f->irqs.irq[0].total = 1000;
	f->irqs.irq[0].per_cpu[0] = 600;
	f->irqs.irq[0].per_cpu[2] = 400;
	nd_cpuset_parse_list("0-1", &f->irqs.irq[0].affinity);
	f->irqs.irq[0].affinity_known = true;
	f->irqs.irqbalance_known = true;

	nd_status_set_known(&f->softnet.st);
	f->softnet.count = 2;
	f->softnet.cpu[1].cpu = 1;
	f->softnet.cpu[1].dropped = 9;
	f->softnet.cpu[1].columns = 13;

	f->sysctl.rmem_max.known = true;
	nd_strlcpy(f->sysctl.rmem_max.text, "212992", 64);
	nd_strlcpy(f->sysctl.tcp_rmem.reason, "no permission", ND_REASON_LEN);
	f->sysctl.default_qdisc.known = true;
	nd_strlcpy(f->sysctl.default_qdisc.text, "fq_codel", 64);

	nd_status_set_known(&f->cpus.st);
	nd_cpuset_parse_list("0-3", &f->cpus.online);
	f->cpus.n_online = 4;
	f->cpus.governor_known = true;
	nd_strlcpy(f->cpus.governor[0], "performance", 16);
	nd_strlcpy(f->cpus.governor[3], "powersave", 16);
	f->cpus.n_nodes = 1;
	nd_cpuset_parse_list("0-3", &f->cpus.node_cpus[0]);

	nd_status_set_unknown(&f->tools.iperf3, "iperf3 not in PATH");
}

/* Serialise, parse back into fresh facts. */
static struct nd_facts *round_trip(const struct nd_facts *in, bool full)
{
	struct nd_facts *out = facts_new();
	cJSON *json = full ? nd_facts_to_json(in) : nd_facts_netlink_to_json(in);
	char *text;
	cJSON *parsed;

	assert_non_null(json);
	text = cJSON_PrintUnformatted(json);
	assert_non_null(text);
	parsed = cJSON_Parse(text);
	assert_non_null(parsed);
	assert_int_equal(full ? nd_facts_from_json(parsed, out) :
			 nd_facts_netlink_from_json(parsed, out), 0);
	cJSON_Delete(parsed);
	cJSON_Delete(json);
	free(text);
	return out;
}

#define ASSERT_GROUP_EQ(a, b, m) \
	assert_memory_equal(&(a)->m, &(b)->m, sizeof((a)->m))

static void test_round_trip_full(void **state)
{
	struct nd_facts *in = facts_new(), *out;

	(void)state;
	fill_netlink(in);
	fill_host(in);
	out = round_trip(in, true);
	/* Field checks first, for readable failures... */
	assert_string_equal(out->ifname, "eth0");
	assert_true(out->link.st.known);
	assert_int_equal(out->link.mtu, 9000);
	assert_true(out->link.stats.rx_bytes == UINT64_MAX);
	assert_true(out->link.stats.tx_bytes == (1ULL << 53) + 1);
	assert_int_equal(out->linkmodes.speed_mbps, -1);
	assert_string_equal(out->linkmodes.supported[1], "10000baseT/Full");
	assert_false(out->channels.st.known);
	assert_string_equal(out->channels.st.reason,
			    "ethtool netlink: channels: Operation not supported");
	assert_int_equal(out->rss.size, 128);
	assert_int_equal(out->rss.indir[127], 127 % 3);
	assert_true(out->pci.upstream[0].cap2_max_gts == 7.877);
	assert_true(nd_cpuset_has(&out->queues.rps_cpus[1], 8));
	assert_int_equal(out->irqs.irq[0].per_cpu[2], 400);
	assert_string_equal(out->cpus.governor[3], "powersave");
	assert_false(out->sysctl.tcp_rmem.known);
	assert_string_equal(out->sysctl.tcp_rmem.reason, "no permission");
	assert_false(out->tools.iperf3.known);
	/* ...then every byte: both sides were calloc'd and filled by value. */
	assert_memory_equal(in, out, sizeof(*in));
	free(in);
	free(out);
}

static void test_round_trip_netlink(void **state)
{
	struct nd_facts *in = facts_new(), *out;

	(void)state;
	fill_netlink(in);
	out = round_trip(in, false);
	ASSERT_GROUP_EQ(in, out, link);
	ASSERT_GROUP_EQ(in, out, qdisc);
	ASSERT_GROUP_EQ(in, out, linkmodes);
	ASSERT_GROUP_EQ(in, out, channels);
	ASSERT_GROUP_EQ(in, out, features);
	ASSERT_GROUP_EQ(in, out, rings);
	ASSERT_GROUP_EQ(in, out, coalesce);
	ASSERT_GROUP_EQ(in, out, pause);
	ASSERT_GROUP_EQ(in, out, rss);
	ASSERT_GROUP_EQ(in, out, nicstats);
	ASSERT_GROUP_EQ(in, out, drvinfo);
	/* Host groups are not part of the netlink snapshot. */
	assert_false(out->pci.st.known);
	free(in);
	free(out);
}

/* Parse `text` as the netlink JSON into fresh facts. */
static struct nd_facts *from_text(const char *text, bool full)
{
	struct nd_facts *f = facts_new();
	cJSON *json = cJSON_Parse(text);

	assert_non_null(json);
	assert_int_equal(full ? nd_facts_from_json(json, f) :
			 nd_facts_netlink_from_json(json, f), 0);
	cJSON_Delete(json);
	return f;
}

/* A part's status (the link's counters, the link modes): kept with its
 * reason; absent in an older snapshot, known as its group; malformed, the
 * group is unknown. */
static void test_part_status(void **state)
{
	struct nd_facts *in = facts_new(), *out, *f;

	(void)state;
	fill_netlink(in);
	nd_status_set_unknown(&in->link.stats_st, "no counters in /sys/class/net/eth0/statistics");
	nd_status_set_unknown(&in->linkmodes.modes_st, "/sys/class/net/eth0/speed gives no link modes");
	in->sysctl.rmem_max.known = true;
	nd_strlcpy(in->sysctl.rmem_max.text, "212992", sizeof(in->sysctl.rmem_max.text));
	nd_strlcpy(in->sysctl.rmem_max.source, "sos_commands/kernel/sysctl_-a",
		   sizeof(in->sysctl.rmem_max.source));
	out = round_trip(in, true);
	assert_true(out->link.st.known);
	assert_false(out->link.stats_st.known);
	assert_string_equal(out->link.stats_st.reason,
			    "no counters in /sys/class/net/eth0/statistics");
	assert_false(out->linkmodes.modes_st.known);
	assert_string_equal(out->linkmodes.modes_st.reason,
			    "/sys/class/net/eth0/speed gives no link modes");
	assert_string_equal(out->sysctl.rmem_max.source, "sos_commands/kernel/sysctl_-a");
	free(out);
	nd_status_set_known(&in->link.stats_st);
	out = round_trip(in, false);
	assert_true(out->link.stats_st.known);
	free(out);
	free(in);
	f = from_text("{\"link\":{\"known\":true,\"ifindex\":2,\"mtu\":1500,\"min_mtu\":68,"
		      "\"max_mtu\":9000,\"operstate\":\"up\",\"carrier\":true,\"rx_queues\":1,"
		      "\"tx_queues\":1,\"qdisc\":\"mq\",\"mac\":\"\",\"stats\":{\"rx_bytes\":1,"
		      "\"tx_bytes\":1,\"rx_packets\":1,\"tx_packets\":1,\"rx_errors\":0,"
		      "\"tx_errors\":0,\"rx_dropped\":0,\"tx_dropped\":0,\"rx_missed\":0,"
		      "\"rx_fifo\":0,\"rx_over\":0}}}", false);
	assert_true(f->link.st.known);
	assert_true(f->link.stats_st.known);	/* written before stats_st: netlink's */
	free(f);
	f = from_text("{\"link\":{\"known\":true,\"ifindex\":2,\"mtu\":1500,\"min_mtu\":68,"
		      "\"max_mtu\":9000,\"operstate\":\"up\",\"carrier\":true,\"rx_queues\":1,"
		      "\"tx_queues\":1,\"qdisc\":\"mq\",\"mac\":\"\",\"stats\":{\"rx_bytes\":1,"
		      "\"tx_bytes\":1,\"rx_packets\":1,\"tx_packets\":1,\"rx_errors\":0,"
		      "\"tx_errors\":0,\"rx_dropped\":0,\"tx_dropped\":0,\"rx_missed\":0,"
		      "\"rx_fifo\":0,\"rx_over\":0},\"stats_st\":{\"known\":1}}}", false);
	assert_false(f->link.st.known);
	assert_non_null(strstr(f->link.st.reason, "stats_st"));
	free(f);
}

static void test_not_an_object(void **state)
{
	struct nd_facts *f = facts_new();
	cJSON *arr = cJSON_Parse("[1,2]");

	(void)state;
	assert_int_equal(nd_facts_netlink_from_json(arr, f), -EINVAL);
	assert_int_equal(nd_facts_from_json(arr, f), -EINVAL);
	assert_int_equal(nd_facts_from_json(NULL, f), -EINVAL);
	cJSON_Delete(arr);
	free(f);
}

static void test_missing_and_bad_status(void **state)
{
	struct nd_facts *f;

	(void)state;
	f = from_text("{\"link\":[],\"qdisc\":{\"kind\":\"tbf\",\"rate_bps\":1},"
		      "\"pause\":{\"known\":false,\"reason\":42},"
		      "\"rings\":{\"known\":\"yes\"}}", false);
	assert_false(f->link.st.known);
	assert_non_null(strstr(f->link.st.reason, "not an object"));
	assert_false(f->qdisc.st.known);	/* no "known" key */
	assert_false(f->pause.st.known);
	assert_string_equal(f->pause.st.reason, "unknown (no reason in JSON)");
	assert_false(f->rings.st.known);
	assert_false(f->rss.st.known);
	assert_non_null(strstr(f->rss.st.reason, "missing"));
	free(f);
}

static void test_wrong_types_and_ranges(void **state)
{
	struct nd_facts *f;

	(void)state;
	f = from_text("{\"channels\":{\"known\":true,\"rx\":-1,\"rx_max\":1,\"tx\":1,"
		      "\"tx_max\":1,\"other\":0,\"other_max\":0,\"combined\":0,\"combined_max\":0},"
		      "\"rings\":{\"known\":true,\"rx\":1.5,\"rx_max\":1,\"rx_mini\":0,"
		      "\"rx_mini_max\":0,\"rx_jumbo\":0,\"rx_jumbo_max\":0,\"tx\":0,\"tx_max\":0},"
		      "\"coalesce\":{\"known\":true,\"rx_usecs\":4294967296,\"rx_frames\":0,"
		      "\"tx_usecs\":0,\"tx_frames\":0,\"adaptive_rx\":1,\"adaptive_tx\":false},"
		      "\"qdisc\":{\"known\":true,\"kind\":\"tbf\",\"rate_bps\":\"18446744073709551616\"},"
		      "\"linkmodes\":{\"known\":true,\"speed_mbps\":1e300,\"duplex\":1,"
		      "\"autoneg\":true,\"supported\":[],\"advertised\":[],\"lp_advertised\":[]},"
		      "\"link\":{\"known\":true,\"mtu\":\"abc\"}}", false);
	assert_false(f->channels.st.known);
	assert_non_null(strstr(f->channels.st.reason, "channels.rx"));
	assert_int_equal(f->channels.rx_max, 0);	/* cleared, not half-read */
	assert_false(f->rings.st.known);
	assert_false(f->coalesce.st.known);
	assert_non_null(strstr(f->coalesce.st.reason, "rx_usecs"));
	assert_false(f->qdisc.st.known);
	assert_false(f->linkmodes.st.known);
	assert_false(f->link.st.known);
	free(f);
}

static void test_nested_error_path(void **state)
{
	struct nd_facts *f;

	(void)state;
	f = from_text("{\"features\":{\"known\":true,\"f\":[{\"name\":\"a\",\"active\":true,"
		      "\"wanted\":true,\"fixed\":false},{\"name\":\"b\",\"active\":true,"
		      "\"wanted\":true,\"fixed\":false},{\"name\":5,\"active\":true,"
		      "\"wanted\":true,\"fixed\":false}]}}", false);
	assert_false(f->features.st.known);
	assert_string_equal(f->features.st.reason, "malformed JSON: 'features.f[2].name'");
	assert_int_equal(f->features.count, 0);
	free(f);
}

/* Build {"<group>":{"known":true,"<key>":[N copies of elem]}}. */
static char *big_array(const char *group, const char *key, const char *elem, unsigned n)
{
	size_t len = strlen(group) + strlen(key) + 64 + (size_t)n * (strlen(elem) + 1);
	char *s = malloc(len), *p;

	assert_non_null(s);
	p = s + sprintf(s, "{\"%s\":{\"known\":true,\"%s\":[", group, key);
	for (unsigned i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", elem);
	strcpy(p, "]}}");
	return s;
}

static void test_oversized_arrays_clamped(void **state)
{
	struct nd_facts *f;
	char *text;

	(void)state;
	text = big_array("rss", "indir", "7", ND_MAX_RSS_INDIR * 3);
	f = from_text(text, false);
	assert_true(f->rss.st.known);
	assert_int_equal(f->rss.size, ND_MAX_RSS_INDIR);
	assert_int_equal(f->rss.indir[ND_MAX_RSS_INDIR - 1], 7);
	free(text);
	free(f);

	text = big_array("nicstats", "s", "{\"name\":\"x\",\"value\":1}", ND_MAX_STATS + 100);
	f = from_text(text, false);
	assert_true(f->nicstats.st.known);
	assert_int_equal(f->nicstats.count, ND_MAX_STATS);
	free(text);
	free(f);

	/* A huge count that disagrees with the array is out of range. */
	f = from_text("{\"irqs\":{\"known\":true,\"n_cpu_columns\":100000,\"irq\":[],"
		      "\"irqbalance_running\":false,\"irqbalance_known\":false}}", true);
	assert_false(f->irqs.st.known);
	free(f);
}

static void test_long_strings_truncated(void **state)
{
	struct nd_facts *f;
	char *text = malloc(16384), name[4000];

	(void)state;
	assert_non_null(text);
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, 16384, "{\"drvinfo\":{\"known\":true,\"driver\":\"%s\",\"version\":\"\","
		 "\"fw_version\":\"\",\"bus_info\":\"\"},"
		 "\"pause\":{\"known\":false,\"reason\":\"%s\"},\"ifname\":\"%s\"}",
		 name, name, name);
	f = from_text(text, true);
	assert_true(f->drvinfo.st.known);
	assert_int_equal(strlen(f->drvinfo.driver), sizeof(f->drvinfo.driver) - 1);
	assert_false(f->pause.st.known);
	assert_int_equal(strlen(f->pause.st.reason), ND_REASON_LEN - 1);
	assert_int_equal(strlen(f->ifname), ND_IFNAMSIZ - 1);
	free(text);
	free(f);
}

static void test_sysctl_and_cpuset_hostile(void **state)
{
	struct nd_facts *f;

	(void)state;
	f = from_text("{\"sysctl\":{\"rmem_max\":{\"known\":true,\"text\":7},"
		      "\"wmem_max\":{\"known\":true,\"text\":\"4096\"}},"
		      "\"cpus\":{\"known\":true,\"online\":\"0-99999999\",\"n_online\":1,"
		      "\"governor_known\":false,\"governor\":[],\"node_cpus\":[]}}", true);
	assert_false(f->sysctl.rmem_max.known);
	assert_string_equal(f->sysctl.rmem_max.reason, "malformed JSON");
	assert_true(f->sysctl.wmem_max.known);
	assert_string_equal(f->sysctl.wmem_max.text, "4096");
	assert_false(f->sysctl.tcp_rmem.known);
	assert_false(f->cpus.st.known);
	free(f);
}

/* Replace every value in a valid document, one at a time, with each of a
 * set of hostile values: parsing must never crash (run under SAN=1) and a
 * group touched by the change must not stay known with a wrong type. */
static void mutate_all(cJSON *root, cJSON *node, unsigned *ret_runs)
{
	static const char *const hostile[] = {
		"null", "\"x\"", "-1", "1e300", "[]", "{}", "true", "[[[[1]]]]",
		"\"99999999999999999999999\"",
	};
	cJSON *child;

	cJSON_ArrayForEach(child, node) {
		for (size_t h = 0; h < ND_ARRAY_SIZE(hostile); h++) {
			cJSON *saved = cJSON_Duplicate(child, true);
			cJSON *bad = cJSON_Parse(hostile[h]);
			struct nd_facts *f = facts_new();

			assert_non_null(saved);
			assert_non_null(bad);
			/* Swap contents in place keeping the key. */
			cJSON_ReplaceItemViaPointer(node, child, bad);
			assert_int_equal(nd_facts_from_json(root, f), 0);
			free(f);
			cJSON_ReplaceItemViaPointer(node, bad, saved);
			child = saved;
			(*ret_runs)++;
		}
		if (cJSON_IsObject(child) || cJSON_IsArray(child))
			mutate_all(root, child, ret_runs);
	}
}

static void test_mutation_sweep(void **state)
{
	struct nd_facts *in = facts_new();
	cJSON *json;
	unsigned runs = 0;

	(void)state;
	fill_netlink(in);
	fill_host(in);
	in->rss.size = 4;	/* keep the sweep quick */
	json = nd_facts_to_json(in);
	assert_non_null(json);
	mutate_all(json, json, &runs);
	assert_true(runs > 500);
	cJSON_Delete(json);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_full),
		cmocka_unit_test(test_round_trip_netlink),
		cmocka_unit_test(test_part_status),
		cmocka_unit_test(test_not_an_object),
		cmocka_unit_test(test_missing_and_bad_status),
		cmocka_unit_test(test_wrong_types_and_ranges),
		cmocka_unit_test(test_nested_error_path),
		cmocka_unit_test(test_oversized_arrays_clamped),
		cmocka_unit_test(test_long_strings_truncated),
		cmocka_unit_test(test_sysctl_and_cpuset_hostile),
		cmocka_unit_test(test_mutation_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_queues.c - the queue table: the netdev family's reply parser on
 * replies recorded from this machine's virtio_net eth0
 * (tests/fixtures/netdev/) and on replies built here with the attributes a
 * driver that links NAPI to IRQs sends; the per-driver ethtool -S name
 * table on real captures (tests/fixtures/raw/, each with its source); the
 * queue -> IRQ -> CPU chain with kernel IRQs and from IRQ names.
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

#include <cjson/cJSON.h>
#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "raw_fixture.h"

#include "nicdoctor/parse_text.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/sysroot.h"

static void *read_file(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc((size_t)size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	*ret_len = (size_t)size;
	return buf;
}

static const struct nd_queue_row *row_of(const struct nd_queue_table *qt, unsigned kind,
					 unsigned id)
{
	for (unsigned i = 0; i < qt->count; i++)
		if (qt->q[i].kind == kind && qt->q[i].id == id)
			return &qt->q[i];
	return NULL;
}

static void test_netdev_recorded_virtio(void **state)
{
	struct nd_queue_table *qt = calloc(1, sizeof(*qt));
	size_t len;
	void *buf = read_file("tests/fixtures/netdev/virtio-eth0-6.18.nl", &len);
	const struct nd_queue_row *rx, *tx;

	(void)state;
	assert_int_equal(nd_netdev_parse_replies(buf, len, 4, qt), 0);
	assert_int_equal(qt->count, 2);
	rx = row_of(qt, ND_QUEUE_RX, 0);
	tx = row_of(qt, ND_QUEUE_TX, 0);
	assert_non_null(rx);
	assert_non_null(tx);
	assert_int_equal(rx->napi_id, 257);
	assert_int_equal(rx->irq, -1);		/* virtio: napi-get names no IRQ */
	assert_true(rx->counters_known);
	assert_int_equal(rx->packets, 1036);
	assert_int_equal(rx->bytes, 28666560);
	assert_string_equal(rx->counter_source, "netdev");
	assert_int_equal(tx->packets, 946);
	assert_int_equal(tx->bytes, 89928);
	assert_true(tx->stop_known);
	assert_int_equal(tx->tx_stop, 0);
	/* Another interface's replies are not ours. */
	memset(qt, 0, sizeof(*qt));
	assert_int_equal(nd_netdev_parse_replies(buf, len, 5, qt), 0);
	assert_int_equal(qt->count, 0);
	/* Cut anywhere: only whole messages count, nothing read past the end. */
	for (size_t cut = 0; cut < len; cut += 7) {
		memset(qt, 0, sizeof(*qt));
		nd_netdev_parse_replies(buf, cut, 4, qt);
		assert_true(qt->count <= 2);
	}
	free(buf);
	free(qt);
}

/* Append one netdev reply message with u32 attributes (pairs type, value;
 * a type with bit 0x100 set is written as a u64 "uint"). */
static void put_msg(struct nl_msg *all, uint8_t cmd, const uint32_t *attrs, size_t n)
{
	struct nl_msg *m = nlmsg_alloc();
	struct nlmsghdr *h;

	assert_non_null(genlmsg_put(m, 1, 1, 20, 0, NLM_F_MULTI, cmd, 1));
	for (size_t i = 0; i < n; i += 2) {
		if (attrs[i] & 0x100)
			nla_put_u64(m, (int)(attrs[i] & 0xff), (uint64_t)attrs[i + 1] << 20);
		else
			nla_put_u32(m, (int)attrs[i], attrs[i + 1]);
	}
	h = nlmsg_hdr(m);
	assert_int_equal(nlmsg_append(all, h, NLMSG_ALIGN(h->nlmsg_len), 0), 0);
	nlmsg_free(m);
}

static void test_netdev_built_with_irqs(void **state)
{
	struct nd_queue_table *qt = calloc(1, sizeof(*qt));
	struct nl_msg *all = nlmsg_alloc_size(1 << 16);
	struct nlmsghdr *first;
	size_t len;

	(void)state;
	/* The payload of `all` is the concatenation of the messages. */
	for (uint32_t q = 0; q < 4; q++) {
		uint32_t rxq[] = { 1, q, 2, 7, 3, 0, 4, 100 + q };
		uint32_t txq[] = { 1, q, 2, 7, 3, 1, 4, 100 + q };

		put_msg(all, 10, rxq, 8);
		put_msg(all, 10, txq, 8);
	}
	for (uint32_t q = 0; q < 4; q++) {
		uint32_t napi[] = { 1, 7, 2, 100 + q, 3, 60 + q, 4, q == 2 ? 4242 : 0 };

		put_msg(all, 11, napi, q == 2 ? 8 : 6);
	}
	{
		uint32_t stats[] = { 1, 7, 2, 0, 3, 1, 0x108, 3, 9, 4000, 13, 5 };
		uint32_t other[] = { 1, 8, 2, 0, 3, 0, 8, 99 };

		put_msg(all, 12, stats, 12);
		put_msg(all, 12, other, 8);
	}
	first = nlmsg_hdr(all);
	len = first->nlmsg_len - NLMSG_HDRLEN;
	assert_int_equal(nd_netdev_parse_replies(nlmsg_data(first), len, 7, qt), 0);
	assert_int_equal(qt->count, 8);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 3)->irq, 63);
	assert_int_equal(row_of(qt, ND_QUEUE_TX, 0)->irq, 60);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 2)->napi_pid, 4242);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 1)->napi_pid, -1);
	assert_true(row_of(qt, ND_QUEUE_RX, 1)->counters_known);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 1)->packets, 3ULL << 20);	/* a u64 uint */
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 1)->bytes, 4000);
	assert_true(row_of(qt, ND_QUEUE_RX, 1)->hw_drops_known);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 1)->hw_drops, 5);
	assert_false(row_of(qt, ND_QUEUE_RX, 0)->counters_known);
	nlmsg_free(all);
	free(qt);
}

static void test_netdev_garbage(void **state)
{
	struct nd_queue_table *qt = calloc(1, sizeof(*qt));
	unsigned char junk[64];

	(void)state;
	memset(junk, 0xff, sizeof(junk));
	assert_int_equal(nd_netdev_parse_replies(junk, sizeof(junk), 0, qt), -EBADMSG);
	assert_int_equal(nd_netdev_parse_replies(NULL, 0, 0, qt), -EBADMSG);
	assert_int_equal(qt->count, 0);
	free(qt);
}

/* nicstats from a capture, from marker up to the first blank line. */
static struct nd_nicstats *stats_of(const char *name, const char *marker)
{
	struct nd_nicstats *s = calloc(1, sizeof(*s));
	char *t = raw(name), *p = strstr(t, marker), *end;

	assert_non_null(p);
	end = strstr(p, "\n\n");
	if (end)
		end[1] = '\0';
	assert_int_equal(nd_parse_ethtool_stats(p, strlen(p), s), 0);
	free(t);
	return s;
}

static struct nd_queue_table *table_of(const char *driver, const struct nd_nicstats *s,
				       const char *want_style)
{
	struct nd_queue_table *qt = calloc(1, sizeof(*qt));
	const char *style;

	assert_true(nd_queue_stats_from_ethtool(driver, s, qt, &style) > 0);
	assert_string_equal(style, want_style);
	return qt;
}

static uint64_t sum(const struct nd_queue_table *qt, unsigned kind, bool bytes)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < qt->count; i++)
		if (qt->q[i].kind == kind)
			total += bytes ? qt->q[i].bytes : qt->q[i].packets;
	return total;
}

static void test_table_real_captures(void **state)
{
	struct nd_nicstats *s;
	struct nd_queue_table *qt;
	const char *style;

	(void)state;
	/* ixgbe X553 (intel-wired-lan): 64 RX and 64 TX queues, all zero. */
	s = stats_of("ethtool-x553-ixgbe-S-and-settings-link-down.txt", "NIC statistics:");
	qt = table_of("ixgbe", s, "rx_queue_N_packets");
	assert_int_equal(qt->count, 128);
	assert_non_null(row_of(qt, ND_QUEUE_RX, 63));
	assert_string_equal(row_of(qt, ND_QUEUE_TX, 5)->counter_source, "ethtool -S");
	free(qt);
	/* ice E810-XXV (intel-wired-lan): its -S capture lists no queue counter. */
	free(s);
	s = calloc(1, sizeof(*s));
	{
		char *t = raw("ethtool-e810xxv-ice-l-S-rx_dropped.txt");

		nd_parse_ethtool_stats(t, strlen(t), s);
		free(t);
	}
	qt = calloc(1, sizeof(*qt));
	assert_int_equal(nd_queue_stats_from_ethtool("ice", s, qt, &style), 0);
	assert_string_equal(style, "");
	free(qt);
	free(s);
	/* virtio_net before 6.x (hotsos sosreport): rx_queue_0_packets. */
	s = stats_of("sos42-ethtool_-S_ens3-virtio-single-queue.txt", "NIC statistics:");
	qt = table_of("virtio_net", s, "rx_queue_N_packets");
	assert_int_equal(qt->count, 2);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 0)->packets, 25933187);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 0)->bytes, 23782563032ULL);
	assert_int_equal(row_of(qt, ND_QUEUE_TX, 0)->packets, 25568623);
	free(qt);
	free(s);
	/* ena (AWS, 5.4): the queues add up to the device's ip -s link counts. */
	s = stats_of("ethtool-S-ena-2queues-aws-5.4.txt", "NIC statistics:");
	qt = table_of("ena", s, "queue_N_rx_cnt");
	assert_int_equal(qt->count, 4);
	assert_int_equal(sum(qt, ND_QUEUE_RX, false), 218238);
	assert_int_equal(sum(qt, ND_QUEUE_TX, false), 65991);
	assert_int_equal(sum(qt, ND_QUEUE_TX, true), 6995515);
	free(qt);
	free(s);
	/* mlx5 (bpf list, 6.5): rx0_packets, not rx_packets or rx_prio0_packets. */
	s = stats_of("ethtool-S-mlx5-xdp-6.5-excerpt.txt", "NIC statistics:");
	qt = table_of("mlx5_core", s, "rxN_packets");
	assert_int_equal(qt->count, 1);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 0)->packets, 7282880);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 0)->bytes, 436973482);
	free(qt);
	free(s);
	/* bnxt (netdev list): [0]: ucast + mcast + bcast packets. */
	s = stats_of("ethtool-S-bnxt-qstats-patch.txt", "NIC statistics:");
	qt = table_of("bnxt_en", s, "[N]: rx_ucast_packets");
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 0)->packets, 1418 + 178);
	assert_int_equal(row_of(qt, ND_QUEUE_TX, 0)->packets, 1734);
	free(qt);
	free(s);
}

/* Names from the drivers' sources where no capture was found: i40e
 * (both "tx-0.tx_packets" and the newer "tx-0.packets"), gve, vmxnet3. */
#define TXT_I40E "NIC statistics:\n     rx_packets: 100\n     tx-0.tx_packets: 11\n" \
	"     tx-0.tx_bytes: 1100\n     rx-1.packets: 22\n     rx-1.bytes: 2200\n"
#define TXT_GVE "NIC statistics:\n     rx_packets: 9\n     rx_posted_desc[1]: 100\n" \
	"     rx_completed_desc[1]: 7\n     rx_bytes[1]: 700\n     tx_completed_desc[0]: 3\n"
#define TXT_VMX "NIC statistics:\n     Tx Queue#: 1\n       TSO pkts tx: 5\n" \
	"       ucast pkts tx: 30\n       mcast pkts tx: 1\n       ucast bytes tx: 3000\n" \
	"     Rx Queue#: 0\n       LRO pkts rx: 2\n       ucast pkts rx: 90\n" \
	"       ucast bytes rx: 9000\n"

static void test_table_driver_sources(void **state)
{
	struct nd_nicstats *s = calloc(1, sizeof(*s));
	struct nd_queue_table *qt;

	(void)state;
	assert_int_equal(nd_parse_ethtool_stats(TXT_I40E, strlen(TXT_I40E), s), 0);
	qt = table_of("i40e", s, "rx-N.packets");
	assert_int_equal(row_of(qt, ND_QUEUE_TX, 0)->packets, 11);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 1)->bytes, 2200);
	free(qt);
	assert_int_equal(nd_parse_ethtool_stats(TXT_GVE, strlen(TXT_GVE), s), 0);
	qt = table_of("gve", s, "rx_completed_desc[N]");
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 1)->packets, 7);
	free(qt);
	assert_int_equal(nd_parse_ethtool_stats(TXT_VMX, strlen(TXT_VMX), s), 0);
	qt = table_of("vmxnet3", s, "Rx Queue#: N");
	assert_int_equal(row_of(qt, ND_QUEUE_TX, 1)->packets, 30 + 1);
	assert_int_equal(row_of(qt, ND_QUEUE_RX, 0)->bytes, 9000);
	free(qt);
	free(s);
}

static struct nd_facts *chain_facts(void)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	nd_status_set_known(&f->queue_table.st);
	for (unsigned q = 0; q < 2; q++) {
		nd_queue_row_get(&f->queue_table, ND_QUEUE_RX, q);
		nd_queue_row_get(&f->queue_table, ND_QUEUE_TX, q);
	}
	nd_status_set_known(&f->irqs.st);
	f->irqs.count = 3;
	f->irqs.irq[0] = (struct nd_irq){ .irq = 40, .name = "virtio2-config" };
	f->irqs.irq[1] = (struct nd_irq){ .irq = 41, .name = "virtio2-input.1" };
	f->irqs.irq[2] = (struct nd_irq){ .irq = 42, .name = "ens3-TxRx-0" };
	nd_cpuset_add(&f->irqs.irq[1].effective, 3);
	f->irqs.irq[1].effective_known = true;
	nd_cpuset_add(&f->irqs.irq[2].affinity, 1);
	f->irqs.irq[2].affinity_known = true;
	nd_status_set_known(&f->pci.st);
	f->pci.numa_node = 1;
	return f;
}

static void test_chain_from_names(void **state)
{
	struct nd_facts *f = chain_facts();
	struct nd_chain *c = calloc(1, sizeof(*c));
	const struct nd_chain_row *r;

	(void)state;
	nd_queue_chain_build(f, c);
	assert_int_equal(c->count, 4);
	assert_false(c->kernel_irqs);
	r = nd_chain_find(c, ND_QUEUE_RX, 1);
	assert_int_equal(r->irq, 41);
	assert_string_equal(r->irq_source, "irq name");
	assert_true(r->cpus_known);
	assert_int_equal(nd_cpuset_first(&r->cpus), 3);
	assert_int_equal(r->numa_node, 1);
	assert_int_equal(nd_chain_find(c, ND_QUEUE_TX, 0)->irq, 42);	/* TxRx: both */
	assert_int_equal(nd_cpuset_first(&nd_chain_find(c, ND_QUEUE_RX, 0)->cpus), 1);
	assert_int_equal(nd_chain_find(c, ND_QUEUE_TX, 1)->irq, -1);
	free(c);
	free(f);
}

static void test_chain_kernel_irqs(void **state)
{
	struct nd_facts *f = chain_facts();
	struct nd_chain *c = calloc(1, sizeof(*c));
	uint64_t deltas[4] = { 970, 0, 30, 0 };
	cJSON *j;
	char *text;

	(void)state;
	/* The kernel says rx-1 is IRQ 42, against its name. */
	f->queue_table.q[2].irq = 42;
	nd_queue_chain_build(f, c);
	assert_true(c->kernel_irqs);
	assert_int_equal(nd_chain_find(c, ND_QUEUE_RX, 1)->irq, 42);
	assert_string_equal(nd_chain_find(c, ND_QUEUE_RX, 1)->irq_source, "netdev");
	assert_int_equal(nd_cpuset_first(&nd_chain_find(c, ND_QUEUE_RX, 1)->cpus), 1);
	j = nd_chain_to_json(c, deltas);
	text = cJSON_PrintUnformatted(j);
	assert_non_null(strstr(text, "{\"queue\":\"rx-0\",\"irq\":42,\"irq_source\":\"irq name\","
				     "\"cpus\":\"1\",\"numa_node\":1,\"packets\":970,\"share_pct\":97}"));
	assert_non_null(strstr(text, "\"queue\":\"rx-1\",\"irq\":42,\"irq_source\":\"netdev\""));
	free(text);
	cJSON_Delete(j);
	/* Kernel links decide which IRQs serve queues, whatever their names. */
	assert_true(nd_chain_irq_serves_queue(c, &f->irqs.irq[2]));	/* 42: linked */
	assert_false(nd_chain_irq_serves_queue(c, &f->irqs.irq[1]));	/* 41: not linked */
	assert_false(nd_facts_irq_serves_queue(f, &f->irqs.irq[1]));
	assert_true(nd_facts_irq_serves_queue(f, &f->irqs.irq[2]));
	f->queue_table.q[2].irq = -1;	/* no kernel links: names again */
	assert_true(nd_facts_irq_serves_queue(f, &f->irqs.irq[1]));
	assert_false(nd_facts_irq_serves_queue(f, &f->irqs.irq[0]));	/* "config" */
	/* Unknown queues: an empty chain. */
	f->queue_table.st.known = false;
	nd_queue_chain_build(f, c);
	assert_int_equal(c->count, 0);
	free(c);
	free(f);
}

/* No msi_irqs and no name to match: the IRQs the kernel linked to the
 * queues (napi-get) name the interface's interrupts. */
static void test_irqs_from_netdev(void **state)
{
	struct nd_facts *f = calloc(1, sizeof(*f));
	struct nd_root *root;

	(void)state;
	assert_int_equal(nd_root_open("tests/fixtures/healthy-x16", &root), 0);
	nd_probe_irqs(root, "nosuch0", f);
	assert_false(f->irqs.st.known);
	assert_string_equal(f->irqs.list_source, "irq names");
	nd_status_set_known(&f->queue_table.st);
	nd_queue_row_get(&f->queue_table, ND_QUEUE_RX, 0)->irq = 109;
	nd_queue_row_get(&f->queue_table, ND_QUEUE_TX, 0)->irq = 109;
	nd_queue_row_get(&f->queue_table, ND_QUEUE_RX, 1)->irq = 110;
	nd_probe_irqs(root, "nosuch0", f);
	nd_root_close(root);
	assert_true(f->irqs.st.known);
	assert_string_equal(f->irqs.list_source, "netdev");
	assert_int_equal(f->irqs.count, 2);
	assert_int_equal(f->irqs.irq[0].irq, 109);
	assert_int_equal(f->irqs.irq[0].per_cpu[8], 395218);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netdev_recorded_virtio),
		cmocka_unit_test(test_netdev_built_with_irqs),
		cmocka_unit_test(test_netdev_garbage),
		cmocka_unit_test(test_table_real_captures),
		cmocka_unit_test(test_table_driver_sources),
		cmocka_unit_test(test_chain_from_names),
		cmocka_unit_test(test_chain_kernel_irqs),
		cmocka_unit_test(test_irqs_from_netdev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_parse_text_misc.c - ip -s -d link, tc -s qdisc, sysctl -a, lscpu
 * and supportconfig-section parsers on real captures (tests/fixtures/raw/)
 * and, for tbf/htb and supportconfig (no public capture), constructed text.
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

#include "nicdoctor/parse_text.h"

#define TXT(s) s, sizeof(s) - 1

static void test_iplink(void **state)
{
	char *t = raw("sos42-ip_-s_-d_link-numrxqueues-1.txt");
	char names[8][ND_IFNAMSIZ];
	unsigned n;
	struct nd_link l;
	bool stats;

	(void)state;
	assert_int_equal(nd_parse_iplink_names(t, strlen(t), names, 8, &n), 0);
	assert_string_equal(names[1], "ens3");
	assert_int_equal(nd_parse_iplink(t, strlen(t), "ens3", &l, &stats), 0);
	assert_true(stats);
	assert_int_equal(l.ifindex, 2);
	assert_int_equal(l.mtu, 8958);
	assert_int_equal(l.max_mtu, 8958);
	assert_string_equal(l.operstate, "up");
	assert_true(l.carrier);
	assert_string_equal(l.qdisc, "fq_codel");
	assert_string_equal(l.mac, "fa:16:3e:1f:96:bd");
	assert_int_equal(l.rx_queues, 1);
	assert_int_equal(l.stats.rx_bytes, 778213169);
	assert_int_equal(l.stats.tx_packets, 169937);
	assert_int_equal(nd_parse_iplink(t, strlen(t), "eth9", &l, &stats), -ENOENT);
	free(t);

	t = raw("insights-ip_-d_-s_link-iproute2-new-column-layout.txt");
	assert_int_equal(nd_parse_iplink(t, strlen(t), "enp2s0", &l, &stats), 0);
	assert_int_equal(l.stats.rx_dropped, 2498170);
	assert_int_equal(l.stats.tx_bytes, 5705272);
	assert_int_equal(nd_parse_iplink(t, strlen(t), "bond0", &l, &stats), 0);
	assert_int_equal(l.rx_queues, 16);
	assert_int_equal(l.stats.tx_dropped, 8);
	free(t);

	/* The VFs' counters are not the PF's; a wrapped "n\numrxqueues". */
	t = raw("insights-ip_-s_-d_link-ens1f0-112-queues-sriov-vfs.txt");
	assert_int_equal(nd_parse_iplink(t, strlen(t), "ens1f1", &l, &stats), 0);
	assert_int_equal(l.stats.rx_dropped, 67);
	assert_int_equal(l.stats.rx_bytes, 17496609);
	assert_int_equal(l.tx_queues, 112);
	assert_int_equal(l.rx_queues, 112);
	assert_int_equal(nd_parse_iplink(t, strlen(t), "ens1f1v64", &l, &stats), 0);
	assert_string_equal(l.operstate, "down");
	assert_false(l.carrier);
	free(t);
}

static void test_tc(void **state)
{
	char *t = raw("sos42-tc_-s_qdisc_show-fq_codel.txt");
	struct nd_qdisc q;
	char root[16];
	uint64_t bps;

	(void)state;
	assert_int_equal(nd_parse_tc_qdisc(t, strlen(t), "ens3", &q, root), 0);
	assert_string_equal(root, "fq_codel");
	assert_int_equal(q.rate_bps, 0);
	assert_true(q.st.known);
	free(t);
	/* Constructed in tc's format: tbf under mq, a measured "rate 0bit". */
	assert_int_equal(nd_parse_tc_qdisc(TXT(
		"qdisc mq 1: dev eth0 root\r\n"
		" Sent 1 bytes 1 pkt (dropped 0, overlimits 0 requeues 0)\n"
		" rate 0bit 0pps backlog 0b 0p requeues 0\n"
		"qdisc tbf 10: dev eth0 parent 1:1 rate 500Mbit burst 64Kb lat 20.0ms\n"
		"qdisc tbf 11: dev eth0 parent 1:2 rate 1Gbit burst 64Kb lat 20.0ms\n"
		"qdisc tbf 12: dev eth1 root rate 10Kbit burst 1Kb lat 20.0ms"), "eth0", &q, root), 0);
	assert_string_equal(root, "mq");
	assert_string_equal(q.kind, "tbf");
	assert_int_equal(q.rate_bps, 500000000);
	assert_int_equal(nd_parse_tc_rate(TXT("1Gbit"), &bps), 0);
	assert_int_equal(bps, 1000000000);
	assert_int_equal(nd_parse_tc_rate(TXT("10Kbit"), &bps), 0);
	assert_int_equal(bps, 10000);
	assert_int_equal(nd_parse_tc_rate(TXT("2Mbps"), &bps), 0);
	assert_int_equal(bps, 16000000);
	assert_int_equal(nd_parse_tc_rate(TXT("1Gbitx"), &bps), -EINVAL);
	assert_int_equal(nd_parse_tc_qdisc(TXT("class htb 1:1 root rate 100Mbit ceil 200Mbit "
					       "burst 1600b cburst 1600b\n"), "eth0", &q, NULL), 0);
	assert_int_equal(q.rate_bps, 200000000);
}

static void test_sysctl_lscpu(void **state)
{
	char *t = raw("sos42-sysctl_-a-net.core-excerpt-default-212992.txt");
	struct nd_sysctls s;
	struct nd_cpus *cpus = calloc(1, sizeof(*cpus));
	char buf[64];

	(void)state;
	assert_int_equal(nd_parse_sysctl_text(t, strlen(t), &s), 0);
	assert_true(s.rmem_max.known);
	assert_string_equal(s.rmem_max.text, "212992");
	assert_string_equal(s.netdev_max_backlog.text, "1000");
	assert_string_equal(s.netdev_budget.text, "300");
	assert_false(s.tcp_rmem.known);
	assert_string_equal(s.tcp_rmem.reason, "not in the sysctl -a text");
	assert_int_equal(nd_parse_sysctl_lookup(t, strlen(t), "net/core/wmem_max", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "212992");
	free(t);
	t = raw("sos42-sysctl_-a-tcp_rmem-wmem-excerpt.txt");
	assert_int_equal(nd_parse_sysctl_text(t, strlen(t), &s), 0);
	assert_string_equal(s.tcp_rmem.text, "4096 131072 6291456");
	free(t);
	assert_int_equal(nd_parse_sysctl_lookup(TXT("sysctl: permission denied on key "
						    "'net.core.rmem_max'\n"), "net.core.rmem_max",
						buf, sizeof(buf)), -EACCES);
	t = raw("sos42-lscpu-2cpu-kvm.txt");
	assert_int_equal(nd_parse_lscpu(t, strlen(t), cpus), 0);
	assert_int_equal(cpus->n_online, 2);
	assert_int_equal(cpus->n_nodes, 1);
	assert_int_equal(nd_cpuset_count(&cpus->node_cpus[0]), 2);
	free(t);
	free(cpus);
}

/* Constructed from supportutils' format (bin/supportconfig.rc _log_cmd,
 * conf_files, log_files): no public supportconfig capture exists. */
static const char network_txt[] =
	"#==[ Command ]======================================#\n"
	"# /usr/sbin/ethtool eth0\n"
	"Settings for eth0:\n\tSpeed: 10000Mb/s\n\tLink detected: yes\n"
	"\n"
	"#==[ Command ]======================================#\n"
	"# /usr/sbin/ethtool -l eth0\n"
	"Channel parameters for eth0:\nPre-set maximums:\nCombined:\t63\n"
	"Current hardware settings:\nCombined:\t8\n"
	"\n"
	"#==[ Configuration File ]===========================#\n"
	"# /proc/sys/net/core/rmem_max\n"
	"212992\n"
	"\n"
	"#==[ Log File ]=====================================#\n"
	"# /var/log/messages - Last 500 Lines\n"
	"x\n"
	"#==[ Configuration File ]===========================#\n"
	"# /etc/sysconfig/irqbalance - File not found\n";

static void test_supportconfig(void **state)
{
	struct nd_sc_section sec;
	struct nd_channels ch;
	size_t pos = 0;
	unsigned n = 0;

	(void)state;
	while (nd_sc_next(TXT(network_txt), &pos, &sec) == 0)
		n++;
	assert_int_equal(n, 5);
	assert_int_equal(nd_sc_find(TXT(network_txt), "ethtool -l eth0", &sec), 0);
	assert_int_equal(sec.kind_len, 7);
	assert_memory_equal(sec.kind, "Command", 7);
	assert_int_equal(nd_parse_ethtool_channels(sec.body, sec.body_len, &ch), 0);
	assert_int_equal(ch.combined, 8);
	assert_int_equal(ch.combined_max, 63);
	assert_int_equal(nd_sc_find(TXT(network_txt), "/proc/sys/net/core/rmem_max", &sec), 0);
	assert_int_equal(sec.body_len, 7);
	assert_memory_equal(sec.body, "212992\n", 7);
	assert_int_equal(nd_sc_find(TXT(network_txt), "/var/log/messages", &sec), 0);
	assert_memory_equal(sec.body, "x\n", 2);
	assert_int_equal(nd_sc_find(TXT(network_txt), "/etc/sysconfig/irqbalance", &sec), 0);
	assert_true(sec.file_missing);
	assert_int_equal(sec.body_len, 0);
	assert_int_equal(nd_sc_find(TXT(network_txt), "ethtool eth0", &sec), 0);
	assert_int_equal(nd_sc_find(TXT(network_txt), "ethtool -l eth1", &sec), -ENOENT);
	assert_int_equal(nd_sc_find(TXT(network_txt), "ethtool", &sec), -ENOENT);
}

/* The stacked kind and lowers of ip -d link (iplink_stack.c). */
static void test_iplink_stack(void **state)
{
	char *vlan = raw("github-iproute2mac-52-ip-details-vlan.txt");
	char *live = raw("live-ip_-d_link-bridge-macvlan-macvtap-vxlan.txt");
	char *bond = raw("insights-ip_-d_-s_link-iproute2-new-column-layout.txt");
	char *sos = raw("sos42-ip_-s_-d_link-numrxqueues-1.txt");
	struct nd_stack st;

	(void)state;
	assert_int_equal(nd_parse_iplink_stack(vlan, strlen(vlan), "eth0.111", &st), 0);
	assert_string_equal(st.kind, "vlan");
	assert_int_equal(st.vlan_id, 111);
	assert_int_equal(st.n_lowers, 1);
	assert_string_equal(st.lowers[0], "eth0");
	assert_int_equal(nd_parse_iplink_stack(live, strlen(live), "br0", &st), 0);
	assert_string_equal(st.kind, "bridge");
	assert_int_equal(st.n_lowers, 1);
	assert_string_equal(st.lowers[0], "v0");
	/* a veth's @peer is no lower */
	assert_int_equal(nd_parse_iplink_stack(live, strlen(live), "v0", &st), 0);
	assert_string_equal(st.kind, "veth");
	assert_int_equal(st.n_lowers, 0);
	assert_int_equal(nd_parse_iplink_stack(live, strlen(live), "mvt0", &st), 0);
	assert_string_equal(st.kind, "macvtap");
	assert_string_equal(st.lowers[0], "v1");
	assert_int_equal(nd_parse_iplink_stack(live, strlen(live), "mv0", &st), 0);
	assert_string_equal(st.kind, "macvlan");
	assert_int_equal(nd_parse_iplink_stack(live, strlen(live), "vx0", &st), 0);
	assert_string_equal(st.kind, "vxlan");
	assert_false(st.underlay_ipv6);
	assert_string_equal(st.underlay_dev, "v1");
	assert_int_equal(st.n_lowers, 1);
	assert_string_equal(st.lowers[0], "v1");
	assert_string_equal(st.remote, "10.9.9.9");
	assert_int_equal(nd_parse_iplink_stack(live, strlen(live), "vx6", &st), 0);
	assert_true(st.underlay_ipv6);
	assert_string_equal(st.remote, "2001:db8::9");
	assert_int_equal(nd_parse_iplink_stack(bond, strlen(bond), "bond0", &st), 0);
	assert_string_equal(st.kind, "bond");
	assert_int_equal(st.n_lowers, 2);
	assert_string_equal(st.lowers[0], "enp1s0");
	assert_string_equal(st.lowers[1], "enp2s0");
	/* a NIC: known, not stacked */
	assert_int_equal(nd_parse_iplink_stack(bond, strlen(bond), "enp1s0", &st), 0);
	assert_string_equal(st.kind, "");
	assert_int_equal(st.n_lowers, 0);
	/* flannel.1 over ens3 (a sosreport of a Kubernetes node) */
	assert_int_equal(nd_parse_iplink_stack(sos, strlen(sos), "flannel.1", &st), 0);
	assert_string_equal(st.kind, "vxlan");
	assert_string_equal(st.lowers[0], "ens3");
	assert_int_equal(nd_parse_iplink_stack(sos, strlen(sos), "nosuch", &st), -ENOENT);
	assert_false(st.st.known);
	free(vlan);
	free(live);
	free(bond);
	free(sos);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iplink),
		cmocka_unit_test(test_iplink_stack),
		cmocka_unit_test(test_tc),
		cmocka_unit_test(test_sysctl_lscpu),
		cmocka_unit_test(test_supportconfig),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

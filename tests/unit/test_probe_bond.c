/*
 * test_probe_bond.c - the bond probe source in a sysroot: the bond
 * fixtures made from the insights-core captures (/proc/net/bonding first,
 * the sysfs bonding/ files when it is absent), a member's speed from its
 * own /sys when the capture says Unknown, and the members' byte counters
 * over a window in a scratch sysroot, judged by bond.flows_on_one_member.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/check.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

static struct nd_facts facts;

static void probe(const char *dir, const char *ifname)
{
	struct nd_root *root;

	memset(&facts, 0, sizeof(facts));
	assert_int_equal(nd_root_open(dir, &root), 0);
	nd_probe_bond(root, ifname, &facts);
	nd_root_close(root);
}

static void test_proc_first(void **state)
{
	const struct nd_bond *b = &facts.bond;

	(void)state;
	probe("tests/fixtures/bond-8023ad-churn-member-down", "bond0");
	assert_true(b->st.known);
	assert_string_equal(b->source, "/proc/net/bonding");
	assert_int_equal(b->n_members, 2);
	assert_int_equal(b->members[0].actor_port_state, 77);	/* only /proc has the PDUs */
	assert_int_equal(b->members[1].speed_mbps, -1);	/* down: Unknown and -1 in sysfs */
}

static void test_sysfs_fallback(void **state)
{
	const struct nd_bond *b = &facts.bond;

	(void)state;
	probe("tests/fixtures/bond-sysfs-8023ad-no-partner-split", "bond0");
	assert_true(b->st.known);
	assert_string_equal(b->source, "sysfs");
	assert_string_equal(b->mode, "802.3ad");		/* "802.3ad 4" */
	assert_string_equal(b->xmit_hash_policy, "layer2");	/* "layer2 0" */
	assert_string_equal(b->lacp_rate, "slow");
	assert_int_equal(b->miimon_ms, 500);
	assert_true(b->ad_info_known);
	assert_int_equal(b->ad_aggregator_id, 3);
	assert_int_equal(b->ad_num_ports, 1);
	assert_string_equal(b->ad_partner_mac, "00:00:00:00:00:00");
	assert_int_equal(b->n_members, 2);
	assert_string_equal(b->members[1].name, "eth2");
	assert_string_equal(b->members[1].mii_status, "up");
	assert_int_equal(b->members[1].aggregator_id, 2);
	assert_int_equal(b->members[1].speed_mbps, 1000);	/* the member's own speed file */
	assert_int_equal(b->members[1].duplex, 1);
	assert_string_equal(b->members[1].perm_hwaddr, "00:16:35:5e:02:7e");
}

static void test_not_a_bond(void **state)
{
	(void)state;
	probe("tests/fixtures/healthy-x16", "enp1s0f0np0");
	assert_false(facts.bond.st.known);
	assert_false(facts.bond.is_bond);
	assert_string_equal(facts.bond.st.reason, "not a bond");
}

static void put(const char *root, const char *path, const char *text)
{
	char full[512], cmd[600];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	assert_int_equal(system(cmd), 0);
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_window(void **state)
{
	char root[] = "/tmp/nd-test-bond.XXXXXX", cmd[64];
	struct nd_root *sysroot;
	struct nd_finding f;

	(void)state;
	assert_non_null(mkdtemp(root));
	put(root, "proc/net/bonding/bond0",
	    "Bonding Mode: load balancing (xor)\nTransmit Hash Policy: layer3+4 (1)\n\n"
	    "Slave Interface: ens1f0\nMII Status: up\nSpeed: 10000 Mbps\n\n"
	    "Slave Interface: ens1f1\nMII Status: up\nSpeed: 10000 Mbps\n");
	put(root, "sys/class/net/bond0/mtu", "1500\n");
	put(root, "sys/class/net/ens1f0/statistics/tx_bytes", "1000\n");
	put(root, "sys/class/net/ens1f0/statistics/rx_bytes", "5\n");
	put(root, "sys/class/net/ens1f1/statistics/tx_bytes", "2000\n");
	put(root, "sys/class/net/ens1f1/statistics/rx_bytes", "7\n");
	put(root, "sys/class/net/ens1f0/statistics/tx_packets", "10\n");
	put(root, "sys/class/net/ens1f0/statistics/rx_packets", "20\n");
	probe(root, "bond0");
	assert_true(facts.bond.st.known);
	assert_int_equal(nd_root_open(root, &sysroot), 0);
	nd_probe_bond_window_start(sysroot, &facts);
	put(root, "sys/class/net/ens1f0/statistics/tx_bytes", "5000001000\n");
	put(root, "sys/class/net/ens1f1/statistics/tx_bytes", "3000\n");
	put(root, "sys/class/net/ens1f0/statistics/tx_packets", "3400010\n");
	put(root, "sys/class/net/ens1f0/statistics/rx_packets", "1700020\n");
	nd_probe_bond_window_end(sysroot, &facts, 10);
	assert_true(facts.bond.window_known);
	assert_int_equal(facts.bond.members[0].window_tx_bytes, 5000000000ull);
	assert_int_equal(facts.bond.members[1].window_tx_bytes, 1000);
	assert_int_equal(facts.bond.members[1].window_rx_bytes, 0);
	/* packets beside bytes where the member has them */
	assert_true(facts.bond.members[0].window_packets_known);
	assert_int_equal(facts.bond.members[0].window_tx_packets, 3400000);
	assert_int_equal(facts.bond.members[0].window_rx_packets, 1700000);
	assert_false(facts.bond.members[1].window_packets_known);
	nd_check_run(nd_check_find("bond.flows_on_one_member"), &facts, &f);
	assert_int_equal(f.severity, ND_SEV_WARNING);
	assert_string_equal(f.fix.commands[0], "# more flows (-P 8) or source ports chosen to "
			    "spread them; one flow never spans members");	/* already layer3+4 */
	nd_finding_free(&f);
	/* a counter that went back (member re-added): no window */
	nd_probe_bond_window_start(sysroot, &facts);
	put(root, "sys/class/net/ens1f1/statistics/tx_bytes", "0\n");
	nd_probe_bond_window_end(sysroot, &facts, 10);
	nd_root_close(sysroot);
	assert_false(facts.bond.window_known);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_first),
		cmocka_unit_test(test_sysfs_fallback),
		cmocka_unit_test(test_not_a_bond),
		cmocka_unit_test(test_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

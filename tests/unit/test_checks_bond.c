/*
 * test_checks_bond.c - every bond check flagged, ok and unknown, on a
 * healthy 802.3ad bond of two 10G members (MTU 1500) built here that each
 * test breaks one way; the ceilings are the members' goodput (one member
 * of 10G: 9415 Mbit/s at MTU 1500).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"

static struct nd_facts facts;
static struct nd_finding finding;

static void member(unsigned i, const char *name, int64_t speed, int agg)
{
	struct nd_bond_member *m = &facts.bond.members[i];

	nd_bond_member_reset(m);
	nd_strlcpy(m->name, name, sizeof(m->name));
	nd_strlcpy(m->mii_status, "up", sizeof(m->mii_status));
	m->speed_mbps = speed;
	m->duplex = 1;
	m->link_failure_count = 0;
	m->aggregator_id = agg;
	m->actor_port_state = 61;
	m->partner_port_state = 61;
}

static int setup(void **state)
{
	struct nd_bond *b = &facts.bond;

	(void)state;
	memset(&facts, 0, sizeof(facts));
	nd_strlcpy(facts.ifname, "bond0", sizeof(facts.ifname));
	nd_status_set_known(&facts.link.st);
	facts.link.mtu = 1500;
	nd_bond_reset(b);
	b->is_bond = true;
	nd_status_set_known(&b->st);
	nd_strlcpy(b->source, "/proc/net/bonding", sizeof(b->source));
	nd_strlcpy(b->mode, "802.3ad", sizeof(b->mode));
	nd_strlcpy(b->xmit_hash_policy, "layer3+4", sizeof(b->xmit_hash_policy));
	b->ad_info_known = true;
	b->ad_aggregator_id = 1;
	b->ad_num_ports = 2;
	nd_strlcpy(b->ad_partner_mac, "52:54:00:12:34:56", sizeof(b->ad_partner_mac));
	b->n_members = 2;
	member(0, "ens1f0", 10000, 1);
	member(1, "ens1f1", 10000, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	nd_finding_free(&finding);
	memset(&finding, 0, sizeof(finding));
	return 0;
}

static enum nd_severity run(const char *id)
{
	const struct nd_check *c = nd_check_find(id);

	assert_non_null(c);
	nd_finding_free(&finding);
	nd_check_run(c, &facts, &finding);
	return finding.severity;
}

static void window(uint64_t tx0, uint64_t tx1)
{
	facts.bond.window_known = true;
	facts.bond.window_seconds = 10;
	facts.bond.members[0].window_known = facts.bond.members[1].window_known = true;
	facts.bond.members[0].window_tx_bytes = tx0;
	facts.bond.members[1].window_tx_bytes = tx1;
}

static const char *const ids[] = {
	"bond.member_down", "bond.speed_mismatch", "bond.hash_layer2", "bond.lacp_no_partner",
	"bond.aggregator_split", "bond.active_backup_capacity", "bond.flows_on_one_member",
};

static void test_healthy_and_not_a_bond(void **state)
{
	(void)state;
	window(6000000000ull, 5000000000ull);
	for (size_t i = 0; i < ND_ARRAY_SIZE(ids); i++) {
		assert_int_equal(run(ids[i]), ND_SEV_OK);
		assert_true(finding.ceiling_mbps < 0);
	}
	nd_bond_reset(&facts.bond);
	nd_status_set_unknown(&facts.bond.st, "not a bond");
	for (size_t i = 0; i < ND_ARRAY_SIZE(ids); i++) {
		assert_int_equal(run(ids[i]), ND_SEV_OK);
		assert_string_equal(finding.title, "not a bond");
		/* nothing to judge: not applicable, never counted as passed */
		assert_true(finding.not_applicable);
	}
	/* a bond the probe could not read: unknown, never ok */
	facts.bond.is_bond = true;
	nd_status_set_unknown(&facts.bond.st, "cannot read '/proc/net/bonding/bond0'");
	for (size_t i = 0; i < ND_ARRAY_SIZE(ids); i++)
		assert_int_equal(run(ids[i]), ND_SEV_UNKNOWN);
}

static void test_member_down(void **state)
{
	(void)state;
	nd_strlcpy(facts.bond.members[1].mii_status, "down", 16);
	facts.bond.members[1].speed_mbps = -1;
	assert_int_equal(run("bond.member_down"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_non_null(strstr(finding.title, "ens1f1 (down)"));
	assert_string_equal(finding.fix.commands[0],
			    "ip link set dev ens1f1 up; ethtool ens1f1 | grep -E 'Speed|Link detected'");
	nd_strlcpy(facts.bond.members[0].mii_status, "going down", 16);
	assert_int_equal(run("bond.member_down"), ND_SEV_CRITICAL);
	facts.bond.n_members = 0;
	assert_int_equal(run("bond.member_down"), ND_SEV_CRITICAL);
}

static void test_member_flapping_and_unknown(void **state)
{
	(void)state;
	facts.bond.members[0].link_failure_count = 92028;
	assert_int_equal(run("bond.member_down"), ND_SEV_INFO);
	assert_non_null(strstr(finding.title, "ens1f0 92028"));
	facts.bond.members[1].mii_status[0] = '\0';
	assert_int_equal(run("bond.member_down"), ND_SEV_UNKNOWN);
}

static void test_speed_mismatch(void **state)
{
	(void)state;
	facts.bond.members[1].speed_mbps = 1000;
	facts.bond.members[1].aggregator_id = 2;
	assert_int_equal(run("bond.speed_mismatch"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);	/* aggregator 1: the 10G one */
	nd_strlcpy(facts.bond.mode, "balance-rr", sizeof(facts.bond.mode));
	assert_int_equal(run("bond.speed_mismatch"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 2 * 941.5, 2);	/* 2 x the 1G share */
	nd_strlcpy(facts.bond.mode, "active-backup", sizeof(facts.bond.mode));
	assert_int_equal(run("bond.speed_mismatch"), ND_SEV_INFO);
	facts.bond.members[1].speed_mbps = -1;
	assert_int_equal(run("bond.speed_mismatch"), ND_SEV_UNKNOWN);
}

static void test_hash_layer2(void **state)
{
	(void)state;
	nd_strlcpy(facts.bond.xmit_hash_policy, "layer2", sizeof(facts.bond.xmit_hash_policy));
	assert_int_equal(run("bond.hash_layer2"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_string_equal(finding.fix.commands[0],
			    "ip link set dev bond0 type bond xmit_hash_policy layer3+4");
	/* no policy line (old drivers): the default, layer2 */
	facts.bond.xmit_hash_policy[0] = '\0';
	nd_strlcpy(facts.bond.mode, "balance-xor", sizeof(facts.bond.mode));
	assert_int_equal(run("bond.hash_layer2"), ND_SEV_WARNING);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(finding.evidence, "policy_assumed")));
	nd_strlcpy(facts.bond.xmit_hash_policy, "layer2+3", sizeof(facts.bond.xmit_hash_policy));
	assert_int_equal(run("bond.hash_layer2"), ND_SEV_WARNING);
	nd_strlcpy(facts.bond.mode, "balance-rr", sizeof(facts.bond.mode));
	assert_int_equal(run("bond.hash_layer2"), ND_SEV_OK);
	facts.bond.mode[0] = '\0';
	assert_int_equal(run("bond.hash_layer2"), ND_SEV_UNKNOWN);
}

static void test_lacp_no_partner(void **state)
{
	(void)state;
	nd_strlcpy(facts.bond.ad_partner_mac, "00:00:00:00:00:00", 18);
	assert_int_equal(run("bond.lacp_no_partner"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_non_null(strstr(finding.fix.commands[0], "the switch side"));
	/* partner MAC hidden (not root), actor states defaulted */
	facts.bond.ad_info_known = false;
	facts.bond.members[0].actor_port_state = 69;
	assert_int_equal(run("bond.lacp_no_partner"), ND_SEV_WARNING);
	facts.bond.members[0].actor_port_state = facts.bond.members[1].actor_port_state = -1;
	assert_int_equal(run("bond.lacp_no_partner"), ND_SEV_UNKNOWN);
	facts.bond.ad_no_active_aggregator = true;
	assert_int_equal(run("bond.lacp_no_partner"), ND_SEV_CRITICAL);
	nd_strlcpy(facts.bond.mode, "balance-xor", sizeof(facts.bond.mode));
	assert_int_equal(run("bond.lacp_no_partner"), ND_SEV_OK);
}

static void test_aggregator_split(void **state)
{
	(void)state;
	facts.bond.members[1].aggregator_id = 2;
	assert_int_equal(run("bond.aggregator_split"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_non_null(strstr(finding.title, "ens1f1 in 2"));
	/* a down member in its own aggregator is member_down's, not a split */
	nd_strlcpy(facts.bond.members[1].mii_status, "down", 16);
	assert_int_equal(run("bond.aggregator_split"), ND_SEV_OK);
	nd_strlcpy(facts.bond.members[1].mii_status, "up", 16);
	facts.bond.members[1].aggregator_id = -1;
	assert_int_equal(run("bond.aggregator_split"), ND_SEV_UNKNOWN);
}

static void test_active_backup(void **state)
{
	(void)state;
	nd_strlcpy(facts.bond.mode, "active-backup", sizeof(facts.bond.mode));
	nd_strlcpy(facts.bond.active_slave, "ens1f1", sizeof(facts.bond.active_slave));
	assert_int_equal(run("bond.active_backup_capacity"), ND_SEV_INFO);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_non_null(strstr(finding.title, "ens1f1 carries everything"));
	facts.bond.members[1].speed_mbps = -1;
	assert_int_equal(run("bond.active_backup_capacity"), ND_SEV_INFO);
	assert_true(finding.ceiling_mbps < 0);
}

static void test_flows_on_one_member(void **state)
{
	(void)state;
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_UNKNOWN);	/* no run */
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(finding.evidence,
									 "reason")), "no traffic run"));
	window(9000000000ull, 100000000ull);
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_WARNING);
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_non_null(strstr(finding.title, "ens1f0 sent 99%"));
	window(1000, 2000);
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_UNKNOWN);	/* too little */
	nd_strlcpy(facts.bond.mode, "active-backup", sizeof(facts.bond.mode));
	window(9000000000ull, 0);
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_OK);	/* by design */
	assert_true(finding.not_applicable);	/* nothing to spread: not a pass */
}

/* The receive side: the link partner's hash, judged where it spreads. */
static void test_flows_receive_side(void **state)
{
	(void)state;
	window(2000000ull, 1000000ull);	/* 3 MB sent: too little to judge */
	facts.bond.members[0].window_rx_bytes = 200000000ull;
	facts.bond.members[1].window_rx_bytes = 8000000000ull;
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_WARNING);
	assert_string_equal(finding.title, "during the runs ens1f1 received 98% of the bond's "
			    "bytes: the switch (or the peer) hashed the flows onto one member of "
			    "2, which caps them at its 9415 Mbit/s");
	assert_float_equal(finding.ceiling_mbps, 9415, 1);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(finding.evidence,
								    "direction")), "receive");
	assert_non_null(strstr(finding.fix.commands[0], "src-dst-ip-port"));
	/* spread both ways: ok, with both shares */
	window(6000000000ull, 5000000000ull);
	facts.bond.members[0].window_rx_bytes = 4000000000ull;
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_OK);
	assert_string_equal(finding.title, "the runs spread over the members (ens1f0 sent 55%, "
			    "ens1f1 received 67%)");
	/* balance-tlb receives on one member by design: only the send side */
	nd_strlcpy(facts.bond.mode, "balance-tlb", sizeof(facts.bond.mode));
	facts.bond.members[0].window_rx_bytes = 0;
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_OK);
	assert_null(cJSON_GetObjectItem(finding.evidence, "rx_top_share"));
}

/* The send side's ceiling and fixes: a layer2+3 bond to one peer, packets
 * in the evidence, a team's tx_hash and a team whose runner is unknown. */
static void test_flows_send_fix_and_team(void **state)
{
	cJSON *m0;

	(void)state;
	nd_strlcpy(facts.bond.xmit_hash_policy, "layer2+3", sizeof(facts.bond.xmit_hash_policy));
	window(9000000000ull, 1000ull);
	facts.bond.members[0].window_packets_known = true;
	facts.bond.members[0].window_tx_packets = 6000000;
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_WARNING);
	assert_string_equal(finding.title, "during the runs ens1f0 sent 100% of the bond's bytes: "
			    "the flows hashed onto one member of 2, which caps them at its 9415 "
			    "Mbit/s");
	assert_string_equal(finding.fix.commands[0], "ip link set dev bond0 type bond "
			    "xmit_hash_policy layer3+4");
	m0 = cJSON_GetArrayItem(cJSON_GetObjectItem(finding.evidence, "members_tx_bytes"), 0);
	assert_int_equal((int)cJSON_GetNumberValue(cJSON_GetObjectItem(m0, "tx_packets")),
			 6000000);
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
		finding.evidence, "members_tx_bytes"), 1), "tx_packets"));
	/* a team: teamd's tx_hash is the fix, the runner in the evidence */
	facts.bond.is_team = true;
	nd_strlcpy(facts.bond.team_runner, "lacp", sizeof(facts.bond.team_runner));
	nd_strlcpy(facts.bond.team_tx_hash, "eth,ipv4,ipv6", sizeof(facts.bond.team_tx_hash));
	assert_int_equal(run("bond.flows_on_one_member"), ND_SEV_WARNING);
	assert_string_equal(finding.fix.commands[0], "nmcli connection modify bond0 "
			    "team.runner-tx-hash eth,ipv4,ipv6,tcp,udp");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(finding.evidence,
								    "team_runner")), "lacp");
	/* teamd's state absent: every check that needs the runner says why */
	facts.bond.mode[0] = '\0';
	nd_strlcpy(facts.bond.team_reason, "teamdctl is not installed: the runner lives in "
		   "teamd", sizeof(facts.bond.team_reason));
	for (size_t i = 1; i < ND_ARRAY_SIZE(ids); i++) {
		assert_int_equal(run(ids[i]), i == 1 ? ND_SEV_OK : ND_SEV_UNKNOWN);
		if (i > 1)
			assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
				finding.evidence, "reason")), facts.bond.team_reason);
	}
	assert_int_equal(run("bond.member_down"), ND_SEV_OK);	/* needs no runner */
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_healthy_and_not_a_bond), T(test_member_down),
		T(test_member_flapping_and_unknown), T(test_speed_mismatch), T(test_hash_layer2),
		T(test_lacp_no_partner), T(test_aggregator_split), T(test_active_backup),
		T(test_flows_on_one_member), T(test_flows_receive_side),
		T(test_flows_send_fix_and_team),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_parse_bonding.c - the /proc/net/bonding parser on the eight real
 * captures of insights-core's parser tests (tests/fixtures/raw/bonding-*),
 * and the rtnetlink IFLA_BOND_* / IFLA_BOND_SLAVE_* parser on RTM_NEWLINK
 * messages built here with libnl: this machine has no bonding driver, so
 * no kernel ever sent us one.
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

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "raw_fixture.h"

#include "nicdoctor/bond.h"

static struct nd_bond bond;

static void parse_raw(const char *name, int expect)
{
	char *t = raw(name);

	assert_int_equal(nd_parse_bonding(t, strlen(t), &bond), expect);
	free(t);
}

static void test_round_robin(void **state)
{
	(void)state;
	parse_raw("bonding-round-robin-2x1g.txt", 0);
	assert_true(bond.st.known);
	assert_true(bond.is_bond);
	assert_string_equal(bond.source, "/proc/net/bonding");
	assert_string_equal(bond.mode, "balance-rr");
	assert_string_equal(bond.xmit_hash_policy, "");
	assert_int_equal(bond.miimon_ms, 100);
	assert_int_equal(bond.arp_interval_ms, -1);
	assert_int_equal(bond.n_members, 2);
	assert_string_equal(bond.members[0].name, "eno1");
	assert_string_equal(bond.members[1].name, "eno2");
	assert_string_equal(bond.members[1].mii_status, "up");
	assert_int_equal(bond.members[1].speed_mbps, 1000);
	assert_int_equal(bond.members[1].duplex, 1);
	assert_int_equal(bond.members[1].link_failure_count, 0);
	assert_string_equal(bond.members[1].perm_hwaddr, "2c:44:fd:80:5c:f9");
	assert_int_equal(bond.members[1].queue_id, 0);
	assert_int_equal(bond.members[1].aggregator_id, -1);
	assert_false(bond.ad_info_known);
}

static void test_8023ad_old(void **state)
{
	(void)state;
	/* v3.2.4: indented aggregator block, a bare "Speed" line */
	parse_raw("bonding-8023ad-v324-no-partner-split.txt", 0);
	assert_string_equal(bond.mode, "802.3ad");
	assert_string_equal(bond.xmit_hash_policy, "layer2");
	assert_string_equal(bond.lacp_rate, "slow");
	assert_int_equal(bond.miimon_ms, 500);
	assert_true(bond.ad_info_known);
	assert_false(bond.ad_no_active_aggregator);
	assert_int_equal(bond.ad_aggregator_id, 3);
	assert_int_equal(bond.ad_num_ports, 1);
	assert_int_equal(bond.ad_actor_key, 17);
	assert_int_equal(bond.ad_partner_key, 1);
	assert_string_equal(bond.ad_partner_mac, "00:00:00:00:00:00");
	assert_int_equal(bond.n_members, 2);
	assert_int_equal(bond.members[0].aggregator_id, 3);
	assert_int_equal(bond.members[1].aggregator_id, 2);
	assert_int_equal(bond.members[1].speed_mbps, 1000);	/* the bare "Speed" left it */
	assert_int_equal(bond.members[1].actor_port_state, -1);
}

static void test_8023ad_new(void **state)
{
	(void)state;
	parse_raw("bonding-8023ad-v371-churn-member-down.txt", 0);
	assert_int_equal(bond.ad_aggregator_id, 1);
	assert_int_equal(bond.ad_actor_key, 9);
	assert_int_equal(bond.n_members, 2);
	assert_string_equal(bond.members[0].name, "enp0s9");
	assert_int_equal(bond.members[0].actor_port_state, 77);
	assert_int_equal(bond.members[0].partner_port_state, 1);
	assert_string_equal(bond.members[0].partner_system_mac, "00:00:00:00:00:00");
	assert_true(bond.members[0].churned);	/* partner churned */
	assert_string_equal(bond.members[1].mii_status, "down");
	assert_int_equal(bond.members[1].speed_mbps, -1);
	assert_int_equal(bond.members[1].duplex, -1);
	assert_int_equal(bond.members[1].aggregator_id, 2);
	assert_int_equal(bond.members[1].actor_port_state, 69);
	/* the master's "MII Status: up" is not a member's */
	assert_string_equal(bond.members[0].mii_status, "up");
}

static void test_xor_and_active_backup(void **state)
{
	(void)state;
	parse_raw("bonding-xor-layer2+3-2x1g.txt", 0);
	assert_string_equal(bond.mode, "balance-xor");
	assert_string_equal(bond.xmit_hash_policy, "layer2+3");
	parse_raw("bonding-active-backup-2x10g.txt", 0);
	assert_string_equal(bond.mode, "active-backup");
	assert_string_equal(bond.active_slave, "enp17s0f0");
	assert_int_equal(bond.members[1].speed_mbps, 10000);
	parse_raw("bonding-active-backup-arp-flapping.txt", 0);
	assert_string_equal(bond.active_slave, "em3");
	assert_int_equal(bond.miimon_ms, 0);
	assert_int_equal(bond.arp_interval_ms, 1000);
	assert_int_equal(bond.members[0].link_failure_count, 92028);
	assert_int_equal(bond.members[1].link_failure_count, 71524);
}

static void test_corrupt_and_unknown(void **state)
{
	(void)state;
	parse_raw("bonding-corrupt.txt", -EINVAL);
	assert_false(bond.st.known);
	assert_false(bond.is_bond);
	/* a mode this parser does not know: a bond, mode unknown */
	parse_raw("bonding-unknown-mode.txt", 0);
	assert_string_equal(bond.mode, "");
	assert_int_equal(bond.n_members, 0);
	assert_int_equal(nd_parse_bonding("", 0, &bond), -EINVAL);
}

static void test_constructed(void **state)
{
	static const char text[] =
		"Bonding Mode: IEEE 802.3ad Dynamic link aggregation\r\n"
		"\r\n"
		"802.3ad info\n"
		"bond0 has no active aggregator\n"
		"\n"
		"Slave Interface: eth0\n"
		"MII Status: going back\n"
		"Aggregator ID: N/A\n"
		"details actor lacp pdu:\n"
		"    port state: 999\n"
		"Slave Interface: eth1";	/* truncated, no newline */
	char many[64 * 40];
	size_t used = 0;

	(void)state;
	assert_int_equal(nd_parse_bonding(text, sizeof(text) - 1, &bond), 0);
	assert_true(bond.ad_no_active_aggregator);
	assert_true(bond.ad_info_known);
	assert_int_equal(bond.n_members, 2);
	assert_string_equal(bond.members[0].mii_status, "going back");
	assert_int_equal(bond.members[0].aggregator_id, -1);
	assert_int_equal(bond.members[0].actor_port_state, -1);
	assert_string_equal(bond.members[1].name, "eth1");
	/* more members than fit: the first ND_MAX_BOND_MEMBERS, the rest ignored */
	for (int i = 0; i < 40; i++)
		used += (size_t)snprintf(many + used, sizeof(many) - used,
					 "Slave Interface: e%d\nSpeed: %d Mbps\n", i, 1000 + i);
	assert_int_equal(nd_parse_bonding(many, used, &bond), 0);
	assert_int_equal(bond.n_members, ND_MAX_BOND_MEMBERS);
	assert_int_equal(bond.members[ND_MAX_BOND_MEMBERS - 1].speed_mbps,
			 1000 + ND_MAX_BOND_MEMBERS - 1);
}

/* ---- rtnetlink ---- */

static struct nl_msg *link_msg(int ifindex, const char *name)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_MULTI);
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };

	assert_non_null(msg);
	assert_int_equal(nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO), 0);
	assert_int_equal(nla_put_string(msg, IFLA_IFNAME, name), 0);
	return msg;
}

static struct nl_msg *master_msg(bool with_ad_info)
{
	static const unsigned char partner[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
	struct nl_msg *msg = link_msg(7, "bond0");
	struct nlattr *li, *data, *ad;

	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_KIND, "bond");
	data = nla_nest_start(msg, IFLA_INFO_DATA);
	nla_put_u8(msg, IFLA_BOND_MODE, 4);
	nla_put_u8(msg, IFLA_BOND_XMIT_HASH_POLICY, 1);
	nla_put_u32(msg, IFLA_BOND_MIIMON, 100);
	nla_put_u32(msg, IFLA_BOND_ACTIVE_SLAVE, 9);
	nla_put_u8(msg, IFLA_BOND_AD_LACP_RATE, 1);
	if (with_ad_info) {
		ad = nla_nest_start(msg, IFLA_BOND_AD_INFO);
		nla_put_u16(msg, IFLA_BOND_AD_INFO_AGGREGATOR, 2);
		nla_put_u16(msg, IFLA_BOND_AD_INFO_NUM_PORTS, 2);
		nla_put_u16(msg, IFLA_BOND_AD_INFO_ACTOR_KEY, 15);
		nla_put_u16(msg, IFLA_BOND_AD_INFO_PARTNER_KEY, 32);
		nla_put(msg, IFLA_BOND_AD_INFO_PARTNER_MAC, 6, partner);
		nla_nest_end(msg, ad);
	}
	nla_nest_end(msg, data);
	nla_nest_end(msg, li);
	return msg;
}

static struct nl_msg *slave_msg(int ifindex, const char *name, int master, const char *kind,
				uint8_t mii, uint16_t agg)
{
	static const unsigned char perm[6] = { 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01 };
	struct nl_msg *msg = link_msg(ifindex, name);
	struct nlattr *li, *data;

	nla_put_u32(msg, IFLA_MASTER, (uint32_t)master);
	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_SLAVE_KIND, kind);
	data = nla_nest_start(msg, IFLA_INFO_SLAVE_DATA);
	nla_put_u8(msg, IFLA_BOND_SLAVE_STATE, ifindex == 9 ? 0 : 1);
	nla_put_u8(msg, IFLA_BOND_SLAVE_MII_STATUS, mii);
	nla_put_u32(msg, IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, 3);
	nla_put(msg, IFLA_BOND_SLAVE_PERM_HWADDR, 6, perm);
	nla_put_u16(msg, IFLA_BOND_SLAVE_QUEUE_ID, 0);
	nla_put_u16(msg, IFLA_BOND_SLAVE_AD_AGGREGATOR_ID, agg);
	nla_put_u8(msg, IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE, 63);
	nla_put_u16(msg, IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE, 61);
	nla_nest_end(msg, data);
	nla_nest_end(msg, li);
	return msg;
}

static void feed(struct nd_bond_nl_ctx *ctx, struct nl_msg *msg, int expect)
{
	assert_int_equal(nd_bond_parse_rtnl_msg(nlmsg_hdr(msg), ctx), expect);
	nlmsg_free(msg);
}

static void test_netlink(void **state)
{
	struct nd_bond_nl_ctx ctx = { .bond = &bond, .bond_ifindex = 7 };

	(void)state;
	nd_bond_reset(&bond);
	feed(&ctx, link_msg(1, "lo"), 0);			/* no linkinfo: unrelated */
	feed(&ctx, slave_msg(5, "br0p", 3, "bridge", 0, 0), 0);	/* another master */
	feed(&ctx, slave_msg(6, "teamp", 7, "team", 0, 0), 0);	/* not a bond slave */
	feed(&ctx, master_msg(true), 0);
	feed(&ctx, slave_msg(9, "ens1f0", 7, "bond", 0, 2), 0);
	feed(&ctx, slave_msg(10, "ens1f1", 7, "bond", 2, 1), 0);
	nd_bond_nl_finish(&ctx);
	assert_true(bond.st.known);
	assert_true(bond.is_bond);
	assert_string_equal(bond.source, "netlink");
	assert_string_equal(bond.mode, "802.3ad");
	assert_string_equal(bond.xmit_hash_policy, "layer3+4");
	assert_int_equal(bond.miimon_ms, 100);
	assert_string_equal(bond.lacp_rate, "fast");
	assert_string_equal(bond.active_slave, "ens1f0");	/* ifindex 9 resolved */
	assert_true(bond.ad_info_known);
	assert_int_equal(bond.ad_aggregator_id, 2);
	assert_int_equal(bond.ad_num_ports, 2);
	assert_int_equal(bond.ad_actor_key, 15);
	assert_int_equal(bond.ad_partner_key, 32);
	assert_string_equal(bond.ad_partner_mac, "52:54:00:12:34:56");
	assert_int_equal(bond.n_members, 2);
	assert_string_equal(bond.members[0].name, "ens1f0");
	assert_string_equal(bond.members[0].state, "active");
	assert_string_equal(bond.members[0].mii_status, "up");
	assert_int_equal(bond.members[0].link_failure_count, 3);
	assert_string_equal(bond.members[0].perm_hwaddr, "00:1b:21:aa:bb:01");
	assert_int_equal(bond.members[0].aggregator_id, 2);
	assert_int_equal(bond.members[0].actor_port_state, 63);
	assert_int_equal(bond.members[0].partner_port_state, 61);
	assert_string_equal(bond.members[1].state, "backup");
	assert_string_equal(bond.members[1].mii_status, "down");
	assert_int_equal(bond.members[1].aggregator_id, 1);
	assert_int_equal(bond.members[1].speed_mbps, -1);	/* netlink has no speed */
}

static void test_netlink_no_aggregator(void **state)
{
	struct nd_bond_nl_ctx ctx = { .bond = &bond, .bond_ifindex = 7, .privileged = true };

	(void)state;
	nd_bond_reset(&bond);
	feed(&ctx, master_msg(false), 0);
	nd_bond_nl_finish(&ctx);
	assert_true(bond.ad_no_active_aggregator);
	/* unprivileged: the kernel hides AD_INFO, so nothing is known */
	ctx.privileged = false;
	nd_bond_reset(&bond);
	feed(&ctx, master_msg(false), 0);
	nd_bond_nl_finish(&ctx);
	assert_false(bond.ad_info_known);
	assert_false(bond.ad_no_active_aggregator);
}

/* A team master: the team driver gives no IFLA_INFO_DATA, its ports only
 * IFLA_INFO_SLAVE_KIND "team"; the dump may list ports before the master. */
static struct nl_msg *team_port_msg(int ifindex, const char *name, int master, const char *kind,
				    uint8_t operstate)
{
	struct nl_msg *msg = link_msg(ifindex, name);
	struct nlattr *li;

	nla_put_u32(msg, IFLA_MASTER, (uint32_t)master);
	nla_put_u8(msg, IFLA_OPERSTATE, operstate);
	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_SLAVE_KIND, kind);
	nla_nest_end(msg, li);
	return msg;
}

static void test_netlink_team(void **state)
{
	struct nd_bond_nl_ctx ctx = { .bond = &bond, .bond_ifindex = 7 };
	struct nl_msg *msg;
	struct nlattr *li;

	(void)state;
	nd_bond_reset(&bond);
	feed(&ctx, team_port_msg(3, "ens1f0", 7, "team", IF_OPER_UP), 0);	/* before */
	msg = link_msg(7, "team0");
	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_KIND, "team");
	nla_nest_end(msg, li);
	feed(&ctx, msg, 0);
	feed(&ctx, team_port_msg(4, "ens1f1", 7, "team", IF_OPER_DOWN), 0);
	feed(&ctx, team_port_msg(5, "br0p", 9, "team", IF_OPER_UP), 0);	/* another team */
	nd_bond_nl_finish(&ctx);
	assert_true(bond.st.known);
	assert_true(bond.is_bond);
	assert_true(bond.is_team);
	assert_string_equal(bond.mode, "");	/* teamd says, not the kernel */
	assert_int_equal(bond.n_members, 2);
	assert_string_equal(bond.members[0].name, "ens1f0");
	assert_string_equal(bond.members[0].mii_status, "up");
	assert_string_equal(bond.members[1].name, "ens1f1");
	assert_string_equal(bond.members[1].mii_status, "down");
}

static void test_netlink_not_a_bond(void **state)
{
	struct nd_bond_nl_ctx ctx = { .bond = &bond, .bond_ifindex = 1 };
	struct nl_msg *msg = link_msg(1, "eth0"), *bad;
	struct nlattr *li;

	(void)state;
	nd_bond_reset(&bond);
	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_KIND, "veth");
	nla_nest_end(msg, li);
	feed(&ctx, msg, 0);
	nd_bond_nl_finish(&ctx);
	assert_false(bond.st.known);
	assert_false(bond.is_bond);
	assert_string_equal(bond.st.reason, "not a bond");
	/* a message of another type, and a short MODE attribute, are refused */
	bad = nlmsg_alloc_simple(RTM_NEWADDR, 0);
	feed(&ctx, bad, -EINVAL);
	msg = link_msg(1, "bond0");
	li = nla_nest_start(msg, IFLA_LINKINFO);
	nla_put_string(msg, IFLA_INFO_KIND, "bond");
	{
		struct nlattr *data = nla_nest_start(msg, IFLA_INFO_DATA);

		nla_put(msg, IFLA_BOND_MIIMON, 1, "x");	/* u32 policy, 1 byte */
		nla_nest_end(msg, data);
	}
	nla_nest_end(msg, li);
	nd_bond_reset(&bond);
	feed(&ctx, msg, -EINVAL);
	assert_false(bond.is_bond);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_8023ad_old),
		cmocka_unit_test(test_8023ad_new),
		cmocka_unit_test(test_xor_and_active_backup),
		cmocka_unit_test(test_corrupt_and_unknown),
		cmocka_unit_test(test_constructed),
		cmocka_unit_test(test_netlink),
		cmocka_unit_test(test_netlink_no_aggregator),
		cmocka_unit_test(test_netlink_team),
		cmocka_unit_test(test_netlink_not_a_bond),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

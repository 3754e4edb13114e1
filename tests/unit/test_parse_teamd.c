/*
 * test_parse_teamd.c - teamd's JSON (src/parse/teamd.c): `teamdctl state
 * dump` in the newer and the older LACP layout (libteam's
 * teamd_runner_lacp.c: per port "aggregator" {id, selected} or
 * "aggregator_id" + "selected" with a team-wide "selected_aggregator_id"),
 * insights-core's real activebackup capture, `config dump` with and without
 * tx_hash, the runner and tx_hash mapping, and JSON that is not teamd's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/team.h"

static struct nd_bond bond;

#define PARSE_STATE(text) nd_parse_teamd_state((text), sizeof(text) - 1, &bond)
#define PARSE_CONFIG(text) nd_parse_teamd_config((text), sizeof(text) - 1, &bond)

/* newer teamd: aggregator {id, selected}, no selected_aggregator_id */
static const char lacp_new[] =
	"{\"ports\": {"
	" \"ens1f0\": {\"ifinfo\": {\"dev_addr\": \"52:54:00:00:00:11\", \"ifname\": \"ens1f0\"},"
	"  \"link\": {\"duplex\": \"full\", \"speed\": 25000, \"up\": true},"
	"  \"link_watches\": {\"list\": {\"link_watch_0\": {\"down_count\": 2, \"up\": true},"
	"   \"link_watch_1\": {\"down_count\": 1, \"up\": true}}, \"up\": true},"
	"  \"runner\": {\"actor_lacpdu_info\": {\"state\": 61, \"system\": \"52:54:00:00:00:11\"},"
	"   \"aggregator\": {\"id\": 3, \"selected\": true},"
	"   \"partner_lacpdu_info\": {\"state\": 63, \"system\": \"00:1c:73:aa:bb:cc\"},"
	"   \"selected\": true, \"state\": \"current\"}},"
	" \"ens1f1\": {\"link\": {\"duplex\": \"full\", \"speed\": 25000, \"up\": true},"
	"  \"link_watches\": {\"list\": {}, \"up\": false},"
	"  \"runner\": {\"actor_lacpdu_info\": {\"state\": 69},"
	"   \"aggregator\": {\"id\": 4, \"selected\": false},"
	"   \"partner_lacpdu_info\": {\"state\": 0, \"system\": \"00:00:00:00:00:00\"},"
	"   \"selected\": false, \"state\": \"defaulted\"}}},"
	" \"runner\": {\"active\": true, \"fast_rate\": false, \"sys_prio\": 65535},"
	" \"setup\": {\"kernel_team_mode_name\": \"loadbalance\", \"runner_name\": \"lacp\"}}";

/* older teamd: aggregator_id per port, selected_aggregator_id */
static const char lacp_old[] =
	"{\"ports\": {\"eth1\": {\"link\": {\"up\": true, \"speed\": 1000},"
	"  \"runner\": {\"aggregator_id\": 5, \"selected\": true,"
	"   \"actor_lacpdu_info\": {\"state\": 61},"
	"   \"partner_lacpdu_info\": {\"state\": 61, \"system\": \"00:1c:73:00:00:01\"}}}},"
	" \"runner\": {\"selected_aggregator_id\": 5, \"active\": true, \"sys_prio\": 255,"
	"  \"fast_rate\": true},"
	" \"setup\": {\"runner_name\": \"lacp\"}}";

/* RedHatInsights/insights-core insights/tests/parsers/test_teamdctl_state_dump.py */
static const char insights_ab[] =
	"{\n    \"runner\": {\n        \"active_port\": \"eno1\"\n    },\n    \"setup\": {\n"
	"        \"daemonized\": false,\n        \"dbus_enabled\": true,\n"
	"        \"debug_level\": 0,\n        \"kernel_team_mode_name\": \"activebackup\",\n"
	"        \"pid\": 4464,\n        \"pid_file\": \"/var/run/teamd/team0.pid\",\n"
	"        \"runner_name\": \"activebackup\",\n        \"zmq_enabled\": false\n    },\n"
	"    \"team_device\": {\n        \"ifinfo\": {\n"
	"            \"dev_addr\": \"2c:59:e5:47:a9:04\",\n            \"dev_addr_len\": 6,\n"
	"            \"ifindex\": 5,\n            \"ifname\": \"team0\"\n        }\n    }\n}";

static void test_lacp_new(void **state)
{
	(void)state;
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_STATE(lacp_new), 0);
	assert_true(bond.is_team);
	assert_string_equal(bond.team_runner, "lacp");
	assert_string_equal(bond.lacp_rate, "slow");
	assert_int_equal(bond.n_members, 2);
	assert_string_equal(bond.members[0].name, "ens1f0");
	assert_string_equal(bond.members[0].mii_status, "up");
	assert_int_equal(bond.members[0].speed_mbps, 25000);
	assert_int_equal(bond.members[0].duplex, 1);
	assert_int_equal(bond.members[0].link_failure_count, 3);	/* 2 + 1 watches */
	assert_int_equal(bond.members[0].aggregator_id, 3);
	assert_string_equal(bond.members[0].state, "active");
	assert_int_equal(bond.members[0].actor_port_state, 61);
	assert_int_equal(bond.members[0].partner_port_state, 63);
	assert_string_equal(bond.members[0].partner_system_mac, "00:1c:73:aa:bb:cc");
	/* link up, but its link watches down: teamd does not use it */
	assert_string_equal(bond.members[1].mii_status, "down");
	assert_int_equal(bond.members[1].link_failure_count, -1);
	assert_string_equal(bond.members[1].state, "backup");
	assert_int_equal(bond.members[1].actor_port_state, 69);
	/* the selected port's aggregator is the active one */
	assert_true(bond.ad_info_known);
	assert_false(bond.ad_no_active_aggregator);
	assert_int_equal(bond.ad_aggregator_id, 3);
	assert_int_equal(bond.ad_num_ports, 1);
	assert_string_equal(bond.ad_partner_mac, "00:1c:73:aa:bb:cc");
	nd_team_map(&bond);
	assert_string_equal(bond.mode, "802.3ad");
	assert_string_equal(bond.xmit_hash_policy, "");	/* no config: unknown */
}

static void test_lacp_old_and_activebackup(void **state)
{
	(void)state;
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_STATE(lacp_old), 0);
	assert_int_equal(bond.ad_aggregator_id, 5);
	assert_int_equal(bond.members[0].aggregator_id, 5);
	assert_string_equal(bond.members[0].state, "active");
	assert_string_equal(bond.ad_partner_mac, "00:1c:73:00:00:01");
	assert_string_equal(bond.lacp_rate, "fast");
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_STATE(insights_ab), 0);
	assert_string_equal(bond.team_runner, "activebackup");
	assert_string_equal(bond.active_slave, "eno1");
	assert_int_equal(bond.n_members, 0);	/* this capture lists no ports */
	assert_false(bond.ad_info_known);
	nd_team_map(&bond);
	assert_string_equal(bond.mode, "active-backup");
}

static void test_config(void **state)
{
	static const char with_hash[] =
		"{\"device\": \"team0\", \"runner\": {\"name\": \"loadbalance\","
		" \"tx_hash\": [\"eth\", \"ipv4\", \"ipv6\", \"l4\"]},"
		" \"ports\": {\"eth1\": {}, \"eth2\": {}}}";
	static const char no_hash[] = "{\"runner\": {\"name\": \"lacp\"}, \"ports\": {}}";
	static const char empty_hash[] = "{\"runner\": {\"name\": \"lacp\", \"tx_hash\": []}}";

	(void)state;
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_CONFIG(with_hash), 0);
	assert_string_equal(bond.team_runner, "loadbalance");
	assert_string_equal(bond.team_tx_hash, "eth,ipv4,ipv6,l4");
	assert_false(bond.team_tx_hash_default);
	assert_int_equal(bond.n_members, 2);	/* the config's ports, none before */
	assert_string_equal(bond.members[1].name, "eth2");
	assert_string_equal(bond.members[1].mii_status, "");
	nd_team_map(&bond);
	assert_string_equal(bond.mode, "balance-xor");
	assert_string_equal(bond.xmit_hash_policy, "layer3+4");
	/* teamd's default tx_hash when the config names none */
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_CONFIG(no_hash), 0);
	assert_true(bond.team_tx_hash_default);
	assert_string_equal(bond.team_tx_hash, "eth,ipv4,ipv6");
	nd_team_map(&bond);
	assert_string_equal(bond.xmit_hash_policy, "layer2+3");
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_CONFIG(empty_hash), 0);
	assert_string_equal(bond.team_tx_hash, "(none)");
	nd_team_map(&bond);
	assert_string_equal(bond.xmit_hash_policy, "layer2");
	/* the state's runner wins over the config's, the state's ports stay */
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_STATE(lacp_old), 0);
	assert_int_equal(PARSE_CONFIG(with_hash), 0);
	assert_string_equal(bond.team_runner, "lacp");
	assert_int_equal(bond.n_members, 1);
}

static void test_mapping(void **state)
{
	(void)state;
	assert_string_equal(nd_team_runner_mode("roundrobin"), "balance-rr");
	assert_string_equal(nd_team_runner_mode("random"), "balance-rr");
	assert_string_equal(nd_team_runner_mode("broadcast"), "broadcast");
	assert_null(nd_team_runner_mode("dummy"));
	assert_null(nd_team_runner_mode(NULL));
	assert_string_equal(nd_team_tx_hash_policy("eth"), "layer2");
	assert_string_equal(nd_team_tx_hash_policy("vlan"), "layer2");
	assert_string_equal(nd_team_tx_hash_policy("l3"), "layer2+3");
	assert_string_equal(nd_team_tx_hash_policy("eth,tcp"), "layer3+4");
	assert_string_equal(nd_team_tx_hash_policy("ip,sctp"), "layer3+4");
	/* roundrobin has no hash: no policy shown even with a tx_hash */
	nd_bond_reset(&bond);
	strcpy(bond.team_runner, "roundrobin");
	strcpy(bond.team_tx_hash, "eth,ipv4,ipv6");
	nd_team_map(&bond);
	assert_string_equal(bond.mode, "balance-rr");
	assert_string_equal(bond.xmit_hash_policy, "");
	strcpy(bond.team_runner, "dummy");
	nd_team_map(&bond);
	assert_string_equal(bond.mode, "");
	assert_string_equal(bond.team_reason, "teamd runner 'dummy' is one this version does "
			    "not know");
}

static void test_not_teamd(void **state)
{
	static const char *const bad[] = {
		"", "[]", "{}", "{\"ports\": [1, 2]}", "not json", "{\"setup\": 1}",
		"{\"runner\": {\"name\": \"lacp\"}",	/* truncated */
	};
	static const char odd[] =
		"{\"setup\": {\"runner_name\": 7}, \"ports\": {\"a/b\": {}, \"ok0\": "
		"{\"link\": {\"speed\": -5, \"up\": \"yes\"}, \"runner\": {\"aggregator_id\": 1e30}}}}";

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		nd_bond_reset(&bond);
		bond.n_members = 3;
		assert_int_equal(nd_parse_teamd_state(bad[i], strlen(bad[i]), &bond), -EINVAL);
		assert_int_equal(bond.n_members, 3);	/* untouched */
		assert_false(bond.is_team);
	}
	assert_int_equal(nd_parse_teamd_config("{\"ports\": {}}", 13, &bond), -EINVAL);
	/* wrong types are unknown, a port name that is no interface name skipped */
	nd_bond_reset(&bond);
	assert_int_equal(PARSE_STATE(odd), 0);
	assert_string_equal(bond.team_runner, "");
	assert_int_equal(bond.n_members, 1);
	assert_string_equal(bond.members[0].name, "ok0");
	assert_int_equal(bond.members[0].speed_mbps, -1);
	assert_string_equal(bond.members[0].mii_status, "");
	assert_int_equal(bond.members[0].aggregator_id, -1);
	/* a length that cuts the JSON short is not read past */
	assert_int_equal(nd_parse_teamd_state(lacp_old, 20, &bond), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lacp_new),
		cmocka_unit_test(test_lacp_old_and_activebackup),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_not_teamd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

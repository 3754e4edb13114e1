/*
 * teamd.c - the JSON teamd prints for `teamdctl TEAM state dump` and
 * `config dump` (team.h).  Layout from libteam's teamd_state.c,
 * teamd_per_port.c, teamd_link_watch.c and the runners'
 * state_json_ops: "setup" {runner_name, ...}, "runner" {active_port |
 * selected_aggregator_id, fast_rate, ...}, "ports" {IF: {ifinfo, link
 * {up, speed, duplex}, link_watches {up, list {link_watch_N {down_count,
 * ...}}}, runner {aggregator {id, selected} (older teamd: aggregator_id,
 * selected), state, actor_lacpdu_info, partner_lacpdu_info}}}.  Pure.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/team.h"

/* teamd's default when a config names no tx_hash (teamd_hash_func.c
 * teamd_hash_default_frags) */
#define TEAMD_DEFAULT_TX_HASH "eth,ipv4,ipv6"

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static void copy_string(const cJSON *item, char *dst, size_t size)
{
	if (cJSON_IsString(item) && item->valuestring)
		nd_strlcpy(dst, item->valuestring, size);
}

/* A JSON integer in [lo, hi], else fallback. */
static int64_t get_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi,
		       int64_t fallback)
{
	const cJSON *item = get(obj, key);

	if (!cJSON_IsNumber(item) || item->valuedouble < (double)lo ||
	    item->valuedouble > (double)hi || item->valuedouble != (double)(int64_t)item->valuedouble)
		return fallback;
	return (int64_t)item->valuedouble;
}

static void lacpdu_info(const cJSON *info, int *ret_state, char *ret_system, size_t size)
{
	if (!cJSON_IsObject(info))
		return;
	*ret_state = (int)get_int(info, "state", 0, 255, -1);
	if (ret_system)
		copy_string(get(info, "system"), ret_system, size);
}

/* The port's LACP runner state: aggregator, port states, partner. */
static void port_lacp(const cJSON *runner, struct nd_bond_member *m)
{
	const cJSON *agg = get(runner, "aggregator");

	m->aggregator_id = (int)(cJSON_IsObject(agg) ? get_int(agg, "id", 0, INT32_MAX, -1)
						     : get_int(runner, "aggregator_id", 0,
							       INT32_MAX, -1));
	lacpdu_info(get(runner, "actor_lacpdu_info"), &m->actor_port_state, NULL, 0);
	lacpdu_info(get(runner, "partner_lacpdu_info"), &m->partner_port_state,
		    m->partner_system_mac, sizeof(m->partner_system_mac));
}

/* Link failures: what the port's link watches counted down since teamd
 * started (the bond's Link Failure Count). */
static int64_t down_count(const cJSON *watches)
{
	const cJSON *list = get(watches, "list"), *lw;
	int64_t sum = -1;

	cJSON_ArrayForEach(lw, list) {
		int64_t n = get_int(lw, "down_count", 0, INT32_MAX, -1);

		if (n >= 0)
			sum = (sum < 0 ? 0 : sum) + n;
	}
	return sum;
}

static void parse_port(const cJSON *port, struct nd_bond_member *m)
{
	const cJSON *link = get(port, "link"), *watches = get(port, "link_watches");
	const cJSON *up = get(watches, "up"), *duplex = get(link, "duplex");
	int64_t speed = get_int(link, "speed", 0, INT32_MAX, -1);

	/* teamd uses a port when its link watches say up, which an ARP or
	 * NS/NA watch can deny with the carrier up */
	if (!cJSON_IsBool(up))
		up = get(link, "up");
	if (cJSON_IsBool(up))
		nd_strlcpy(m->mii_status, cJSON_IsTrue(up) ? "up" : "down", sizeof(m->mii_status));
	m->speed_mbps = speed > 0 ? speed : -1;
	if (cJSON_IsString(duplex) && duplex->valuestring)
		m->duplex = !strcmp(duplex->valuestring, "full")   ? 1
			    : !strcmp(duplex->valuestring, "half") ? 0
								   : -1;
	m->link_failure_count = down_count(watches);
	copy_string(get(get(port, "ifinfo"), "dev_addr"), m->perm_hwaddr, sizeof(m->perm_hwaddr));
	if (cJSON_IsObject(get(port, "runner")))
		port_lacp(get(port, "runner"), m);
}

/* The team's runner state and the aggregator's partner. */
static void parse_runner(const cJSON *runner, struct nd_bond *b)
{
	const cJSON *fast = get(runner, "fast_rate");
	int64_t agg = get_int(runner, "selected_aggregator_id", 0, INT32_MAX, -1);

	copy_string(get(runner, "active_port"), b->active_slave, sizeof(b->active_slave));
	if (cJSON_IsBool(fast))
		nd_strlcpy(b->lacp_rate, cJSON_IsTrue(fast) ? "fast" : "slow", sizeof(b->lacp_rate));
	if (strcmp(b->team_runner, "lacp"))
		return;
	/* newer teamd names no selected aggregator: the ports' selected flag */
	for (unsigned i = 0; agg < 0 && i < b->n_members; i++)
		if (b->members[i].aggregator_id > 0 && !strcmp(b->members[i].state, "active"))
			agg = b->members[i].aggregator_id;
	b->ad_info_known = agg >= 0;
	b->ad_no_active_aggregator = agg == 0;
	b->ad_aggregator_id = agg > 0 ? (int)agg : -1;
	b->ad_num_ports = 0;
	for (unsigned i = 0; agg > 0 && i < b->n_members; i++)
		if (b->members[i].aggregator_id == agg) {
			b->ad_num_ports++;
			if (!b->ad_partner_mac[0])
				nd_strlcpy(b->ad_partner_mac, b->members[i].partner_system_mac,
					   sizeof(b->ad_partner_mac));
		}
}

/* A port's state as the bond's: the active port and the rest, or the
 * LACP ports teamd selected for its aggregator (active) and the rest. */
static void port_state(const cJSON *port, struct nd_bond *b, struct nd_bond_member *m)
{
	const cJSON *runner = get(port, "runner"), *agg = get(runner, "aggregator");
	const cJSON *sel = cJSON_IsObject(agg) ? get(agg, "selected") : get(runner, "selected");

	if (b->active_slave[0])
		nd_strlcpy(m->state, strcmp(m->name, b->active_slave) ? "backup" : "active",
			   sizeof(m->state));
	else if (cJSON_IsBool(sel))	/* as the bond's 802.3ad members */
		nd_strlcpy(m->state, cJSON_IsTrue(sel) ? "active" : "backup", sizeof(m->state));
}

int nd_parse_teamd_state(const char *text, size_t len, struct nd_bond *out)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *setup, *ports, *port, *runner;

	setup = get(root, "setup");
	ports = get(root, "ports");
	if (!cJSON_IsObject(root) || (!cJSON_IsObject(setup) && !cJSON_IsObject(ports))) {
		cJSON_Delete(root);
		return -EINVAL;
	}
	out->is_team = true;
	copy_string(get(setup, "runner_name"), out->team_runner, sizeof(out->team_runner));
	runner = get(root, "runner");
	copy_string(get(runner, "active_port"), out->active_slave, sizeof(out->active_slave));
	out->n_members = 0;
	cJSON_ArrayForEach(port, ports) {
		struct nd_bond_member *m;

		if (out->n_members >= ND_MAX_BOND_MEMBERS || !port->string ||
		    nd_ifname_valid(port->string) < 0)
			continue;
		m = &out->members[out->n_members++];
		nd_bond_member_reset(m);
		nd_strlcpy(m->name, port->string, sizeof(m->name));
		parse_port(port, m);
		port_state(port, out, m);
	}
	parse_runner(runner, out);
	cJSON_Delete(root);
	return 0;
}

/* Without teamd's state the config's "ports" names the ports. */
static void config_ports(const cJSON *ports, struct nd_bond *out)
{
	const cJSON *port;

	if (out->n_members || !cJSON_IsObject(ports))
		return;
	cJSON_ArrayForEach(port, ports) {
		if (out->n_members >= ND_MAX_BOND_MEMBERS || !port->string ||
		    nd_ifname_valid(port->string) < 0)
			continue;
		nd_bond_member_reset(&out->members[out->n_members]);
		nd_strlcpy(out->members[out->n_members++].name, port->string,
			   sizeof(out->members[0].name));
	}
}

int nd_parse_teamd_config(const char *text, size_t len, struct nd_bond *out)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *runner = get(root, "runner"), *hash = get(runner, "tx_hash"), *frag;
	size_t used = 0;

	if (!cJSON_IsObject(root) || !cJSON_IsObject(runner)) {
		cJSON_Delete(root);
		return -EINVAL;
	}
	out->is_team = true;
	if (!out->team_runner[0])
		copy_string(get(runner, "name"), out->team_runner, sizeof(out->team_runner));
	out->team_tx_hash[0] = '\0';
	out->team_tx_hash_default = !cJSON_IsArray(hash);
	if (out->team_tx_hash_default)
		nd_strlcpy(out->team_tx_hash, TEAMD_DEFAULT_TX_HASH, sizeof(out->team_tx_hash));
	if (!cJSON_IsArray(hash))
		hash = NULL;
	cJSON_ArrayForEach(frag, hash) {
		if (!cJSON_IsString(frag) || !frag->valuestring || used >= sizeof(out->team_tx_hash))
			continue;
		used += (size_t)snprintf(out->team_tx_hash + used, sizeof(out->team_tx_hash) - used,
					 "%s%s", used ? "," : "", frag->valuestring);
	}
	if (hash && !used)	/* "tx_hash": []: every packet hashes alike */
		nd_strlcpy(out->team_tx_hash, "(none)", sizeof(out->team_tx_hash));
	config_ports(get(root, "ports"), out);
	cJSON_Delete(root);
	return 0;
}

const char *nd_team_runner_mode(const char *runner)
{
	static const char *const map[][2] = {
		{ "roundrobin", "balance-rr" }, { "random", "balance-rr" },
		{ "activebackup", "active-backup" }, { "loadbalance", "balance-xor" },
		{ "lacp", "802.3ad" }, { "broadcast", "broadcast" },
	};

	for (size_t i = 0; runner && i < ND_ARRAY_SIZE(map); i++)
		if (!strcmp(runner, map[i][0]))
			return map[i][1];
	return NULL;
}

static bool has_frag(const char *list, const char *const *frags, size_t n)
{
	char copy[64], *save = NULL;

	nd_strlcpy(copy, list, sizeof(copy));
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < n; i++)
			if (!strcmp(tok, frags[i]))
				return true;
	return false;
}

const char *nd_team_tx_hash_policy(const char *tx_hash)
{
	static const char *const l4[] = { "tcp", "udp", "sctp", "l4" };
	static const char *const l3[] = { "ipv4", "ipv6", "ip", "l3" };

	if (has_frag(tx_hash, l4, ND_ARRAY_SIZE(l4)))
		return "layer3+4";
	if (has_frag(tx_hash, l3, ND_ARRAY_SIZE(l3)))
		return "layer2+3";
	return "layer2";
}

void nd_team_map(struct nd_bond *b)
{
	const char *mode = nd_team_runner_mode(b->team_runner);

	b->mode[0] = b->xmit_hash_policy[0] = '\0';
	if (mode)
		nd_strlcpy(b->mode, mode, sizeof(b->mode));
	else if (b->team_runner[0])
		snprintf(b->team_reason, sizeof(b->team_reason), "teamd runner '%s' is one this "
			 "version does not know", b->team_runner);
	if (b->team_tx_hash[0] && (!strcmp(b->mode, "balance-xor") || !strcmp(b->mode, "802.3ad")))
		nd_strlcpy(b->xmit_hash_policy, nd_team_tx_hash_policy(b->team_tx_hash),
			   sizeof(b->xmit_hash_policy));
}

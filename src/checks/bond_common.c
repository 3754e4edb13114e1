/*
 * bond_common.c - shared readers for the bond checks (bond_common.h).
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "bond_common.h"
#include "nic_common.h"

bool nd_bond_check_begin(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;

	if (!b->is_bond && !b->st.known) {
		/* the probe found no bond: a fact, not a gap */
		nd_finding_not_applicable(f, "not a bond");
		return false;
	}
	if (!b->st.known) {
		nd_finding_unknown(f, "bonding state (netlink, /proc/net/bonding)", b->st.reason);
		return false;
	}
	cJSON_AddStringToObject(f->evidence, "mode", b->mode[0] ? b->mode : "(unknown)");
	cJSON_AddStringToObject(f->evidence, "source", b->source);
	if (b->is_team) {
		cJSON_AddStringToObject(f->evidence, "team_runner",
					b->team_runner[0] ? b->team_runner : "(unknown)");
		if (b->team_tx_hash[0])
			cJSON_AddStringToObject(f->evidence, "team_tx_hash", b->team_tx_hash);
		cJSON_AddBoolToObject(f->evidence, "team_tx_hash_default", b->team_tx_hash_default);
	}
	return true;
}

bool nd_bond_runner_known(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;

	if (!b->is_team || b->mode[0])
		return true;
	nd_finding_unknown(f, "the team's runner (teamdctl state dump)",
			   b->team_reason[0] ? b->team_reason : "teamd's state was not read");
	return false;
}

const char *nd_bond_mode_label(const struct nd_bond *b, char *buf, size_t size)
{
	if (b->is_team && b->team_runner[0])
		snprintf(buf, size, "runner %s", b->team_runner);
	else
		snprintf(buf, size, "mode %s", b->mode[0] ? b->mode : "(unknown)");
	return buf;
}

bool nd_bond_member_up(const struct nd_bond_member *m)
{
	return !strcmp(m->mii_status, "up");
}

double nd_bond_member_goodput_mbps(const struct nd_facts *facts, const struct nd_bond_member *m)
{
	bool assumed;

	if (m->speed_mbps <= 0)
		return -1;
	return nd_ceiling_wire_mbps((double)m->speed_mbps, nd_port_mtu(facts, &assumed),
				    ND_L4_TCP);
}

double nd_bond_up_goodput_mbps(const struct nd_facts *facts, int agg_id, unsigned *ret_up)
{
	const struct nd_bond *b = &facts->bond;
	double sum = 0;
	unsigned up = 0;
	bool unknown = false;

	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];
		double g;

		if (!nd_bond_member_up(m) || (agg_id >= 0 && m->aggregator_id != agg_id))
			continue;
		up++;
		g = nd_bond_member_goodput_mbps(facts, m);
		if (g < 0)
			unknown = true;
		sum += g;
	}
	*ret_up = up;
	return unknown ? -1 : sum;
}

double nd_bond_flow_ceiling_mbps(const struct nd_facts *facts)
{
	const struct nd_bond *b = &facts->bond;
	double lowest = -1;

	for (unsigned i = 0; i < b->n_members; i++) {
		double g;

		if (!nd_bond_member_up(&b->members[i]))
			continue;
		g = nd_bond_member_goodput_mbps(facts, &b->members[i]);
		if (g < 0)
			return -1;
		if (lowest < 0 || g < lowest)
			lowest = g;
	}
	return lowest;
}

bool nd_bond_mode_hashes(const char *mode)
{
	return !strcmp(mode, "balance-xor") || !strcmp(mode, "802.3ad");
}

void nd_bond_members_evidence(const struct nd_bond *bond, cJSON *evidence)
{
	cJSON *arr = cJSON_AddArrayToObject(evidence, "members");

	for (unsigned i = 0; arr && i < bond->n_members; i++) {
		const struct nd_bond_member *m = &bond->members[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			return;
		cJSON_AddStringToObject(o, "name", m->name);
		cJSON_AddStringToObject(o, "mii_status", m->mii_status[0] ? m->mii_status
									  : "(unknown)");
		if (m->speed_mbps > 0)
			cJSON_AddNumberToObject(o, "speed_mbps", (double)m->speed_mbps);
		else
			cJSON_AddNullToObject(o, "speed_mbps");
		if (m->link_failure_count >= 0)
			cJSON_AddNumberToObject(o, "link_failure_count",
						(double)m->link_failure_count);
		if (m->aggregator_id >= 0)
			cJSON_AddNumberToObject(o, "aggregator_id", m->aggregator_id);
		if (m->state[0])
			cJSON_AddStringToObject(o, "state", m->state);
		cJSON_AddItemToArray(arr, o);
	}
}

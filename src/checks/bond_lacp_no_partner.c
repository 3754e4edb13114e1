/*
 * bond_lacp_no_partner.c - an 802.3ad bond whose members hear no LACP
 * partner: the active aggregator's partner MAC is all zero, the partner's
 * port state is the default (0x40 "defaulted" in the actor's state), or
 * there is no active aggregator at all.  The switch side is not an LACP
 * port-channel, and the bond carries at most one member, or nothing.
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

#define LACP_STATE_DEFAULTED 0x40

static bool zero_mac(const char *mac)
{
	return !strcmp(mac, "00:00:00:00:00:00");
}

/* Members up whose actor state says the partner info is defaulted. */
static unsigned defaulted_members(const struct nd_bond *b, unsigned *ret_known)
{
	unsigned n = 0, known = 0;

	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];

		if (!nd_bond_member_up(m) || m->actor_port_state < 0)
			continue;
		known++;
		n += (m->actor_port_state & LACP_STATE_DEFAULTED) != 0;
	}
	*ret_known = known;
	return n;
}

static void switch_fix(const struct nd_facts *facts, struct nd_finding *f)
{
	nd_finding_fix(f, "bond_lacp", "# the switch side: put the member ports in one LACP "
		       "port-channel (802.3ad, mode active), same speed, same VLANs");
	if (facts->bond.is_team)
		nd_finding_fix(f, "bond_lacp", "teamdctl %s state view", facts->ifname);
	else
		nd_finding_fix(f, "bond_lacp", "grep -A6 'Active Aggregator' /proc/net/bonding/%s",
			       facts->ifname);
}

void nd_check_bond_lacp_no_partner(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	unsigned known, defaulted;
	double one;
	char label[32];

	if (!nd_bond_check_begin(facts, f) || !nd_bond_runner_known(facts, f))
		return;
	if (strcmp(b->mode, "802.3ad")) {
		nd_finding_not_applicable(f, "%s does not use LACP",
					  nd_bond_mode_label(b, label, sizeof(label)));
		return;
	}
	defaulted = defaulted_members(b, &known);
	if (b->ad_no_active_aggregator) {
		nd_finding_set(f, ND_SEV_CRITICAL, "802.3ad bond without an active aggregator: "
			       "no member is collecting and distributing");
		return switch_fix(facts, f);
	}
	if (!b->ad_info_known && !known)
		return nd_finding_unknown(f, "802.3ad aggregator and LACP port states",
					  b->is_team && b->team_reason[0]
						  ? b->team_reason
						  : "shown to root only on current kernels");
	if (b->ad_info_known) {
		cJSON_AddStringToObject(f->evidence, "partner_mac", b->ad_partner_mac);
		cJSON_AddNumberToObject(f->evidence, "active_aggregator", b->ad_aggregator_id);
		cJSON_AddNumberToObject(f->evidence, "aggregator_ports", b->ad_num_ports);
	}
	cJSON_AddNumberToObject(f->evidence, "members_defaulted", defaulted);
	if (!(b->ad_info_known && zero_mac(b->ad_partner_mac)) && !defaulted) {
		nd_finding_set(f, ND_SEV_OK, "LACP partner %s answers", b->ad_info_known ?
			       b->ad_partner_mac : "(per member)");
		return;
	}
	one = nd_bond_flow_ceiling_mbps(facts);
	if (one > 0)
		nd_finding_ceiling(f, "bond", one);
	nd_finding_set(f, ND_SEV_WARNING, "no LACP partner (partner MAC %s%s): the switch ports "
		       "are not an LACP port-channel, and the bond carries one member's %.0f "
		       "Mbit/s", b->ad_info_known ? b->ad_partner_mac : "unknown",
		       defaulted ? ", partner info defaulted" : "", one > 0 ? one : 0);
	switch_fix(facts, f);
}

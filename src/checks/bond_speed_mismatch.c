/*
 * bond_speed_mismatch.c - members up at different speeds.  802.3ad
 * "creates aggregation groups that share the same speed and duplex
 * settings" (bonding.rst): the slower members end in another aggregator
 * and carry nothing.  balance-rr and balance-xor give each member an equal
 * share, so the slowest caps every share; after an active-backup failover
 * the bond runs at the slower member's speed.
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

void nd_check_bond_speed_mismatch(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	int64_t lo = -1, hi = -1;
	const char *slow = "";
	unsigned up = 0;
	char label[32];

	if (!nd_bond_check_begin(facts, f))
		return;
	nd_bond_members_evidence(b, f->evidence);
	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];

		if (!nd_bond_member_up(m))
			continue;	/* a down member's speed is no speed (bond.member_down) */
		if (m->speed_mbps <= 0)
			return nd_finding_unknown(f, "member speed", "a member up reports no speed");
		up++;
		if (lo < 0 || m->speed_mbps < lo) {
			lo = m->speed_mbps;
			slow = m->name;
		}
		if (m->speed_mbps > hi)
			hi = m->speed_mbps;
	}
	if (up < 2) {
		nd_finding_set(f, ND_SEV_OK, "%u member up: nothing to compare", up);
		return;
	}
	if (lo == hi) {
		nd_finding_set(f, ND_SEV_OK, "all %u members up at %lld Mbit/s", up, (long long)lo);
		return;
	}
	if (!nd_bond_runner_known(facts, f))
		return;
	if (!strcmp(b->mode, "active-backup") || !strcmp(b->mode, "broadcast")) {
		nd_finding_set(f, ND_SEV_INFO, "members at %lld and %lld Mbit/s: after a failover "
			       "to %s the bond runs at %lld Mbit/s", (long long)hi, (long long)lo,
			       slow, (long long)lo);
	} else if (!strcmp(b->mode, "802.3ad") && !b->is_team) {
		/* teamd's lacp runner aggregates by partner key and system only
		 * (teamd_runner_lacp.c lacp_ports_aggregable): for a team the
		 * equal-share case below */
		nd_finding_set(f, ND_SEV_WARNING, "members at %lld and %lld Mbit/s: 802.3ad "
			       "aggregates only members of equal speed, so the %lld Mbit/s ones "
			       "form another aggregator and one group carries everything",
			       (long long)hi, (long long)lo, (long long)lo);
		if (b->ad_info_known && b->ad_aggregator_id >= 0) {
			unsigned in_agg;
			double active = nd_bond_up_goodput_mbps(facts, b->ad_aggregator_id, &in_agg);

			if (active > 0 && in_agg < up)
				nd_finding_ceiling(f, "bond", active);
		}
	} else {
		double ceiling = nd_bond_flow_ceiling_mbps(facts);

		if (ceiling > 0)
			nd_finding_ceiling(f, "bond", ceiling * up);
		nd_finding_set(f, ND_SEV_WARNING, "members at %lld and %lld Mbit/s: %s gives "
			       "each member an equal share, so %s caps the bond at %u x %.0f Mbit/s",
			       (long long)hi, (long long)lo,
			       b->is_team ? nd_bond_mode_label(b, label, sizeof(label))
			       : b->mode[0] ? b->mode : "the mode", slow,
			       up, ceiling);
	}
	cJSON_AddNumberToObject(f->evidence, "slowest_mbps", (double)lo);
	cJSON_AddNumberToObject(f->evidence, "fastest_mbps", (double)hi);
	nd_finding_fix(f, "bond_speed", "ethtool %s | grep -E 'Speed|Supported link modes'", slow);
	nd_finding_fix(f, "bond_speed", "# give every member the same speed: the slower "
		       "member's cable or module, or its switch port's speed setting");
}

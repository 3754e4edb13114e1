/*
 * bond_aggregator_split.c - 802.3ad members up in different aggregators.
 * Only the active aggregator carries traffic, so the members of the other
 * ones wait unused: the partner answered them with another key or system
 * (ports in different port-channels, or different speeds).
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

void nd_check_bond_aggregator_split(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	char label[32];
	int first = -1, active;
	unsigned up = 0, unused = 0, in_active;
	char idle[160] = "";
	size_t used = 0;
	double capacity;

	if (!nd_bond_check_begin(facts, f))
		return;
	if (!nd_bond_runner_known(facts, f))
		return;
	if (strcmp(b->mode, "802.3ad")) {
		nd_finding_not_applicable(f, "%s has no aggregators",
					  nd_bond_mode_label(b, label, sizeof(label)));
		return;
	}
	nd_bond_members_evidence(b, f->evidence);
	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];

		if (!nd_bond_member_up(m))
			continue;
		if (m->aggregator_id < 0)
			return nd_finding_unknown(f, "members' aggregator IDs",
						  b->is_team && b->team_reason[0]
							  ? b->team_reason
							  : "the source does not show them");
		if (first < 0)
			first = m->aggregator_id;
		up++;
	}
	active = b->ad_info_known && b->ad_aggregator_id >= 0 ? b->ad_aggregator_id : first;
	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];

		if (!nd_bond_member_up(m) || m->aggregator_id == active)
			continue;
		unused++;
		if (used < sizeof(idle))
			used += (size_t)snprintf(idle + used, sizeof(idle) - used, "%s%s in %d",
						 used ? ", " : "", m->name, m->aggregator_id);
	}
	cJSON_AddNumberToObject(f->evidence, "active_aggregator", active);
	if (!unused) {
		nd_finding_set(f, ND_SEV_OK, "%u member%s up in aggregator %d", up,
			       up == 1 ? "" : "s", active);
		return;
	}
	capacity = nd_bond_up_goodput_mbps(facts, active, &in_active);
	if (capacity > 0)
		nd_finding_ceiling(f, "bond", capacity);
	nd_finding_set(f, ND_SEV_WARNING, "members split over aggregators: only aggregator %d "
		       "(%u of %u members up) carries traffic; unused: %s", active, in_active, up,
		       idle);
	nd_finding_fix(f, "bond_lacp", "# the switch side: every member's port in the same "
		       "LACP port-channel; the members at the same speed (bond.speed_mismatch)");
	if (b->is_team)
		nd_finding_fix(f, "bond_lacp", "teamdctl %s state view", facts->ifname);
	else
		nd_finding_fix(f, "bond_lacp", "grep -E 'Slave Interface|Aggregator ID' "
			       "/proc/net/bonding/%s", facts->ifname);
}

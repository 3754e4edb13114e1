/*
 * bond_member_down.c - members of the bond without link (MII status not
 * "up"): the bond runs on fewer members than it has, and if none is up
 * nothing passes.  Link failures counted on members that are up now are
 * flapping links, reported as info (the counts run since the bond came up).
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

static void flapping(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	char list[160] = "";
	size_t used = 0;

	for (unsigned i = 0; i < b->n_members; i++)
		if (b->members[i].link_failure_count > 0 && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s %lld",
						 used ? ", " : "", b->members[i].name,
						 (long long)b->members[i].link_failure_count);
	if (!used) {
		nd_finding_set(f, ND_SEV_OK, "all %u members up", b->n_members);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO, "all %u members up; link failures counted since the "
		       "bond came up: %s (a flapping link or monitor)", b->n_members, list);
}

void nd_check_bond_member_down(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	char down[160] = "";
	size_t used = 0;
	unsigned up = 0, unknown = 0;
	double capacity;

	if (!nd_bond_check_begin(facts, f))
		return;
	nd_bond_members_evidence(b, f->evidence);
	if (!b->n_members) {
		nd_finding_set(f, ND_SEV_CRITICAL, "the bond has no members: nothing can pass");
		if (b->is_team)
			nd_finding_fix(f, "bond_member", "teamdctl %s port add IF", facts->ifname);
		else
			nd_finding_fix(f, "bond_member", "ip link set dev IF master %s",
				       facts->ifname);
		return;
	}
	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];

		if (nd_bond_member_up(m))
			up++;
		else if (!m->mii_status[0])
			unknown++;
		else if (used < sizeof(down))
			used += (size_t)snprintf(down + used, sizeof(down) - used, "%s%s (%s)",
						 used ? ", " : "", m->name, m->mii_status);
	}
	if (!used && unknown)
		return nd_finding_unknown(f, "members' MII status", "the source did not say");
	if (!used)
		return flapping(facts, f);
	cJSON_AddNumberToObject(f->evidence, "members_up", up);
	if (!up) {
		nd_finding_set(f, ND_SEV_CRITICAL, "every member is down: %s; nothing can pass",
			       down);
	} else {
		capacity = nd_bond_up_goodput_mbps(facts, -1, &up);
		if (capacity > 0) {
			nd_finding_ceiling(f, "bond", capacity);
			nd_finding_set(f, ND_SEV_WARNING, "%u of %u members down: %s; the bond "
				       "carries at most %.0f Mbit/s on the %u up", b->n_members - up,
				       b->n_members, down, capacity, up);
		} else {
			nd_finding_set(f, ND_SEV_WARNING, "%u of %u members down: %s",
				       b->n_members - up, b->n_members, down);
		}
	}
	for (unsigned i = 0; i < b->n_members; i++)
		if (b->members[i].mii_status[0] && !nd_bond_member_up(&b->members[i]))
			nd_finding_fix(f, "bond_member", "ip link set dev %s up; ethtool %s | "
				       "grep -E 'Speed|Link detected'", b->members[i].name,
				       b->members[i].name);
	nd_finding_fix(f, "bond_member", "# still down: the member's cable or module and its "
		       "switch port (enabled, same speed, in the same port-channel)");
}

/*
 * bond_active_backup_capacity.c - an active-backup bond sends and receives
 * on one member by design: the others are standby, so the bond's ceiling
 * is one member, however many it has.  Info, not a fault: it is the
 * mode's purpose, but a common surprise when the bond was meant to add
 * bandwidth.
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

void nd_check_bond_active_backup_capacity(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	char label[32];
	const struct nd_bond_member *active = NULL;
	double one;

	if (!nd_bond_check_begin(facts, f) || !nd_bond_runner_known(facts, f))
		return;
	if (strcmp(b->mode, "active-backup")) {
		nd_finding_not_applicable(f, "%s uses more than one member",
					  nd_bond_mode_label(b, label, sizeof(label)));
		return;
	}
	for (unsigned i = 0; i < b->n_members; i++)
		if (!strcmp(b->members[i].name, b->active_slave))
			active = &b->members[i];
	cJSON_AddStringToObject(f->evidence, "active_slave",
				b->active_slave[0] ? b->active_slave : "(none)");
	cJSON_AddNumberToObject(f->evidence, "members", b->n_members);
	one = active ? nd_bond_member_goodput_mbps(facts, active) : nd_bond_flow_ceiling_mbps(facts);
	if (one > 0) {
		nd_finding_ceiling(f, "bond", one);
		nd_finding_set(f, ND_SEV_INFO, "active-backup: %s carries everything, %u other "
			       "member%s on standby: the bond's ceiling is one member's %.0f Mbit/s",
			       active ? active->name : "one member", b->n_members ? b->n_members - 1 : 0,
			       b->n_members == 2 ? "" : "s", one);
	} else {
		nd_finding_set(f, ND_SEV_INFO, "active-backup: %s carries everything, %u other "
			       "member%s on standby", active ? active->name : "one member",
			       b->n_members ? b->n_members - 1 : 0, b->n_members == 2 ? "" : "s");
	}
	if (b->is_team) {
		nd_finding_fix(f, "bond_mode", "# for more than one port's bandwidth: runner lacp "
			       "with an LACP port-channel on the switch, or loadbalance without "
			       "(in the team's config; teamd restarts with it)");
		return;
	}
	nd_finding_fix(f, "bond_mode", "# for more than one member's bandwidth: mode 802.3ad "
		       "with an LACP port-channel on the switch, or balance-xor/balance-alb "
		       "without switch support (the mode changes with the bond down)");
}

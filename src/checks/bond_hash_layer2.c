/*
 * bond_hash_layer2.c - a transmit hash that puts all traffic to one peer
 * on one member.  balance-xor and 802.3ad choose the member by
 * xmit_hash_policy, whose default is layer2 (bonding.rst: "will place all
 * traffic to a particular network peer on the same slave"); layer2+3 does
 * the same per IP peer, and behind a router every flow has the gateway's
 * MAC.  layer3+4 lets one peer's flows span members, though a single
 * connection never does: the single-flow ceiling is one member either way.
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

/* Policies that hash no port numbers (vlan+srcmac: per VLAN and source). */
static bool per_peer(const char *policy)
{
	static const char *const p[] = { "layer2", "layer2+3", "encap2+3", "vlan+srcmac" };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (!strcmp(policy, p[i]))
			return true;
	return false;
}

void nd_check_bond_hash_layer2(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	const char *policy = b->xmit_hash_policy;
	const char *what = b->is_team ? "tx_hash" : "xmit_hash_policy";
	char shown[96], label[32];
	double flow;
	unsigned up;

	if (!nd_bond_check_begin(facts, f) || !nd_bond_runner_known(facts, f))
		return;
	if (!b->mode[0])
		return nd_finding_unknown(f, "bonding mode", "the source names a mode this "
					  "version does not know");
	if (!nd_bond_mode_hashes(b->mode)) {
		nd_finding_not_applicable(f, "%s does not choose members by a hash",
					  nd_bond_mode_label(b, label, sizeof(label)));
		return;
	}
	if (!policy[0] && b->is_team)
		return nd_finding_unknown(f, "the team's tx_hash (teamdctl config dump)",
					  b->team_reason[0] ? b->team_reason : "not read");
	if (!policy[0])
		policy = "layer2";	/* old drivers print no policy line: the default */
	/* a team's own fragments, with the bond policy they behave as */
	if (b->is_team)
		snprintf(shown, sizeof(shown), "%s (as %s)", b->team_tx_hash, policy);
	else
		snprintf(shown, sizeof(shown), "%s", policy);
	cJSON_AddStringToObject(f->evidence, "xmit_hash_policy", policy);
	cJSON_AddBoolToObject(f->evidence, "policy_assumed", !b->xmit_hash_policy[0]);
	flow = nd_bond_flow_ceiling_mbps(facts);
	if (flow > 0)
		cJSON_AddNumberToObject(f->evidence, "single_flow_ceiling_mbps", flow);
	nd_bond_up_goodput_mbps(facts, -1, &up);
	cJSON_AddNumberToObject(f->evidence, "members_up", up);
	if (!per_peer(policy)) {
		nd_finding_set(f, ND_SEV_OK, "%s %s spreads one peer's flows over "
			       "the members; one flow still gets one member (%.0f Mbit/s)", what, shown,
			       flow > 0 ? flow : 0);
		return;
	}
	if (up < 2) {
		nd_finding_set(f, ND_SEV_OK, "%s %s, but %u member up: nothing to "
			       "spread", what, shown, up);
		return;
	}
	if (flow > 0) {
		nd_finding_ceiling(f, "bond", flow);
		nd_finding_set(f, ND_SEV_WARNING, "%s %s puts all traffic to one "
			       "peer (or to the gateway) on one member: one peer gets at most one "
			       "member's %.0f Mbit/s of the %u", what, shown, flow, up);
	} else {
		nd_finding_set(f, ND_SEV_WARNING, "%s %s puts all traffic to one "
			       "peer (or to the gateway) on one member of the %u", what, shown, up);
	}
	if (b->is_team) {
		nd_finding_fix(f, "bond_hash", "nmcli connection modify %s team.runner-tx-hash "
			       "eth,ipv4,ipv6,tcp,udp", facts->ifname);
		nd_finding_fix(f, "bond_hash", "# or runner.tx_hash [\"eth\", \"ipv4\", \"ipv6\", "
			       "\"tcp\", \"udp\"] in teamd's config, then restart teamd; the switch "
			       "hashes the receive side: src-dst-ip-port there too");
		return;
	}
	nd_finding_fix(f, "bond_hash", "ip link set dev %s type bond xmit_hash_policy layer3+4",
		       facts->ifname);
	nd_finding_fix(f, "bond_hash", "# persist it in the bond's configuration "
		       "(BONDING_OPTS, netplan parameters, nmcli bond.options); the switch "
		       "hashes the receive side: use src-dst-ip-port there too");
}

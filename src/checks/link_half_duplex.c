/*
 * link_half_duplex.c - the link runs half duplex: sending and receiving
 * take turns, and collisions cost retransmissions.  On a switched link it
 * is nearly always a duplex mismatch: one end forced to a speed with
 * autonegotiation off, the other autonegotiating and falling back to half
 * duplex as IEEE 802.3 parallel detection requires.
 *
 * Which end is forced decides the fix.  When this end negotiates and the
 * partner advertises neither autonegotiation nor a mode (ethtool's "Link
 * partner advertised auto-negotiation: No"), the partner is the forced
 * one: an ISP's or a locked switch's port that will not change, so this
 * end is forced to match it (its speed, full duplex).  Otherwise the fix
 * is autonegotiation, on both ends.
 */
#include <stdio.h>

#include "checks.h"
#include "nic_common.h"
#include "virt_common.h"

/* Whether the partner negotiates: 1 yes, 0 no (we negotiate, the mode
 * lists were read, and it advertises neither Autoneg nor a speed), -1
 * cannot tell. */
static int partner_negotiates(const struct nd_linkmodes *lm)
{
	if (!lm->autoneg || !lm->modes_st.known)
		return -1;
	if (nd_linkmode_in(lm->lp_advertised, lm->n_lp_advertised, "Autoneg") ||
	    nd_linkmodes_best_mbps(lm->lp_advertised, lm->n_lp_advertised, NULL, 0) > 0)
		return 1;
	return 0;
}

void nd_check_link_half_duplex(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;
	int partner;

	if (nd_link_check_not_applicable(facts, f))
		return;
	if (!lm->st.known)
		return nd_finding_unknown(f, "link modes", lm->st.reason);
	if (lm->speed_mbps <= 0 && facts->link.st.known && !facts->link.carrier) {
		nd_finding_set(f, ND_SEV_OK, "no link: no duplex (see link.down)");
		return;
	}
	cJSON_AddNumberToObject(f->evidence, "speed_mbps", (double)lm->speed_mbps);
	cJSON_AddBoolToObject(f->evidence, "autoneg", lm->autoneg);
	if (lm->duplex < 0)
		return nd_finding_unknown(f, "duplex", "the driver reports no duplex");
	cJSON_AddStringToObject(f->evidence, "duplex", lm->duplex ? "full" : "half");
	if (lm->duplex == 1) {
		nd_finding_set(f, ND_SEV_OK, "full duplex");
		return;
	}
	partner = partner_negotiates(lm);
	if (partner >= 0)
		cJSON_AddBoolToObject(f->evidence, "partner_autoneg", partner == 1);
	if (partner == 0 && lm->speed_mbps > 0) {
		nd_finding_set(f, ND_SEV_WARNING, "half duplex at %lld Mbit/s: the link partner "
			       "does not negotiate, so this end fell back to half duplex",
			       (long long)lm->speed_mbps);
		nd_finding_fix(f, "duplex", "ethtool -s %s speed %lld duplex full autoneg off",
			       facts->ifname, (long long)lm->speed_mbps);
		nd_finding_fix(f, "duplex", "# the partner is forced (autonegotiation off): "
			       "parallel detection finds its speed, not its duplex");
		nd_finding_fix(f, "duplex", "# and gives half duplex; this end takes the "
			       "partner's speed and full duplex (ask its side what it is set to)");
		nd_finding_fix(f, "duplex", "# the real cure is the same setting on both ends: "
			       "both forced alike, or autonegotiation on both");
		return;
	}
	nd_finding_set(f, ND_SEV_WARNING, "half duplex at %lld Mbit/s: send and receive take "
		       "turns; usually one end has autonegotiation off",
		       (long long)lm->speed_mbps);
	nd_finding_fix(f, "duplex", "ethtool -s %s autoneg on", facts->ifname);
	nd_finding_fix(f, "duplex", "# and set the switch port to auto too; forcing speed on one "
		       "end only makes the other fall back to half duplex");
}

/*
 * link_half_duplex.c - the link runs half duplex: sending and receiving
 * take turns, and collisions cost retransmissions.  On a switched link it
 * is nearly always a duplex mismatch: one end forced to a speed with
 * autonegotiation off, the other autonegotiating and falling back to half
 * duplex as IEEE 802.3 parallel detection requires.
 */
#include <stdio.h>

#include "checks.h"
#include "virt_common.h"

void nd_check_link_half_duplex(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;

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
	nd_finding_set(f, ND_SEV_WARNING, "half duplex at %lld Mbit/s: send and receive take "
		       "turns; usually one end has autonegotiation off",
		       (long long)lm->speed_mbps);
	nd_finding_fix(f, "duplex", "ethtool -s %s autoneg on", facts->ifname);
	nd_finding_fix(f, "duplex", "# and set the switch port to auto too; forcing speed on one "
		       "end only makes the other fall back to half duplex");
}

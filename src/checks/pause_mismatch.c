/*
 * pause_mismatch.c - Ethernet flow control (802.3x pause) off or only one
 * way.  With it on, a receiver whose buffers fill asks the sender to wait
 * for microseconds; without it the frames are dropped and TCP halves its
 * window.  Info only: many networks turn pause off on purpose (it spreads
 * congestion, and DCB/PFC or ECN replace it), so this is context for a
 * drop finding, never a cause on its own.
 */
#include <stdio.h>

#include "checks.h"
#include "nic_common.h"

/* What the link partner advertises, from its link-mode bits. */
static const char *partner_pause(const struct nd_linkmodes *lm)
{
	bool pause, asym;

	if (!lm->st.known || !lm->n_lp_advertised)
		return "not reported";
	pause = nd_linkmode_in(lm->lp_advertised, lm->n_lp_advertised, "Pause");
	asym = nd_linkmode_in(lm->lp_advertised, lm->n_lp_advertised, "Asym_Pause");
	return pause && asym ? "symmetric and asymmetric" : pause ? "symmetric" :
	       asym ? "asymmetric only" : "none";
}

void nd_check_pause_mismatch(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_pause *pause = &facts->pause;

	if (!pause->st.known)
		return nd_finding_unknown(f, "pause settings", pause->st.reason);
	cJSON_AddBoolToObject(f->evidence, "autoneg", pause->autoneg);
	cJSON_AddBoolToObject(f->evidence, "rx", pause->rx);
	cJSON_AddBoolToObject(f->evidence, "tx", pause->tx);
	cJSON_AddStringToObject(f->evidence, "partner_advertises",
				partner_pause(&facts->linkmodes));
	if (pause->rx && pause->tx) {
		nd_finding_set(f, ND_SEV_OK, "flow control on both ways");
		return;
	}
	if (!pause->rx && !pause->tx)
		nd_finding_set(f, ND_SEV_INFO, "flow control off: a full receiver drops frames "
			       "instead of pausing the sender");
	else
		nd_finding_set(f, ND_SEV_INFO, "flow control one way only (rx %s, tx %s)",
			       pause->rx ? "on" : "off", pause->tx ? "on" : "off");
	nd_finding_fix(f, "pause", "ethtool -A %s rx on tx on", facts->ifname);
	nd_finding_fix(f, "pause", "# the switch port must honour and send pause too; "
		       "leave it off where PFC/DCB or ECN manage congestion");
}

/*
 * coalesce_off.c - interrupt coalescing is off: adaptive moderation off
 * and rx-usecs 0, so the NIC raises an interrupt per received frame.  At
 * 10GbE with 1500-byte frames that is up to 812,000 interrupts per second
 * on the queue's CPU, which then spends its time entering and leaving the
 * handler instead of moving packets.  Info only: latency-tuned hosts
 * choose this on purpose.
 */
#include <stdio.h>

#include "checks.h"

/* The fixed delay to suggest where the driver has no adaptive mode: 50 us,
 * the i40e/ice default (at most 20,000 interrupts per second per queue). */
#define COALESCE_FALLBACK_RX_USECS 50

void nd_check_coalesce_off(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_coalesce *co = &facts->coalesce;

	if (!co->st.known)
		return nd_finding_unknown(f, "interrupt coalescing", co->st.reason);
	cJSON_AddBoolToObject(f->evidence, "adaptive_rx", co->adaptive_rx);
	cJSON_AddNumberToObject(f->evidence, "rx_usecs", co->rx_usecs);
	cJSON_AddNumberToObject(f->evidence, "rx_frames", co->rx_frames);
	if (co->adaptive_rx) {
		nd_finding_set(f, ND_SEV_OK, "adaptive RX interrupt moderation on");
		return;
	}
	/* A frame count above one still batches interrupts without a timer. */
	if (co->rx_usecs > 0 || co->rx_frames > 1) {
		nd_finding_set(f, ND_SEV_OK, "RX interrupts coalesced: rx-usecs %u, rx-frames %u",
			       co->rx_usecs, co->rx_frames);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO, "RX coalescing off (adaptive off, rx-usecs 0): one "
		       "interrupt per frame at high packet rates");
	nd_finding_fix(f, "coalesce", "ethtool -C %s adaptive-rx on", facts->ifname);
	nd_finding_fix(f, "coalesce", "# where the driver has no adaptive mode: ethtool -C %s "
		       "rx-usecs %u", facts->ifname, COALESCE_FALLBACK_RX_USECS);
}

/*
 * qdisc_rate_limit.c - qdisc.rate_limit: a shaping qdisc (tbf, htb) on the
 * interface caps its rate below the wire.  The shaper's rate is the
 * ceiling (source "shaping"): nothing leaves faster, whatever the NIC can.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "checks.h"

void nd_check_qdisc_rate_limit(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_qdisc *q = &facts->qdisc;
	int64_t speed_mbps = facts->linkmodes.st.known ? facts->linkmodes.speed_mbps : -1;
	double rate_mbps;

	if (!q->st.known)
		return nd_finding_unknown(f, "qdisc", q->st.reason);
	if (facts->link.st.known && facts->link.qdisc[0])
		cJSON_AddStringToObject(f->evidence, "root_qdisc", facts->link.qdisc);
	if (!q->rate_bps) {
		nd_finding_set(f, ND_SEV_OK, "no shaping qdisc on %s", facts->ifname);
		return;
	}
	rate_mbps = (double)q->rate_bps / 1e6;
	cJSON_AddStringToObject(f->evidence, "shaper", q->kind);
	cJSON_AddNumberToObject(f->evidence, "rate_bps", (double)q->rate_bps);
	cJSON_AddNumberToObject(f->evidence, "rate_mbps", round(rate_mbps * 1000.0) / 1000.0);
	if (speed_mbps > 0)
		cJSON_AddNumberToObject(f->evidence, "link_speed_mbps", (double)speed_mbps);
	else
		cJSON_AddStringToObject(f->evidence, "link_speed_mbps", "unknown");
	nd_finding_ceiling(f, "shaping", rate_mbps);
	if (speed_mbps > 0 && rate_mbps >= (double)speed_mbps) {
		nd_finding_set(f, ND_SEV_OK, "%s shaper at %.0f Mbit/s is not below the %" PRId64
			       " Mbit/s link", q->kind, rate_mbps, speed_mbps);
		return;
	}
	if (speed_mbps > 0)
		nd_finding_set(f, ND_SEV_WARNING, "%s shaper limits %s to %.0f Mbit/s on a %" PRId64
			       " Mbit/s link", q->kind, facts->ifname, rate_mbps, speed_mbps);
	else
		nd_finding_set(f, ND_SEV_WARNING, "%s shaper limits %s to %.0f Mbit/s (link speed "
			       "unknown)", q->kind, facts->ifname, rate_mbps);
	nd_finding_fix(f, "qdisc", "tc qdisc show dev %s", facts->ifname);
	nd_finding_fix(f, "qdisc", "# removes the shaper: the root qdisc and every class under "
		       "it; the kernel puts back its default qdisc");
	nd_finding_fix(f, "qdisc", "tc qdisc del dev %s root", facts->ifname);
}

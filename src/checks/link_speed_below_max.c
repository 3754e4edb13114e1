/*
 * link_speed_below_max.c - the link negotiated a lower speed than the best
 * mode both ends can do: a 25G port at 10G, a 10GBASE-T port at 1G.
 *
 * Autonegotiation picks the highest mode both ends advertise, so a lower
 * result with a partner that advertises more points at the cable or module
 * (a 10G-rated DAC in a 25G cage, a Cat5e run downshifting 10GBASE-T) or at
 * a restricted advertisement on one side.  When the partner's modes are not
 * reported (autoneg off, driver silent) the best mode this side supports is
 * only a hint: the partner may be the slower one.
 */
#include <stdio.h>

#include "nicdoctor/ceiling.h"
#include "checks.h"
#include "nic_common.h"

static void add_modes(cJSON *evidence, const char *key, const char (*modes)[48], unsigned n)
{
	cJSON *array = cJSON_AddArrayToObject(evidence, key);

	for (unsigned i = 0; i < n && i < ND_MAX_LINKMODES; i++)
		if (nd_linkmode_speed_mbps(modes[i]) > 0)
			cJSON_AddItemToArray(array, cJSON_CreateString(modes[i]));
}

/* The best speed both ends can do and whether the partner's side is known. */
static long best_common_mbps(const struct nd_linkmodes *lm, bool *ret_partner_known)
{
	long with_partner = nd_linkmodes_best_mbps(lm->supported, lm->n_supported,
						   lm->lp_advertised, lm->n_lp_advertised);

	*ret_partner_known = with_partner > 0;
	if (*ret_partner_known)
		return with_partner;
	/* A driver that leaves "advertised" empty (autoneg off) advertises
	 * what it supports as far as a person can change it. */
	if (nd_linkmodes_best_mbps(lm->advertised, lm->n_advertised, NULL, 0) > 0)
		return nd_linkmodes_best_mbps(lm->advertised, lm->n_advertised,
					      lm->supported, lm->n_supported);
	return nd_linkmodes_best_mbps(lm->supported, lm->n_supported, NULL, 0);
}

static void add_ceilings(const struct nd_facts *facts, long best_mbps, struct nd_finding *f)
{
	bool mtu_assumed;
	unsigned mtu = nd_port_mtu(facts, &mtu_assumed);
	double now_mbps = nd_facts_wire_ceiling_mbps(facts);
	double best_goodput_mbps = nd_ceiling_wire_mbps((double)best_mbps, mtu, ND_L4_TCP);

	/* Without the MTU nd_facts_wire_ceiling_mbps says unknown; use the
	 * same assumed MTU for both numbers so they compare. */
	if (now_mbps < 0)
		now_mbps = nd_ceiling_wire_mbps((double)facts->linkmodes.speed_mbps, mtu,
						ND_L4_TCP);
	cJSON_AddNumberToObject(f->evidence, "mtu", mtu);
	if (mtu_assumed)
		cJSON_AddStringToObject(f->evidence, "mtu_assumed", "MTU not read: 1500 assumed");
	cJSON_AddNumberToObject(f->evidence, "goodput_at_negotiated_mbps",
				nd_round_mbps(now_mbps));
	cJSON_AddNumberToObject(f->evidence, "goodput_at_best_mbps",
				nd_round_mbps(best_goodput_mbps));
	nd_finding_ceiling(f, "wire", now_mbps);
}

void nd_check_link_speed_below_max(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;
	long best_mbps;
	bool partner_known;

	if (!lm->st.known)
		return nd_finding_unknown(f, "link modes", lm->st.reason);
	if (lm->speed_mbps <= 0) {
		if (facts->link.st.known && !facts->link.carrier) {
			nd_finding_set(f, ND_SEV_OK, "no link: nothing negotiated (see link.down)");
			return;
		}
		return nd_finding_unknown(f, "negotiated speed", "the driver reports no speed");
	}
	best_mbps = best_common_mbps(lm, &partner_known);
	cJSON_AddNumberToObject(f->evidence, "speed_mbps", (double)lm->speed_mbps);
	cJSON_AddBoolToObject(f->evidence, "autoneg", lm->autoneg);
	add_modes(f->evidence, "supported", lm->supported, lm->n_supported);
	add_modes(f->evidence, "advertised", lm->advertised, lm->n_advertised);
	add_modes(f->evidence, "partner_advertised", lm->lp_advertised, lm->n_lp_advertised);
	/* Only a list that was read and is empty is the driver's silence. */
	if (best_mbps <= 0)
		return nd_finding_unknown(f, "supported link modes",
					  lm->modes_st.known ? "the driver lists no speed modes" :
					  lm->modes_st.reason[0] ? lm->modes_st.reason :
					  "link modes not read");
	cJSON_AddNumberToObject(f->evidence, "best_common_mbps", (double)best_mbps);
	cJSON_AddStringToObject(f->evidence, "best_from", partner_known ?
				"supported and partner-advertised" :
				"this side only (partner's modes not reported)");
	if (lm->speed_mbps >= best_mbps) {
		nd_finding_set(f, ND_SEV_OK, "link at %lld Mbit/s, the best mode %s",
			       (long long)lm->speed_mbps,
			       partner_known ? "both ends have" : "this port supports");
		return;
	}
	add_ceilings(facts, best_mbps, f);
	nd_finding_set(f, partner_known ? ND_SEV_WARNING : ND_SEV_INFO,
		       "link at %lld Mbit/s though %s %ld Mbit/s: goodput ceiling %.0f Mbit/s",
		       (long long)lm->speed_mbps,
		       partner_known ? "both ends can do" : "this port supports", best_mbps,
		       f->ceiling_mbps);
	nd_finding_fix(f, "link_speed", "ethtool -s %s speed %ld duplex full autoneg on",
		       facts->ifname, best_mbps);
	nd_finding_fix(f, "link_speed", "# if it still links at %lld: check the cable or "
		       "module is rated for %ld Mbit/s (ethtool -m %s) and the switch port's speed",
		       (long long)lm->speed_mbps, best_mbps, facts->ifname);
}

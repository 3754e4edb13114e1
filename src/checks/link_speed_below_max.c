/*
 * link_speed_below_max.c - the link negotiated a lower speed than it could:
 * a 25G port at 10G, a 10GBASE-T port at 1G, a gigabit port at 100.
 *
 * Autonegotiation picks the best mode both ends ADVERTISE, so there are
 * three kinds: both advertise more than the link runs at (the cable or
 * module, a PHY downshift); this port supports a mode the partner
 * advertises but leaves it out of its own advertisement (a setting here);
 * or the partner advertises nothing faster ("partner-limited": the switch
 * port's configuration or a 2-pair cable, fixed on the other end).  When
 * the partner's modes are not reported (autoneg off, driver silent) the
 * best mode this side supports is only a hint: the partner may be the
 * slower one.
 */
#include <stdio.h>

#include "nicdoctor/ceiling.h"
#include "checks.h"
#include "virt_common.h"
#include "nic_common.h"

static void add_modes(cJSON *evidence, const char *key, const char (*modes)[48], unsigned n)
{
	cJSON *array = cJSON_AddArrayToObject(evidence, key);

	for (unsigned i = 0; i < n && i < ND_MAX_LINKMODES; i++)
		if (nd_linkmode_speed_mbps(modes[i]) > 0)
			cJSON_AddItemToArray(array, cJSON_CreateString(modes[i]));
}

/*
 * What the ends can do: autonegotiation picks the best mode in what this
 * port ADVERTISES and the partner advertises; the modes it supports but
 * leaves out of its advertisement are a setting here, the ones above the
 * partner's best are the partner's (or the cable's) limit.
 */
struct link_reach {
	bool partner_known;
	long common_mbps;		/* advertised x partner: what autoneg can reach */
	long if_advertised_mbps;	/* supported x partner: with every mode advertised */
	long ours_mbps;			/* the best this port supports */
	long partner_mbps;		/* the best the partner advertises */
};

static void link_reach(const struct nd_linkmodes *lm, struct link_reach *r)
{
	/* A driver that leaves "advertised" empty (autoneg off) advertises
	 * what it supports as far as a person can change it. */
	bool advertises = nd_linkmodes_best_mbps(lm->advertised, lm->n_advertised, NULL, 0) > 0;
	const char (*adv)[48] = advertises ? lm->advertised : lm->supported;
	unsigned n_adv = advertises ? lm->n_advertised : lm->n_supported;

	r->ours_mbps = nd_linkmodes_best_mbps(lm->supported, lm->n_supported, NULL, 0);
	r->partner_mbps = nd_linkmodes_best_mbps(lm->lp_advertised, lm->n_lp_advertised, NULL, 0);
	r->if_advertised_mbps = nd_linkmodes_best_mbps(lm->supported, lm->n_supported,
						       lm->lp_advertised, lm->n_lp_advertised);
	r->common_mbps = nd_linkmodes_best_mbps(adv, n_adv, lm->lp_advertised,
						lm->n_lp_advertised);
	r->partner_known = r->partner_mbps > 0;
	if (r->partner_known)
		return;
	r->common_mbps = r->if_advertised_mbps = advertises ?
		nd_linkmodes_best_mbps(adv, n_adv, lm->supported, lm->n_supported) : r->ours_mbps;
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

/* Supported, advertised by the partner, not by us, above what the link can
 * reach now: the modes `ethtool -s IF advertise M on` adds. */
static void fix_advertise(const struct nd_facts *facts, const struct link_reach *r,
			  struct nd_finding *f)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;
	cJSON *missing = cJSON_AddArrayToObject(f->evidence, "not_advertised");
	char modes[256];
	size_t len = 0;

	modes[0] = '\0';
	for (unsigned i = 0; i < lm->n_supported && i < ND_MAX_LINKMODES; i++) {
		const char *mode = lm->supported[i];

		if (nd_linkmode_speed_mbps(mode) <= r->common_mbps ||
		    nd_linkmode_in(lm->advertised, lm->n_advertised, mode))
			continue;
		cJSON_AddItemToArray(missing, cJSON_CreateString(mode));
		if (nd_linkmode_in(lm->lp_advertised, lm->n_lp_advertised, mode) &&
		    len < sizeof(modes))
			len += (size_t)snprintf(modes + len, sizeof(modes) - len, " %s on", mode);
	}
	nd_finding_fix(f, "link_speed", "ethtool -s %s advertise%s", facts->ifname, modes);
	nd_finding_fix(f, "link_speed", "# the link renegotiates; older ethtool (before 5.6) "
		       "takes a hex mask: ethtool -s %s advertise 0x...", facts->ifname);
}

static void partner_limited(const struct nd_facts *facts, const struct link_reach *r,
			    struct nd_finding *f)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;
	char partner[48];

	if (r->partner_mbps <= 100)
		snprintf(partner, sizeof(partner), "only 10/100");
	else
		snprintf(partner, sizeof(partner), "only up to %ld Mbit/s", r->partner_mbps);
	nd_finding_set(f, ND_SEV_WARNING, "partner-limited: the link partner advertises %s, this "
		       "port %ld: link at %lld Mbit/s, goodput ceiling %.0f Mbit/s", partner,
		       r->ours_mbps, (long long)lm->speed_mbps, f->ceiling_mbps);
	/* Nothing to run here: the change is on the other end. */
	nd_finding_fix(f, "link_partner", "# on the other end: the link partner (switch port) "
		       "advertises %s", partner);
	nd_finding_fix(f, "link_partner", "# check its configuration (a forced or limited "
		       "port speed)%s", r->partner_mbps <= 100 && r->ours_mbps >= 1000 ?
		       ", or the cable: a 2-pair cable limits gigabit to 100" :
		       ", and that the cable is rated for the speed");
	nd_finding_fix(f, "link_partner", "# this port (%s) can do %ld Mbit/s: nothing to change "
		       "here", facts->ifname, r->ours_mbps);
}

void nd_check_link_speed_below_max(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_linkmodes *lm = &facts->linkmodes;
	struct link_reach r;
	bool speed_known = lm->speed_mbps > 0;

	if (nd_link_check_not_applicable(facts, f))
		return;
	if (!lm->st.known)
		return nd_finding_unknown(f, "link modes", lm->st.reason);
	if (!speed_known && facts->link.st.known && !facts->link.carrier) {
		nd_finding_set(f, ND_SEV_OK, "no link: nothing negotiated (see link.down)");
		return;
	}
	link_reach(lm, &r);
	/* Without a speed only the advertisements can say something. */
	if (!speed_known && !(r.partner_known && r.if_advertised_mbps > r.common_mbps &&
			      r.common_mbps > 0))
		return nd_finding_unknown(f, "negotiated speed", "the driver reports no speed");
	if (speed_known)
		cJSON_AddNumberToObject(f->evidence, "speed_mbps", (double)lm->speed_mbps);
	cJSON_AddBoolToObject(f->evidence, "autoneg", lm->autoneg);
	add_modes(f->evidence, "supported", lm->supported, lm->n_supported);
	add_modes(f->evidence, "advertised", lm->advertised, lm->n_advertised);
	add_modes(f->evidence, "partner_advertised", lm->lp_advertised, lm->n_lp_advertised);
	/* Only a list that was read and is empty is the driver's silence. */
	if (r.common_mbps <= 0 && !(r.partner_known && r.ours_mbps > 0))
		return nd_finding_unknown(f, "supported link modes",
					  lm->modes_st.known ? "the driver lists no speed modes" :
					  lm->modes_st.reason[0] ? lm->modes_st.reason :
					  "link modes not read");
	cJSON_AddNumberToObject(f->evidence, "best_common_mbps", (double)r.common_mbps);
	cJSON_AddStringToObject(f->evidence, "best_from", r.partner_known ?
				"advertised and partner-advertised" :
				"this side only (partner's modes not reported)");
	if (r.partner_known) {
		cJSON_AddNumberToObject(f->evidence, "best_if_advertised_mbps",
					(double)r.if_advertised_mbps);
		cJSON_AddNumberToObject(f->evidence, "this_port_best_mbps", (double)r.ours_mbps);
		cJSON_AddNumberToObject(f->evidence, "partner_best_mbps", (double)r.partner_mbps);
	}
	if (speed_known && lm->speed_mbps < r.common_mbps) {
		/* Both ends advertise more: the cable, the module, a downshift. */
		cJSON_AddStringToObject(f->evidence, "limited_by", r.partner_known ? "link" :
					"unknown");
		add_ceilings(facts, r.common_mbps, f);
		nd_finding_set(f, r.partner_known ? ND_SEV_WARNING : ND_SEV_INFO,
			       "link at %lld Mbit/s though %s %ld Mbit/s: goodput ceiling %.0f Mbit/s",
			       (long long)lm->speed_mbps,
			       r.partner_known ? "both ends advertise" : "this port supports",
			       r.common_mbps, f->ceiling_mbps);
		nd_finding_fix(f, "link_speed", "ethtool -s %s speed %ld duplex full autoneg on",
			       facts->ifname, r.common_mbps);
		nd_finding_fix(f, "link_speed", "# if it still links at %lld: check the cable or "
			       "module is rated for %ld Mbit/s (ethtool -m %s) and the switch port's "
			       "speed", (long long)lm->speed_mbps, r.common_mbps, facts->ifname);
		return;
	}
	if (r.partner_known && r.if_advertised_mbps > r.common_mbps &&
	    (!speed_known || lm->speed_mbps < r.if_advertised_mbps)) {
		/* Both can do more, this port does not offer it. */
		cJSON_AddStringToObject(f->evidence, "limited_by", "advertisement");
		add_ceilings(facts, r.if_advertised_mbps, f);
		if (!speed_known) {
			bool mtu_assumed;

			nd_finding_ceiling(f, "wire", nd_ceiling_wire_mbps((double)r.common_mbps,
					   nd_port_mtu(facts, &mtu_assumed), ND_L4_TCP));
		}
		nd_finding_set(f, ND_SEV_WARNING, "this port does not advertise %ld Mbit/s, which "
			       "it and the partner support: the link cannot exceed %ld Mbit/s "
			       "(goodput ceiling %.0f Mbit/s)", r.if_advertised_mbps,
			       r.common_mbps, f->ceiling_mbps);
		fix_advertise(facts, &r, f);
		return;
	}
	if (speed_known && r.partner_known && r.ours_mbps > lm->speed_mbps &&
	    r.partner_mbps <= lm->speed_mbps) {
		cJSON_AddStringToObject(f->evidence, "limited_by", "partner");
		add_ceilings(facts, r.ours_mbps, f);
		partner_limited(facts, &r, f);
		return;
	}
	cJSON_AddStringToObject(f->evidence, "limited_by", "none");
	nd_finding_set(f, ND_SEV_OK, "link at %lld Mbit/s, the best mode %s",
		       (long long)lm->speed_mbps,
		       r.partner_known ? "both ends have" : "this port supports");
}

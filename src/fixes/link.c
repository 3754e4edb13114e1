/*
 * link.c - fix kind "link": this end's speed, duplex and autonegotiation
 * (ETHTOOL_MSG_LINKMODES_SET, ethtool -s), for link.half_duplex when the
 * partner does not negotiate: this end is forced to the partner's speed at
 * full duplex.  One knob, "link", so that the three settings move in one
 * request: "autoneg" (autonegotiation on, the advertised modes as they
 * are) or "SPEED/full" / "SPEED/half" (forced).  Revert of a forced link
 * turns autonegotiation back on, which restores what it advertised.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "fixes.h"

#define LINK_KEY "link"

struct link_value {
	bool autoneg;
	unsigned speed_mbps;	/* forced only */
	bool full;
};

/* "autoneg", "100/full", "1000/half"; -EINVAL otherwise. */
static int parse_value(const char *text, struct link_value *ret)
{
	char number[12];
	const char *slash;
	size_t len;

	memset(ret, 0, sizeof(*ret));
	if (!strcmp(text, "autoneg")) {
		ret->autoneg = true;
		return 0;
	}
	slash = strchr(text, '/');
	len = slash ? (size_t)(slash - text) : 0;
	if (!len || len >= sizeof(number))
		return -EINVAL;
	memcpy(number, text, len);
	number[len] = '\0';
	if (nd_fix_parse_unsigned(number, &ret->speed_mbps) < 0 || ret->speed_mbps == 0 ||
	    ret->speed_mbps > 800000)
		return -EINVAL;
	if (!strcmp(slash + 1, "full"))
		ret->full = true;
	else if (strcmp(slash + 1, "half"))
		return -EINVAL;
	return 0;
}

static int format_value(const struct nd_linkmodes *lm, char *buf, size_t size)
{
	if (!lm->st.known)
		return -ENODATA;
	if (lm->autoneg)
		snprintf(buf, size, "autoneg");
	else if (lm->speed_mbps > 0 && lm->duplex >= 0)
		snprintf(buf, size, "%lld/%s", (long long)lm->speed_mbps,
			 lm->duplex ? "full" : "half");
	else
		return -ENODATA;
	return 0;
}

static int link_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		     struct nd_fix_plan *plan)
{
	const struct nd_linkmodes *lm = &ctx->facts->linkmodes;
	const cJSON *partner = cJSON_GetObjectItemCaseSensitive(finding->evidence,
								 "partner_autoneg");
	struct nd_fix_step step = { .kind = &nd_fix_kind_link };

	/* Only where the check found the partner forced: with a negotiating
	 * partner the cure is on its side or in the cable, not a forced end. */
	if (!cJSON_IsFalse(partner))
		return 0;
	if (format_value(lm, step.current, sizeof(step.current)) < 0 || lm->speed_mbps <= 0) {
		nd_fix_plan_note(plan, "link: cannot plan, %s", lm->st.known ?
				 "speed or duplex unknown" : lm->st.reason);
		return 0;
	}
	snprintf(step.key, sizeof(step.key), LINK_KEY);
	snprintf(step.what, sizeof(step.what), "link speed/duplex/autoneg");
	snprintf(step.target, sizeof(step.target), "%lld/full", (long long)lm->speed_mbps);
	snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
	nd_fix_step_command(&step, "ethtool -s %s speed %lld duplex full autoneg off",
			    ctx->facts->ifname, (long long)lm->speed_mbps);
	nd_fix_plan_note(plan, "link: the partner does not negotiate; this end is forced "
			 "to %lld Mbit/s full duplex (revert turns autonegotiation back on)",
			 (long long)lm->speed_mbps);
	return nd_fix_plan_add(plan, &step);
}

static int link_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	struct nd_facts *facts;
	int r;

	if (strcmp(key, LINK_KEY))
		return -EINVAL;
	r = nd_fix_read_ethtool(ifname, &facts);
	if (r < 0)
		return r;
	r = format_value(&facts->linkmodes, ret_value, size);
	nd_facts_free(facts);
	return r;
}

static int link_set(const char *ifname, const char *key, const char *value)
{
	struct link_value v;

	if (strcmp(key, LINK_KEY) || parse_value(value, &v) < 0)
		return -EINVAL;
	return nd_fix_ethtool_set_link(ifname, v.autoneg, v.speed_mbps,
				       v.full ? DUPLEX_FULL : DUPLEX_HALF);
}

static int link_persist(const char *udev_match, const struct nd_fix_step *step,
			struct nd_fix_persist_text *out)
{
	struct link_value v;

	(void)udev_match;
	if (strcmp(step->key, LINK_KEY) || parse_value(step->target, &v) < 0)
		return -EINVAL;
	if (v.autoneg)
		return nd_fix_appendf(&out->text[ND_PERSIST_LINK], "AutoNegotiation=yes\n");
	return nd_fix_appendf(&out->text[ND_PERSIST_LINK],
			      "AutoNegotiation=no\nBitsPerSecond=%uM\nDuplex=%s\n",
			      v.speed_mbps, v.full ? "full" : "half");
}

static int link_check(const char *key, const char *value)
{
	struct link_value v;

	return strcmp(key, LINK_KEY) || parse_value(value, &v) < 0 ? -EINVAL : 0;
}

static const char *const link_checks[] = { "link.half_duplex", NULL };

const struct nd_fix_kind nd_fix_kind_link = {
	.name = "link",
	.check_ids = link_checks,
	.plan = link_plan,
	.get = link_get,
	.set = link_set,
	.persist = link_persist,
	.check = link_check,
};

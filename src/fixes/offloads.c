/*
 * offloads.c - fix kind "offloads": turn on the checksum, scatter-gather,
 * segmentation and GRO offloads the device supports (not "fixed") but has
 * off, through ETHTOOL_MSG_FEATURES_SET.  The table is in dependency
 * order: the kernel keeps TSO off until SG and a TX checksum are on, and
 * a feature whose dependency is off [fixed] is never planned
 * (facts/feature_deps.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "fixes.h"

struct offload {
	const char *feature;		/* kernel name (ethtool -k's indented names) */
	const char *alias;		/* ethtool -K word meaning exactly this bit, or NULL */
	const char *link_key;		/* systemd.link key, NULL: udev RUN ethtool */
};

static const struct offload offloads[] = {
	{ "rx-checksum", "rx", "ReceiveChecksumOffload" },
	{ "tx-checksum-ip-generic", NULL, "TransmitChecksumOffload" },
	{ "tx-checksum-ipv4", NULL, "TransmitChecksumOffload" },
	{ "tx-checksum-ipv6", NULL, "TransmitChecksumOffload" },
	{ "tx-scatter-gather", "sg", NULL },
	{ "tx-tcp-segmentation", NULL, "TCPSegmentationOffload" },
	{ "tx-tcp6-segmentation", NULL, "TCP6SegmentationOffload" },
	{ "tx-generic-segmentation", "gso", "GenericSegmentationOffload" },
	{ "rx-gro", "gro", "GenericReceiveOffload" },
};

static const struct offload *offload_find(const char *feature)
{
	for (size_t i = 0; i < sizeof(offloads) / sizeof(offloads[0]); i++)
		if (!strcmp(offloads[i].feature, feature))
			return &offloads[i];
	return NULL;
}

static int offloads_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
			 struct nd_fix_plan *plan)
{
	int r = 0;

	if (!ctx->facts->features.st.known) {
		nd_fix_plan_note(plan, "offloads: cannot plan, %s", ctx->facts->features.st.reason);
		return 0;
	}
	for (size_t i = 0; i < sizeof(offloads) / sizeof(offloads[0]) && r == 0; i++) {
		const struct nd_feature *feat = nd_facts_feature(ctx->facts, offloads[i].feature);
		struct nd_fix_step step = { .kind = &nd_fix_kind_offloads };

		/* wanted && !active: the kernel turns it on by itself once what it
		 * depends on is on; writing it would change nothing now. */
		if (!feat || feat->fixed || feat->active || feat->wanted)
			continue;
		/* A dependency the hardware cannot give (SG off [fixed] under
		 * TSO): the kernel would keep this off whatever we write. */
		if (nd_feature_blocked(ctx->facts, feat->name, NULL, NULL) == ND_DEP_FIXED_OFF)
			continue;
		snprintf(step.key, sizeof(step.key), "%s", feat->name);
		snprintf(step.what, sizeof(step.what), "feature %s", feat->name);
		snprintf(step.current, sizeof(step.current), "off");
		snprintf(step.target, sizeof(step.target), "on");
		snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
		nd_fix_step_command(&step, "ethtool -K %s %s on", ctx->facts->ifname,
				    offloads[i].alias ? offloads[i].alias : feat->name);
		r = nd_fix_plan_add(plan, &step);
	}
	return r;
}

static int offloads_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	const struct nd_feature *feat;
	struct nd_facts *facts;
	int r;

	r = nd_fix_read_ethtool(ifname, &facts);
	if (r < 0)
		return r;
	feat = nd_facts_feature(facts, key);
	if (!facts->features.st.known)
		r = -ENODATA;
	else if (!feat)
		r = -ENOENT;
	else
		snprintf(ret_value, size, "%s", feat->active ? "on" : "off");
	nd_facts_free(facts);
	return r;
}

static int offloads_set(const char *ifname, const char *key, const char *value)
{
	if (strcmp(value, "on") && strcmp(value, "off"))
		return -EINVAL;
	return nd_fix_ethtool_set_feature(ifname, key, !strcmp(value, "on"));
}

static int offloads_persist(const char *udev_match, const struct nd_fix_step *step,
			    struct nd_fix_persist_text *out)
{
	const struct offload *o = offload_find(step->key);

	if (o && o->link_key)
		return nd_fix_appendf(&out->text[ND_PERSIST_LINK], "%s=%s\n", o->link_key,
				      !strcmp(step->target, "on") ? "yes" : "no");
	return nd_fix_appendf(&out->text[ND_PERSIST_UDEV],
			      "ACTION==\"add\", SUBSYSTEM==\"net\", %s, "
			      "RUN+=\"/usr/sbin/ethtool -K $name %s %s\"\n",
			      udev_match, step->key, step->target);
}

static int offloads_check(const char *key, const char *value)
{
	if (!offload_find(key) || (strcmp(value, "on") && strcmp(value, "off")))
		return -EINVAL;
	return 0;
}

static const char *const offloads_checks[] = { "offload.disabled", NULL };

const struct nd_fix_kind nd_fix_kind_offloads = {
	.name = "offloads",
	.check_ids = offloads_checks,
	.plan = offloads_plan,
	.get = offloads_get,
	.set = offloads_set,
	.persist = offloads_persist,
	.check = offloads_check,
};

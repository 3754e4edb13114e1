/*
 * rings.c - fix kind "rings": RX/TX descriptor rings to the device
 * maximum when the ring.small check saw drops a deeper ring absorbs
 * (ETHTOOL_MSG_RINGS_SET).  Never shrinks a ring.
 */
#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "fixes.h"

struct ring_knob {
	const char *key;		/* also the ethtool -G word */
	const char *link_key;
	int attr;
	size_t size_off, max_off;
};

static const struct ring_knob knobs[] = {
	{ "rx", "RxBufferSize", ETHTOOL_A_RINGS_RX,
	  offsetof(struct nd_rings, rx), offsetof(struct nd_rings, rx_max) },
	{ "tx", "TxBufferSize", ETHTOOL_A_RINGS_TX,
	  offsetof(struct nd_rings, tx), offsetof(struct nd_rings, tx_max) },
};

static const struct ring_knob *knob_find(const char *key)
{
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (!strcmp(knobs[i].key, key))
			return &knobs[i];
	return NULL;
}

static unsigned field(const struct nd_rings *rings, size_t off)
{
	return *(const unsigned *)((const char *)rings + off);
}

static int rings_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		      struct nd_fix_plan *plan)
{
	const struct nd_rings *rings = &ctx->facts->rings;
	int r = 0;

	if (!rings->st.known) {
		nd_fix_plan_note(plan, "rings: cannot plan, %s", rings->st.reason);
		return 0;
	}
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]) && r == 0; i++) {
		unsigned now = field(rings, knobs[i].size_off), max = field(rings, knobs[i].max_off);
		struct nd_fix_step step = { .kind = &nd_fix_kind_rings };

		if (max <= now)
			continue;
		snprintf(step.key, sizeof(step.key), "%s", knobs[i].key);
		snprintf(step.what, sizeof(step.what), "%s ring", knobs[i].key);
		snprintf(step.current, sizeof(step.current), "%u", now);
		snprintf(step.target, sizeof(step.target), "%u", max);
		snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
		nd_fix_step_command(&step, "ethtool -G %s %s %u", ctx->facts->ifname,
				    knobs[i].key, max);
		r = nd_fix_plan_add(plan, &step);
	}
	return r;
}

static int rings_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	const struct ring_knob *knob = knob_find(key);
	struct nd_facts *facts;
	int r;

	if (!knob)
		return -EINVAL;
	r = nd_fix_read_ethtool(ifname, &facts);
	if (r < 0)
		return r;
	if (facts->rings.st.known)
		snprintf(ret_value, size, "%u", field(&facts->rings, knob->size_off));
	else
		r = -ENODATA;
	nd_facts_free(facts);
	return r;
}

static int rings_set(const char *ifname, const char *key, const char *value)
{
	const struct ring_knob *knob = knob_find(key);
	unsigned size;

	if (!knob || nd_fix_parse_unsigned(value, &size) < 0)
		return -EINVAL;
	return nd_fix_ethtool_set_u32(ifname, ETHTOOL_MSG_RINGS_SET, ETHTOOL_A_RINGS_HEADER,
				      knob->attr, size);
}

static int rings_persist(const char *udev_match, const struct nd_fix_step *step,
			 struct nd_fix_persist_text *out)
{
	const struct ring_knob *knob = knob_find(step->key);

	(void)udev_match;
	if (!knob)
		return -EINVAL;
	return nd_fix_appendf(&out->text[ND_PERSIST_LINK], "%s=%s\n", knob->link_key,
			      step->target);
}

static const char *const rings_checks[] = { "ring.small", NULL };

const struct nd_fix_kind nd_fix_kind_rings = {
	.name = "rings",
	.check_ids = rings_checks,
	.plan = rings_plan,
	.get = rings_get,
	.set = rings_set,
	.persist = rings_persist,
};

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

static const struct nd_fix_knob knobs[] = {
	{ "rx", "RxBufferSize", ETHTOOL_A_RINGS_RX,
	  offsetof(struct nd_rings, rx), offsetof(struct nd_rings, rx_max) },
	{ "tx", "TxBufferSize", ETHTOOL_A_RINGS_TX,
	  offsetof(struct nd_rings, tx), offsetof(struct nd_rings, tx_max) },
};

static const struct nd_fix_knobs rings = {
	offsetof(struct nd_facts, rings), ETHTOOL_MSG_RINGS_SET, ETHTOOL_A_RINGS_HEADER,
	knobs, sizeof(knobs) / sizeof(knobs[0]),
};

static int rings_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		      struct nd_fix_plan *plan)
{
	const struct nd_rings *ring_facts = &ctx->facts->rings;
	int r = 0;

	if (!ring_facts->st.known) {
		nd_fix_plan_note(plan, "rings: cannot plan, %s", ring_facts->st.reason);
		return 0;
	}
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]) && r == 0; i++) {
		unsigned now = nd_fix_knob_value(&rings, ctx->facts, knobs[i].value_off);
		unsigned max = nd_fix_knob_value(&rings, ctx->facts, knobs[i].max_off);
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
	return nd_fix_knob_get(&rings, ifname, key, ret_value, size);
}

static int rings_set(const char *ifname, const char *key, const char *value)
{
	return nd_fix_knob_set(&rings, ifname, key, value);
}

static int rings_persist(const char *udev_match, const struct nd_fix_step *step,
			 struct nd_fix_persist_text *out)
{
	(void)udev_match;
	return nd_fix_knob_persist(&rings, step, out);
}

static int rings_check(const char *key, const char *value)
{
	return nd_fix_knob_check(&rings, key, value);
}

static const char *const rings_checks[] = { "ring.small", NULL };

const struct nd_fix_kind nd_fix_kind_rings = {
	.name = "rings",
	.check_ids = rings_checks,
	.plan = rings_plan,
	.get = rings_get,
	.set = rings_set,
	.persist = rings_persist,
	.check = rings_check,
};

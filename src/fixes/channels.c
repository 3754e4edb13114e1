/*
 * channels.c - fix kind "channels": raise the queue count (combined, or
 * rx/tx where the device counts them separately) towards min(device
 * maximum, CPUs local to the NIC), through ETHTOOL_MSG_CHANNELS_SET.
 * Never lowers a count: fewer queues than CPUs is the problem, not more.
 */
#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "fixes.h"

static const struct nd_fix_knob knobs[] = {
	{ "combined", "CombinedChannels", ETHTOOL_A_CHANNELS_COMBINED_COUNT,
	  offsetof(struct nd_channels, combined), offsetof(struct nd_channels, combined_max) },
	{ "rx", "RxChannels", ETHTOOL_A_CHANNELS_RX_COUNT,
	  offsetof(struct nd_channels, rx), offsetof(struct nd_channels, rx_max) },
	{ "tx", "TxChannels", ETHTOOL_A_CHANNELS_TX_COUNT,
	  offsetof(struct nd_channels, tx), offsetof(struct nd_channels, tx_max) },
};

static const struct nd_fix_knobs channels = {
	offsetof(struct nd_facts, channels), ETHTOOL_MSG_CHANNELS_SET, ETHTOOL_A_CHANNELS_HEADER,
	knobs, sizeof(knobs) / sizeof(knobs[0]),
};

/* A test may force a target past the device maximum to make a step fail. */
static unsigned channel_target(const struct nd_fix_ctx *ctx, unsigned device_max)
{
	const char *forced = getenv("NICDOCTOR_TEST_CHANNELS_TARGET");
	unsigned target;

	if (forced && nd_fix_parse_unsigned(forced, &target) == 0)
		return target;
	return device_max < ctx->n_local_cpus ? device_max : ctx->n_local_cpus;
}

static int plan_knob(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		     const struct nd_fix_knob *knob, struct nd_fix_plan *plan)
{
	unsigned now = nd_fix_knob_value(&channels, ctx->facts, knob->value_off), target;
	struct nd_fix_step step = { .kind = &nd_fix_kind_channels };

	target = channel_target(ctx, nd_fix_knob_value(&channels, ctx->facts, knob->max_off));
	if (target <= now)
		return 0;
	snprintf(step.key, sizeof(step.key), "%s", knob->key);
	snprintf(step.what, sizeof(step.what), "%s channels", knob->key);
	snprintf(step.current, sizeof(step.current), "%u", now);
	snprintf(step.target, sizeof(step.target), "%u", target);
	snprintf(step.finding_id, sizeof(step.finding_id), "%s", finding->id);
	nd_fix_step_command(&step, "ethtool -L %s %s %u", ctx->facts->ifname, knob->key, target);
	return nd_fix_plan_add(plan, &step);
}

static int channels_plan(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
			 struct nd_fix_plan *plan)
{
	const struct nd_channels *ch = &ctx->facts->channels;
	int r;

	if (!ch->st.known) {
		nd_fix_plan_note(plan, "channels: cannot plan, %s", ch->st.reason);
		return 0;
	}
	if (ch->combined_max > 0)
		return plan_knob(ctx, finding, nd_fix_knob_find(&channels, "combined"), plan);
	r = ch->rx_max > 0 ? plan_knob(ctx, finding, nd_fix_knob_find(&channels, "rx"), plan) : 0;
	if (r == 0 && ch->tx_max > 0)
		r = plan_knob(ctx, finding, nd_fix_knob_find(&channels, "tx"), plan);
	return r;
}

static int channels_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	return nd_fix_knob_get(&channels, ifname, key, ret_value, size);
}

static int channels_set(const char *ifname, const char *key, const char *value)
{
	return nd_fix_knob_set(&channels, ifname, key, value);
}

static int channels_persist(const char *udev_match, const struct nd_fix_step *step,
			    struct nd_fix_persist_text *out)
{
	(void)udev_match;
	return nd_fix_knob_persist(&channels, step, out);
}

static int channels_check(const char *key, const char *value)
{
	return nd_fix_knob_check(&channels, key, value);
}

static const char *const channels_checks[] = { "queues.single", "queues.below_cpus", NULL };

const struct nd_fix_kind nd_fix_kind_channels = {
	.name = "channels",
	.check_ids = channels_checks,
	.plan = channels_plan,
	.get = channels_get,
	.set = channels_set,
	.persist = channels_persist,
	.check = channels_check,
};

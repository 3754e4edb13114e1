/*
 * ethtool_text_link.c - `ethtool IF` (link settings), `ethtool -k` and
 * `ethtool -S` text into nd_linkmodes, nd_features and nd_nicstats.
 * Block finding and failure reasons are in ethtool_text.c.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "ethtool_text.h"

enum mode_list { MODES_NONE, MODES_SUPPORTED, MODES_ADVERTISED, MODES_PARTNER };

static void add_modes(struct nd_linkmodes *lm, enum mode_list which, struct nd_span val)
{
	char (*list)[48];
	unsigned *n;
	size_t pos = 0;
	struct nd_span tok;

	switch (which) {
	case MODES_SUPPORTED: list = lm->supported; n = &lm->n_supported; break;
	case MODES_ADVERTISED: list = lm->advertised; n = &lm->n_advertised; break;
	case MODES_PARTNER: list = lm->lp_advertised; n = &lm->n_lp_advertised; break;
	default: return;
	}
	while (nd_span_token(val, &pos, &tok)) {
		/* "Not reported": the driver did not say. */
		if (nd_span_eq(tok, "Not") || nd_span_eq(tok, "reported"))
			continue;
		if (*n < ND_MAX_LINKMODES)
			nd_span_copy(tok, list[(*n)++], sizeof(list[0]));
	}
}

static enum mode_list mode_key(struct nd_span key)
{
	if (nd_span_eq(key, "Supported link modes"))
		return MODES_SUPPORTED;
	if (nd_span_eq(key, "Advertised link modes"))
		return MODES_ADVERTISED;
	if (nd_span_eq(key, "Link partner advertised link modes"))
		return MODES_PARTNER;
	return MODES_NONE;
}

static void add_partner_bit(struct nd_linkmodes *lm, const char *bit)
{
	if (lm->n_lp_advertised < ND_MAX_LINKMODES)
		nd_strlcpy(lm->lp_advertised[lm->n_lp_advertised++], bit, sizeof(lm->lp_advertised[0]));
}

/*
 * "Link partner advertised pause frame use: Symmetric Receive-only" and
 * "...auto-negotiation: Yes": ethtool prints the peer's Pause, Asym_Pause
 * and Autoneg bits so (dump_pause: Symmetric = Pause, Receive-only adds
 * Asym_Pause, Transmit-only = Asym_Pause alone, No = neither); the netlink
 * probe stores the same bits by name in lp_advertised.
 */
static bool parse_partner_line(struct nd_linkmodes *lm, struct nd_span key, struct nd_span val)
{
	if (nd_span_eq(key, "Link partner advertised pause frame use")) {
		if (nd_span_starts(val, "Symmetric"))
			add_partner_bit(lm, "Pause");
		if (nd_span_contains(val, "Receive-only") || nd_span_starts(val, "Transmit-only"))
			add_partner_bit(lm, "Asym_Pause");
		return true;
	}
	if (nd_span_eq(key, "Link partner advertised auto-negotiation")) {
		if (nd_span_eq(val, "Yes"))
			add_partner_bit(lm, "Autoneg");
		return true;
	}
	return false;
}

static void parse_speed(struct nd_linkmodes *lm, struct nd_span val)
{
	uint64_t mbps;
	size_t used;

	/* "25000Mb/s"; "Unknown!" when the link is down or virtual. */
	if (nd_span_u64_prefix(val, &mbps, &used) == 0 && mbps <= INT32_MAX &&
	    nd_span_eq(nd_span_from(val, used), "Mb/s"))
		lm->speed_mbps = (int64_t)mbps;
}

int nd_parse_ethtool_settings(const char *text, size_t len, struct nd_linkmodes *out,
			      int *ret_carrier)
{
	struct et_ctx ctx;
	struct nd_span line, key, val;
	enum mode_list modes = MODES_NONE;
	unsigned seen = 0;
	bool listed = false;
	int carrier = -1;

	memset(out, 0, sizeof(*out));
	out->speed_mbps = -1;
	out->duplex = -1;
	if (ret_carrier)
		*ret_carrier = -1;
	if (et_begin(text, len, "Settings for ", false, "ethtool", &ctx) < 0)
		return et_fail(&ctx, &out->st);
	while (et_line(&ctx, true, seen > 0 || carrier >= 0, &line)) {
		if (!nd_span_kv(line, &key, &val)) {
			/* A wrapped list of link modes, or of message levels. */
			add_modes(out, modes, line);
			continue;
		}
		modes = mode_key(key);
		if (modes != MODES_NONE) {
			add_modes(out, modes, val);
			listed |= modes == MODES_SUPPORTED;
			seen++;
		} else if (parse_partner_line(out, key, val)) {
			continue;
		} else if (nd_span_eq(key, "Speed")) {
			parse_speed(out, val);
			seen++;
		} else if (nd_span_eq(key, "Duplex")) {
			out->duplex = nd_span_eq(val, "Full") ? 1 : nd_span_eq(val, "Half") ? 0 : -1;
		} else if (nd_span_eq(key, "Auto-negotiation")) {
			out->autoneg = nd_span_eq(val, "on");
		} else if (nd_span_eq(key, "Link detected")) {
			carrier = nd_span_eq(val, "yes") ? 1 : nd_span_eq(val, "no") ? 0 : -1;
		}
	}
	if (ret_carrier)
		*ret_carrier = carrier;
	if (!seen) {
		/* lo, tun: only "Link detected", no link settings to judge. */
		if (carrier >= 0 && !ctx.said[0])
			nd_strlcpy(ctx.said, "only 'Link detected'", sizeof(ctx.said));
		if (carrier >= 0 && !strstr(ctx.said, "not supported"))
			nd_strlcpy(ctx.said + strlen(ctx.said), " (not supported)",
				   sizeof(ctx.said) - strlen(ctx.said));
		return et_fail(&ctx, &out->st);
	}
	nd_status_set_known(&out->st);
	/* "Supported link modes: Not reported" is the driver's word; no such
	 * line (a cut paste) is no word at all. */
	if (listed)
		nd_status_set_known(&out->modes_st);
	else
		nd_status_set_unknown(&out->modes_st, "the text has no 'Supported link modes'");
	return 0;
}

/*
 * ethtool -k prints some features under its own legacy names (off_flag_def
 * in ethtool.c); the kernel's names, which the netlink probe and the checks
 * use, are these.  The three wildcard groups (tx-checksumming,
 * scatter-gather, tcp-segmentation-offload) are followed by their members
 * under kernel names, which overwrite the group's guess; ethtool before
 * 3.4 printed only the group line.
 */
static const struct { const char *legacy, *kernel; } legacy_names[] = {
	{ "rx-checksumming", "rx-checksum" },
	{ "tx-checksumming", "tx-checksum-ip-generic" },
	{ "scatter-gather", "tx-scatter-gather" },
	{ "tcp-segmentation-offload", "tx-tcp-segmentation" },
	{ "udp-fragmentation-offload", "tx-udp-fragmentation" },
	{ "generic-segmentation-offload", "tx-generic-segmentation" },
	{ "generic-receive-offload", "rx-gro" },
	{ "large-receive-offload", "rx-lro" },
	{ "rx-vlan-offload", "rx-vlan-hw-parse" },
	{ "tx-vlan-offload", "tx-vlan-hw-insert" },
	{ "ntuple-filters", "rx-ntuple-filter" },
	{ "receive-hashing", "rx-hashing" },
};

static struct nd_feature *feature_slot(struct nd_features *out, const char *name)
{
	for (unsigned i = 0; i < out->count; i++)
		if (!strcmp(out->f[i].name, name))
			return &out->f[i];
	if (out->count >= ND_MAX_FEATURES)
		return NULL;
	nd_strlcpy(out->f[out->count].name, name, sizeof(out->f[0].name));
	return &out->f[out->count++];
}

/* "on", "off [fixed]", "off [requested on]", "on [requested off]". */
static int feature_value(struct nd_span val, struct nd_feature *ret)
{
	if (nd_span_starts(val, "on"))
		ret->active = true;
	else if (nd_span_starts(val, "off"))
		ret->active = false;
	else
		return -EINVAL;
	ret->fixed = nd_span_contains(val, "[fixed]");
	ret->wanted = ret->active;
	if (nd_span_contains(val, "[requested on]"))
		ret->wanted = true;
	else if (nd_span_contains(val, "[requested off]"))
		ret->wanted = false;
	return 0;
}

int nd_parse_ethtool_features(const char *text, size_t len, struct nd_features *out)
{
	struct et_ctx ctx;
	struct nd_span line, key, val;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	/* ethtool < 3.4 called the block "Offload parameters for". */
	if (et_begin(text, len, "Features for ", false, "ethtool -k", &ctx) < 0 &&
	    et_begin(text, len, "Offload parameters for ", false, "ethtool -k", &ctx) < 0)
		return et_fail(&ctx, &out->st);
	while (et_line(&ctx, true, seen > 0, &line)) {
		struct nd_feature value, *slot;
		char name[sizeof(value.name)];

		if (!nd_span_kv(line, &key, &val))
			break;
		if (!key.len || feature_value(val, &value) < 0)
			continue;
		nd_span_copy(key, name, sizeof(name));
		for (size_t i = 0; i < ND_ARRAY_SIZE(legacy_names); i++)
			if (!strcmp(name, legacy_names[i].legacy))
				nd_strlcpy(name, legacy_names[i].kernel, sizeof(name));
		slot = feature_slot(out, name);
		if (!slot)
			break;
		slot->active = value.active;
		slot->wanted = value.wanted;
		slot->fixed = value.fixed;
		seen++;
	}
	if (!seen)
		return et_fail(&ctx, &out->st);
	nd_status_set_known(&out->st);
	return 0;
}

int nd_parse_ethtool_stats(const char *text, size_t len, struct nd_nicstats *out)
{
	struct et_ctx ctx;
	struct nd_span line;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	if (et_begin(text, len, "NIC statistics:", false, "ethtool -S", &ctx) < 0)
		return et_fail(&ctx, &out->st);
	while (et_line(&ctx, true, seen > 0, &line)) {
		const char *colon = NULL;
		struct nd_span name, val;
		uint64_t value;

		/* The value follows the last ':' ("rxq0: rx_pkts: 12" on be2net). */
		for (size_t i = line.len; i > 0; i--)
			if (line.p[i - 1] == ':') {
				colon = line.p + i - 1;
				break;
			}
		if (!colon)
			break;
		name = nd_span_trim((struct nd_span){ line.p, (size_t)(colon - line.p) });
		val = nd_span_trim(nd_span_from(line, (size_t)(colon - line.p) + 1));
		if (!name.len || nd_span_u64(val, &value) < 0)
			continue;
		if (out->count < ND_MAX_STATS) {
			nd_span_copy(name, out->s[out->count].name, sizeof(out->s[0].name));
			out->s[out->count++].value = value;
		}
		seen++;
	}
	if (!seen)
		return et_fail(&ctx, &out->st);
	nd_status_set_known(&out->st);
	return 0;
}

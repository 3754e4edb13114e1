/*
 * ethtool.c - the ethtool netlink probe source: one table row per message
 * (as ethtool's netlink/ directory), each filling one facts group.  The
 * flat messages (channels, rings, coalesce, pause) are described by tables
 * of {attribute, field}; link modes and features live in ethtool_modes.c.
 * A message the driver or kernel refuses leaves its group unknown with the
 * kernel's reason; it never stops the other messages.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/ethtool_nl.h"

/* An attribute copied into a field: u32 into unsigned, u8 into bool. */
struct flat_attr {
	int attr;
	size_t off;
	enum { FLAT_U32, FLAT_BOOL } type;
};

#define U32(a, S, m)  { a, offsetof(S, m), FLAT_U32 }
#define BOOL(a, S, m) { a, offsetof(S, m), FLAT_BOOL }

static const struct flat_attr channels_attrs[] = {
	U32(ETHTOOL_A_CHANNELS_RX_COUNT, struct nd_channels, rx),
	U32(ETHTOOL_A_CHANNELS_RX_MAX, struct nd_channels, rx_max),
	U32(ETHTOOL_A_CHANNELS_TX_COUNT, struct nd_channels, tx),
	U32(ETHTOOL_A_CHANNELS_TX_MAX, struct nd_channels, tx_max),
	U32(ETHTOOL_A_CHANNELS_OTHER_COUNT, struct nd_channels, other),
	U32(ETHTOOL_A_CHANNELS_OTHER_MAX, struct nd_channels, other_max),
	U32(ETHTOOL_A_CHANNELS_COMBINED_COUNT, struct nd_channels, combined),
	U32(ETHTOOL_A_CHANNELS_COMBINED_MAX, struct nd_channels, combined_max),
	{ 0 }
};

static const struct flat_attr rings_attrs[] = {
	U32(ETHTOOL_A_RINGS_RX, struct nd_rings, rx),
	U32(ETHTOOL_A_RINGS_RX_MAX, struct nd_rings, rx_max),
	U32(ETHTOOL_A_RINGS_RX_MINI, struct nd_rings, rx_mini),
	U32(ETHTOOL_A_RINGS_RX_MINI_MAX, struct nd_rings, rx_mini_max),
	U32(ETHTOOL_A_RINGS_RX_JUMBO, struct nd_rings, rx_jumbo),
	U32(ETHTOOL_A_RINGS_RX_JUMBO_MAX, struct nd_rings, rx_jumbo_max),
	U32(ETHTOOL_A_RINGS_TX, struct nd_rings, tx),
	U32(ETHTOOL_A_RINGS_TX_MAX, struct nd_rings, tx_max),
	{ 0 }
};

static const struct flat_attr coalesce_attrs[] = {
	U32(ETHTOOL_A_COALESCE_RX_USECS, struct nd_coalesce, rx_usecs),
	U32(ETHTOOL_A_COALESCE_RX_MAX_FRAMES, struct nd_coalesce, rx_frames),
	U32(ETHTOOL_A_COALESCE_TX_USECS, struct nd_coalesce, tx_usecs),
	U32(ETHTOOL_A_COALESCE_TX_MAX_FRAMES, struct nd_coalesce, tx_frames),
	BOOL(ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, struct nd_coalesce, adaptive_rx),
	BOOL(ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, struct nd_coalesce, adaptive_tx),
	{ 0 }
};

static const struct flat_attr pause_attrs[] = {
	BOOL(ETHTOOL_A_PAUSE_AUTONEG, struct nd_pause, autoneg),
	BOOL(ETHTOOL_A_PAUSE_RX, struct nd_pause, rx),
	BOOL(ETHTOOL_A_PAUSE_TX, struct nd_pause, tx),
	{ 0 }
};

struct flat_ctx {
	const struct flat_attr *attrs;
	void *group;
};

static int flat_parse(struct nlattr **tb, void *arg)
{
	struct flat_ctx *ctx = arg;

	for (const struct flat_attr *a = ctx->attrs; a->attr; a++) {
		struct nlattr *na = tb[a->attr];
		char *field = (char *)ctx->group + a->off;

		/* Absent: the driver does not have that parameter; 0 as documented
		 * in facts.h ("a count the device does not have is 0/0"). */
		if (!na)
			continue;
		if (a->type == FLAT_U32 && nla_len(na) >= 4)
			*(unsigned *)field = nla_get_u32(na);
		else if (a->type == FLAT_BOOL && nla_len(na) >= 1)
			*(bool *)field = nla_get_u8(na) != 0;
	}
	return 0;
}

static int flat_get(struct nd_ethnl *nl, uint8_t cmd, int maxattr,
		    const struct flat_attr *attrs, void *group)
{
	struct flat_ctx ctx = { .attrs = attrs, .group = group };

	return nd_ethnl_get(nl, cmd, 0, NULL, NULL, maxattr, flat_parse, &ctx);
}

static int get_channels(struct nd_ethnl *nl, void *group)
{
	return flat_get(nl, ETHTOOL_MSG_CHANNELS_GET, ETHTOOL_A_CHANNELS_MAX, channels_attrs,
			group);
}

static int get_rings(struct nd_ethnl *nl, void *group)
{
	return flat_get(nl, ETHTOOL_MSG_RINGS_GET, ETHTOOL_A_RINGS_MAX, rings_attrs, group);
}

static int get_coalesce(struct nd_ethnl *nl, void *group)
{
	return flat_get(nl, ETHTOOL_MSG_COALESCE_GET, ETHTOOL_A_COALESCE_MAX, coalesce_attrs,
			group);
}

static int get_pause(struct nd_ethnl *nl, void *group)
{
	return flat_get(nl, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_MAX, pause_attrs, group);
}

static int rss_parse(struct nlattr **tb, void *arg)
{
	struct nd_rss *rss = arg;
	struct nlattr *indir = tb[ND_ETHTOOL_A_RSS_INDIR];
	unsigned entries;

	/* No table: the device spreads nothing (or has a single queue). */
	if (!indir)
		return 0;
	entries = (unsigned)nla_len(indir) / sizeof(uint32_t);
	if (entries > ND_MAX_RSS_INDIR)
		entries = ND_MAX_RSS_INDIR;
	memcpy(rss->indir, nla_data(indir), entries * sizeof(uint32_t));
	rss->size = entries;
	return 0;
}

static int get_rss(struct nd_ethnl *nl, void *group)
{
	return nd_ethnl_get(nl, ND_ETHTOOL_MSG_RSS_GET, 0, NULL, NULL, ND_ETHTOOL_A_RSS_MAX,
			    rss_parse, group);
}

struct ethtool_msg {
	const char *name;		/* in reasons: "channels" */
	uint8_t cmd;
	size_t group_off;		/* in struct nd_facts; nd_status first */
	size_t group_size;
	int (*get)(struct nd_ethnl *nl, void *group);
};

#define MSG(name, cmd, member, fn) \
	{ name, cmd, offsetof(struct nd_facts, member), \
	  sizeof(((struct nd_facts *)0)->member), fn }

static const struct ethtool_msg ethtool_msgs[] = {
	MSG("linkmodes", ETHTOOL_MSG_LINKMODES_GET, linkmodes, nd_ethnl_linkmodes),
	MSG("channels", ETHTOOL_MSG_CHANNELS_GET, channels, get_channels),
	MSG("features", ETHTOOL_MSG_FEATURES_GET, features, nd_ethnl_features),
	MSG("rings", ETHTOOL_MSG_RINGS_GET, rings, get_rings),
	MSG("coalesce", ETHTOOL_MSG_COALESCE_GET, coalesce, get_coalesce),
	MSG("pause", ETHTOOL_MSG_PAUSE_GET, pause, get_pause),
	MSG("rss", ND_ETHTOOL_MSG_RSS_GET, rss, get_rss),
};

static void set_all_unknown(struct nd_facts *facts, const char *why)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(ethtool_msgs); i++) {
		struct nd_status *st = (struct nd_status *)((char *)facts +
							    ethtool_msgs[i].group_off);

		memset(st, 0, ethtool_msgs[i].group_size);
		nd_status_set_unknown(st, "ethtool netlink: %s", why);
	}
}

static void run_msg(struct nd_ethnl *nl, const struct ethtool_msg *m, struct nd_facts *facts)
{
	void *group = (char *)facts + m->group_off;
	struct nd_status *st = group;
	int r;

	memset(group, 0, m->group_size);
	r = m->get(nl, group);
	if (r == 0) {
		nd_status_set_known(st);
		return;
	}
	memset(group, 0, m->group_size);
	if (r == -EOPNOTSUPP && !nd_ethnl_has_op(nl, m->cmd))
		nd_status_set_unknown(st, "kernel has no ethtool netlink %s message", m->name);
	else if (r == -EOPNOTSUPP)
		nd_status_set_unknown(st, "ethtool netlink: %s not supported by the driver",
				      m->name);
	else
		nd_status_set_unknown(st, "ethtool netlink: %s: %s", m->name, strerror(-r));
}

void nd_probe_ethtool(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_ethnl nl;
	int r;

	/* In a sysroot the snapshot source fills these groups. */
	if (!nd_sysroot_is_live(root))
		return;
	r = nd_ethnl_open(&nl, ifname);
	if (r < 0) {
		set_all_unknown(facts, r == -EPROTONOSUPPORT ?
				"kernel has no ethtool netlink family" : strerror(-r));
		return;
	}
	for (size_t i = 0; i < ND_ARRAY_SIZE(ethtool_msgs); i++)
		run_msg(&nl, &ethtool_msgs[i], facts);
	nd_ethnl_close(&nl);
}

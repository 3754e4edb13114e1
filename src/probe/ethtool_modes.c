/*
 * ethtool_modes.c - the two bitset-shaped ethtool messages: LINKMODES_GET
 * (speed, duplex, autoneg, supported / advertised / partner link modes) and
 * FEATURES_GET (offloads with active / wanted / fixed, as `ethtool -k`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>

#include "nicdoctor/common.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/ethtool_nl.h"

/* ---- link modes ---- */

static void add_mode(char (*list)[48], unsigned *count, const char *name)
{
	if (!name || *count >= ND_MAX_LINKMODES)
		return;
	nd_strlcpy(list[*count], name, sizeof(list[0]));
	(*count)++;
}

static void ours_bit(unsigned index, const char *name, bool set, void *arg)
{
	struct nd_linkmodes *lm = arg;

	(void)index;
	/* OURS carries advertised as the value, supported as the mask. */
	add_mode(lm->supported, &lm->n_supported, name);
	if (set)
		add_mode(lm->advertised, &lm->n_advertised, name);
}

static void peer_bit(unsigned index, const char *name, bool set, void *arg)
{
	struct nd_linkmodes *lm = arg;

	(void)index;
	if (set)
		add_mode(lm->lp_advertised, &lm->n_lp_advertised, name);
}

static int linkmodes_parse(struct nlattr **tb, void *arg)
{
	struct nd_linkmodes *lm = arg;
	struct nlattr *a;

	lm->speed_mbps = -1;
	lm->duplex = -1;
	a = tb[ETHTOOL_A_LINKMODES_SPEED];
	if (a && nla_len(a) >= 4 && nla_get_u32(a) != (uint32_t)SPEED_UNKNOWN)
		lm->speed_mbps = nla_get_u32(a);
	a = tb[ETHTOOL_A_LINKMODES_DUPLEX];
	if (a && nla_len(a) >= 1 && (nla_get_u8(a) == DUPLEX_HALF || nla_get_u8(a) == DUPLEX_FULL))
		lm->duplex = nla_get_u8(a) == DUPLEX_FULL ? 1 : 0;
	a = tb[ETHTOOL_A_LINKMODES_AUTONEG];
	lm->autoneg = a && nla_len(a) >= 1 && nla_get_u8(a) == AUTONEG_ENABLE;
	if (tb[ETHTOOL_A_LINKMODES_OURS])
		nd_ethnl_bitset_walk(tb[ETHTOOL_A_LINKMODES_OURS], ours_bit, lm);
	if (tb[ETHTOOL_A_LINKMODES_PEER])
		nd_ethnl_bitset_walk(tb[ETHTOOL_A_LINKMODES_PEER], peer_bit, lm);
	/* The kernel always sends its bitset: an empty one is the driver's. */
	nd_status_set_known(&lm->modes_st);
	return 0;
}

int nd_ethnl_linkmodes(struct nd_ethnl *nl, void *group)
{
	/* Verbose bitsets: the kernel sends each mode's name with its bit. */
	return nd_ethnl_get(nl, ETHTOOL_MSG_LINKMODES_GET, 0, NULL, NULL,
			    ETHTOOL_A_LINKMODES_MAX, linkmodes_parse, group);
}

/* ---- features ---- */

/* Per-bit state while the four bitsets of FEATURES_GET are merged. */
struct features_ctx {
	struct nd_features *features;
	bool named[ND_MAX_FEATURES];
	bool hw[ND_MAX_FEATURES], nochange[ND_MAX_FEATURES];
	bool wanted[ND_MAX_FEATURES], active[ND_MAX_FEATURES];
};

static void feature_name(unsigned index, const char *name, void *arg)
{
	struct features_ctx *ctx = arg;

	/* Retired feature bits keep their slot with an empty name. */
	if (index >= ND_MAX_FEATURES || !name || !name[0])
		return;
	nd_strlcpy(ctx->features->f[index].name, name, sizeof(ctx->features->f[index].name));
	ctx->named[index] = true;
}

#define FEATURE_BIT_FN(field) \
	static void field##_bit(unsigned index, const char *name, bool set, void *arg) \
	{ \
		struct features_ctx *ctx = arg; \
		if (index < ND_MAX_FEATURES) { \
			ctx->field[index] = set; \
			feature_name(index, name, arg); \
		} \
	}
FEATURE_BIT_FN(hw)
FEATURE_BIT_FN(wanted)
FEATURE_BIT_FN(active)
FEATURE_BIT_FN(nochange)

static int features_parse(struct nlattr **tb, void *arg)
{
	struct features_ctx *ctx = arg;

	if (!tb[ETHTOOL_A_FEATURES_ACTIVE])
		return -EBADMSG;
	nd_ethnl_bitset_walk(tb[ETHTOOL_A_FEATURES_HW], hw_bit, ctx);
	nd_ethnl_bitset_walk(tb[ETHTOOL_A_FEATURES_WANTED], wanted_bit, ctx);
	nd_ethnl_bitset_walk(tb[ETHTOOL_A_FEATURES_ACTIVE], active_bit, ctx);
	nd_ethnl_bitset_walk(tb[ETHTOOL_A_FEATURES_NOCHANGE], nochange_bit, ctx);
	return 0;
}

int nd_ethnl_features(struct nd_ethnl *nl, void *group)
{
	struct features_ctx *ctx = calloc(1, sizeof(*ctx));
	struct nd_features *features = group;
	int r;

	if (!ctx)
		return -ENOMEM;
	ctx->features = features;
	/* Bitsets list only set bits; the string set names the ones that are
	 * off and fixed too, so the list is as complete as `ethtool -k`. */
	r = nd_ethnl_strings(nl, ETH_SS_FEATURES, feature_name, ctx);
	if (r == 0)
		r = nd_ethnl_get(nl, ETHTOOL_MSG_FEATURES_GET, 0, NULL, NULL,
				 ETHTOOL_A_FEATURES_MAX, features_parse, ctx);
	features->count = 0;
	for (unsigned i = 0; r == 0 && i < ND_MAX_FEATURES; i++) {
		if (!ctx->named[i])
			continue;
		/* Compact the array, keeping kernel order. */
		if (features->count != i)
			features->f[features->count] = features->f[i];
		features->f[features->count].active = ctx->active[i];
		features->f[features->count].wanted = ctx->wanted[i];
		/* As ethtool -k: not changeable by the user, or never changes. */
		features->f[features->count].fixed = !ctx->hw[i] || ctx->nochange[i];
		features->count++;
	}
	memset(&features->f[features->count], 0,
	       (ND_MAX_FEATURES - features->count) * sizeof(features->f[0]));
	free(ctx);
	return r;
}

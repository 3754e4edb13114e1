/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * feature_deps.c - which offloads the kernel keeps off until another is on
 * (netdev_fix_features in net/core/dev.c): every TSO and GSO needs
 * scatter-gather; IPv4 TSO needs a generic or IPv4 TX checksum, IPv6 TSO a
 * generic or IPv6 one; hardware GRO needs RX checksum.  GRO needs nothing.
 * A feature "off [requested on]" is the kernel refusing it for one of
 * these; a dependency "off [fixed]" is the hardware, and nothing a user
 * switches makes the feature come on.  Shared by offload.disabled and the
 * offloads fix kind, so the check never proposes what the plan would skip.
 */
#include <string.h>

#include "nicdoctor/facts.h"

static const struct nd_feature_dep dep_sg = {
	"scatter-gather", "sg", { "tx-scatter-gather" },
};
static const struct nd_feature_dep dep_csum4 = {
	"TX checksum", "tx", { "tx-checksum-ip-generic", "tx-checksum-ipv4" },
};
static const struct nd_feature_dep dep_csum6 = {
	"IPv6 TX checksum", "tx", { "tx-checksum-ip-generic", "tx-checksum-ipv6" },
};
static const struct nd_feature_dep dep_rxcsum = {
	"RX checksum", "rx", { "rx-checksum" },
};

static const struct {
	const char *feature;
	const struct nd_feature_dep *deps[ND_FEATURE_MAX_DEPS];
} rules[] = {
	{ "tx-tcp-segmentation", { &dep_sg, &dep_csum4 } },
	{ "tx-tcp-ecn-segmentation", { &dep_sg, &dep_csum4 } },
	{ "tx-tcp-mangleid-segmentation", { &dep_sg, &dep_csum4 } },
	{ "tx-tcp6-segmentation", { &dep_sg, &dep_csum6 } },
	{ "tx-generic-segmentation", { &dep_sg } },
	{ "rx-gro-hw", { &dep_rxcsum } },
};

const struct nd_feature_dep *nd_feature_dep(const char *feature, unsigned index)
{
	if (!feature || index >= ND_FEATURE_MAX_DEPS)
		return NULL;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].feature, feature))
			return rules[i].deps[index];
	return NULL;
}

enum nd_dep_state nd_feature_dep_state(const struct nd_facts *facts,
				       const struct nd_feature_dep *dep,
				       const struct nd_feature **ret_blocker)
{
	const struct nd_feature *first = NULL, *changeable = NULL;

	for (unsigned i = 0; i < ND_FEATURE_DEP_ALTS && dep->any_of[i]; i++) {
		const struct nd_feature *feat = nd_facts_feature(facts, dep->any_of[i]);

		if (!feat)
			continue;
		if (feat->active)
			return ND_DEP_MET;
		if (!first)
			first = feat;
		if (!feat->fixed && !changeable)
			changeable = feat;
	}
	if (ret_blocker)
		*ret_blocker = changeable ? changeable : first;
	/* Not listed at all (a cut paste): nothing says it blocks. */
	if (!first)
		return ND_DEP_UNKNOWN;
	return changeable ? ND_DEP_OFF : ND_DEP_FIXED_OFF;
}

enum nd_dep_state nd_feature_blocked(const struct nd_facts *facts, const char *feature,
				     const struct nd_feature_dep **ret_dep,
				     const struct nd_feature **ret_blocker)
{
	enum nd_dep_state worst = ND_DEP_MET;
	const struct nd_feature_dep *dep;

	/* A dependency the hardware cannot give decides before one a
	 * user could switch on: the feature can never come on. */
	for (unsigned i = 0; (dep = nd_feature_dep(feature, i)) != NULL; i++) {
		const struct nd_feature *blocker = NULL;
		enum nd_dep_state state = nd_feature_dep_state(facts, dep, &blocker);

		if (state == ND_DEP_FIXED_OFF || (state == ND_DEP_OFF && worst != ND_DEP_OFF)) {
			worst = state;
			if (ret_dep)
				*ret_dep = dep;
			if (ret_blocker)
				*ret_blocker = blocker;
			if (state == ND_DEP_FIXED_OFF)
				break;
		}
	}
	return worst;
}

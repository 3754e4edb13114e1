/*
 * offload_disabled.c - a segmentation, receive-coalescing or checksum
 * offload the device can do is switched off.  Without TSO/GSO every
 * 1448-byte segment goes down the stack on its own, without GRO every
 * received frame goes up it on its own (about 45x more per-packet work
 * than a 64 KB aggregate), and without checksum offload the CPU touches
 * every byte: the host runs out of CPU well below line rate.
 *
 * LRO is only reported: it merges frames in a way that cannot be
 * re-segmented exactly, so it must stay off on a host that forwards or
 * bridges (the kernel turns it off itself there).
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

#define OFFLOAD_MAX_FEATURES 2

enum offload_state { OFFLOAD_ABSENT, OFFLOAD_ON, OFFLOAD_FIXED_OFF, OFFLOAD_OFF };

/* One switch of `ethtool -K` and the features it stands for; the offload
 * is on when any of them is active.  TX checksum counts as on with the
 * generic (any protocol) or the IPv4 bit: the ceiling model is TCP/IPv4.
 * The kernel's dependencies between them are in facts/feature_deps.c. */
struct offload {
	const char *keyword;			/* ethtool -K keyword */
	const char *label;			/* for the title */
	const char *features[OFFLOAD_MAX_FEATURES];
};

/* Dependency order: TSO needs SG and TX checksum, so those come first. */
static const struct offload offloads[] = {
	{ "sg", "scatter-gather", { "tx-scatter-gather" } },
	{ "tx", "TX checksum", { "tx-checksum-ip-generic", "tx-checksum-ipv4" } },
	{ "rx", "RX checksum", { "rx-checksum" } },
	{ "tso", "TSO", { "tx-tcp-segmentation" } },
	{ "gso", "GSO", { "tx-generic-segmentation" } },
	{ "gro", "GRO", { "rx-gro" } },
};

/* What one switch is, and what keeps it off when it is off. */
struct offload_view {
	enum offload_state state;
	bool wanted;				/* "off [requested on]" */
	enum nd_dep_state dep_state;		/* ND_DEP_MET: nothing keeps it off */
	const struct nd_feature_dep *dep;
	const struct nd_feature *blocker;
	char text[160];				/* evidence */
};

static void offload_view(const struct nd_facts *facts, const struct offload *o,
			 struct offload_view *v)
{
	bool present = false, changeable = false;

	memset(v, 0, sizeof(*v));
	v->dep_state = ND_DEP_MET;
	for (unsigned i = 0; i < OFFLOAD_MAX_FEATURES && o->features[i]; i++) {
		const struct nd_feature *feat = nd_facts_feature(facts, o->features[i]);

		if (!feat)
			continue;
		if (feat->active) {
			v->state = OFFLOAD_ON;
			snprintf(v->text, sizeof(v->text), "on");
			return;
		}
		present = true;
		changeable |= !feat->fixed;
		v->wanted |= feat->wanted;
		if (!feat->fixed && v->dep_state == ND_DEP_MET)
			v->dep_state = nd_feature_blocked(facts, feat->name, &v->dep, &v->blocker);
	}
	v->state = !present ? OFFLOAD_ABSENT : changeable ? OFFLOAD_OFF : OFFLOAD_FIXED_OFF;
	if (v->state == OFFLOAD_ABSENT)
		snprintf(v->text, sizeof(v->text), "not offered");
	else if (v->state == OFFLOAD_FIXED_OFF)
		snprintf(v->text, sizeof(v->text), "off [fixed]: the device cannot");
	else if (v->dep_state == ND_DEP_FIXED_OFF)
		snprintf(v->text, sizeof(v->text), "%s: needs %s, which the device cannot do "
			 "(%s off [fixed])", v->wanted ? "off [requested on]" : "off",
			 v->dep->label, v->blocker->name);
	else if (v->dep_state == ND_DEP_OFF && v->wanted)
		snprintf(v->text, sizeof(v->text), "off [requested on]: the kernel keeps it off "
			 "until %s is on", v->dep->label);
	else if (v->wanted)
		/* Requested, every dependency we know met: the driver's own
		 * rule (ndo_fix_features) keeps it off. */
		snprintf(v->text, sizeof(v->text), "off [requested on]: the driver keeps it off");
	else
		snprintf(v->text, sizeof(v->text), "off");
}

/* Whether switching this offload on is a change that can take: not asked
 * already, and nothing the hardware lacks keeps it off. */
static bool offload_proposed(const struct offload_view *v)
{
	return v->state == OFFLOAD_OFF && !v->wanted && v->dep_state != ND_DEP_FIXED_OFF;
}

static void add_lro_evidence(const struct nd_facts *facts, cJSON *evidence)
{
	const struct nd_feature *lro = nd_facts_feature(facts, "rx-lro");

	if (!lro)
		return;
	cJSON_AddStringToObject(evidence, "lro", lro->active ? "on" :
				lro->fixed ? "off [fixed]" : "off");
	if (lro->active)
		cJSON_AddStringToObject(evidence, "lro_note", "LRO breaks forwarding and bridging; "
					"left as it is");
}

static void append(char *buf, size_t size, size_t *len, const char *sep, const char *word)
{
	if (*len < size)
		*len += (size_t)snprintf(buf + *len, size - *len, "%s%s", *len ? sep : "", word);
}

void nd_check_offload_disabled(const struct nd_facts *facts, struct nd_finding *f)
{
	cJSON *states;
	char command[160], labels[120], refused[120];
	size_t cmd_len = 0, label_len = 0, refused_len = 0;
	const struct nd_feature_dep *refused_dep = NULL;
	unsigned n_off = 0, n_refused = 0;

	if (!facts->features.st.known)
		return nd_finding_unknown(f, "features", facts->features.st.reason);
	states = cJSON_AddObjectToObject(f->evidence, "offloads");
	command[0] = labels[0] = refused[0] = '\0';
	for (size_t i = 0; i < sizeof(offloads) / sizeof(offloads[0]); i++) {
		struct offload_view v;
		char word[24];

		offload_view(facts, &offloads[i], &v);
		cJSON_AddStringToObject(states, offloads[i].keyword, v.text);
		if (v.state == OFFLOAD_OFF && v.wanted) {
			/* The kernel refusing it: never proposed again. */
			append(refused, sizeof(refused), &refused_len, ", ", offloads[i].label);
			if (!n_refused++)
				refused_dep = v.dep_state == ND_DEP_FIXED_OFF ? v.dep : NULL;
		}
		if (!offload_proposed(&v))
			continue;
		n_off++;
		snprintf(word, sizeof(word), "%s on", offloads[i].keyword);
		append(command, sizeof(command), &cmd_len, " ", word);
		append(labels, sizeof(labels), &label_len, ", ", offloads[i].label);
	}
	add_lro_evidence(facts, f->evidence);
	if (!n_off && n_refused) {
		if (n_refused == 1 && refused_dep)
			nd_finding_set(f, ND_SEV_INFO, "%s requested but kept off: it needs %s, "
				       "which the device cannot do", refused, refused_dep->label);
		else
			nd_finding_set(f, ND_SEV_INFO, "%s requested but kept off by the kernel or "
				       "the driver (see evidence): nothing to switch", refused);
		return;
	}
	if (!n_off) {
		nd_finding_set(f, ND_SEV_OK, "every offload the device can change is on");
		return;
	}
	nd_finding_set(f, ND_SEV_WARNING, "%s off though the device can do %s: the CPU does "
		       "that work per packet%s%s%s", labels, n_off == 1 ? "it" : "them",
		       n_refused ? " (" : "", n_refused ? refused : "",
		       n_refused ? " requested, waits)" : "");
	nd_finding_fix(f, "offloads", "ethtool -K %s %s", facts->ifname, command);
}

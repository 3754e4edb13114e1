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
 * generic (any protocol) or the IPv4 bit: the ceiling model is TCP/IPv4. */
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

static enum offload_state offload_state(const struct nd_facts *facts,
					const struct offload *o, bool *ret_wanted)
{
	bool present = false, changeable = false;

	*ret_wanted = false;
	for (unsigned i = 0; i < OFFLOAD_MAX_FEATURES && o->features[i]; i++) {
		const struct nd_feature *feat = nd_facts_feature(facts, o->features[i]);

		if (!feat)
			continue;
		if (feat->active)
			return OFFLOAD_ON;
		present = true;
		changeable |= !feat->fixed;
		*ret_wanted |= feat->wanted;
	}
	return !present ? OFFLOAD_ABSENT : changeable ? OFFLOAD_OFF : OFFLOAD_FIXED_OFF;
}

static const char *state_text(enum offload_state state, bool wanted)
{
	switch (state) {
	case OFFLOAD_ON:
		return "on";
	case OFFLOAD_FIXED_OFF:
		return "off [fixed]: the device cannot";
	case OFFLOAD_OFF:
		/* Requested but not active: a feature it depends on is off. */
		return wanted ? "off (requested; a dependency is off)" : "off";
	default:
		return "not offered";
	}
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

void nd_check_offload_disabled(const struct nd_facts *facts, struct nd_finding *f)
{
	cJSON *states;
	char command[160], labels[120];
	size_t cmd_len, label_len = 0;
	unsigned n_off = 0;

	if (!facts->features.st.known)
		return nd_finding_unknown(f, "features", facts->features.st.reason);
	states = cJSON_AddObjectToObject(f->evidence, "offloads");
	cmd_len = (size_t)snprintf(command, sizeof(command), "ethtool -K %s", facts->ifname);
	labels[0] = '\0';
	for (size_t i = 0; i < sizeof(offloads) / sizeof(offloads[0]); i++) {
		bool wanted;
		enum offload_state state = offload_state(facts, &offloads[i], &wanted);

		cJSON_AddStringToObject(states, offloads[i].keyword, state_text(state, wanted));
		if (state != OFFLOAD_OFF)
			continue;
		n_off++;
		if (cmd_len < sizeof(command))
			cmd_len += (size_t)snprintf(command + cmd_len, sizeof(command) - cmd_len,
						    " %s on", offloads[i].keyword);
		if (label_len < sizeof(labels))
			label_len += (size_t)snprintf(labels + label_len,
						      sizeof(labels) - label_len, "%s%s",
						      n_off > 1 ? ", " : "", offloads[i].label);
	}
	add_lro_evidence(facts, f->evidence);
	if (!n_off) {
		nd_finding_set(f, ND_SEV_OK, "every offload the device can change is on");
		return;
	}
	nd_finding_set(f, ND_SEV_WARNING, "%s off though the device can do %s: the CPU does "
		       "that work per packet", labels, n_off == 1 ? "it" : "them");
	nd_finding_fix(f, "offloads", "%s", command);
}

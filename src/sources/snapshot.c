/*
 * snapshot.c - the source for a nicdoctor snapshot or a plain sys/proc
 * tree.  Netlink state has no file in /sys, so `collect` writes it as
 * <root>/ethtool/<IF>.json; this source reads it back.  Without the file
 * every netlink group is unknown and says why, so the checks that need
 * them report "unknown", not a guess.  Everything else is the tree's own
 * /sys and /proc files, read by the common sysfs/procfs readers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "nicdoctor/common.h"
#include "nicdoctor/facts_json.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "source_ops.h"

static void set_netlink_unknown(struct nd_facts *facts, const char *fmt, const char *arg)
{
	struct nd_status *groups[] = {
		&facts->link.st, &facts->qdisc.st, &facts->linkmodes.st, &facts->channels.st,
		&facts->features.st, &facts->rings.st, &facts->coalesce.st, &facts->pause.st,
		&facts->rss.st, &facts->nicstats.st, &facts->drvinfo.st,
		&facts->queue_table.st,
	};

	for (size_t i = 0; i < ND_ARRAY_SIZE(groups); i++)
		nd_status_set_unknown(groups[i], fmt, arg);
}

static void snapshot_fill_netlink(struct nd_source *src, const char *ifname,
				  struct nd_facts *facts)
{
	const struct nd_root *root = src->root;
	char path[64];
	char *text = NULL;
	cJSON *json;
	int r;

	if (nd_ifname_valid(ifname) < 0) {
		set_netlink_unknown(facts, "invalid interface name '%s'", ifname);
		return;
	}
	snprintf(path, sizeof(path), "/ethtool/%s.json", ifname);
	r = nd_sysroot_read_alloc(root, path, &text, NULL);
	if (r == -ENOENT) {
		set_netlink_unknown(facts, "not in snapshot (no ethtool/%s.json)", ifname);
	} else if (r < 0) {
		/* Too large, a link out of the snapshot (-ENOENT or -EXDEV inside
		 * the root), not a regular file: name it, never guess. */
		char why[ND_REASON_LEN];

		snprintf(why, sizeof(why), "cannot read snapshot file 'ethtool/%s.json': %s",
			 ifname, strerror(-r));
		set_netlink_unknown(facts, "%s", why);
	} else {
		json = cJSON_Parse(text);
		if (nd_facts_netlink_from_json(json, facts) < 0)
			set_netlink_unknown(facts, "snapshot ethtool/%s.json is not a JSON object",
					    ifname);
		cJSON_Delete(json);
		free(text);
	}
	/* The driver link in the tree names the driver when the file did not. */
	bool drvinfo_from_json = facts->drvinfo.st.known;

	nd_probe_drvinfo(root, ifname, facts);
	if (!drvinfo_from_json && facts->drvinfo.st.known)
		snprintf(facts->drvinfo.st.source, sizeof(facts->drvinfo.st.source),
			 "/sys/class/net/%s/device/driver", ifname);
}

/* PCI: libpci on the tree's sys/bus/pci. */
static void snapshot_fill_pci(struct nd_source *src, const char *ifname, struct nd_facts *facts)
{
	nd_probe_pci(src->root, ifname, facts);
}

static bool snapshot_detect(const struct nd_bundle *bundle)
{
	return bundle->kind == ND_BUNDLE_TREE;
}

const struct nd_source_ops nd_source_snapshot = {
	.name = "snapshot",
	.noun = "the snapshot",
	.detect = snapshot_detect,
	.open = nd_source_tree_open,
	.fill_netlink = snapshot_fill_netlink,
	.fill_pci = snapshot_fill_pci,
	.describe = nd_source_tree_describe,
	.close = nd_source_tree_close,
};

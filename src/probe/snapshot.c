/*
 * snapshot.c - the netlink groups in a sysroot.  Netlink state has no file
 * in /sys, so `collect` writes it as <root>/ethtool/<IF>.json; this source
 * reads it back.  Without the file every netlink group is unknown and says
 * why, so the checks that need them report "unknown", not a guess.
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

void nd_probe_snapshot(const char *ifname, struct nd_facts *facts)
{
	char path[64];
	char *text = NULL;
	cJSON *json;
	int r;

	if (nd_ifname_valid(ifname) < 0) {
		set_netlink_unknown(facts, "invalid interface name '%s'", ifname);
		return;
	}
	snprintf(path, sizeof(path), "/ethtool/%s.json", ifname);
	r = nd_sysroot_read_alloc(path, &text, NULL);
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

	nd_probe_drvinfo(ifname, facts);
	if (!drvinfo_from_json && facts->drvinfo.st.known)
		snprintf(facts->drvinfo.st.source, sizeof(facts->drvinfo.st.source),
			 "/sys/class/net/%s/device/driver", ifname);
}

/*
 * queue_table.c - the "queue_table" probe source: the interface's RX and TX
 * queues with NAPI, IRQ and per-queue counters.  In order: the netdev
 * family (live) or its answers recorded in a snapshot; the queue list from
 * sysfs when the family gave none; counters from the driver's ethtool -S
 * names (which list the queues where neither did: a sosreport), then
 * (TX, live) from an mq root qdisc's classes.  Runs after the rtnl,
 * drvinfo and queues sources, whose facts it reads.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/queues.h"
#include "nicdoctor/sysroot.h"

static void rows_from_sysfs(const struct nd_queue_sysfs *q, struct nd_queue_table *qt)
{
	for (unsigned i = 0; i < q->n_rx; i++)
		nd_queue_row_get(qt, ND_QUEUE_RX, i);
	for (unsigned i = 0; i < q->n_tx; i++)
		nd_queue_row_get(qt, ND_QUEUE_TX, i);
	nd_strlcpy(qt->list_source, "sysfs", sizeof(qt->list_source));
}

static bool tx_without_counters(const struct nd_queue_table *qt)
{
	for (unsigned i = 0; i < qt->count; i++)
		if (qt->q[i].kind == ND_QUEUE_TX && !qt->q[i].counters_known)
			return true;
	return false;
}

static bool any_without_counters(const struct nd_queue_table *qt)
{
	for (unsigned i = 0; i < qt->count; i++)
		if (!qt->q[i].counters_known)
			return true;
	return false;
}

static void ask_netdev(int ifindex, struct nd_queue_table *qt)
{
	int r = ifindex > 0 ? nd_netdev_dump(ifindex, qt) : -ENODEV;

	if (r == 0 && qt->count) {
		nd_strlcpy(qt->list_source, "netdev", sizeof(qt->list_source));
		return;
	}
	qt->count = 0;
	snprintf(qt->why_no_netdev, sizeof(qt->why_no_netdev), "netdev netlink family: %s",
		 r == -EPROTONOSUPPORT ? "not in this kernel (before 6.5)" :
		 r == 0 ? "no queues listed" : strerror(-r));
}

/* Everything after the netdev answer; facts supply sysfs, driver and -S. */
static void complete(int ifindex, const struct nd_facts *facts, struct nd_queue_table *qt,
		     bool live)
{
	const char *style;

	if (qt->count == 0 && facts->queues.st.known)
		rows_from_sysfs(&facts->queues, qt);
	if (qt->count == 0 && facts->nicstats.st.known) {
		/* No list (a sosreport keeps no queues/): the counters' names
		 * list the queues that have them. */
		if (nd_queue_stats_from_ethtool(facts->drvinfo.driver, &facts->nicstats, qt,
						&style) > 0)
			nd_strlcpy(qt->list_source, "ethtool -S", sizeof(qt->list_source));
	} else if (any_without_counters(qt) && facts->nicstats.st.known) {
		nd_queue_stats_from_ethtool(facts->drvinfo.driver, &facts->nicstats, qt, &style);
	}
	if (live && ifindex > 0 && tx_without_counters(qt))
		nd_queue_stats_from_mq(ifindex, qt);
	if (qt->count)
		nd_status_set_known(&qt->st);
	else
		nd_status_set_unknown(&qt->st, "%s; %s", qt->why_no_netdev[0] ? qt->why_no_netdev :
				      "netdev netlink family: not in snapshot",
				      facts->queues.st.known ? "no queues in sysfs" :
				      facts->queues.st.reason);
}

static int ifindex_of(const char *ifname, const struct nd_facts *facts)
{
	if (facts->link.st.known && facts->link.ifindex > 0)
		return facts->link.ifindex;
	return (int)if_nametoindex(ifname);
}

void nd_probe_queue_table(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_queue_table *qt = &facts->queue_table;
	bool live = nd_sysroot_is_live(root);
	int ifindex = live ? ifindex_of(ifname, facts) : 0;

	if (live) {
		memset(qt, 0, sizeof(*qt));
		ask_netdev(ifindex, qt);
	} else if (!qt->st.known || strcmp(qt->list_source, "netdev")) {
		/* Rebuilt from the snapshot's own files below. */
		char why[ND_REASON_LEN];

		nd_strlcpy(why, qt->st.known ? qt->why_no_netdev : qt->st.reason, sizeof(why));
		memset(qt, 0, sizeof(*qt));
		nd_strlcpy(qt->why_no_netdev, why, sizeof(qt->why_no_netdev));
	}
	complete(ifindex, facts, qt, live);
}

int nd_probe_queue_sample(const struct nd_root *root, const char *ifname,
			  struct nd_queue_table *ret)
{
	int ifindex = (int)if_nametoindex(ifname);
	struct nd_facts *scratch;

	if (ifindex <= 0)
		return -ENODEV;
	memset(ret, 0, sizeof(*ret));
	ask_netdev(ifindex, ret);
	if (ret->count && !any_without_counters(ret)) {
		nd_status_set_known(&ret->st);
		return 0;
	}
	/* Only the fallbacks need the sysfs list and ethtool -S. */
	scratch = calloc(1, sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	nd_strlcpy(scratch->ifname, ifname, sizeof(scratch->ifname));
	if (!ret->count)
		nd_probe_queues(root, ifname, scratch);
	nd_probe_drvinfo(root, ifname, scratch);
	complete(ifindex, scratch, ret, true);
	free(scratch);
	return ret->st.known ? 0 : -ENODATA;
}

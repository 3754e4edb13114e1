/*
 * mq_stats.c - per-TX-queue counters from an mq root qdisc (libnl-route):
 * mq, the default root of multi-queue devices, has one class per TX queue
 * (class :N is tx-(N-1)) and dumps its child qdisc's byte and packet
 * counts, as `tc -s class show` prints them.  The fallback for TX where
 * neither the netdev family nor the driver's ethtool names give counters.
 */
#include <errno.h>
#include <string.h>

#include <linux/pkt_sched.h>
#include <netlink/netlink.h>
#include <netlink/route/class.h>
#include <netlink/route/tc.h>

#include "nicdoctor/common.h"
#include "nicdoctor/queues.h"

static int fill_from_cache(struct nl_cache *cache, struct nd_queue_table *qt)
{
	int filled = 0;

	for (struct nl_object *obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_tc *tc = TC_CAST(obj);
		const char *kind = rtnl_tc_get_kind(tc);
		unsigned minor = TC_H_MIN(rtnl_tc_get_handle(tc));
		struct nd_queue_row *row;

		if (!kind || strcmp(kind, "mq") || minor == 0 || minor > ND_MAX_QUEUES)
			continue;
		row = nd_queue_row_get(qt, ND_QUEUE_TX, minor - 1);
		if (!row || (row->counters_known && strcmp(row->counter_source, "mq class")))
			continue;
		row->counters_known = true;
		row->packets = rtnl_tc_get_stat(tc, RTNL_TC_PACKETS);
		row->bytes = rtnl_tc_get_stat(tc, RTNL_TC_BYTES);
		nd_strlcpy(row->counter_source, "mq class", sizeof(row->counter_source));
		filled++;
	}
	return filled;
}

int nd_queue_stats_from_mq(int ifindex, struct nd_queue_table *qt)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;
	int r;

	if (!sk)
		return -ENOMEM;
	r = nl_connect(sk, NETLINK_ROUTE);
	if (r == 0)
		r = rtnl_class_alloc_cache(sk, ifindex, &cache);
	if (r < 0) {
		nl_socket_free(sk);
		return -EIO;
	}
	r = fill_from_cache(cache, qt);
	nl_cache_free(cache);
	nl_socket_free(sk);
	return r;
}

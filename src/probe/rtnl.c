/*
 * rtnl.c - the rtnetlink probe source (libnl-route): the link (MTU and its
 * bounds, operstate, carrier, queue counts, root qdisc, MAC, 64-bit stats),
 * shaping qdiscs (tbf, htb) with their rate, and the two questions main
 * asks before probing: does the interface exist, which one carries the
 * default route.  In a sysroot those two are answered from /sys and
 * /proc/net instead, and the link groups come from the snapshot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/route/class.h>
#include <netlink/route/link.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/htb.h>
#include <netlink/route/qdisc/tbf.h>
#include <netlink/route/route.h>
#include <netlink/route/tc.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

struct link_req {
	struct nd_link *link;
	int kernel_errno;	/* from NLMSG_ERROR, positive */
	bool got_link;
};

/* 0 or a libnl error (negative NLE_*). */
static int rtnl_open(struct nl_sock **ret_sk)
{
	struct nl_sock *sk = nl_socket_alloc();
	int r;

	if (!sk)
		return -NLE_NOMEM;
	r = nl_connect(sk, NETLINK_ROUTE);
	if (r < 0) {
		nl_socket_free(sk);
		return r;
	}
	/* Our single GETLINK expects one reply, not a reply plus an ACK. */
	nl_socket_disable_auto_ack(sk);
	*ret_sk = sk;
	return 0;
}

static void fill_mac(struct rtnl_link *rl, char *buf, size_t size)
{
	struct nl_addr *addr = rtnl_link_get_addr(rl);
	const unsigned char *b;

	buf[0] = '\0';
	if (!addr || nl_addr_get_len(addr) != 6)
		return;
	b = nl_addr_get_binary_addr(addr);
	snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3], b[4], b[5]);
}

static void fill_link_stats(struct rtnl_link *rl, struct nd_link *link)
{
	uint32_t changes = 0;

	link->stats.rx_bytes = rtnl_link_get_stat(rl, RTNL_LINK_RX_BYTES);
	link->stats.tx_bytes = rtnl_link_get_stat(rl, RTNL_LINK_TX_BYTES);
	link->stats.rx_packets = rtnl_link_get_stat(rl, RTNL_LINK_RX_PACKETS);
	link->stats.tx_packets = rtnl_link_get_stat(rl, RTNL_LINK_TX_PACKETS);
	link->stats.rx_errors = rtnl_link_get_stat(rl, RTNL_LINK_RX_ERRORS);
	link->stats.tx_errors = rtnl_link_get_stat(rl, RTNL_LINK_TX_ERRORS);
	link->stats.rx_dropped = rtnl_link_get_stat(rl, RTNL_LINK_RX_DROPPED);
	link->stats.tx_dropped = rtnl_link_get_stat(rl, RTNL_LINK_TX_DROPPED);
	link->stats.rx_missed = rtnl_link_get_stat(rl, RTNL_LINK_RX_MISSED_ERR);
	link->stats.rx_fifo = rtnl_link_get_stat(rl, RTNL_LINK_RX_FIFO_ERR);
	link->stats.rx_over = rtnl_link_get_stat(rl, RTNL_LINK_RX_OVER_ERR);
	link->stats.rx_crc = rtnl_link_get_stat(rl, RTNL_LINK_RX_CRC_ERR);
	link->stats.rx_frame = rtnl_link_get_stat(rl, RTNL_LINK_RX_FRAME_ERR);
	link->stats.rx_phy_known = true;
	link->stats.carrier_changes_known = rtnl_link_get_carrier_changes(rl, &changes) == 0;
	link->stats.carrier_changes = link->stats.carrier_changes_known ? changes : 0;
}

/* libnl's parsed link object: everything libnl-route knows about. */
static void link_object_cb(struct nl_object *obj, void *arg)
{
	struct link_req *req = arg;
	struct rtnl_link *rl = (struct rtnl_link *)obj;
	struct nd_link *link = req->link;
	const char *qdisc = rtnl_link_get_qdisc(rl);

	link->ifindex = rtnl_link_get_ifindex(rl);
	link->mtu = rtnl_link_get_mtu(rl);
	rtnl_link_operstate2str(rtnl_link_get_operstate(rl), link->operstate,
				sizeof(link->operstate));
	link->carrier = rtnl_link_get_carrier(rl) != 0;
	/* Netlink reports the allocated queue counts (IFLA_NUM_*_QUEUES); the
	 * real counts are visible only as sysfs queues/ entries. */
	link->rx_queues = rtnl_link_get_num_rx_queues(rl);
	link->tx_queues = rtnl_link_get_num_tx_queues(rl);
	nd_strlcpy(link->qdisc, qdisc ? qdisc : "", sizeof(link->qdisc));
	fill_mac(rl, link->mac, sizeof(link->mac));
	fill_link_stats(rl, link);
	req->got_link = true;
}

static unsigned attr_u32(struct nlattr *attr)
{
	return attr && nla_len(attr) >= 4 ? nla_get_u32(attr) : 0;
}

static int link_valid_cb(struct nl_msg *msg, void *arg)
{
	struct link_req *req = arg;
	struct nlattr *tb[IFLA_MAX + 1];

	if (nlmsg_hdr(msg)->nlmsg_type != RTM_NEWLINK)
		return NL_SKIP;
	nl_msg_parse(msg, link_object_cb, req);
	/* libnl-route 3.7 does not keep IFLA_MIN_MTU/IFLA_MAX_MTU: read them
	 * from the same message. */
	if (nlmsg_parse(nlmsg_hdr(msg), sizeof(struct ifinfomsg), tb, IFLA_MAX, NULL) == 0) {
		req->link->min_mtu = attr_u32(tb[IFLA_MIN_MTU]);
		req->link->max_mtu = attr_u32(tb[IFLA_MAX_MTU]);
	}
	return NL_OK;
}

static int link_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct link_req *req = arg;

	(void)nla;
	req->kernel_errno = -err->error;
	return NL_STOP;
}

/* Fill facts->link with one RTM_GETLINK.  0 or a negative errno. */
static int probe_link(struct nl_sock *sk, const char *ifname, struct nd_link *link)
{
	struct link_req req = { .link = link };
	struct nl_msg *msg = NULL;
	struct nl_cb *cb;
	int r;

	r = rtnl_link_build_get_request(0, ifname, &msg);
	if (r < 0)
		return -ENOMEM;
	r = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (r < 0)
		return -EIO;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, link_valid_cb, &req);
	nl_cb_err(cb, NL_CB_CUSTOM, link_err_cb, &req);
	r = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	if (req.kernel_errno)
		return -req.kernel_errno;
	if (r < 0 || !req.got_link)
		return -EIO;
	return 0;
}

/* Keep the lowest shaping rate seen. */
static void offer_shaper(struct nd_qdisc *q, const char *kind, uint64_t rate_bytes_per_s)
{
	uint64_t rate_bps = rate_bytes_per_s * 8;

	if (rate_bps == 0 || (q->rate_bps && q->rate_bps <= rate_bps))
		return;
	q->rate_bps = rate_bps;
	nd_strlcpy(q->kind, kind, sizeof(q->kind));
}

static int scan_tbf(struct nl_sock *sk, int ifindex, struct nd_qdisc *q)
{
	struct nl_cache *cache;
	struct nl_object *obj;
	int r = rtnl_qdisc_alloc_cache(sk, &cache);

	if (r < 0)
		return r;
	for (obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_qdisc *qd = (struct rtnl_qdisc *)obj;
		const char *kind = rtnl_tc_get_kind(TC_CAST(qd));
		int rate_bytes;

		if (rtnl_tc_get_ifindex(TC_CAST(qd)) != ifindex || !kind || strcmp(kind, "tbf"))
			continue;
		rate_bytes = rtnl_qdisc_tbf_get_rate(qd);
		if (rate_bytes > 0)
			offer_shaper(q, "tbf", (uint64_t)rate_bytes);
	}
	nl_cache_free(cache);
	return 0;
}

static int scan_htb(struct nl_sock *sk, int ifindex, struct nd_qdisc *q)
{
	struct nl_cache *cache;
	struct nl_object *obj;
	int r = rtnl_class_alloc_cache(sk, ifindex, &cache);

	if (r < 0)
		return r;
	for (obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_class *cls = (struct rtnl_class *)obj;
		const char *kind = rtnl_tc_get_kind(TC_CAST(cls));
		uint64_t rate_bytes = 0, ceil_bytes = 0;

		if (!kind || strcmp(kind, "htb"))
			continue;
		rtnl_htb_get_rate64(cls, &rate_bytes);
		rtnl_htb_get_ceil64(cls, &ceil_bytes);
		/* A class may borrow up to its ceil, so the ceil is what caps
		 * its traffic; the rate is only the guarantee. */
		offer_shaper(q, "htb", ceil_bytes > rate_bytes ? ceil_bytes : rate_bytes);
	}
	nl_cache_free(cache);
	return 0;
}

static void probe_shapers(struct nl_sock *sk, int ifindex, struct nd_qdisc *q)
{
	int r;

	memset(q, 0, sizeof(*q));
	r = scan_tbf(sk, ifindex, q);
	if (r == 0)
		r = scan_htb(sk, ifindex, q);
	if (r < 0) {
		memset(q, 0, sizeof(*q));
		nd_status_set_unknown(&q->st, "rtnetlink: %s", nl_geterror(r));
		return;
	}
	nd_status_set_known(&q->st);
}

void nd_probe_rtnl(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nl_sock *sk;
	int r;

	/* In a sysroot the snapshot source fills these groups. */
	if (!nd_sysroot_is_live(root))
		return;
	memset(&facts->link, 0, sizeof(facts->link));
	r = rtnl_open(&sk);
	if (r < 0) {
		nd_status_set_unknown(&facts->link.st, "rtnetlink: %s", nl_geterror(r));
		nd_status_set_unknown(&facts->qdisc.st, "rtnetlink: %s", nl_geterror(r));
		return;
	}
	r = probe_link(sk, ifname, &facts->link);
	if (r < 0) {
		memset(&facts->link, 0, sizeof(facts->link));
		nd_status_set_unknown(&facts->link.st, "rtnetlink: %s", strerror(-r));
		nd_status_set_unknown(&facts->qdisc.st, "rtnetlink: %s", strerror(-r));
	} else {
		nd_status_set_known(&facts->link.st);
		nd_status_set_known(&facts->link.stats_st);
		probe_shapers(sk, facts->link.ifindex, &facts->qdisc);
	}
	nl_socket_free(sk);
}

/* ---- existence and the default route ---- */

bool nd_probe_iface_exists(const struct nd_root *root, const char *ifname)
{
	char path[64];
	struct nl_sock *sk;
	struct rtnl_link *rl = NULL;
	int r;

	if (nd_ifname_valid(ifname) < 0)
		return false;
	if (nd_sysroot_is_live(root) && rtnl_open(&sk) == 0) {
		r = rtnl_link_get_kernel(sk, 0, ifname, &rl);
		if (rl)
			rtnl_link_put(rl);
		nl_socket_free(sk);
		return r == 0;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	return nd_sysroot_exists(root, path);
}

struct default_route {
	int ifindex;
	int family_rank;	/* 0 IPv4, 1 IPv6: IPv4 wins */
	uint32_t metric;
};

static void route_cb(struct nl_object *obj, void *arg)
{
	struct rtnl_route *route = (struct rtnl_route *)obj;
	struct default_route *best = arg;
	struct nl_addr *dst = rtnl_route_get_dst(route);
	struct rtnl_nexthop *nh;
	int family = rtnl_route_get_family(route);
	int rank = family == AF_INET ? 0 : 1, ifindex;
	uint32_t metric = rtnl_route_get_priority(route);

	if ((family != AF_INET && family != AF_INET6) || !dst || nl_addr_get_prefixlen(dst) != 0 ||
	    rtnl_route_get_table(route) != RT_TABLE_MAIN ||
	    rtnl_route_get_type(route) != RTN_UNICAST || rtnl_route_get_nnexthops(route) < 1)
		return;
	nh = rtnl_route_nexthop_n(route, 0);
	ifindex = nh ? rtnl_route_nh_get_ifindex(nh) : 0;
	if (ifindex <= 0)
		return;
	if (best->ifindex && (best->family_rank < rank ||
			      (best->family_rank == rank && best->metric <= metric)))
		return;
	best->ifindex = ifindex;
	best->family_rank = rank;
	best->metric = metric;
}

static int default_iface_live(char *buf, size_t size)
{
	struct default_route best = { 0 };
	struct nl_cache *cache = NULL;
	struct rtnl_link *rl = NULL;
	struct nl_sock *sk;
	int r;

	if (rtnl_open(&sk) < 0)
		return -EIO;
	r = rtnl_route_alloc_cache(sk, AF_UNSPEC, 0, &cache);
	if (r == 0) {
		nl_cache_foreach(cache, route_cb, &best);
		nl_cache_free(cache);
		r = best.ifindex ? rtnl_link_get_kernel(sk, best.ifindex, NULL, &rl) : -NLE_OBJ_NOTFOUND;
	}
	if (r == 0) {
		nd_strlcpy(buf, rtnl_link_get_name(rl) ? rtnl_link_get_name(rl) : "", size);
		rtnl_link_put(rl);
	}
	nl_socket_free(sk);
	if (r == -NLE_OBJ_NOTFOUND || (r == 0 && !buf[0]))
		return -ENOENT;
	return r < 0 ? -EIO : 0;
}

/* /proc/net/route: "Iface Destination Gateway Flags RefCnt Use Metric Mask". */
static int default_iface_route4(const char *text, char *buf, size_t size)
{
	unsigned long best_metric = (unsigned long)-1;
	const char *line = text;
	bool found = false;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char ifname[ND_IFNAMSIZ];
		unsigned long dst, gw, flags, refcnt, use, metric, mask;

		if (sscanf(line, "%15s %lx %lx %lx %lu %lu %lu %lx", ifname, &dst, &gw, &flags,
			   &refcnt, &use, &metric, &mask) != 8)
			continue;	/* the header line, or junk */
		/* RTF_UP without RTF_REJECT (0x0200). */
		if (dst || mask || !(flags & 0x1) || (flags & 0x0200))
			continue;
		if (!found || metric < best_metric) {
			nd_strlcpy(buf, ifname, size);
			best_metric = metric;
			found = true;
		}
	}
	return found ? 0 : -ENOENT;
}

/* /proc/net/ipv6_route: dst plen src plen nexthop metric refcnt use flags dev. */
static int default_iface_route6(const char *text, char *buf, size_t size)
{
	unsigned long best_metric = (unsigned long)-1;
	const char *line = text;
	bool found = false;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char dst[33], src[33], nexthop[33], ifname[ND_IFNAMSIZ];
		unsigned dst_plen, src_plen;
		unsigned long metric, refcnt, use, flags;

		if (sscanf(line, "%32s %x %32s %x %32s %lx %lx %lx %lx %15s", dst, &dst_plen, src,
			   &src_plen, nexthop, &metric, &refcnt, &use, &flags, ifname) != 10)
			continue;
		if (dst_plen || strspn(dst, "0") != 32 || !(flags & 0x1) || (flags & 0x0200))
			continue;
		if (!found || metric < best_metric) {
			nd_strlcpy(buf, ifname, size);
			best_metric = metric;
			found = true;
		}
	}
	return found ? 0 : -ENOENT;
}

static int default_iface_sysroot(const struct nd_root *root, char *buf, size_t size)
{
	char *text = NULL;
	int r;

	if (nd_sysroot_read_alloc(root, "/proc/net/route", &text, NULL) == 0) {
		r = default_iface_route4(text, buf, size);
		free(text);
		if (r == 0)
			return 0;
	}
	text = NULL;
	if (nd_sysroot_read_alloc(root, "/proc/net/ipv6_route", &text, NULL) < 0)
		return -ENOENT;
	r = default_iface_route6(text, buf, size);
	free(text);
	return r;
}

int nd_probe_default_iface(const struct nd_root *root, char *buf, size_t size)
{
	char name[ND_IFNAMSIZ] = "";
	int r;

	if (!buf || size == 0)
		return -EINVAL;
	r = nd_sysroot_is_live(root) ? default_iface_live(name, sizeof(name)) :
				   default_iface_sysroot(root, name, sizeof(name));
	if (r < 0)
		return r;
	/* ret_* style: buf is left untouched on failure. */
	nd_strlcpy(buf, name, size);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * route.c - the route the kernel gives a peer, as `ip route get ADDR`
 * asks it: one RTM_GETROUTE with the destination (and, for an IPv6
 * link-local address with its %scope, that interface as RTA_OIF, as the
 * engine's connect() would use it), parsed by libnl-route.  The host is
 * resolved the way the engine resolves it (getaddrinfo, the first
 * address: the one the engine tries first).  Then the route device's
 * lower devices from /sys/class/net/DEV/lower_*, every level down, so a
 * bridge, bond or VLAN above the interface diagnosed is seen as its path.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/route.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/route.h"
#include "nicdoctor/sysroot.h"

struct route_req {
	struct nd_route *route;
	int kernel_errno;		/* from NLMSG_ERROR, positive */
	int type;			/* RTN_*, -1 no reply */
	int ifindex;
};

static void addr_text(const struct nl_addr *addr, char *buf, size_t size)
{
	int family = addr ? nl_addr_get_family(addr) : AF_UNSPEC;

	buf[0] = '\0';
	if (!addr || (family != AF_INET && family != AF_INET6) ||
	    nl_addr_get_len(addr) != (family == AF_INET ? 4u : 16u))
		return;
	inet_ntop(family, nl_addr_get_binary_addr(addr), buf, (socklen_t)size);
}

static int route_valid_cb(struct nl_msg *msg, void *arg)
{
	struct route_req *req = arg;
	struct rtnl_route *route = NULL;
	struct rtnl_nexthop *nh;

	if (nlmsg_hdr(msg)->nlmsg_type != RTM_NEWROUTE ||
	    rtnl_route_parse(nlmsg_hdr(msg), &route) < 0 || !route)
		return NL_SKIP;
	req->type = rtnl_route_get_type(route);
	nh = rtnl_route_get_nnexthops(route) > 0 ? rtnl_route_nexthop_n(route, 0) : NULL;
	if (nh) {
		req->ifindex = rtnl_route_nh_get_ifindex(nh);
		addr_text(rtnl_route_nh_get_gateway(nh), req->route->via, sizeof(req->route->via));
	}
	addr_text(rtnl_route_get_pref_src(route), req->route->src, sizeof(req->route->src));
	rtnl_route_put(route);
	return NL_OK;
}

static int route_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct route_req *req = arg;

	(void)nla;
	req->kernel_errno = -err->error;
	return NL_STOP;
}

/* One RTM_GETROUTE for the address; 0 or a negative errno (the kernel's). */
static int ask_kernel(const struct sockaddr *sa, struct route_req *req)
{
	struct rtmsg rtm = { .rtm_family = (unsigned char)sa->sa_family };
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETROUTE, NLM_F_REQUEST);
	struct nl_sock *sk = NULL;
	struct nl_cb *cb = NULL;
	int r = msg ? 0 : -ENOMEM;

	rtm.rtm_dst_len = sa->sa_family == AF_INET ? 32 : 128;
	if (!r && nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO) < 0)
		r = -ENOMEM;
	if (!r && sa->sa_family == AF_INET)
		r = nla_put(msg, RTA_DST, 4, &((const struct sockaddr_in *)sa)->sin_addr);
	else if (!r)
		r = nla_put(msg, RTA_DST, 16, &sin6->sin6_addr);
	if (!r && sa->sa_family == AF_INET6 && sin6->sin6_scope_id)
		r = nla_put_u32(msg, RTA_OIF, sin6->sin6_scope_id);
	if (r)
		r = -ENOMEM;
	if (!r && !(sk = nl_socket_alloc()))
		r = -ENOMEM;
	if (!r && nl_connect(sk, NETLINK_ROUTE) < 0)
		r = -EIO;
	if (!r) {
		/* One request, one reply, no ACK after it. */
		nl_socket_disable_auto_ack(sk);
		if (nl_send_auto(sk, msg) < 0)
			r = -EIO;
	}
	if (!r && !(cb = nl_cb_alloc(NL_CB_DEFAULT)))
		r = -ENOMEM;
	if (!r) {
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, route_valid_cb, req);
		nl_cb_err(cb, NL_CB_CUSTOM, route_err_cb, req);
		if (nl_recvmsgs(sk, cb) < 0 && !req->kernel_errno)
			r = -EIO;
	}
	nl_cb_put(cb);
	nl_socket_free(sk);
	nlmsg_free(msg);
	if (req->kernel_errno)
		return -req->kernel_errno;
	return r ? r : req->type < 0 ? -EIO : 0;
}

/* A route of a kind that sends nothing: the error connect() would meet. */
static int type_error(int type)
{
	switch (type) {
	case RTN_UNREACHABLE: return -ENETUNREACH;
	case RTN_BLACKHOLE: return -EINVAL;
	case RTN_PROHIBIT: return -EACCES;
	case RTN_THROW: return -EAGAIN;
	default: return 0;
	}
}

static bool known_lower(const struct nd_route *r, const char *name)
{
	for (unsigned i = 0; i < r->n_lowers; i++)
		if (!strcmp(r->lowers[i], name))
			return true;
	return false;
}

/* /sys/class/net/NAME/lower_*, for dev then each lower found, in turn. */
static void fill_lowers(const struct nd_root *root, struct nd_route *r)
{
	for (unsigned next = 0; next <= r->n_lowers && r->n_lowers < ND_ROUTE_MAX_LOWERS;
	     next++) {
		const char *name = next ? r->lowers[next - 1] : r->dev;
		char path[64];
		struct dirent *de;
		DIR *dir;

		snprintf(path, sizeof(path), "/sys/class/net/%s", name);
		dir = nd_sysroot_opendir(root, path);
		while (dir && (de = readdir(dir)) && r->n_lowers < ND_ROUTE_MAX_LOWERS) {
			const char *lower = de->d_name + 6;

			if (strncmp(de->d_name, "lower_", 6) || nd_ifname_valid(lower) ||
			    !strcmp(lower, r->dev) || known_lower(r, lower))
				continue;
			nd_strlcpy(r->lowers[r->n_lowers++], lower, sizeof(r->lowers[0]));
		}
		if (dir)
			closedir(dir);
	}
}

static void dst_text(const struct sockaddr *sa, char *buf, size_t size)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
	char scope[IF_NAMESIZE];
	size_t len;

	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buf,
			  (socklen_t)size);
		return;
	}
	inet_ntop(AF_INET6, &sin6->sin6_addr, buf, (socklen_t)size);
	len = strlen(buf);
	if (sin6->sin6_scope_id && if_indextoname(sin6->sin6_scope_id, scope))
		snprintf(buf + len, size - len, "%%%s", scope);
}

int nd_probe_route(const struct nd_root *root, const char *host, struct nd_route *ret,
		   char *why, size_t why_size)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	struct nd_route route = { .n_lowers = 0 };
	struct route_req req = { .route = &route, .type = -1 };
	char name[IF_NAMESIZE];
	int gai, r;

	gai = getaddrinfo(host, NULL, &hints, &res);
	if (gai || !res) {
		snprintf(why, why_size, "cannot resolve '%s': %s", host,
			 gai ? gai_strerror(gai) : "no address");
		return -EHOSTUNREACH;
	}
	dst_text(res->ai_addr, route.dst, sizeof(route.dst));
	r = ask_kernel(res->ai_addr, &req);
	freeaddrinfo(res);
	if (!r)
		r = type_error(req.type);
	if (!r && (req.ifindex <= 0 || !if_indextoname((unsigned)req.ifindex, name)))
		r = -ENODEV;
	if (r < 0) {
		snprintf(why, why_size, "no route to %s: %s", route.dst, strerror(-r));
		return r;
	}
	nd_strlcpy(route.dev, name, sizeof(route.dev));
	route.local = req.type == RTN_LOCAL;
	fill_lowers(root, &route);
	*ret = route;
	return 0;
}

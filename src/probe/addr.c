/*
 * addr.c - which interface owns a local address (libnl-route address
 * cache).  `serve` uses it to find the interface a test arrives on, from
 * the control connection's local address.
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"

struct addr_match {
	int family;
	const void *bytes;		/* in_addr or in6_addr */
	unsigned len;
	int ifindex;
};

static void addr_cb(struct nl_object *obj, void *arg)
{
	struct rtnl_addr *addr = (struct rtnl_addr *)obj;
	struct addr_match *m = arg;
	struct nl_addr *local = rtnl_addr_get_local(addr);

	if (m->ifindex || !local || nl_addr_get_family(local) != m->family ||
	    nl_addr_get_len(local) != m->len)
		return;
	if (!memcmp(nl_addr_get_binary_addr(local), m->bytes, m->len))
		m->ifindex = rtnl_addr_get_ifindex(addr);
}

/* An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d. */
static void unmap(const struct sockaddr *sa, struct addr_match *m)
{
	if (sa->sa_family == AF_INET) {
		m->family = AF_INET;
		m->bytes = &((const struct sockaddr_in *)sa)->sin_addr;
		m->len = 4;
		return;
	}
	m->family = AF_INET6;
	m->bytes = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	m->len = 16;
	if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)m->bytes)) {
		m->family = AF_INET;
		m->bytes = (const unsigned char *)m->bytes + 12;
		m->len = 4;
	}
}

int nd_probe_iface_by_addr(const struct sockaddr *sa, char *buf, size_t size)
{
	struct addr_match m = { 0 };
	struct nl_cache *cache = NULL;
	struct nl_sock *sk;
	char name[IF_NAMESIZE];
	int r;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	unmap(sa, &m);
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	r = nl_connect(sk, NETLINK_ROUTE);
	if (r >= 0)
		r = rtnl_addr_alloc_cache(sk, &cache);
	if (r >= 0) {
		nl_cache_foreach(cache, addr_cb, &m);
		nl_cache_free(cache);
	}
	nl_socket_free(sk);
	if (r < 0)
		return -EIO;
	if (!m.ifindex || !if_indextoname((unsigned)m.ifindex, name))
		return -ENODEV;
	nd_strlcpy(buf, name, size);
	return 0;
}

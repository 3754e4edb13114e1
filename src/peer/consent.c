/*
 * consent.c - whether `serve` gives its host report to the client that
 * asks: only when the operator said so (--share), and then only to an
 * authenticated client when authentication is configured, else only to a
 * client on this host or on a network named by --share-from.  A report
 * names the host, its kernel, NIC, firmware and every sysctl: across a
 * network that must need more than knowing the port.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/share.h"

/* The address bytes to compare: an IPv4 peer on a dual-stack socket shows
 * as ::ffff:a.b.c.d and is matched as IPv4. */
static int addr_bytes(const struct sockaddr *sa, const unsigned char **ret_bytes)
{
	if (sa->sa_family == AF_INET) {
		*ret_bytes = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
		return AF_INET;
	}
	if (sa->sa_family != AF_INET6)
		return AF_UNSPEC;
	*ret_bytes = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
	if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)*ret_bytes)) {
		*ret_bytes += 12;
		return AF_INET;
	}
	return AF_INET6;
}

static bool prefix_equal(const unsigned char *a, const unsigned char *b, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(a, b, whole))
		return false;
	return !rest || ((a[whole] ^ b[whole]) & (0xff << (8 - rest))) == 0;
}

/* "10.1.0.0/16", "fd00::/8", "192.0.2.7": one network, host bits cleared. */
static int parse_net(const char *text, struct nd_share_net *net)
{
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(text, '/');
	size_t len = slash ? (size_t)(slash - text) : strlen(text);
	unsigned max;
	long bits;

	if (len == 0 || len >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, text, len);
	addr[len] = '\0';
	memset(net, 0, sizeof(*net));
	if (inet_pton(AF_INET, addr, net->addr) == 1)
		net->family = AF_INET;
	else if (inet_pton(AF_INET6, addr, net->addr) == 1)
		net->family = AF_INET6;
	else
		return -EINVAL;
	max = net->family == AF_INET ? 32 : 128;
	if (!slash)
		bits = max;
	else if (nd_parse_long(slash + 1, 10, 0, max, &bits) < 0 || !slash[1])
		return -EINVAL;
	net->prefix_len = (unsigned)bits;
	for (unsigned i = net->prefix_len; i < max; i++)
		net->addr[i / 8] &= (unsigned char)~(0x80 >> (i % 8));
	return 0;
}

int nd_share_parse_nets(const char *text, struct nd_share_policy *pol, char *err,
			size_t err_size)
{
	char *copy = strdup(text), *save = NULL, *item;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && rc == 0;
	     item = strtok_r(NULL, ",", &save)) {
		if (pol->nets_count == ND_SHARE_NETS_MAX) {
			snprintf(err, err_size, "--share-from: more than %d networks",
				 ND_SHARE_NETS_MAX);
			rc = -EINVAL;
		} else if (parse_net(item, &pol->nets[pol->nets_count]) < 0) {
			snprintf(err, err_size, "--share-from: '%.60s' is not an IPv4 or IPv6 "
				 "network (ADDRESS/PREFIX-LENGTH)", item);
			rc = -EINVAL;
		} else {
			pol->nets_count++;
		}
	}
	if (rc == 0 && pol->nets_count == 0) {
		snprintf(err, err_size, "--share-from: no network given");
		rc = -EINVAL;
	}
	free(copy);
	return rc;
}

bool nd_share_nets_match(const struct nd_share_policy *pol, const struct sockaddr *addr)
{
	const unsigned char *bytes = NULL;
	int family = addr_bytes(addr, &bytes);

	for (int i = 0; family != AF_UNSPEC && i < pol->nets_count; i++)
		if (pol->nets[i].family == family &&
		    prefix_equal(pol->nets[i].addr, bytes, pol->nets[i].prefix_len))
			return true;
	return false;
}

bool nd_share_addr_is_local(const struct sockaddr *addr)
{
	const unsigned char *bytes = NULL;
	int family = addr_bytes(addr, &bytes);
	char ifname[ND_IFNAMSIZ];

	if (family == AF_INET && bytes[0] == 127)
		return true;
	if (family == AF_INET6 && IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)bytes))
		return true;
	/* One of this host's own addresses: the client runs here. */
	return family != AF_UNSPEC &&
	       nd_probe_iface_by_addr(addr, ifname, sizeof(ifname)) == 0;
}

bool nd_share_allowed(const struct nd_share_policy *pol, const struct sockaddr *peer,
		      bool authenticated, char *why, size_t why_size)
{
	if (!pol->share) {
		snprintf(why, why_size, "it runs without --share (start it with 'nicdoctor serve "
			 "--share', or 'share = yes' in its config)");
		return false;
	}
	if (pol->auth_required) {
		if (authenticated)
			return true;
		snprintf(why, why_size, "it shares only with an authenticated client "
			 "(--username, --rsa-public-key-path)");
		return false;
	}
	if (nd_share_addr_is_local(peer) || nd_share_nets_match(pol, peer))
		return true;
	snprintf(why, why_size, "it shares only with clients on its own host or on its "
		 "--share-from networks, and this client is on neither (add this client's "
		 "network with 'serve --share --share-from CIDR', or use authentication)");
	return false;
}

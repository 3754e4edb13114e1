/*
 * bond_hash.c - the bonding driver's transmit hash (bond_hash.h), so that
 * nicdoctor can say which member a flow takes and choose source ports that
 * put N flows on N members.  The fields enter the hash as the kernel reads
 * them: addresses and ports as the bytes of the header loaded into a host
 * u32 (memcpy), so the member is the one this host's kernel picks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bond_hash.h"
#include "nicdoctor/spread.h"

/* More members than any bond has; bounds the picker's per-member state. */

static const char *const policy_names[] = {
	[ND_BOND_HASH_LAYER2] = "layer2",     [ND_BOND_HASH_LAYER34] = "layer3+4",
	[ND_BOND_HASH_LAYER23] = "layer2+3",  [ND_BOND_HASH_ENCAP23] = "encap2+3",
	[ND_BOND_HASH_ENCAP34] = "encap3+4",  [ND_BOND_HASH_VLAN_SRCMAC] = "vlan+srcmac",
};

int nd_bond_hash_policy_parse(const char *name, enum nd_bond_hash_policy *ret)
{
	for (unsigned i = 0; name && i < sizeof(policy_names) / sizeof(policy_names[0]); i++)
		if (!strcmp(name, policy_names[i])) {
			*ret = (enum nd_bond_hash_policy)i;
			return 0;
		}
	return -EINVAL;
}

static uint32_t load32(const uint8_t *bytes)
{
	uint32_t v;

	memcpy(&v, bytes, sizeof(v));
	return v;
}

/* bond_eth_hash: last bytes of both MACs and the EtherType (host order). */
static uint32_t eth_hash(const struct nd_bond_flow *flow)
{
	uint32_t proto = flow->ipv6 ? 0x86dd : 0x0800;

	return (uint32_t)(flow->dst_mac[5] ^ flow->src_mac[5]) ^ proto;
}

/* flow_get_u32_src/dst: the IPv4 address, or ipv6_addr_hash (the XOR of
 * the address's four words), as the header's bytes. */
static uint32_t addr_u32(const uint8_t *addr, bool ipv6)
{
	uint32_t v = load32(addr);

	if (ipv6)
		v ^= load32(addr + 4) ^ load32(addr + 8) ^ load32(addr + 12);
	return v;
}

/* bond_ip_hash */
static uint32_t ip_hash(uint32_t hash, const struct nd_bond_flow *flow, bool drop_low_bit)
{
	hash ^= addr_u32(flow->dst_addr, flow->ipv6) ^ addr_u32(flow->src_addr, flow->ipv6);
	hash ^= hash >> 16;
	hash ^= hash >> 8;
	/* the kernel: "discard lowest hash bit to deal with the common even
	 * ports pattern" (connect() prefers even source ports) */
	return drop_low_bit ? hash >> 1 : hash;
}

static uint32_t vlan_srcmac_hash(const struct nd_bond_flow *flow)
{
	const uint8_t *mac = flow->src_mac;
	uint32_t vendor = (uint32_t)mac[0] << 16 | (uint32_t)mac[1] << 8 | mac[2];
	uint32_t dev = (uint32_t)mac[3] << 16 | (uint32_t)mac[4] << 8 | mac[5];

	return flow->vlan_id ^ vendor ^ dev;
}

int nd_bond_hash(enum nd_bond_hash_policy policy, const struct nd_bond_flow *flow,
		 uint32_t *ret_hash)
{
	uint8_t ports[4];

	switch (policy) {
	case ND_BOND_HASH_LAYER2:
		*ret_hash = eth_hash(flow);
		return 0;
	case ND_BOND_HASH_LAYER23:
	case ND_BOND_HASH_ENCAP23:	/* unencapsulated: the outer headers */
		*ret_hash = ip_hash(eth_hash(flow), flow, false);
		return 0;
	case ND_BOND_HASH_LAYER34:
		/* flow.ports.ports: source then destination port, network order */
		ports[0] = (uint8_t)(flow->src_port >> 8);
		ports[1] = (uint8_t)flow->src_port;
		ports[2] = (uint8_t)(flow->dst_port >> 8);
		ports[3] = (uint8_t)flow->dst_port;
		*ret_hash = ip_hash(load32(ports), flow, true);
		return 0;
	case ND_BOND_HASH_VLAN_SRCMAC:
		*ret_hash = vlan_srcmac_hash(flow);
		return 0;
	case ND_BOND_HASH_ENCAP34:
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

int nd_bond_hash_member(enum nd_bond_hash_policy policy, unsigned members,
			const struct nd_bond_flow *flow, unsigned *ret_index)
{
	uint32_t hash;
	int r;

	if (!members)
		return -EINVAL;
	r = nd_bond_hash(policy, flow, &hash);
	if (r < 0)
		return r;
	*ret_index = hash % members;
	return 0;
}

struct pick_ctx {
	struct nd_bond_flow flow;
	unsigned members;
};

static int member_of_port(uint16_t port, void *arg)
{
	struct pick_ctx *c = arg;
	unsigned m;

	c->flow.src_port = port;
	return nd_bond_hash_member(ND_BOND_HASH_LAYER34, c->members, &c->flow, &m) < 0 ? -1 :
	       (int)m;
}

/* The members are the picker's buckets (spread/ports.c): every member a
 * flow before any gets a second, as far as the range reaches. */
int nd_bond_hash_pick_ports(unsigned members, const struct nd_bond_flow *tmpl,
			    uint16_t first_port, uint16_t last_port, unsigned n_flows,
			    uint16_t *ret_ports, unsigned *ret_members_covered)
{
	struct pick_ctx c = { .flow = *tmpl, .members = members };
	uint16_t *ports;
	int r;

	if (!members || members > ND_SPREAD_MAX_BUCKETS || !n_flows || first_port > last_port ||
	    first_port == 0)
		return -EINVAL;
	ports = calloc(n_flows, sizeof(*ports));
	if (!ports)
		return -ENOMEM;
	r = nd_spread_pick(first_port, last_port, n_flows, members, member_of_port, &c, ports,
			   NULL);
	if (r >= 0) {
		memcpy(ret_ports, ports, n_flows * sizeof(*ports));
		*ret_members_covered = (unsigned)r;
	}
	free(ports);
	return r < 0 ? r : 0;
}

/*
 * bond_hash.h - which member a bond sends a flow on, as the kernel's
 * xmit_hash_policy computes it, and source ports chosen so that N flows
 * land on distinct members under layer3+4.  Pure (no I/O): the port picker
 * for bench/diagnose streams can call it once it knows the bond.
 *
 * Followed: drivers/net/bonding/bond_main.c bond_eth_hash,
 * bond_vlan_srcmac_hash, bond_ip_hash, __bond_xmit_hash, bond_xmit_hash and
 * bond_xmit_3ad_xor_slave_get (slaves->arr[hash % count]) as in
 * gregkh/linux@00ed3c3ade69 (a 6.x tree: layer2 hashes the EtherType too,
 * and only layer3+4/encap3+4 drop the lowest bit, since "bonding: do not
 * discard lowest hash bit for non layer3+4 hashing", 2022).  Older kernels
 * differ (no EtherType in layer2, >> 1 for every IP policy, before that
 * no >> 1 at all): the index is this formula's, said so where shown.
 */
#ifndef NICDOCTOR_BOND_HASH_H
#define NICDOCTOR_BOND_HASH_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's BOND_XMIT_POLICY_* numbers (IFLA_BOND_XMIT_HASH_POLICY). */
enum nd_bond_hash_policy {
	ND_BOND_HASH_LAYER2 = 0,
	ND_BOND_HASH_LAYER34 = 1,
	ND_BOND_HASH_LAYER23 = 2,
	ND_BOND_HASH_ENCAP23 = 3,
	ND_BOND_HASH_ENCAP34 = 4,
	ND_BOND_HASH_VLAN_SRCMAC = 5,
};

/* One unencapsulated TCP/UDP flow as the bond sees its frames. */
struct nd_bond_flow {
	uint8_t src_mac[6], dst_mac[6];
	bool ipv6;			/* false: IPv4 (EtherType 0x0800) */
	uint8_t src_addr[16], dst_addr[16];	/* network order; IPv4 in the first 4 */
	uint16_t src_port, dst_port;	/* host order */
	uint16_t vlan_id;		/* vlan+srcmac only; 0 untagged */
};

/* "layer2", "layer3+4", "layer2+3", "encap2+3", "encap3+4", "vlan+srcmac"
 * (the kernel's names).  0 or -EINVAL. */
int nd_bond_hash_policy_parse(const char *name, enum nd_bond_hash_policy *ret);

/* The hash the kernel computes for flow (before "% members").
 * -EOPNOTSUPP for encap3+4: locally sent TCP carries the socket's random
 * tx hash (skb->l4_hash), which bond_xmit_hash returns as it is. */
int nd_bond_hash(enum nd_bond_hash_policy policy, const struct nd_bond_flow *flow,
		 uint32_t *ret_hash);

/* Index of the member (among the members the bond can send on, in the
 * bond's order) that carries flow: hash % members.  -EINVAL for no members,
 * or nd_bond_hash's error; *ret_index untouched on failure. */
int nd_bond_hash_member(enum nd_bond_hash_policy policy, unsigned members,
			const struct nd_bond_flow *flow, unsigned *ret_index);

/* Source ports for n_flows flows like tmpl (its src_port ignored) from
 * [first_port, last_port] so that, under layer3+4, they cover as many
 * members as the range reaches, every member a flow before any gets a
 * second (nd_spread_pick, the members as its buckets).  ret_ports[n_flows]
 * receives the ports (each used once, in the picker's order),
 * *ret_members_covered how many members they reach.  0; -EINVAL for no
 * flows/members or an empty range; -ERANGE when the range has fewer ports
 * than flows (ret_* untouched). */
int nd_bond_hash_pick_ports(unsigned members, const struct nd_bond_flow *tmpl,
			    uint16_t first_port, uint16_t last_port, unsigned n_flows,
			    uint16_t *ret_ports, unsigned *ret_members_covered);

#endif

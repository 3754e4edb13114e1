/*
 * bond.c - a bond's members as the buckets of a sending run (spread.h):
 * which members the bond can send on, whether the source port chooses
 * among them (a hashing mode with xmit_hash_policy layer3+4), the ports
 * that cover them (bond_hash.c), and the sentence its members' counters
 * make.  Pure: the bond comes from the probe, the counters from run.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bond_hash.h"
#include "nicdoctor/common.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/spread.h"

/* The members bond_xmit_3ad_xor_slave_get picks from: up, and in 802.3ad
 * those of the active aggregator, in the bond's order. */
static void usable_members(const struct nd_bond *b, struct nd_spread_members *m)
{
	bool lacp = !strcmp(b->mode, "802.3ad");

	m->n = 0;
	for (unsigned i = 0; i < b->n_members && m->n < ND_SPREAD_MAX_MEMBERS; i++) {
		const struct nd_bond_member *x = &b->members[i];

		if (strcmp(x->mii_status, "up"))
			continue;
		if (lacp && b->ad_info_known && x->aggregator_id >= 0 &&
		    x->aggregator_id != b->ad_aggregator_id)
			continue;
		nd_strlcpy(m->name[m->n++], x->name, sizeof(m->name[0]));
	}
}

static int why(struct nd_spread_members *m, const char *text)
{
	nd_strlcpy(m->why, text, sizeof(m->why));
	return -EOPNOTSUPP;
}

int nd_spread_bond_plan(const struct nd_bond *b, const uint8_t *local, const uint8_t *peer,
			size_t addr_len, uint16_t peer_port, uint16_t first, uint16_t last,
			unsigned n, uint16_t *ret_ports, int *ret_members,
			struct nd_spread_members *m)
{
	struct nd_bond_flow flow = { .ipv6 = addr_len == 16, .dst_port = peer_port };
	unsigned covered;

	memset(m, 0, sizeof(*m));
	if (!b->st.known || !b->is_bond)
		return -ENOENT;
	m->bond = true;
	nd_strlcpy(m->mode, b->mode, sizeof(m->mode));
	nd_strlcpy(m->policy, b->xmit_hash_policy, sizeof(m->policy));
	usable_members(b, m);
	if (strcmp(b->mode, "balance-xor") && strcmp(b->mode, "802.3ad"))
		return why(m, b->mode[0] ? "the bond's mode does not hash flows onto members" :
			   "the bond's mode is unknown");
	if (strcmp(b->xmit_hash_policy, "layer3+4"))
		return why(m, "its xmit_hash_policy is not layer3+4: the source port does not "
			   "choose the member (ip link set BOND type bond xmit_hash_policy "
			   "layer3+4)");
	if (m->n < 2)
		return why(m, "fewer than two members can send");
	if (!first || !last)
		return why(m, "no --cport range to choose the ports from");
	if (addr_len != 4 && addr_len != 16)
		return why(m, "the control connection's addresses are unknown");
	memcpy(flow.src_addr, local, addr_len);
	memcpy(flow.dst_addr, peer, addr_len);
	if (nd_bond_hash_pick_ports(m->n, &flow, first, last, n, ret_ports, &covered) < 0)
		return why(m, "the --cport range has too few ports");
	for (unsigned i = 0; i < n; i++) {
		unsigned idx = 0;

		flow.src_port = ret_ports[i];
		nd_bond_hash_member(ND_BOND_HASH_LAYER34, m->n, &flow, &idx);
		ret_members[i] = (int)idx;
	}
	m->placed = true;
	return 0;
}

void nd_spread_members_sentence(const struct nd_spread_members *m, char *buf, size_t size)
{
	const struct nd_spread_summary *s = &m->sum;
	unsigned want = s->flows < s->queues ? s->flows : s->queues;
	int len = snprintf(buf, size, "%u flow%s on %u of %u bond members", s->flows,
			   s->flows == 1 ? "" : "s", s->carrying, s->queues);

	if (s->carrying >= want || s->lowest < 0 || len < 0 || (size_t)len >= size)
		return;
	snprintf(buf + len, size - (size_t)len, ": %s carried %" PRIu64 " packet%s",
		 m->name[s->lowest], s->q[s->lowest].packets,
		 s->q[s->lowest].packets == 1 ? "" : "s");
}

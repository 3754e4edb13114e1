/*
 * bond_flows_on_one_member.c - during the traffic runs one member sent
 * (or received) nearly all the bond's bytes while several were up in a
 * mode that spreads: the flows hashed onto one member (a layer2/layer2+3
 * policy to one peer, too few flows for layer3+4, or source ports of one
 * parity on old kernels, iperf2 #494), so the bond moved one member's
 * worth.  Judged on the members' own counters (/sys/class/net/M/statistics)
 * read before and after the runs of diagnose --peer; without a run it
 * stays unknown.  The receive side is the switch's (or the peer's) hash.
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

/* Less than this in the window says nothing about spreading. */
#define BOND_WINDOW_MIN_BYTES (10ull * 1000 * 1000)
/* One member's share at or above this is "all on one". */
#define BOND_ONE_MEMBER_SHARE 0.9

struct spread {
	uint64_t total_bytes;
	unsigned top;		/* the member with the most bytes */
	double top_share;
};

static bool spreading_mode(const char *mode)
{
	return !strcmp(mode, "balance-rr") || !strcmp(mode, "balance-xor") ||
	       !strcmp(mode, "802.3ad") || !strcmp(mode, "balance-tlb") ||
	       !strcmp(mode, "balance-alb");
}

/* Modes whose receive side the link partner spreads: tlb receives on one
 * member by design, alb gives each peer one member by ARP. */
static bool partner_spreads_rx(const char *mode)
{
	return !strcmp(mode, "balance-rr") || !strcmp(mode, "balance-xor") ||
	       !strcmp(mode, "802.3ad");
}

static void spread_of(const struct nd_bond *b, bool rx, struct spread *s)
{
	uint64_t top = 0;

	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < b->n_members; i++) {
		uint64_t v = rx ? b->members[i].window_rx_bytes : b->members[i].window_tx_bytes;

		s->total_bytes += v;
		if (v > top) {
			top = v;
			s->top = i;
		}
	}
	s->top_share = s->total_bytes ? (double)top / (double)s->total_bytes : 0;
}

static void add_window(const struct nd_bond *b, cJSON *evidence)
{
	cJSON *arr = cJSON_AddArrayToObject(evidence, "members_tx_bytes");

	for (unsigned i = 0; arr && i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			return;
		cJSON_AddStringToObject(o, "name", m->name);
		cJSON_AddNumberToObject(o, "tx_bytes", (double)m->window_tx_bytes);
		cJSON_AddNumberToObject(o, "rx_bytes", (double)m->window_rx_bytes);
		if (m->window_packets_known) {
			cJSON_AddNumberToObject(o, "tx_packets", (double)m->window_tx_packets);
			cJSON_AddNumberToObject(o, "rx_packets", (double)m->window_rx_packets);
		}
		cJSON_AddItemToArray(arr, o);
	}
}

static void send_fix(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	bool l34 = !strcmp(b->xmit_hash_policy, "layer3+4") ||
		   !strcmp(b->xmit_hash_policy, "encap3+4");

	if (nd_bond_mode_hashes(b->mode) && !l34 && b->is_team)
		nd_finding_fix(f, "bond_hash", "nmcli connection modify %s team.runner-tx-hash "
			       "eth,ipv4,ipv6,tcp,udp", facts->ifname);
	else if (nd_bond_mode_hashes(b->mode) && !l34)
		nd_finding_fix(f, "bond_hash", "ip link set dev %s type bond xmit_hash_policy "
			       "layer3+4", facts->ifname);
	nd_finding_fix(f, "bond_hash", "# more flows (-P 8) or source ports chosen to "
		       "spread them; one flow never spans members");
}

/* A finding of one member carrying the run: its goodput is the ceiling. */
static void one_member(const struct nd_facts *facts, struct nd_finding *f,
		       const struct spread *s, bool rx, unsigned up)
{
	const struct nd_bond_member *m = &facts->bond.members[s->top];
	double one = nd_bond_member_goodput_mbps(facts, m);
	char cap[64] = "";

	if (one > 0) {
		nd_finding_ceiling(f, "bond", one);
		snprintf(cap, sizeof(cap), ", which caps them at its %.0f Mbit/s", one);
	}
	cJSON_AddStringToObject(f->evidence, "direction", rx ? "receive" : "send");
	if (!rx) {
		nd_finding_set(f, ND_SEV_WARNING, "during the runs %s sent %.0f%% of the bond's "
			       "bytes: the flows hashed onto one member of %u%s", m->name,
			       s->top_share * 100, up, cap);
		return send_fix(facts, f);
	}
	nd_finding_set(f, ND_SEV_WARNING, "during the runs %s received %.0f%% of the bond's "
		       "bytes: the switch (or the peer) hashed the flows onto one member of %u%s",
		       m->name, s->top_share * 100, up, cap);
	nd_finding_fix(f, "bond_hash", "# the receive side is the link partner's hash: "
		       "src-dst-ip-port (layer3+4) load balancing on the switch's port-channel");
}

void nd_check_bond_flows_on_one_member(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	struct spread tx, rx;
	char label[32];
	bool rx_judged;
	unsigned up;

	if (!nd_bond_check_begin(facts, f) || !nd_bond_runner_known(facts, f))
		return;
	if (!spreading_mode(b->mode)) {
		nd_finding_not_applicable(f, "%s sends on one member by design",
					  nd_bond_mode_label(b, label, sizeof(label)));
		return;
	}
	nd_bond_up_goodput_mbps(facts, -1, &up);
	if (up < 2) {
		nd_finding_set(f, ND_SEV_OK, "%u member up: nothing to spread over", up);
		return;
	}
	if (!b->window_known)
		return nd_finding_unknown(f, "members' counters over a traffic run",
					  "no traffic run (diagnose --peer HOST)");
	cJSON_AddNumberToObject(f->evidence, "window_seconds", b->window_seconds);
	add_window(b, f->evidence);
	spread_of(b, false, &tx);
	spread_of(b, true, &rx);
	rx_judged = partner_spreads_rx(b->mode) && rx.total_bytes >= BOND_WINDOW_MIN_BYTES;
	if (tx.total_bytes < BOND_WINDOW_MIN_BYTES && !rx_judged)
		return nd_finding_unknown(f, "traffic through the bond",
					  "the runs sent under 10 MB through its members");
	cJSON_AddNumberToObject(f->evidence, "top_share", tx.top_share);
	if (rx_judged)
		cJSON_AddNumberToObject(f->evidence, "rx_top_share", rx.top_share);
	if (tx.total_bytes >= BOND_WINDOW_MIN_BYTES && tx.top_share >= BOND_ONE_MEMBER_SHARE)
		return one_member(facts, f, &tx, false, up);
	if (rx_judged && rx.top_share >= BOND_ONE_MEMBER_SHARE)
		return one_member(facts, f, &rx, true, up);
	if (rx_judged)
		nd_finding_set(f, ND_SEV_OK, "the runs spread over the members (%s sent %.0f%%, "
			       "%s received %.0f%%)", b->members[tx.top].name, tx.top_share * 100,
			       b->members[rx.top].name, rx.top_share * 100);
	else
		nd_finding_set(f, ND_SEV_OK, "the runs spread over the members (%s sent %.0f%%)",
			       b->members[tx.top].name, tx.top_share * 100);
}

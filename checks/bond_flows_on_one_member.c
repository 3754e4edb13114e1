/*
 * bond_flows_on_one_member.c - during the traffic runs one member sent
 * nearly all the bond's bytes: the flows hashed onto one member (a layer2
 * policy to one peer, too few flows for layer3+4, or source ports of one
 * parity on old kernels, iperf2 #494), so the bond moved one member's
 * worth.  Judged on the members' own counters over the runs; without a
 * run it stays unknown.
 */
#include <stdio.h>
#include <string.h>

#include "bond_common.h"

/* Less than this sent in the window says nothing about spreading. */
#define BOND_WINDOW_MIN_BYTES (10ull * 1000 * 1000)
/* One member's share at or above this is "all on one". */
#define BOND_ONE_MEMBER_SHARE 0.9

static bool spreading_mode(const char *mode)
{
	return !strcmp(mode, "balance-rr") || !strcmp(mode, "balance-xor") ||
	       !strcmp(mode, "802.3ad") || !strcmp(mode, "balance-tlb") ||
	       !strcmp(mode, "balance-alb");
}

static void add_window(const struct nd_bond *b, cJSON *evidence, uint64_t *ret_total,
		       unsigned *ret_top)
{
	cJSON *arr = cJSON_AddArrayToObject(evidence, "members_tx_bytes");
	uint64_t total = 0, top = 0;

	*ret_top = 0;
	for (unsigned i = 0; i < b->n_members; i++) {
		const struct nd_bond_member *m = &b->members[i];
		cJSON *o = cJSON_CreateObject();

		if (o) {
			cJSON_AddStringToObject(o, "name", m->name);
			cJSON_AddNumberToObject(o, "tx_bytes", (double)m->window_tx_bytes);
			cJSON_AddNumberToObject(o, "rx_bytes", (double)m->window_rx_bytes);
			cJSON_AddItemToArray(arr, o);
		}
		total += m->window_tx_bytes;
		if (m->window_tx_bytes > top) {
			top = m->window_tx_bytes;
			*ret_top = i;
		}
	}
	*ret_total = total;
}

void nd_check_bond_flows_on_one_member(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_bond *b = &facts->bond;
	uint64_t total;
	unsigned top, up;
	double share, one;

	if (!nd_bond_check_begin(facts, f))
		return;
	if (!spreading_mode(b->mode)) {
		nd_finding_set(f, ND_SEV_OK, "mode %s sends on one member by design",
			       b->mode[0] ? b->mode : "(unknown)");
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
	add_window(b, f->evidence, &total, &top);
	if (total < BOND_WINDOW_MIN_BYTES)
		return nd_finding_unknown(f, "traffic through the bond",
					  "the runs sent under 10 MB through its members");
	share = (double)b->members[top].window_tx_bytes / (double)total;
	cJSON_AddNumberToObject(f->evidence, "top_share", share);
	if (share < BOND_ONE_MEMBER_SHARE) {
		nd_finding_set(f, ND_SEV_OK, "the runs spread over the members (%s sent %.0f%%)",
			       b->members[top].name, share * 100);
		return;
	}
	one = nd_bond_member_goodput_mbps(facts, &b->members[top]);
	if (one > 0)
		nd_finding_ceiling(f, "bond", one);
	nd_finding_set(f, ND_SEV_WARNING, "during the runs %s sent %.0f%% of the bond's bytes: "
		       "the flows hashed onto one member of %u", b->members[top].name, share * 100,
		       up);
	if (nd_bond_mode_hashes(b->mode) && strcmp(b->xmit_hash_policy, "layer3+4"))
		nd_finding_fix(f, "bond_hash", "ip link set dev %s type bond xmit_hash_policy "
			       "layer3+4", facts->ifname);
	nd_finding_fix(f, "bond_hash", "# more flows (-P 8) or source ports chosen to spread "
		       "them; one flow never spans members");
}

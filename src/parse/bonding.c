/*
 * bonding.c - the /proc/net/bonding/BOND parser.
 *
 * The format is the bonding driver's bond_procfs.c: a master block
 * ("Bonding Mode:", "Transmit Hash Policy:", ...), for 802.3ad an
 * "802.3ad info" block with the active aggregator, then one
 * "Slave Interface:" block per member, on current kernels with the
 * actor's and partner's LACPDU details.  Older drivers print fewer lines
 * and tolerated garbage ("Speed" without a value); what a line does not
 * say stays unknown.  Pure: it backs the sysroot/sosreport fallback.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/text_util.h"

/* SEC_SKIP: a member beyond ND_MAX_BOND_MEMBERS, its lines ignored. */
enum section { SEC_MASTER, SEC_AGGREGATOR, SEC_SLAVE, SEC_ACTOR_PDU, SEC_PARTNER_PDU, SEC_SKIP };

/* The mode names bond_mode_name() prints, and the option names. */
static const struct {
	const char *proc, *name;
} modes[] = {
	{ "load balancing (round-robin)", "balance-rr" },
	{ "fault-tolerance (active-backup)", "active-backup" },
	{ "load balancing (xor)", "balance-xor" },
	{ "fault-tolerance (broadcast)", "broadcast" },
	{ "IEEE 802.3ad Dynamic link aggregation", "802.3ad" },
	{ "transmit load balancing", "balance-tlb" },
	{ "adaptive load balancing", "balance-alb" },
};

static const char *const xmit_policies[] = { "layer2", "layer3+4", "layer2+3", "encap2+3",
					     "encap3+4", "vlan+srcmac" };
static const char *const mii_states[] = { "up", "going down", "down", "going back" };

const char *nd_bond_mode_name(unsigned mode)
{
	return mode < ND_ARRAY_SIZE(modes) ? modes[mode].name : NULL;
}

const char *nd_bond_xmit_policy_name(unsigned policy)
{
	return policy < ND_ARRAY_SIZE(xmit_policies) ? xmit_policies[policy] : NULL;
}

const char *nd_bond_mii_status_name(unsigned status)
{
	return status < ND_ARRAY_SIZE(mii_states) ? mii_states[status] : NULL;
}

void nd_bond_member_reset(struct nd_bond_member *m)
{
	memset(m, 0, sizeof(*m));
	m->speed_mbps = -1;
	m->duplex = -1;
	m->link_failure_count = -1;
	m->queue_id = -1;
	m->aggregator_id = -1;
	m->actor_port_state = -1;
	m->partner_port_state = -1;
}

void nd_bond_reset(struct nd_bond *bond)
{
	memset(bond, 0, sizeof(*bond));
	bond->miimon_ms = -1;
	bond->arp_interval_ms = -1;
	bond->ad_aggregator_id = -1;
	bond->ad_num_ports = -1;
	bond->ad_actor_key = -1;
	bond->ad_partner_key = -1;
}

/* A decimal int at the start of v ("1000 Mbps", "3"); -1 otherwise. */
static int64_t leading_int(struct nd_span v)
{
	uint64_t n;
	size_t used;

	if (nd_span_u64_prefix(v, &n, &used) < 0 || n > INT32_MAX)
		return -1;
	return (int64_t)n;
}

/* The first blank-separated word: "layer2 (0)" -> "layer2". */
static void first_word(struct nd_span v, char *dst, size_t size)
{
	size_t pos = 0;
	struct nd_span tok = { v.p, 0 };

	nd_span_token(v, &pos, &tok);
	nd_span_copy(tok, dst, size);
}

static void parse_mode(struct nd_span v, struct nd_bond *out)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(modes); i++)
		if (nd_span_starts(v, modes[i].proc)) {	/* "(fail_over_mac x)" may follow */
			nd_strlcpy(out->mode, modes[i].name, sizeof(out->mode));
			return;
		}
	out->mode[0] = '\0';	/* a mode this parser does not know: unknown */
}

static void master_line(struct nd_span k, struct nd_span v, struct nd_bond *out)
{
	if (nd_span_eq(k, "Bonding Mode"))
		parse_mode(v, out);
	else if (nd_span_eq(k, "Transmit Hash Policy"))
		first_word(v, out->xmit_hash_policy, sizeof(out->xmit_hash_policy));
	else if (nd_span_eq(k, "Currently Active Slave") && !nd_span_eq(v, "None"))
		first_word(v, out->active_slave, sizeof(out->active_slave));
	else if (nd_span_eq(k, "MII Polling Interval (ms)"))
		out->miimon_ms = (int)leading_int(v);
	else if (nd_span_eq(k, "ARP Polling Interval (ms)"))
		out->arp_interval_ms = (int)leading_int(v);
	else if (nd_span_eq(k, "LACP rate"))
		first_word(v, out->lacp_rate, sizeof(out->lacp_rate));
}

static void aggregator_line(struct nd_span k, struct nd_span v, struct nd_bond *out)
{
	out->ad_info_known = true;
	if (nd_span_eq(k, "Aggregator ID"))
		out->ad_aggregator_id = (int)leading_int(v);
	else if (nd_span_eq(k, "Number of ports"))
		out->ad_num_ports = (int)leading_int(v);
	else if (nd_span_eq(k, "Actor Key"))
		out->ad_actor_key = (int)leading_int(v);
	else if (nd_span_eq(k, "Partner Key"))
		out->ad_partner_key = (int)leading_int(v);
	else if (nd_span_eq(k, "Partner Mac Address"))
		first_word(v, out->ad_partner_mac, sizeof(out->ad_partner_mac));
}

static void slave_line(struct nd_span k, struct nd_span v, struct nd_bond_member *m)
{
	if (nd_span_eq(k, "MII Status"))
		nd_span_copy(v, m->mii_status, sizeof(m->mii_status));
	else if (nd_span_eq(k, "Speed"))
		m->speed_mbps = leading_int(v);	/* "Unknown": -1 */
	else if (nd_span_eq(k, "Duplex"))
		m->duplex = nd_span_eq(v, "full") ? 1 : nd_span_eq(v, "half") ? 0 : -1;
	else if (nd_span_eq(k, "Link Failure Count"))
		m->link_failure_count = leading_int(v);
	else if (nd_span_eq(k, "Permanent HW addr"))
		first_word(v, m->perm_hwaddr, sizeof(m->perm_hwaddr));
	else if (nd_span_eq(k, "Slave queue ID"))
		m->queue_id = (int)leading_int(v);
	else if (nd_span_eq(k, "Aggregator ID"))
		m->aggregator_id = (int)leading_int(v);	/* "N/A": -1 */
	else if ((nd_span_eq(k, "Actor Churn State") || nd_span_eq(k, "Partner Churn State")) &&
		 nd_span_eq(v, "churned"))
		m->churned = true;
}

static void pdu_line(struct nd_span k, struct nd_span v, struct nd_bond_member *m, bool actor)
{
	if (nd_span_eq(k, "port state")) {
		int64_t s = leading_int(v);

		if (s > 255)
			s = -1;
		if (actor)
			m->actor_port_state = (int)s;
		else
			m->partner_port_state = (int)s;
	} else if (!actor && nd_span_eq(k, "system mac address")) {
		first_word(v, m->partner_system_mac, sizeof(m->partner_system_mac));
	}
}

/* A line that opens a block; false for an ordinary "key: value". */
static bool block_line(struct nd_span line, struct nd_span k, struct nd_span v,
		       struct nd_bond *out, enum section *sec, bool *seen)
{
	if (nd_span_eq(k, "Slave Interface")) {
		*sec = SEC_SKIP;
		*seen = true;
		if (out->n_members < ND_MAX_BOND_MEMBERS) {
			*sec = SEC_SLAVE;
			struct nd_bond_member *m = &out->members[out->n_members++];

			nd_bond_member_reset(m);
			first_word(v, m->name, sizeof(m->name));
		}
		return true;
	}
	if (nd_span_eq(line, "Active Aggregator Info:")) {
		*sec = SEC_AGGREGATOR;
		out->ad_info_known = true;
		return true;
	}
	if (nd_span_eq(line, "details actor lacp pdu:") ||
	    nd_span_eq(line, "details partner lacp pdu:")) {
		if (*sec == SEC_SLAVE || *sec == SEC_ACTOR_PDU || *sec == SEC_PARTNER_PDU)
			*sec = line.p[8] == 'a' ? SEC_ACTOR_PDU : SEC_PARTNER_PDU;
		return true;
	}
	if (nd_span_contains(line, "has no active aggregator")) {
		out->ad_no_active_aggregator = true;
		out->ad_info_known = true;
		return true;
	}
	return false;
}

int nd_parse_bonding(const char *text, size_t len, struct nd_bond *out)
{
	enum section sec = SEC_MASTER;
	struct nd_cursor c;
	struct nd_span line, k, v;
	bool seen = false;

	nd_bond_reset(out);
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		line = nd_span_trim(line);
		if (nd_span_blank(line)) {
			if (sec == SEC_AGGREGATOR || sec == SEC_ACTOR_PDU || sec == SEC_PARTNER_PDU)
				sec = sec == SEC_AGGREGATOR ? SEC_MASTER : SEC_SLAVE;
			continue;
		}
		if (!nd_span_kv(line, &k, &v)) {
			/* "802.3ad info", "bond0 has no active aggregator", and the
			 * bare "Speed" an old driver printed: no value to take */
			k = line, v = nd_span_from(line, line.len);
			block_line(line, k, v, out, &sec, &seen);
			continue;
		}
		if (block_line(line, k, v, out, &sec, &seen))
			continue;
		struct nd_bond_member *m = out->n_members ? &out->members[out->n_members - 1]
							  : NULL;
		if (sec == SEC_MASTER) {
			if (nd_span_eq(k, "Bonding Mode"))
				seen = true;
			master_line(k, v, out);
		} else if (sec == SEC_AGGREGATOR) {
			aggregator_line(k, v, out);
		} else if (m && sec == SEC_SLAVE) {
			slave_line(k, v, m);
		} else if (m && sec != SEC_SKIP) {
			pdu_line(k, v, m, sec == SEC_ACTOR_PDU);
		}
	}
	if (!seen) {
		nd_status_set_unknown(&out->st, "no bonding master or member in the text");
		return -EINVAL;
	}
	out->is_bond = true;
	nd_strlcpy(out->source, "/proc/net/bonding", sizeof(out->source));
	nd_status_set_known(&out->st);
	return 0;
}

/*
 * nic_rx_dropped.c - nic.rx_dropped: the interface counts received packets
 * it dropped or missed: rtnetlink's rx_dropped / rx_missed / rx_fifo /
 * rx_over and the driver's own ethtool -S counters (rx_missed_errors,
 * rx_no_buffer_count, rx_out_of_buffer, rx_discards_phy, rx_dropped ...).
 * Missed and fifo/no-buffer drops mean the RX ring was full when a frame
 * arrived: the CPU did not empty it in time.
 *
 * Counters are cumulative since the driver loaded and facts hold one
 * sample, so the evidence gives totals and the share of received packets;
 * "samples" and "rate_per_sec" are there so a second sample (the engine's
 * before/after) can fill in the rate without changing the evidence shape.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* Ring drops (missed, fifo, no buffer: the RX ring was full) warn from 10
 * per million received packets: by Mathis et al.'s formula (rate ~
 * MSS/RTT x 1.22/sqrt(p)) this loss holds one TCP connection at a 0.5 ms
 * RTT to ~8.9 Gbit/s, below 10GbE goodput. */
#define RX_RING_DROP_WARN_SHARE 1e-5
/* rx_dropped alone warns only from 0.1%: the kernel also counts there the
 * frames no protocol on the host takes (LLDP without lldpd, a VLAN not
 * configured, IPv6 where it is off), background noise that stays far below
 * this share on a link that moves real traffic. */
#define RX_DROPPED_WARN_SHARE 1e-3
/* Driver counters listed at most (drivers list totals before per-queue ones). */
#define RX_DROP_NIC_LISTED 16

enum drop_kind { NOT_DROP, DROP_GENERIC, DROP_RING };

/* ethtool -S names, lower-case substrings: ring/buffer exhaustion first. */
static const char *const ring_words[] = { "miss", "fifo", "no_buf", "nobuf", "no_buffer",
					  "out_of_buffer", "discard", "no_dma" };
/* Names that match a word but count no lost packet: flow director misses,
 * XDP programs' deliberate drops, page-cache misses. */
static const char *const not_drop_words[] = { "fdir", "xdp", "cache" };

static bool contains_lower(const char *name, const char *word)
{
	char lower[sizeof(((struct nd_stat *)0)->name)];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	return strstr(lower, word) != NULL;
}

static bool is_tx_counter(const char *name)
{
	return contains_lower(name, "tx") && !contains_lower(name, "rx");
}

static enum drop_kind classify(const char *name)
{
	if (is_tx_counter(name))
		return NOT_DROP;
	for (size_t i = 0; i < sizeof(not_drop_words) / sizeof(not_drop_words[0]); i++)
		if (contains_lower(name, not_drop_words[i]))
			return NOT_DROP;
	for (size_t i = 0; i < sizeof(ring_words) / sizeof(ring_words[0]); i++)
		if (contains_lower(name, ring_words[i]))
			return DROP_RING;
	return contains_lower(name, "drop") ? DROP_GENERIC : NOT_DROP;
}

struct rx_drops {
	bool link_known;
	uint64_t received;		/* rx_packets */
	uint64_t ring;			/* rx_missed + rx_fifo + rx_over, or the driver's */
	uint64_t dropped;		/* rx_dropped, or the driver's */
};

/* Non-zero driver drop counters into evidence; the largest of each kind
 * raises d (a driver's total and its per-queue parts overlap: never sum). */
static void add_nic_counters(const struct nd_nicstats *stats, cJSON *evidence,
			     struct rx_drops *d)
{
	cJSON *obj;
	unsigned listed = 0;

	if (!stats->st.known) {
		cJSON_AddStringToObject(evidence, "nic_counters", stats->st.reason[0] ?
					stats->st.reason : "ethtool -S not read");
		return;
	}
	obj = cJSON_AddObjectToObject(evidence, "nic_counters");
	for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++) {
		const struct nd_stat *s = &stats->s[i];
		enum drop_kind kind = s->value ? classify(s->name) : NOT_DROP;
		uint64_t *slot = kind == DROP_RING ? &d->ring : &d->dropped;

		if (kind == NOT_DROP)
			continue;
		if (s->value > *slot)
			*slot = s->value;
		if (listed++ < RX_DROP_NIC_LISTED)
			cJSON_AddNumberToObject(obj, s->name, (double)s->value);
	}
	if (listed > RX_DROP_NIC_LISTED)
		cJSON_AddNumberToObject(evidence, "nic_counters_not_listed",
					listed - RX_DROP_NIC_LISTED);
}

static void add_link_counters(const struct nd_link *link, cJSON *evidence, struct rx_drops *d)
{
	cJSON *obj = cJSON_AddObjectToObject(evidence, "link_stats");

	d->link_known = true;
	d->received = link->stats.rx_packets;
	d->ring = link->stats.rx_missed + link->stats.rx_fifo + link->stats.rx_over;
	d->dropped = link->stats.rx_dropped;
	cJSON_AddNumberToObject(obj, "rx_packets", (double)link->stats.rx_packets);
	cJSON_AddNumberToObject(obj, "rx_dropped", (double)link->stats.rx_dropped);
	cJSON_AddNumberToObject(obj, "rx_missed", (double)link->stats.rx_missed);
	cJSON_AddNumberToObject(obj, "rx_fifo", (double)link->stats.rx_fifo);
	cJSON_AddNumberToObject(obj, "rx_over", (double)link->stats.rx_over);
	cJSON_AddNumberToObject(obj, "rx_errors", (double)link->stats.rx_errors);
}

static double share_pct(uint64_t count, uint64_t received)
{
	if (!count)
		return 0;
	return round((double)count / (double)(received + count) * 1e6) / 1e4;
}

static void add_fix(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_rings *rings = &facts->rings;

	if (rings->st.known && rings->rx_max > rings->rx) {
		cJSON_AddNumberToObject(f->evidence, "rx_ring", rings->rx);
		cJSON_AddNumberToObject(f->evidence, "rx_ring_max", rings->rx_max);
		nd_finding_fix(f, "rings", "ethtool -G %s rx %u", facts->ifname, rings->rx_max);
	}
	nd_finding_fix(f, "rings", "# see which counter grows under load: "
		       "watch -d -n1 \"ethtool -S %s | grep -Ei 'drop|miss|fifo|buf|discard'\"",
		       facts->ifname);
}

static void judge(const struct nd_facts *facts, struct nd_finding *f, const struct rx_drops *d)
{
	double ring_share = d->link_known ? (double)d->ring / (double)(d->received + d->ring) : 1;
	double drop_share = d->link_known ? (double)d->dropped /
					    (double)(d->received + d->dropped) : 1;

	if (ring_share >= RX_RING_DROP_WARN_SHARE && d->ring) {
		nd_finding_set(f, ND_SEV_WARNING, "RX ring overflowed: %" PRIu64 " packets missed "
			       "(%.4f%% of received) since the driver loaded", d->ring,
			       ring_share * 100.0);
		add_fix(facts, f);
	} else if (drop_share >= RX_DROPPED_WARN_SHARE && d->dropped) {
		nd_finding_set(f, ND_SEV_WARNING, "%" PRIu64 " received packets dropped (%.3f%% of "
			       "received) since the driver loaded", d->dropped, drop_share * 100.0);
		add_fix(facts, f);
	} else {
		nd_finding_set(f, ND_SEV_INFO, "%" PRIu64 " missed and %" PRIu64 " dropped since the "
			       "driver loaded: below %.3f%% and %.1f%% of received", d->ring,
			       d->dropped, RX_RING_DROP_WARN_SHARE * 100.0,
			       RX_DROPPED_WARN_SHARE * 100.0);
	}
}

void nd_check_nic_rx_dropped(const struct nd_facts *facts, struct nd_finding *f)
{
	struct rx_drops d = { 0 };

	if (!facts->link.st.known && !facts->nicstats.st.known)
		return nd_finding_unknown(f, "interface statistics (rtnetlink, ethtool -S)",
					  facts->link.st.reason);
	if (facts->link.st.known)
		add_link_counters(&facts->link, f->evidence, &d);
	else
		cJSON_AddStringToObject(f->evidence, "link_stats", facts->link.st.reason);
	add_nic_counters(&facts->nicstats, f->evidence, &d);
	cJSON_AddNumberToObject(f->evidence, "missed_total", (double)d.ring);
	cJSON_AddNumberToObject(f->evidence, "dropped_total", (double)d.dropped);
	if (d.link_known) {
		cJSON_AddNumberToObject(f->evidence, "missed_share_pct", share_pct(d.ring, d.received));
		cJSON_AddNumberToObject(f->evidence, "dropped_share_pct",
					share_pct(d.dropped, d.received));
	}
	cJSON_AddNumberToObject(f->evidence, "samples", 1);
	cJSON_AddNullToObject(f->evidence, "interval_sec");
	cJSON_AddNullToObject(f->evidence, "rate_per_sec");
	cJSON_AddStringToObject(f->evidence, "since", "driver load (counters are cumulative)");
	if (!d.ring && !d.dropped) {
		nd_finding_set(f, ND_SEV_OK, "no receive drops or misses counted");
		return;
	}
	judge(facts, f, &d);
}

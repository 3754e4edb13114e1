/*
 * ring_small.c - the RX ring is well below what the device allows while
 * the NIC counts drops or misses.  A ring absorbs the frames that arrive
 * while the CPU is busy elsewhere (a softirq burst, a cache-cold moment);
 * when it runs empty the NIC has no buffer and drops, which TCP reads as
 * congestion and halves its window.  A larger ring costs only memory.
 *
 * The counters are cumulative since boot, so the drops may be old; the
 * engine's run (drops during the test) is what confirms it.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* "Well below the maximum": at most this share of it.  Driver defaults
 * are 1/8 to 1/4 of the maximum (ixgbe 512 of 4096, mlx5 1024 of 8192,
 * ice 2048 of 8160), so a default ring is small by this rule. */
#define RING_SMALL_SHARE 0.5
/* At most this many drop counters are listed in the evidence. */
#define RING_MAX_COUNTERS 16

/* ethtool -S names that count frames lost for want of an RX buffer or
 * NIC-internal space: the drop/miss/fifo/no_buf, plus mlx5's
 * rx_out_of_buffer and *_discards_phy, which mean the same. */
static const char *const drop_words[] = { "drop", "miss", "fifo", "no_buf", "out_of_buffer",
					  "discard" };
/* ...excluding transmit counters, XDP programs' own decisions and flow
 * director table misses (a lookup miss, not a lost frame). */
static const char *const not_drop_words[] = { "xdp", "fdir", "fcoe" };

static bool is_tx_counter(const char *name)
{
	const char *p = name;

	/* "tx_dropped", "tx0_dropped", "port.tx_dropped_link_down" */
	while ((p = strstr(p, "tx")) != NULL) {
		if (p == name || p[-1] == '_' || p[-1] == '.')
			return true;
		p += 2;
	}
	return false;
}

static bool is_rx_drop_counter(const char *name)
{
	bool drop = false;

	for (size_t i = 0; i < sizeof(drop_words) / sizeof(drop_words[0]); i++)
		drop |= strstr(name, drop_words[i]) != NULL;
	for (size_t i = 0; i < sizeof(not_drop_words) / sizeof(not_drop_words[0]); i++)
		if (strstr(name, not_drop_words[i]))
			return false;
	return drop && !is_tx_counter(name);
}

/* Counters overlap (ethtool -S repeats rtnl's rx_dropped, per-queue
 * counters add up to a total), so the largest one is reported, never a sum. */
struct drop_max {
	const char *name;
	uint64_t value;
};

static void add_counter(cJSON *counters, const char *name, uint64_t value,
			struct drop_max *largest)
{
	if (!value)
		return;
	if (value > largest->value) {
		largest->value = value;
		largest->name = name;
	}
	if (cJSON_GetArraySize(counters) < RING_MAX_COUNTERS)
		cJSON_AddNumberToObject(counters, name, (double)value);
}

/* The nonzero drop counters (listed in evidence) and the largest; false
 * when no counter source could be read at all. */
static bool count_drops(const struct nd_facts *facts, cJSON *evidence, struct drop_max *largest)
{
	cJSON *counters = cJSON_AddObjectToObject(evidence, "drop_counters");
	const struct nd_link *link = &facts->link;
	const struct nd_nicstats *stats = &facts->nicstats;

	largest->name = NULL;
	largest->value = 0;
	if (link->st.known) {
		add_counter(counters, "link.rx_dropped", link->stats.rx_dropped, largest);
		add_counter(counters, "link.rx_missed", link->stats.rx_missed, largest);
		add_counter(counters, "link.rx_fifo", link->stats.rx_fifo, largest);
		add_counter(counters, "link.rx_over", link->stats.rx_over, largest);
	}
	if (stats->st.known)
		for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++)
			if (is_rx_drop_counter(stats->s[i].name))
				add_counter(counters, stats->s[i].name, stats->s[i].value, largest);
	return link->st.known || stats->st.known;
}

void nd_check_ring_small(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_rings *rings = &facts->rings;
	struct drop_max largest;

	if (!rings->st.known)
		return nd_finding_unknown(f, "ring sizes", rings->st.reason);
	cJSON_AddNumberToObject(f->evidence, "rx_ring", rings->rx);
	cJSON_AddNumberToObject(f->evidence, "rx_ring_max", rings->rx_max);
	if (!rings->rx_max || rings->rx > RING_SMALL_SHARE * rings->rx_max) {
		nd_finding_set(f, ND_SEV_OK, "RX ring %u of %u", rings->rx, rings->rx_max);
		return;
	}
	if (!count_drops(facts, f->evidence, &largest))
		return nd_finding_unknown(f, "drop counters", "neither link statistics nor "
					  "ethtool -S could be read");
	nd_finding_fix(f, "rings", "ethtool -G %s rx %u", facts->ifname, rings->rx_max);
	if (largest.value) {
		cJSON_AddStringToObject(f->evidence, "largest_drop_counter", largest.name);
		nd_finding_set(f, ND_SEV_WARNING, "RX ring %u of %u while the NIC counts drops "
			       "(%s %llu): a bigger ring absorbs bursts", rings->rx, rings->rx_max,
			       largest.name, (unsigned long long)largest.value);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO, "RX ring %u of %u, no drops counted yet", rings->rx,
		       rings->rx_max);
}

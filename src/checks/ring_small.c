/*
 * ring_small.c - the RX ring is well below what the device allows while
 * the NIC counts drops or misses.  A ring absorbs the frames that arrive
 * while the CPU is busy elsewhere (a softirq burst, a cache-cold moment);
 * when it runs empty the NIC has no buffer and drops, which TCP reads as
 * congestion and halves its window.  A larger ring costs only memory.
 *
 * The counters are cumulative since boot, so a warning needs drops that
 * grow in the observation window (the traffic runs or diagnose's sample);
 * old drops alone are info.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "counter_window.h"

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

/* The counters of one read, or (base given) their growth since base. */
static void count_sample(const struct nd_link_stats *link, bool link_known,
			 const struct nd_nicstats *stats, const struct nd_counter_sample *base,
			 cJSON *counters, struct drop_max *largest)
{
	const struct nd_link_stats *b = base ? &base->link : NULL;

	largest->name = NULL;
	largest->value = 0;
	if (link_known && (!base || base->link_known)) {
		add_counter(counters, "link.rx_dropped",
			    b ? nd_counter_delta(b->rx_dropped, link->rx_dropped) : link->rx_dropped,
			    largest);
		add_counter(counters, "link.rx_missed",
			    b ? nd_counter_delta(b->rx_missed, link->rx_missed) : link->rx_missed,
			    largest);
		add_counter(counters, "link.rx_fifo",
			    b ? nd_counter_delta(b->rx_fifo, link->rx_fifo) : link->rx_fifo, largest);
		add_counter(counters, "link.rx_over",
			    b ? nd_counter_delta(b->rx_over, link->rx_over) : link->rx_over, largest);
	}
	if (!stats->st.known || (base && !base->nicstats.st.known))
		return;
	for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++) {
		uint64_t value = stats->s[i].value, old;

		if (!is_rx_drop_counter(stats->s[i].name))
			continue;
		if (base) {
			if (!nd_nicstat_value(&base->nicstats, stats->s[i].name, i, &old))
				continue;
			value = nd_counter_delta(old, value);
		}
		add_counter(counters, stats->s[i].name, value, largest);
	}
}

/* Drops in the window (evidence.window.drop_counters, largest into
 * *ret); false when there is no window with counters at both ends. */
static bool window_drops(const struct nd_facts *facts, cJSON *evidence, struct drop_max *ret)
{
	const struct nd_counter_window *w = &facts->window;
	cJSON *win = nd_window_evidence(facts, evidence);

	if (!win || !(w->after.link_known || w->after.nicstats.st.known))
		return false;
	count_sample(&w->after.link, w->after.link_known, &w->after.nicstats, &w->before,
		     cJSON_AddObjectToObject(win, "drop_counters"), ret);
	return true;
}

void nd_check_ring_small(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_rings *rings = &facts->rings;
	struct drop_max largest, recent = { NULL, 0 };
	bool window;

	if (!rings->st.known)
		return nd_finding_unknown(f, "ring sizes", rings->st.reason);
	cJSON_AddNumberToObject(f->evidence, "rx_ring", rings->rx);
	cJSON_AddNumberToObject(f->evidence, "rx_ring_max", rings->rx_max);
	if (!rings->rx_max || rings->rx > RING_SMALL_SHARE * rings->rx_max) {
		nd_finding_set(f, ND_SEV_OK, "RX ring %u of %u", rings->rx, rings->rx_max);
		return;
	}
	if (!nd_link_stats_known(facts) && !facts->nicstats.st.known)
		return nd_finding_unknown(f, "drop counters", "neither link statistics nor "
					  "ethtool -S could be read");
	count_sample(&facts->link.stats, nd_link_stats_known(facts), &facts->nicstats, NULL,
		     cJSON_AddObjectToObject(f->evidence, "drop_counters"), &largest);
	window = window_drops(facts, f->evidence, &recent);
	cJSON_AddNumberToObject(f->evidence, "warn_min_count", ND_WINDOW_MIN_COUNT);
	nd_finding_fix(f, "rings", "ethtool -G %s rx %u", facts->ifname, rings->rx_max);
	if (largest.value)
		cJSON_AddStringToObject(f->evidence, "largest_drop_counter", largest.name);
	if (window && recent.value >= ND_WINDOW_MIN_COUNT) {
		cJSON_AddStringToObject(f->evidence, "largest_growing_counter", recent.name);
		nd_finding_set(f, ND_SEV_WARNING, "RX ring %u of %u while the NIC drops: %s %.1f/s "
			       "during %s; a bigger ring absorbs bursts", rings->rx, rings->rx_max,
			       recent.name, nd_window_rate(&facts->window, recent.value),
			       facts->window.label);
		return;
	}
	/* Drops below a warning: nic.rx_dropped names them (the counters, their
	 * share, the window); this finding is the ring and refers there, so
	 * one drop history is not reported twice. */
	if (largest.value || recent.value) {
		nd_finding_set(f, ND_SEV_INFO, "RX ring %u of %u; its drops: see nic.rx_dropped",
			       rings->rx, rings->rx_max);
		return;
	}
	nd_finding_set(f, ND_SEV_INFO, "RX ring %u of %u, no drops counted yet", rings->rx,
		       rings->rx_max);
}

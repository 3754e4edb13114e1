/*
 * nic_rx_dropped.c - nic.rx_dropped: the interface counts received packets
 * it dropped or missed: rtnetlink's rx_dropped / rx_missed / rx_fifo /
 * rx_over and the driver's own ethtool -S counters (rx_missed_errors,
 * rx_no_buffer_count, rx_out_of_buffer, rx_discards_phy, rx_dropped ...).
 * Missed and fifo/no-buffer drops mean the RX ring was full when a frame
 * arrived: the CPU did not empty it in time.
 *
 * Counters are cumulative since the driver loaded: they are judged by
 * their growth in the observation window (the traffic runs or diagnose's
 * short sample: "samples" 2, "interval_sec", "rate_per_sec" {missed,
 * dropped}, "window" {...}); the totals and their share of received
 * packets are history, at most info.  A record that holds one read (a
 * snapshot, a sosreport) has no window: its since-boot share is all there
 * is, and is graded (negligible, info, warning).  Every title leads with
 * the share of received frames, so 0.0001% and 0.72% never read alike.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"
#include "nicdoctor/common.h"
#include "counter_window.h"

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
/* Since boot, without a window: below 10 per million received frames
 * (0.001%, the ring warning's share, which still lets one flow at a 0.5 ms
 * RTT near 10GbE goodput) the losses are negligible: ok. */
#define RX_BOOT_NEGLIGIBLE_SHARE 1e-5
/* From 0.1% of every frame since boot a warning: by Mathis et al.'s formula
 * that loss, while it happened, held one TCP flow at a 1 ms RTT to ~450
 * Mbit/s, so drops that large over the whole uptime cost throughput,
 * whatever one read cannot say about now. */
#define RX_BOOT_WARN_SHARE 1e-3
/* Driver counters listed at most (drivers list totals before per-queue ones). */
#define RX_DROP_NIC_LISTED 16

enum drop_kind { NOT_DROP, DROP_GENERIC, DROP_RING };

/* ethtool -S names, lower-case substrings: ring/buffer exhaustion first. */
static const char *const ring_words[] = { "miss", "fifo", "no_buf", "nobuf", "no_buffer",
					  "out_of_buffer", "discard", "no_dma" };
/* Names that match a word but count no lost packet: flow director misses,
 * XDP programs' deliberate drops, page-cache misses. */
static const char *const not_drop_words[] = { "fdir", "xdp", "cache" };

static bool is_tx_counter(const char *name)
{
	return nd_stat_name_has(name, "tx") && !nd_stat_name_has(name, "rx");
}

static enum drop_kind classify(const char *name)
{
	if (is_tx_counter(name))
		return NOT_DROP;
	for (size_t i = 0; i < sizeof(not_drop_words) / sizeof(not_drop_words[0]); i++)
		if (nd_stat_name_has(name, not_drop_words[i]))
			return NOT_DROP;
	for (size_t i = 0; i < sizeof(ring_words) / sizeof(ring_words[0]); i++)
		if (nd_stat_name_has(name, ring_words[i]))
			return DROP_RING;
	return nd_stat_name_has(name, "drop") ? DROP_GENERIC : NOT_DROP;
}

struct rx_drops {
	bool link_known;
	uint64_t received;		/* rx_packets */
	uint64_t ring;			/* rx_missed + rx_fifo + rx_over, or the driver's */
	uint64_t dropped;		/* rx_dropped, or the driver's */
	char ring_name[64], dropped_name[64];	/* the counter each came from */
};

/* One read of the counters, or (with base) the growth since an earlier one. */
struct rx_source {
	bool link_known;
	const struct nd_link_stats *link;
	const struct nd_nicstats *nic;
};

static uint64_t grown(uint64_t value, const uint64_t *base)
{
	return base ? nd_counter_delta(*base, value) : value;
}

/* Non-zero driver drop counters into obj (NULL: not listed); the largest
 * of each kind raises d (a driver's total and its per-queue parts overlap:
 * never sum).  With base, each counter's growth since base. */
static unsigned nic_drops(const struct nd_nicstats *stats, const struct nd_nicstats *base,
			  cJSON *obj, struct rx_drops *d)
{
	unsigned listed = 0;

	for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++) {
		const struct nd_stat *s = &stats->s[i];
		enum drop_kind kind = s->value ? classify(s->name) : NOT_DROP;
		uint64_t *slot = kind == DROP_RING ? &d->ring : &d->dropped;
		uint64_t value = s->value, old;

		if (kind == NOT_DROP)
			continue;
		if (base) {
			if (!nd_nicstat_value(base, s->name, i, &old))
				continue;	/* no baseline: nothing to say */
			value = nd_counter_delta(old, value);
		}
		if (value > *slot) {
			*slot = value;
			nd_strlcpy(kind == DROP_RING ? d->ring_name : d->dropped_name, s->name,
				   sizeof(d->ring_name));
		}
		if (value && obj && listed++ < RX_DROP_NIC_LISTED)
			cJSON_AddNumberToObject(obj, s->name, (double)value);
	}
	return listed;
}

/* The link counters that make up the ring count: "rx_missed",
 * "rx_missed+rx_fifo" (the ones that are not zero). */
static void link_ring_name(const struct nd_link_stats *l, const struct nd_link_stats *b,
			   char *buf, size_t size)
{
	const struct { const char *name; uint64_t now, base; } parts[] = {
		{ "rx_missed", l->rx_missed, b ? b->rx_missed : 0 },
		{ "rx_fifo", l->rx_fifo, b ? b->rx_fifo : 0 },
		{ "rx_over", l->rx_over, b ? b->rx_over : 0 },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (nd_counter_delta(parts[i].base, parts[i].now) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "+" : "",
						parts[i].name);
	if (!buf[0])
		nd_strlcpy(buf, "rx_missed", size);
}

static void count_drops(const struct rx_source *now, const struct rx_source *base,
			struct rx_drops *d, cJSON *nic_obj, unsigned *ret_listed)
{
	const struct nd_link_stats *l = now->link, *b = base ? base->link : NULL;
	unsigned listed = 0;

	memset(d, 0, sizeof(*d));
	if (now->link_known && (!base || base->link_known)) {
		d->link_known = true;
		d->received = grown(l->rx_packets, b ? &b->rx_packets : NULL);
		d->ring = grown(l->rx_missed, b ? &b->rx_missed : NULL) +
			  grown(l->rx_fifo, b ? &b->rx_fifo : NULL) +
			  grown(l->rx_over, b ? &b->rx_over : NULL);
		d->dropped = grown(l->rx_dropped, b ? &b->rx_dropped : NULL);
		link_ring_name(l, b, d->ring_name, sizeof(d->ring_name));
		nd_strlcpy(d->dropped_name, "rx_dropped", sizeof(d->dropped_name));
	}
	if (now->nic->st.known && (!base || base->nic->st.known))
		listed = nic_drops(now->nic, base ? base->nic : NULL, nic_obj, d);
	if (ret_listed)
		*ret_listed = listed;
}

static void add_link_counters(const struct nd_link *link, cJSON *evidence)
{
	cJSON *obj = cJSON_AddObjectToObject(evidence, "link_stats");

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

/* The share of received frames for a title in buf, as few digits as show
 * it: "0.72", "0.0013", "<0.0001"; "?" without rx_packets. */
#define PCT_LEN 24
static char *pct_text(char *buf, uint64_t count, uint64_t received, bool known)
{
	double pct = count ? (double)count / (double)(received + count) * 100.0 : 0;

	if (!known)
		snprintf(buf, PCT_LEN, "?");
	else if (!count)
		snprintf(buf, PCT_LEN, "0");
	else if (pct >= 0.1)
		snprintf(buf, PCT_LEN, "%.2f", pct);
	else if (pct >= 0.0001)
		snprintf(buf, PCT_LEN, "%.2g", pct);
	else
		snprintf(buf, PCT_LEN, "<0.0001");
	return buf;
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

/* The growth in the window; d the window's counts, boot the totals. */
static void judge_window(const struct nd_facts *facts, struct nd_finding *f,
			 const struct rx_drops *d, const struct rx_drops *boot)
{
	const struct nd_counter_window *w = &facts->window;
	double ring_share = d->link_known ? (double)d->ring / (double)(d->received + d->ring) : 1;
	double drop_share = d->link_known ? (double)d->dropped /
					    (double)(d->received + d->dropped) : 1;
	char p1[PCT_LEN], p2[PCT_LEN];

	if (d->ring >= ND_WINDOW_MIN_COUNT && ring_share >= RX_RING_DROP_WARN_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING, "RX ring overflowing: %s%% of received frames "
			       "missed during %s (%s %" PRIu64 ", %.1f missed/s); %" PRIu64 " since "
			       "the driver loaded", pct_text(p1, d->ring, d->received, d->link_known),
			       w->label, d->ring_name, d->ring, nd_window_rate(w, d->ring), boot->ring);
		add_fix(facts, f);
	} else if (d->dropped >= ND_WINDOW_MIN_COUNT && drop_share >= RX_DROPPED_WARN_SHARE) {
		nd_finding_set(f, ND_SEV_WARNING, "receive drops: %s%% of received frames dropped "
			       "during %s (%s %" PRIu64 ", %.1f dropped/s); %" PRIu64 " since the "
			       "driver loaded", pct_text(p1, d->dropped, d->received, d->link_known),
			       w->label, d->dropped_name, d->dropped,
			       nd_window_rate(w, d->dropped), boot->dropped);
		add_fix(facts, f);
	} else {
		nd_finding_set(f, ND_SEV_INFO, "%" PRIu64 " missed (%s%%) and %" PRIu64 " dropped "
			       "(%s%%) during %s: below %d, %.3f%% and %.1f%% of received", d->ring,
			       pct_text(p1, d->ring, d->received, d->link_known), d->dropped,
			       pct_text(p2, d->dropped, d->received, d->link_known), w->label,
			       ND_WINDOW_MIN_COUNT, RX_RING_DROP_WARN_SHARE * 100.0,
			       RX_DROPPED_WARN_SHARE * 100.0);
	}
}

/* evidence.window's counts and rate_per_sec; false when the window's
 * reads lack the counters. */
static bool window_drops(const struct nd_facts *facts, cJSON *evidence, cJSON *win,
			 struct rx_drops *d)
{
	const struct nd_counter_window *w = &facts->window;
	struct rx_source now = { w->after.link_known, &w->after.link, &w->after.nicstats };
	struct rx_source base = { w->before.link_known, &w->before.link, &w->before.nicstats };
	cJSON *rate;

	count_drops(&now, &base, d, cJSON_AddObjectToObject(win, "nic_counters"), NULL);
	if (!d->link_known && !(now.nic->st.known && base.nic->st.known)) {
		cJSON_AddStringToObject(win, "unreadable", "no counters read at both ends");
		return false;
	}
	cJSON_AddNumberToObject(win, "received", (double)d->received);
	cJSON_AddNumberToObject(win, "missed", (double)d->ring);
	cJSON_AddNumberToObject(win, "dropped", (double)d->dropped);
	if (d->link_known) {
		cJSON_AddNumberToObject(win, "missed_share_pct", share_pct(d->ring, d->received));
		cJSON_AddNumberToObject(win, "dropped_share_pct",
					share_pct(d->dropped, d->received));
	}
	cJSON_ReplaceItemInObjectCaseSensitive(evidence, "samples", cJSON_CreateNumber(2));
	cJSON_ReplaceItemInObjectCaseSensitive(evidence, "interval_sec",
					       cJSON_CreateNumber(cJSON_GetObjectItem(win, "seconds")
								  ->valuedouble));
	rate = cJSON_CreateObject();
	cJSON_AddNumberToObject(rate, "missed", round(nd_window_rate(w, d->ring) * 10) / 10);
	cJSON_AddNumberToObject(rate, "dropped", round(nd_window_rate(w, d->dropped) * 10) / 10);
	cJSON_ReplaceItemInObjectCaseSensitive(evidence, "rate_per_sec", rate);
	return true;
}

static void add_boot_evidence(const struct nd_facts *facts, cJSON *evidence, struct rx_drops *d)
{
	struct rx_source now = { nd_link_stats_known(facts), &facts->link.stats, &facts->nicstats };
	unsigned listed = 0;
	cJSON *nic = NULL;

	if (now.link_known)
		add_link_counters(&facts->link, evidence);
	else
		cJSON_AddStringToObject(evidence, "link_stats", nd_link_stats_reason(facts));
	if (facts->nicstats.st.known)
		nic = cJSON_AddObjectToObject(evidence, "nic_counters");
	else
		cJSON_AddStringToObject(evidence, "nic_counters", facts->nicstats.st.reason[0] ?
					facts->nicstats.st.reason : "ethtool -S not read");
	count_drops(&now, NULL, d, nic, &listed);
	if (listed > RX_DROP_NIC_LISTED)
		cJSON_AddNumberToObject(evidence, "nic_counters_not_listed",
					listed - RX_DROP_NIC_LISTED);
	cJSON_AddNumberToObject(evidence, "missed_total", (double)d->ring);
	cJSON_AddNumberToObject(evidence, "dropped_total", (double)d->dropped);
	if (d->link_known) {
		cJSON_AddNumberToObject(evidence, "missed_share_pct", share_pct(d->ring, d->received));
		cJSON_AddNumberToObject(evidence, "dropped_share_pct",
					share_pct(d->dropped, d->received));
	}
	cJSON_AddNumberToObject(evidence, "samples", 1);
	cJSON_AddNullToObject(evidence, "interval_sec");
	cJSON_AddNullToObject(evidence, "rate_per_sec");
	cJSON_AddStringToObject(evidence, "since", "driver load (counters are cumulative)");
	cJSON_AddNumberToObject(evidence, "warn_min_count", ND_WINDOW_MIN_COUNT);
	cJSON_AddNumberToObject(evidence, "warn_missed_share_pct", RX_RING_DROP_WARN_SHARE * 100);
	cJSON_AddNumberToObject(evidence, "warn_dropped_share_pct", RX_DROPPED_WARN_SHARE * 100);
}

/* "0.72% missed (rx_missed_errors 123456)": one part of a since-boot title. */
static void boot_part(char *buf, size_t size, const char *what, uint64_t count,
		      const char *name, const struct rx_drops *d)
{
	char pct[PCT_LEN];

	if (d->link_known)
		snprintf(buf, size, "%s%% %s (%s %" PRIu64 ")",
			 pct_text(pct, count, d->received, true), what, name, count);
	else
		snprintf(buf, size, "%" PRIu64 " %s (%s)", count, what, name);
}

/* Only since-boot totals: with a window that saw none they are history
 * (at most info); without one (a record's single read) the share decides. */
static void judge_boot(const struct nd_facts *facts, struct nd_finding *f,
		       const struct rx_drops *boot, bool had_window)
{
	double worst = 0;
	enum nd_severity sev = ND_SEV_INFO;
	char when[64], none[128], missed[96] = "", dropped[96] = "", received[64];

	if (boot->ring)
		boot_part(missed, sizeof(missed), "missed", boot->ring, boot->ring_name, boot);
	if (boot->dropped)
		boot_part(dropped, sizeof(dropped), "dropped", boot->dropped, boot->dropped_name,
			  boot);
	if (boot->link_known) {
		double ring = (double)boot->ring / (double)(boot->received + boot->ring);
		double drop = (double)boot->dropped / (double)(boot->received + boot->dropped);

		worst = ring > drop ? ring : drop;
		if (worst < RX_BOOT_NEGLIGIBLE_SHARE)
			sev = ND_SEV_OK;
		else if (worst >= RX_BOOT_WARN_SHARE && !had_window)
			sev = ND_SEV_WARNING;
	}
	cJSON_AddNumberToObject(f->evidence, "negligible_share_pct",
				RX_BOOT_NEGLIGIBLE_SHARE * 100);
	cJSON_AddNumberToObject(f->evidence, "warn_since_boot_share_pct", RX_BOOT_WARN_SHARE * 100);
	if (boot->link_known)
		snprintf(received, sizeof(received), "of %" PRIu64 " received ",
			 boot->received);
	else
		snprintf(received, sizeof(received), "(received unknown) ");
	nd_finding_set(f, sev, "%s%s%s %ssince it came up (%s%s)%s; %s", missed,
		       missed[0] && dropped[0] ? ", " : "", dropped, received,
		       facts->uptime.st.known ? "uptime " : "",
		       nd_uptime_text(facts, when, sizeof(when)),
		       sev == ND_SEV_OK ? ": negligible" : "",
		       nd_window_none_text(facts, none, sizeof(none)));
	if (sev == ND_SEV_WARNING)
		add_fix(facts, f);
}

void nd_check_nic_rx_dropped(const struct nd_facts *facts, struct nd_finding *f)
{
	struct rx_drops boot, win;
	char why[2 * ND_REASON_LEN + 4];
	cJSON *window;

	if (!nd_link_stats_known(facts) && !facts->nicstats.st.known) {
		snprintf(why, sizeof(why), "%s; %s", nd_link_stats_reason(facts),
			 facts->nicstats.st.reason[0] ? facts->nicstats.st.reason :
			 "ethtool -S not read");
		return nd_finding_unknown(f, "interface statistics (rtnetlink, ethtool -S)", why);
	}
	add_boot_evidence(facts, f->evidence, &boot);
	window = nd_window_evidence(facts, f->evidence);
	if (window && window_drops(facts, f->evidence, window, &win) && (win.ring || win.dropped))
		return judge_window(facts, f, &win, &boot);
	if (!boot.ring && !boot.dropped) {
		nd_finding_set(f, ND_SEV_OK, "no receive drops or misses counted");
		return;
	}
	judge_boot(facts, f, &boot, window != NULL);
}

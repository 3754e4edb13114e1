/*
 * link_phy_errors.c - link.phy_errors: frames the wire corrupted (CRC/FCS,
 * alignment and symbol errors) and carrier changes, the marks of a bad
 * cable, optic or port.  Read from rtnetlink (rx_crc_errors,
 * rx_frame_errors, IFLA_CARRIER_CHANGES; sysfs statistics/ and
 * carrier_changes; ip -s -s's crc, frame, transns) and the driver's
 * ethtool -S names (rx_crc_errors, rx_fcs_errors, rx_align_errors,
 * rx_symbol_err, mlx5's *_phy, link_down_events).  A counter and its copy
 * in the other source are one counter: the largest is kept, never a sum.
 *
 * Errors growing in the observation window are what the link does now;
 * carrier changes in the window are a link flapping.  Since-boot totals
 * are history: with a window that saw none, at most info; a record's one
 * read (a snapshot, a sosreport) is graded by its share of received frames.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"
#include "counter_window.h"
#include "nicdoctor/common.h"

/* A link within spec (bit error ratio 1e-12) corrupts about one 1500-byte
 * frame in 80 million; one in a million is 10^4 times that and more: the
 * cable, optic or port is at fault, and each lost frame costs TCP a
 * retransmit and half its window. */
#define PHY_WARN_SHARE 1e-6
/* Since boot (one read), from 10 per million received frames with at
 * least 100 errors: well above any burst a plug-in or a reboot of the
 * partner leaves behind. */
#define PHY_BOOT_WARN_SHARE 1e-5
#define PHY_BOOT_WARN_COUNT 100

enum phy_kind { PHY_CRC, PHY_ALIGN, PHY_SYMBOL, PHY_KINDS, PHY_LINK_DOWN, PHY_NONE };

static const char *const kind_label[PHY_KINDS] = { "CRC/FCS", "alignment", "symbol" };

struct phy_counts {
	bool errors_known;		/* some CRC/alignment/symbol counter was read */
	bool nic_errors_known;		/* ...among the driver's ethtool -S names */
	bool received_known;
	uint64_t received;
	uint64_t err[PHY_KINDS];
	char name[PHY_KINDS][64];	/* the counter each came from */
	bool changes_known;
	uint64_t changes;		/* carrier changes, or the driver's link-down events */
};

/* ethtool -S names: receive-side physical errors, first match decides. */
static enum phy_kind classify(const char *name)
{
	/* transmit carrier-sense errors (half duplex) and RoCE's own drops are
	 * not the wire's receive errors */
	if ((nd_stat_name_has(name, "tx") && !nd_stat_name_has(name, "rx")) || nd_stat_name_has(name, "roce"))
		return PHY_NONE;
	if (nd_stat_name_has(name, "link_down_events") || nd_stat_name_has(name, "carrier_changes"))
		return PHY_LINK_DOWN;
	if (nd_stat_name_has(name, "crc") || nd_stat_name_has(name, "fcs"))
		return PHY_CRC;
	if (nd_stat_name_has(name, "align") || nd_stat_name_has(name, "rx_frame_err"))
		return PHY_ALIGN;
	if (nd_stat_name_has(name, "symbol"))
		return PHY_SYMBOL;
	return PHY_NONE;
}

static void keep(struct phy_counts *c, enum phy_kind kind, uint64_t value, const char *name)
{
	if (value > c->err[kind]) {
		c->err[kind] = value;
		nd_strlcpy(c->name[kind], name, sizeof(c->name[kind]));
	}
}

/* One read (base NULL), or its growth since base. */
static void count(const struct nd_link_stats *link, bool link_known,
		  const struct nd_nicstats *nic, const struct nd_link_stats *base_link,
		  bool base_link_known, const struct nd_nicstats *base_nic, bool windowed,
		  struct phy_counts *c, cJSON *listed)
{
	memset(c, 0, sizeof(*c));
	if (link_known && (!windowed || base_link_known)) {
		const struct nd_link_stats *b = windowed ? base_link : NULL;

		c->received_known = true;
		c->errors_known = link->rx_phy_known && (!b || b->rx_phy_known);
		c->received = b ? nd_counter_delta(b->rx_packets, link->rx_packets) : link->rx_packets;
		keep(c, PHY_CRC, b ? nd_counter_delta(b->rx_crc, link->rx_crc) : link->rx_crc,
		     "rx_crc_errors");
		keep(c, PHY_ALIGN, b ? nd_counter_delta(b->rx_frame, link->rx_frame) :
		     link->rx_frame, "rx_frame_errors");
		if (link->carrier_changes_known && (!b || b->carrier_changes_known)) {
			c->changes_known = true;
			c->changes = b ? nd_counter_delta(b->carrier_changes, link->carrier_changes) :
				     link->carrier_changes;
		}
	}
	if (!nic->st.known || (windowed && !base_nic->st.known))
		return;
	for (unsigned i = 0; i < nic->count && i < ND_MAX_STATS; i++) {
		const struct nd_stat *s = &nic->s[i];
		enum phy_kind kind = classify(s->name);
		uint64_t value = s->value, old;

		if (kind == PHY_NONE)
			continue;
		if (windowed) {
			if (!nd_nicstat_value(base_nic, s->name, i, &old))
				continue;
			value = nd_counter_delta(old, value);
		}
		if (value && listed && cJSON_GetArraySize(listed) < 16)
			cJSON_AddNumberToObject(listed, s->name, (double)value);
		if (kind != PHY_LINK_DOWN)
			c->errors_known = c->nic_errors_known = true;
		if (kind == PHY_LINK_DOWN) {
			c->changes_known = true;
			if (value > c->changes)
				c->changes = value;
		} else {
			keep(c, kind, value, s->name);
		}
	}
	/* without link counters, the driver's own frame count (one read only) */
	if (!c->received_known && !windowed)
		c->received_known = nd_nicstat_value(nic, "rx_packets", 0, &c->received);
}

static uint64_t worst(const struct phy_counts *c, enum phy_kind *ret_kind)
{
	enum phy_kind top = PHY_CRC;

	for (int k = 0; k < PHY_KINDS; k++)
		if (c->err[k] > c->err[top])
			top = (enum phy_kind)k;
	if (ret_kind)
		*ret_kind = top;
	return c->err[top];
}

static double share_of(const struct phy_counts *c, uint64_t errors)
{
	return c->received_known && errors ? (double)errors / (double)(c->received + errors) : 0;
}

static void add_counts(cJSON *obj, const struct phy_counts *c)
{
	enum phy_kind top;
	uint64_t errors = worst(c, &top);

	for (int k = 0; k < PHY_KINDS; k++)
		cJSON_AddNumberToObject(obj, k == PHY_CRC ? "crc_errors" : k == PHY_ALIGN ?
					"alignment_errors" : "symbol_errors", (double)c->err[k]);
	if (c->received_known) {
		cJSON_AddNumberToObject(obj, "received", (double)c->received);
		cJSON_AddNumberToObject(obj, "error_share_pct",
					round(share_of(c, errors) * 1e6) / 1e4);
	} else {
		cJSON_AddNullToObject(obj, "received");
	}
	if (c->changes_known)
		cJSON_AddNumberToObject(obj, "carrier_changes", (double)c->changes);
	else
		cJSON_AddNullToObject(obj, "carrier_changes");
}

/* "rx_crc_errors 1234, 0.0032% of received" for a title. */
static void errors_text(const struct phy_counts *c, char *buf, size_t size)
{
	enum phy_kind top;
	uint64_t errors = worst(c, &top);
	size_t len;

	len = (size_t)snprintf(buf, size, "%" PRIu64 " %s errors (%s", errors, kind_label[top],
			       c->name[top]);
	for (int k = 0; k < PHY_KINDS && len < size; k++)
		if (k != (int)top && c->err[k])
			len += (size_t)snprintf(buf + len, size - len, ", %s %" PRIu64, c->name[k],
						c->err[k]);
	if (len < size && c->received_known)
		snprintf(buf + len, size - len, "), %.2g%% of received", share_of(c, errors) * 100);
	else if (len < size)
		snprintf(buf + len, size - len, ")");
}

static void add_fix(const struct nd_facts *facts, struct nd_finding *f)
{
	nd_finding_fix(f, "phy", "# a bad cable, optic or port: reseat or replace the cable "
		       "(or the optic/DAC), try another switch port");
	nd_finding_fix(f, "phy", "# the receiving end counts the errors: compare the link "
		       "partner's counters (a switch port's CRC/FCS, input errors)");
	nd_finding_fix(f, "phy", "ethtool -S %s | grep -Ei 'crc|fcs|align|symbol|carrier|link_down'",
		       facts->ifname);
}

/* What grew in the window; false when nothing did (or no window). */
static bool judge_window(const struct nd_facts *facts, struct nd_finding *f,
			 const struct phy_counts *boot)
{
	const struct nd_counter_window *w = &facts->window;
	struct phy_counts c;
	uint64_t errors;
	char text[160];
	cJSON *win = nd_window_evidence(facts, f->evidence);

	if (!win)
		return false;
	count(&w->after.link, w->after.link_known, &w->after.nicstats, &w->before.link,
	      w->before.link_known, &w->before.nicstats, true, &c,
	      cJSON_AddObjectToObject(win, "nic_counters"));
	add_counts(win, &c);
	errors = worst(&c, NULL);
	if (!errors && !c.changes)
		return false;
	errors_text(&c, text, sizeof(text));
	if (c.changes) {
		nd_finding_set(f, ND_SEV_WARNING, "link flapping: the carrier changed %" PRIu64
			       " time%s during %s%s%s", c.changes, c.changes == 1 ? "" : "s",
			       w->label, errors ? "; " : "", errors ? text : "");
		add_fix(facts, f);
	} else if (errors >= ND_WINDOW_MIN_COUNT &&
		   (!c.received_known || share_of(&c, errors) >= PHY_WARN_SHARE)) {
		nd_finding_set(f, ND_SEV_WARNING, "the wire corrupts frames: %s during %s "
			       "(%.1f/s); %" PRIu64 " since it came up", text, w->label,
			       nd_window_rate(w, errors), worst(boot, NULL));
		add_fix(facts, f);
	} else {
		nd_finding_set(f, ND_SEV_INFO, "%s during %s: below %d and %.4f%% of received",
			       text, w->label, ND_WINDOW_MIN_COUNT, PHY_WARN_SHARE * 100);
	}
	return true;
}

void nd_check_link_phy_errors(const struct nd_facts *facts, struct nd_finding *f)
{
	bool link_known = nd_link_stats_known(facts);
	struct phy_counts boot;
	uint64_t errors;
	enum nd_severity sev = ND_SEV_INFO;
	char text[160], when[64], none[128], changes[64] = "";
	double share;

	if (!link_known && !facts->nicstats.st.known)
		return nd_finding_unknown(f, "interface statistics (rtnetlink, ethtool -S)",
					  nd_link_stats_reason(facts));
	count(&facts->link.stats, link_known, &facts->nicstats, NULL, false, NULL, false, &boot,
	      cJSON_AddObjectToObject(f->evidence, "nic_counters"));
	add_counts(f->evidence, &boot);
	cJSON_AddNumberToObject(f->evidence, "warn_min_count", ND_WINDOW_MIN_COUNT);
	cJSON_AddNumberToObject(f->evidence, "warn_share_pct", PHY_WARN_SHARE * 100);
	cJSON_AddNumberToObject(f->evidence, "warn_since_boot_share_pct", PHY_BOOT_WARN_SHARE * 100);
	/* Any interface's carrier can flap in the window (a veth whose peer
	 * goes down, a bridge losing its ports); its errors are the wire's. */
	if (judge_window(facts, f, &boot))
		return;
	/* A bridge, veth or VLAN has no wire: rtnetlink's zeros there say
	 * nothing; the lower's own counters (its diagnosis) do. */
	if (facts->pci.no_device && !boot.nic_errors_known)
		return nd_finding_not_applicable(f, "a virtual interface has no wire of its own "
						 "(its lower's counters say)");
	if (!boot.errors_known)
		return nd_finding_unknown(f, "CRC/FCS error counters", "neither the link counters "
					  "(rx_crc_errors) nor ethtool -S have one");
	errors = worst(&boot, NULL);
	share = share_of(&boot, errors);
	if (boot.changes_known && boot.changes)
		snprintf(changes, sizeof(changes), "; the carrier changed %" PRIu64 " time%s",
			 boot.changes, boot.changes == 1 ? "" : "s");
	if (!errors) {
		nd_finding_set(f, ND_SEV_OK, "no CRC/FCS, alignment or symbol errors counted%s%s",
			       changes, changes[0] ? " since it came up (history)" : "");
		return;
	}
	errors_text(&boot, text, sizeof(text));
	/* A record's one read: the share decides; with a window that saw
	 * none, the totals are history. */
	if (!facts->window.known && boot.received_known && errors >= PHY_BOOT_WARN_COUNT &&
	    share >= PHY_BOOT_WARN_SHARE)
		sev = ND_SEV_WARNING;
	nd_finding_set(f, sev, "%s since it came up (%s%s)%s; %s", text,
		       facts->uptime.st.known ? "uptime " : "",
		       nd_uptime_text(facts, when, sizeof(when)), changes,
		       nd_window_none_text(facts, none, sizeof(none)));
	if (sev == ND_SEV_WARNING)
		add_fix(facts, f);
}

/*
 * iplink_text.c - `ip link`, `ip -s link`, `ip -s -d link` text (sos's
 * ip_-s_-d_link, supportconfig's `ip -stats link`) into nd_link.  Counter
 * columns are read by their header names, so the old "overrun", the 5.x
 * "missed" and the right-aligned newer layout all parse; SR-IOV "vf N"
 * blocks after the link's own counters are skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

/* "12: eth0.100@eth0: <BROADCAST,...>": the name (before '@') and the rest. */
static bool link_header(struct nd_span t, char ret_name[ND_IFNAMSIZ], int *ret_index,
			struct nd_span *ret_rest)
{
	uint64_t index;
	size_t used;
	struct nd_span rest, name;
	const char *colon, *at;

	if (nd_span_u64_prefix(t, &index, &used) < 0 || index > INT32_MAX ||
	    !nd_span_starts(nd_span_from(t, used), ": "))
		return false;
	rest = nd_span_from(t, used + 2);
	colon = nd_span_find(rest, ": <");
	if (!colon || colon == rest.p)
		return false;
	name = (struct nd_span){ rest.p, (size_t)(colon - rest.p) };
	at = memchr(name.p, '@', name.len);
	if (at)
		name.len = (size_t)(at - name.p);
	if (!name.len || name.len >= ND_IFNAMSIZ || memchr(name.p, ' ', name.len))
		return false;
	nd_span_copy(name, ret_name, ND_IFNAMSIZ);
	*ret_index = (int)index;
	*ret_rest = nd_span_from(rest, (size_t)(colon - rest.p) + 2);
	return true;
}

int nd_parse_iplink_names(const char *text, size_t len, char (*names)[ND_IFNAMSIZ],
			  unsigned max, unsigned *ret_count)
{
	struct nd_cursor c;
	struct nd_span line, rest;
	char name[ND_IFNAMSIZ];
	int index;

	*ret_count = 0;
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line))
		if (link_header(nd_span_trim(line), name, &index, &rest) && *ret_count < max)
			nd_strlcpy(names[(*ret_count)++], name, ND_IFNAMSIZ);
	return *ret_count ? 0 : -EINVAL;
}

static void lower_copy(struct nd_span s, char *dst, size_t size)
{
	nd_span_copy(s, dst, size);
	for (char *p = dst; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

static unsigned span_uint(struct nd_span s)
{
	uint64_t v;

	return nd_span_u64(s, &v) == 0 && v <= UINT32_MAX ? (unsigned)v : 0;
}

/* "<BROADCAST,UP,LOWER_UP> mtu 1500 qdisc mq master bond0 state UP ...". */
static void parse_link_line(struct nd_span rest, struct nd_link *out)
{
	size_t pos = 0;
	struct nd_span tok, next;

	out->carrier = nd_span_contains(rest, "LOWER_UP") && !nd_span_contains(rest, "NO-CARRIER");
	while (nd_span_token(rest, &pos, &tok)) {
		size_t peek = pos;

		if (!nd_span_token(rest, &peek, &next))
			break;
		if (nd_span_eq(tok, "mtu"))
			out->mtu = span_uint(next);
		else if (nd_span_eq(tok, "qdisc"))
			nd_span_copy(next, out->qdisc, sizeof(out->qdisc));
		else if (nd_span_eq(tok, "state"))
			lower_copy(next, out->operstate, sizeof(out->operstate));
		else
			continue;
		pos = peek;
	}
}

/*
 * Detail lines ("link/ether MAC ... numtxqueues 8 numrxqueues 8").  A line
 * wrapped by a mailer goes on at column 0 ("n" / "umrxqueues 112"), so a
 * token at the end of one line joins the first of such a next line.
 */
static void parse_detail_token(struct nd_link *out, const char *key, struct nd_span val)
{
	if (!strcmp(key, "numtxqueues"))
		out->tx_queues = span_uint(val);
	else if (!strcmp(key, "numrxqueues"))
		out->rx_queues = span_uint(val);
	else if (!strcmp(key, "minmtu"))
		out->min_mtu = span_uint(val);
	else if (!strcmp(key, "maxmtu"))
		out->max_mtu = span_uint(val);
	else if (!strncmp(key, "link/", 5) && !out->mac[0] && val.len == 17)
		nd_span_copy(val, out->mac, sizeof(out->mac));
}

struct detail_state {
	char prev[32], last[32];	/* the two latest tokens */
	bool line_ended;		/* `last` ended the line before */
};

static void parse_details(struct nd_span line, struct detail_state *st, struct nd_link *out)
{
	size_t pos = 0;
	struct nd_span tok;
	bool glue = st->line_ended && line.len && line.p[0] != ' ' && line.p[0] != '\t';

	while (nd_span_token(line, &pos, &tok)) {
		char word[32];

		nd_span_copy(tok, word, sizeof(word));
		if (glue) {
			/* Glue the wrapped word back and re-read its pair. */
			size_t n = strlen(st->last);

			nd_strlcpy(st->last + n, word, sizeof(st->last) - n);
			glue = false;
		} else {
			nd_strlcpy(st->prev, st->last, sizeof(st->prev));
			nd_strlcpy(st->last, word, sizeof(st->last));
		}
		if (st->prev[0])
			parse_detail_token(out, st->prev, (struct nd_span){ st->last, strlen(st->last) });
	}
	st->line_ended = true;
}

/* One "RX: bytes packets errors dropped missed mcast" header + values. */
static void parse_counters(struct nd_span header, struct nd_span values, bool rx,
			   struct nd_link *out)
{
	size_t hpos = 0, vpos = 0;
	struct nd_span name, val;
	const char *colon = memchr(header.p, ':', header.len);

	header = nd_span_from(header, (size_t)(colon - header.p) + 1);
	while (nd_span_token(header, &hpos, &name) && nd_span_token(values, &vpos, &val)) {
		uint64_t v;
		uint64_t *dst = NULL;

		if (nd_span_u64(val, &v) < 0)
			return;
		if (nd_span_eq(name, "bytes"))
			dst = rx ? &out->stats.rx_bytes : &out->stats.tx_bytes;
		else if (nd_span_eq(name, "packets"))
			dst = rx ? &out->stats.rx_packets : &out->stats.tx_packets;
		else if (nd_span_eq(name, "errors"))
			dst = rx ? &out->stats.rx_errors : &out->stats.tx_errors;
		else if (nd_span_eq(name, "dropped"))
			dst = rx ? &out->stats.rx_dropped : &out->stats.tx_dropped;
		else if (rx && nd_span_eq(name, "missed"))
			dst = &out->stats.rx_missed;
		else if (rx && nd_span_eq(name, "overrun"))
			dst = &out->stats.rx_over;
		else if (rx && nd_span_eq(name, "fifo"))
			dst = &out->stats.rx_fifo;
		else if (rx && nd_span_eq(name, "crc")) {
			dst = &out->stats.rx_crc;
			out->stats.rx_phy_known = true;
		}
		else if (rx && nd_span_eq(name, "frame"))
			dst = &out->stats.rx_frame;
		else if (!rx && nd_span_eq(name, "transns")) {
			/* ip -s -s: TX errors' "transns" is the carrier changes */
			dst = &out->stats.carrier_changes;
			out->stats.carrier_changes_known = true;
		}
		if (dst)
			*dst = v;
	}
}

static bool counter_header(struct nd_span t, bool *ret_rx)
{
	if (nd_span_starts(t, "RX:") || nd_span_starts(t, "RX errors:"))
		*ret_rx = true;
	else if (nd_span_starts(t, "TX:") || nd_span_starts(t, "TX errors:"))
		*ret_rx = false;
	else
		return false;
	return true;
}

int nd_parse_iplink(const char *text, size_t len, const char *ifname, struct nd_link *out,
		    bool *ret_stats_known)
{
	struct nd_cursor c;
	struct nd_span line, rest, pending = { NULL, 0 };
	struct detail_state details = { "", "", false };
	char name[ND_IFNAMSIZ];
	bool found = false, in_vf = false, pending_rx = false, stats = false;
	int index;

	memset(out, 0, sizeof(*out));
	if (ret_stats_known)
		*ret_stats_known = false;
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		struct nd_span t = nd_span_trim(line);
		bool rx;

		if (link_header(t, name, &index, &rest)) {
			if (found)
				break;
			if (strcmp(name, ifname))
				continue;
			found = true;
			out->ifindex = index;
			parse_link_line(rest, out);
			continue;
		}
		if (!found || in_vf)
			continue;
		if (pending.p) {
			parse_counters(pending, t, pending_rx, out);
			pending.p = NULL;
			stats = true;
		} else if (counter_header(t, &rx)) {
			pending = t;
			pending_rx = rx;
		} else if (nd_span_starts(t, "vf ")) {
			in_vf = true;	/* the VFs' counters, not the link's */
		} else if (!stats) {
			parse_details(line, &details, out);
		}
	}
	if (!found) {
		nd_status_set_unknown(&out->st, "'%s' is not in the ip link text", ifname);
		return -ENOENT;
	}
	if (ret_stats_known)
		*ret_stats_known = stats;
	nd_status_set_known(&out->st);
	return 0;
}

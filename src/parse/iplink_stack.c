/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iplink_stack.c - a stacked device's kind and lowers from `ip -d link`
 * text (a sosreport's ip_-s_-d_link, supportconfig's): the kind is the
 * first word of the detail line iproute2 prints for IFLA_INFO_KIND
 * ("vlan protocol 802.1Q id 10", "vxlan id 42 ... dev eth0", "bridge
 * forward_delay ..."); a port's "bridge_slave"/"bond_slave" line is not
 * its kind.  Lowers: a VLAN's, macvlan's or ipvlan's "@LOWER" in its
 * header, a tunnel's "dev X", the links whose header says "master IF".
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

static const char *const kinds[] = {
	"bridge", "vlan", "macvlan", "macvtap", "ipvlan", "ipvtap", "vxlan", "geneve", "bond",
	"team", "veth", "tun", "gre", "gretap", "ip6gre", "ip6gretap", "dummy", "vrf",
	"openvswitch", "wireguard", "ipip", "sit", "ip6tnl", "bareudp", "netkit",
};

/* The kinds whose header "@NAME" is their lower (a veth's is its peer). */
static bool at_is_lower(const char *kind)
{
	return !strcmp(kind, "vlan") || !strcmp(kind, "macvlan") || !strcmp(kind, "macvtap") ||
	       !strcmp(kind, "ipvlan") || !strcmp(kind, "ipvtap");
}

static bool tunnel(const char *kind)
{
	return !strcmp(kind, "vxlan") || !strcmp(kind, "geneve") || !strncmp(kind, "gre", 3) ||
	       !strncmp(kind, "ip6gre", 6);
}

struct block {
	char name[ND_IFNAMSIZ], at[ND_IFNAMSIZ], master[ND_IFNAMSIZ];
};

/* "12: eth0.100@eth0: <...> mtu 1500 ... master br0 state UP". */
static bool header(struct nd_span t, struct block *b)
{
	uint64_t index;
	size_t used, pos = 0;
	struct nd_span rest, name, tok, next;
	const char *colon, *at;

	if (nd_span_u64_prefix(t, &index, &used) < 0 || !nd_span_starts(nd_span_from(t, used), ": "))
		return false;
	rest = nd_span_from(t, used + 2);
	colon = nd_span_find(rest, ": <");
	if (!colon || colon == rest.p)
		return false;
	memset(b, 0, sizeof(*b));
	name = (struct nd_span){ rest.p, (size_t)(colon - rest.p) };
	at = memchr(name.p, '@', name.len);
	if (at) {
		struct nd_span low = { at + 1, name.len - (size_t)(at + 1 - name.p) };

		name.len = (size_t)(at - name.p);
		/* "@NONE": no lower; "@if12": in another namespace */
		if (low.len && low.len < ND_IFNAMSIZ && !nd_span_eq(low, "NONE") &&
		    !nd_span_starts(low, "if"))
			nd_span_copy(low, b->at, sizeof(b->at));
	}
	if (!name.len || name.len >= ND_IFNAMSIZ || memchr(name.p, ' ', name.len))
		return false;
	nd_span_copy(name, b->name, sizeof(b->name));
	rest = nd_span_from(rest, (size_t)(colon - rest.p) + 2);
	while (nd_span_token(rest, &pos, &tok)) {
		size_t peek = pos;

		if (nd_span_eq(tok, "master") && nd_span_token(rest, &peek, &next) &&
		    next.len < ND_IFNAMSIZ)
			nd_span_copy(next, b->master, sizeof(b->master));
	}
	return true;
}

/* The detail line naming the kind: its arguments. */
static void kind_line(struct nd_span t, struct nd_stack *out)
{
	size_t pos = 0;
	struct nd_span tok, next;

	while (nd_span_token(t, &pos, &tok)) {
		size_t peek = pos;

		if (!nd_span_token(t, &peek, &next))
			break;
		if (nd_span_eq(tok, "id") && !strcmp(out->kind, "vlan")) {
			uint64_t v;

			if (nd_span_u64(next, &v) == 0 && v < 4096)
				out->vlan_id = (int)v;
		} else if (nd_span_eq(tok, "dev") && tunnel(out->kind) && next.len < ND_IFNAMSIZ) {
			nd_span_copy(next, out->underlay_dev, sizeof(out->underlay_dev));
		} else if ((nd_span_eq(tok, "remote") || nd_span_eq(tok, "group") ||
			    nd_span_eq(tok, "local") || nd_span_eq(tok, "remote6")) &&
			   tunnel(out->kind)) {
			if (memchr(next.p, ':', next.len))
				out->underlay_ipv6 = true;
			if ((nd_span_eq(tok, "remote") || nd_span_eq(tok, "remote6")) &&
			    next.len < sizeof(out->remote))
				nd_span_copy(next, out->remote, sizeof(out->remote));
		} else {
			continue;
		}
		pos = peek;
	}
}

static bool is_kind(struct nd_span word, char *dst, size_t size)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(kinds); i++)
		if (nd_span_eq(word, kinds[i])) {
			nd_strlcpy(dst, kinds[i], size);
			return true;
		}
	return false;
}

static void add_lower(struct nd_stack *out, const char *name)
{
	for (unsigned i = 0; i < out->n_lowers; i++)
		if (!strcmp(out->lowers[i], name))
			return;
	if (name[0] && out->n_lowers < ND_MAX_LOWERS)
		nd_strlcpy(out->lowers[out->n_lowers++], name, ND_IFNAMSIZ);
}

int nd_parse_iplink_stack(const char *text, size_t len, const char *ifname,
			  struct nd_stack *out)
{
	struct nd_cursor c;
	struct nd_span line;
	struct block b, self = { "", "", "" };
	bool in_self = false, found = false, kind_seen = false;

	memset(out, 0, sizeof(*out));
	out->vlan_id = -1;
	out->via_speed_mbps = -1;
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		struct nd_span t = nd_span_trim(line), word;
		size_t pos = 0;

		if (header(t, &b)) {
			in_self = !strcmp(b.name, ifname);
			if (in_self) {
				if (found)
					break;	/* listed twice: the first */
				found = true;
				self = b;
				kind_seen = false;
			} else if (!strcmp(b.master, ifname)) {
				add_lower(out, b.name);	/* a port or member */
			}
			continue;
		}
		if (!in_self || kind_seen || !nd_span_token(t, &pos, &word))
			continue;
		if (is_kind(word, out->kind, sizeof(out->kind))) {
			kind_seen = true;
			kind_line(nd_span_from(t, pos), out);
		}
	}
	if (!found) {
		nd_status_set_unknown(&out->st, "'%s' is not in the ip link text", ifname);
		return -ENOENT;
	}
	if (self.at[0] && at_is_lower(out->kind)) {
		/* the "@" lower first: listed before any master ports */
		struct nd_stack ports = *out;

		out->n_lowers = 0;
		add_lower(out, self.at);
		for (unsigned i = 0; i < ports.n_lowers; i++)
			add_lower(out, ports.lowers[i]);
	}
	if (out->underlay_dev[0])
		add_lower(out, out->underlay_dev);
	nd_status_set_known(&out->st);
	return 0;
}

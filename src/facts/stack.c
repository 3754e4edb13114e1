/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack.c - what a stacked device's kind means for the frames it sends
 * down: the bytes it adds, and whether it has a wire of its own.
 */
#include <string.h>

#include "nicdoctor/facts.h"

unsigned nd_stack_encap_bytes(const char *kind, bool ipv6)
{
	unsigned ip = ipv6 ? 40 : 20;

	if (!strcmp(kind, "vlan"))
		return ND_ENCAP_VLAN;
	if (!strcmp(kind, "vxlan") || !strcmp(kind, "geneve"))
		return 14 + 8 + 8 + ip;
	if (!strcmp(kind, "gre") || !strcmp(kind, "ip6gre"))
		return 4 + (strcmp(kind, "ip6gre") ? ip : 40);
	if (!strcmp(kind, "gretap") || !strcmp(kind, "ip6gretap"))
		return 14 + 4 + (strcmp(kind, "ip6gretap") ? ip : 40);
	return 0;
}

bool nd_stack_kind_virtual(const char *kind)
{
	static const char *const kinds[] = {
		"bridge", "vlan", "macvlan", "macvtap", "ipvlan", "ipvtap", "vxlan", "geneve",
		"gre", "gretap", "ip6gre", "ip6gretap", "bond", "team", "veth", "tun",
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i]))
			return true;
	return false;
}

bool nd_stack_is_upper(const struct nd_stack *s)
{
	return s->st.known && nd_stack_kind_virtual(s->kind) && strcmp(s->kind, "bond") &&
	       strcmp(s->kind, "team") && strcmp(s->kind, "veth") && strcmp(s->kind, "tun");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mtu_stack_mismatch.c - a stacked device's MTU that its lower cannot
 * carry once the stack's own headers are added: a vxlan or geneve over
 * IPv4 needs its lower's MTU 50 bytes larger (70 over IPv6), a GRE 24
 * (RFC 7348 section 4.3; the kernel sets a new vxlan 50 below its `dev`
 * for this reason, vxlan_config_apply).  Larger packets are fragmented
 * outside (the outer IPv4 packet, when DF is clear) or dropped; TCP's
 * path MTU discovery may never learn it through a tunnel.  An 802.1Q
 * tag is not counted in the lower's MTU, so a VLAN's MTU may equal it.
 * The fix is on the upper (always safe); raising the lower's needs the
 * whole underlay path to carry it.
 */
#include <string.h>

#include "checks.h"

void nd_check_mtu_stack_mismatch(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_stack *s = &facts->stack;
	unsigned need;

	if (!s->st.known || !s->n_lowers)
		return nd_finding_not_applicable(f, "not a stacked device");
	if (!strcmp(s->kind, "bond") || !strcmp(s->kind, "team"))
		return nd_finding_not_applicable(f, "a %s adds no header: its members carry its MTU",
						 s->kind);
	if (!facts->link.st.known)
		return nd_finding_unknown(f, "MTU", facts->link.st.reason);
	if (!s->wire_known || !s->via_mtu)
		return nd_finding_unknown(f, "the lower's MTU", "no physical lower's MTU was read");
	need = facts->link.mtu + s->mtu_overhead;
	cJSON_AddStringToObject(f->evidence, "kind", s->kind);
	cJSON_AddNumberToObject(f->evidence, "mtu", facts->link.mtu);
	cJSON_AddStringToObject(f->evidence, "lower", s->via);
	cJSON_AddNumberToObject(f->evidence, "lower_mtu", s->via_mtu);
	cJSON_AddNumberToObject(f->evidence, "overhead_bytes", s->mtu_overhead);
	cJSON_AddNumberToObject(f->evidence, "needs_mtu", need);
	if (need <= s->via_mtu) {
		nd_finding_set(f, ND_SEV_OK, "MTU %u + %u B of %s headers fits %s's MTU %u",
			       facts->link.mtu, s->mtu_overhead, s->kind, s->via, s->via_mtu);
		return;
	}
	nd_finding_set(f, ND_SEV_WARNING, "MTU %u on %s needs %u on %s (%u B of %s headers), "
		       "which has %u: larger packets are fragmented or dropped", facts->link.mtu,
		       facts->ifname, need, s->via, s->mtu_overhead, s->kind, s->via_mtu);
	nd_finding_fix(f, "mtu", "ip link set dev %s mtu %u", facts->ifname,
		       s->via_mtu - s->mtu_overhead);
	nd_finding_fix(f, "mtu", "# or, if every switch and host of the underlay carries it: "
		       "ip link set dev %s mtu %u", s->via, need);
}

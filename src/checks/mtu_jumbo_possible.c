/*
 * mtu_jumbo_possible.c - what jumbo frames would add.  Never more than
 * info: jumbo frames need every host and switch on the path to carry them,
 * which this host cannot see, and the gain at the wire is small (10GbE:
 * 9415 -> 9900 Mbit/s of TCP goodput); the larger gain is fewer packets
 * per second for the CPU.
 */
#include <stdio.h>

#include "nicdoctor/ceiling.h"
#include "checks.h"
#include "nic_common.h"
#include "virt_common.h"

/* The de facto jumbo MTU: what switches and ip(8) users mean by "jumbo"
 * (IEEE never standardised one; 9000 fits every vendor's 9216 frame). */
#define JUMBO_MTU 9000
/* Ethernet's standard payload: a device whose maximum is this has no jumbo frames. */
#define STANDARD_MTU 1500

void nd_check_mtu_jumbo_possible(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_link *link = &facts->link;
	unsigned target_mtu;
	double now_mbps, jumbo_mbps;

	if (!link->st.known)
		return nd_finding_unknown(f, "MTU", link->st.reason);
	cJSON_AddNumberToObject(f->evidence, "mtu", link->mtu);
	if (link->max_mtu)
		cJSON_AddNumberToObject(f->evidence, "max_mtu", link->max_mtu);
	else
		cJSON_AddStringToObject(f->evidence, "max_mtu",
					"not reported: 9000 assumed possible");
	if (link->mtu >= JUMBO_MTU) {
		nd_finding_set(f, ND_SEV_OK, "MTU %u: jumbo frames already", link->mtu);
		return;
	}
	if (link->max_mtu && link->max_mtu <= STANDARD_MTU) {
		nd_finding_set(f, ND_SEV_OK, "MTU %u: the device allows no jumbo frames (max %u)",
			       link->mtu, link->max_mtu);
		return;
	}
	target_mtu = link->max_mtu && link->max_mtu < JUMBO_MTU ? link->max_mtu : JUMBO_MTU;
	if (target_mtu <= link->mtu) {
		nd_finding_set(f, ND_SEV_OK, "MTU %u is the device's maximum", link->mtu);
		return;
	}
	now_mbps = nd_facts_wire_ceiling_mbps(facts);
	if (now_mbps < 0 && nd_link_check_not_applicable(facts, f))
		return;
	if (now_mbps < 0)
		return nd_finding_unknown(f, "link speed", !facts->linkmodes.st.known ?
					  facts->linkmodes.st.reason : !link->carrier ?
					  "link down: no speed to compute goodput" :
					  "the driver reports no speed (virtual device?)");
	jumbo_mbps = nd_ceiling_wire_mbps((double)facts->linkmodes.speed_mbps, target_mtu,
					  ND_L4_TCP);
	cJSON_AddNumberToObject(f->evidence, "jumbo_mtu", target_mtu);
	cJSON_AddNumberToObject(f->evidence, "speed_mbps", (double)facts->linkmodes.speed_mbps);
	cJSON_AddNumberToObject(f->evidence, "goodput_now_mbps", nd_round_mbps(now_mbps));
	cJSON_AddNumberToObject(f->evidence, "goodput_jumbo_mbps", nd_round_mbps(jumbo_mbps));
	nd_finding_set(f, ND_SEV_INFO, "MTU %u: jumbo frames (MTU %u) would raise the TCP goodput "
		       "ceiling from %.0f to %.0f Mbit/s", link->mtu, target_mtu, now_mbps,
		       jumbo_mbps);
	nd_finding_fix(f, "mtu", "ip link set dev %s mtu %u", facts->ifname, target_mtu);
	nd_finding_fix(f, "mtu", "# only if every host, switch and router on the path carries "
		       "MTU %u; test first: ping -M do -s %u PEER", target_mtu, target_mtu - 28);
}

/*
 * link_down.c - the interface has no carrier: nothing passes, and every
 * other throughput finding waits on this one.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* RFC 2863 operstates that mean traffic cannot flow. */
static bool operstate_down(const char *operstate)
{
	static const char *const down[] = { "down", "lowerlayerdown", "notpresent" };

	for (size_t i = 0; i < sizeof(down) / sizeof(down[0]); i++)
		if (!strcmp(operstate, down[i]))
			return true;
	return false;
}

void nd_check_link_down(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_link *link = &facts->link;

	if (!link->st.known)
		return nd_finding_unknown(f, "link state (carrier, operstate)", link->st.reason);
	cJSON_AddBoolToObject(f->evidence, "carrier", link->carrier);
	cJSON_AddStringToObject(f->evidence, "operstate", link->operstate[0] ? link->operstate :
				"(not reported)");
	/* "unknown" with carrier is normal for drivers without operstate
	 * support (many virtual ones): carrier decides. */
	if (link->carrier && !operstate_down(link->operstate)) {
		nd_finding_set(f, ND_SEV_OK, "link up (operstate %s)",
			       link->operstate[0] ? link->operstate : "not reported");
		return;
	}
	nd_finding_set(f, ND_SEV_CRITICAL, "no link (carrier %s, operstate %s): nothing can pass",
		       link->carrier ? "on" : "off",
		       link->operstate[0] ? link->operstate : "not reported");
	nd_finding_fix(f, "link_up", "ip link set dev %s up", facts->ifname);
	nd_finding_fix(f, "link_up", "ethtool %s | grep -E 'Speed|Duplex|Link detected'",
		       facts->ifname);
	nd_finding_fix(f, "link_up", "# still no link: check the cable or module (ethtool -m %s), "
		       "the switch port (enabled, speed, FEC) and dmesg", facts->ifname);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * route.h - the route the kernel would give a peer (`ip route get ADDR`),
 * and whether traffic along it leaves through the interface diagnosed.
 * `diagnose IF --peer HOST` measures IF only when the answer is yes: a
 * peer reached over lo or another port measures that path, not IF.
 *
 * The probe (src/probe/route.c) asks the kernel; the decision and its
 * JSON (src/facts/route.c) are pure, so they are unit tested on values.
 */
#ifndef NICDOCTOR_ROUTE_H
#define NICDOCTOR_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "nicdoctor/facts.h"

/* Lower devices kept for one route's device, every level down. */
#define ND_ROUTE_MAX_LOWERS 16
/* An IPv6 address with its %scope. */
#define ND_ROUTE_ADDR_LEN 64

struct nd_route {
	char dst[ND_ROUTE_ADDR_LEN];	/* the address looked up ("fe80::1%nda") */
	char dev[ND_IFNAMSIZ];		/* the output device */
	char via[ND_ROUTE_ADDR_LEN];	/* the gateway; "" on-link */
	char src[ND_ROUTE_ADDR_LEN];	/* the preferred source; "" none */
	bool local;			/* the peer is an address of this host */
	/* dev's lower devices (bridge ports, bond members, a VLAN's or a
	 * macvlan's link), breadth first, every level down. */
	char lowers[ND_ROUTE_MAX_LOWERS][ND_IFNAMSIZ];
	unsigned n_lowers;
};

enum nd_route_fit {
	ND_ROUTE_SAME,		/* dev is the interface */
	ND_ROUTE_UPPER,		/* dev sits above it: "via br0 over eth0" */
	ND_ROUTE_OTHER,		/* another path: lo, another port */
};

/* Where traffic along r goes relative to ifname. */
enum nd_route_fit nd_route_fit(const struct nd_route *r, const char *ifname);
static inline bool nd_route_matches(const struct nd_route *r, const char *ifname)
{
	return nd_route_fit(r, ifname) != ND_ROUTE_OTHER;
}

/* {"dst", "dev", "via", "src", "matches"}: via and src null when absent.
 * NULL on allocation failure. */
cJSON *nd_route_json(const struct nd_route *r, const char *ifname);

/* "10.0.0.9 is reached through lo, not eth0" (the refusal's words), or
 * "... through br0 over eth0" / "... through eth0"; returns buf. */
char *nd_route_describe(const struct nd_route *r, const char *ifname, char *buf, size_t size);

#endif

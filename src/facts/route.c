/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * route.c - does the route to a peer leave through the interface
 * diagnosed: its device is the interface, or a device stacked above it
 * (a bridge it is a port of, its bond, a VLAN or macvlan on it), or it is
 * another path (lo, another port), whose numbers are not the interface's.
 * Pure: the probe (src/probe/route.c) asked the kernel.
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/route.h"

enum nd_route_fit nd_route_fit(const struct nd_route *r, const char *ifname)
{
	if (!strcmp(r->dev, ifname))
		return ND_ROUTE_SAME;
	/* A local address goes over lo, whichever interface holds it. */
	if (r->local)
		return ND_ROUTE_OTHER;
	for (unsigned i = 0; i < r->n_lowers && i < ND_ROUTE_MAX_LOWERS; i++)
		if (!strcmp(r->lowers[i], ifname))
			return ND_ROUTE_UPPER;
	return ND_ROUTE_OTHER;
}

static void add_or_null(cJSON *obj, const char *key, const char *value)
{
	if (*value)
		cJSON_AddStringToObject(obj, key, value);
	else
		cJSON_AddNullToObject(obj, key);
}

cJSON *nd_route_json(const struct nd_route *r, const char *ifname)
{
	cJSON *obj = cJSON_CreateObject();

	if (!obj)
		return NULL;
	cJSON_AddStringToObject(obj, "dst", r->dst);
	cJSON_AddStringToObject(obj, "dev", r->dev);
	add_or_null(obj, "via", r->via);
	add_or_null(obj, "src", r->src);
	cJSON_AddBoolToObject(obj, "matches", nd_route_matches(r, ifname));
	return obj;
}

char *nd_route_describe(const struct nd_route *r, const char *ifname, char *buf, size_t size)
{
	char gateway[ND_ROUTE_ADDR_LEN + 8] = "";

	if (*r->via)
		snprintf(gateway, sizeof(gateway), " via %s", r->via);
	switch (nd_route_fit(r, ifname)) {
	case ND_ROUTE_SAME:
		snprintf(buf, size, "%s is reached through %s%s", r->dst, r->dev, gateway);
		break;
	case ND_ROUTE_UPPER:
		snprintf(buf, size, "%s is reached through %s over %s%s", r->dst, r->dev, ifname,
			 gateway);
		break;
	case ND_ROUTE_OTHER:
		snprintf(buf, size, "%s is reached through %s%s, not %s", r->dst, r->dev, gateway,
			 ifname);
		break;
	}
	return buf;
}

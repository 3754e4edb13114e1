/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack.c - what the interface is stacked on: its kind (uevent's DEVTYPE,
 * a macvtap's macvtap/ directory, else the driver ethtool names) and its
 * lowers, the kernel's adjacency links /sys/class/net/IF/lower_* (every
 * upper that calls netdev_upper_dev_link: bridge ports, a VLAN's or
 * macvlan's lower, a vxlan's `dev`, bond and team members).  The same
 * files in a snapshot, as collect copies them; a record without them is
 * filled by its source from `ip -d link` text (sos_gaps.c).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/route.h"
#include "nicdoctor/sysfs_util.h"
#include "nicdoctor/sysroot.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The kind from the driver's name (ethtool -i), for the kinds whose
 * uevent has no DEVTYPE. */
static const char *driver_kind(const char *driver)
{
	static const struct {
		const char *driver, *kind;
	} table[] = {
		{ "bridge", "bridge" },	{ "802.1Q VLAN Support", "vlan" }, { "macvlan", "macvlan" },
		{ "ipvlan", "ipvlan" },	{ "vxlan", "vxlan" },	{ "geneve", "geneve" },
		{ "bonding", "bond" },	{ "team", "team" },	{ "veth", "veth" },
		{ "tun", "tun" },	{ "dummy", "dummy" },	{ "gre", "gre" },
	};

	for (size_t i = 0; i < ND_ARRAY_SIZE(table); i++)
		if (!strcmp(driver, table[i].driver))
			return table[i].kind;
	return "";
}

static void read_kind(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_stack *s = &facts->stack;
	char buf[512], path[96];
	const char *dt;

	if (nd_sysroot_readf(root, buf, sizeof(buf), "/sys/class/net/%s/uevent", ifname) > 0 &&
	    (dt = strstr(buf, "DEVTYPE=")) != NULL) {
		size_t n = strcspn(dt + 8, "\n");

		if (n && n < sizeof(s->kind)) {
			memcpy(s->kind, dt + 8, n);
			s->kind[n] = '\0';
		}
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/macvtap", ifname);
	if (!s->kind[0] && nd_sysroot_exists(root, path))
		nd_strlcpy(s->kind, "macvtap", sizeof(s->kind));
	if (!s->kind[0] && facts->drvinfo.st.known)
		nd_strlcpy(s->kind, driver_kind(facts->drvinfo.driver), sizeof(s->kind));
	/* DEVTYPE's names are the kernel's device types: "wlan", "wwan" are
	 * NICs of their own; keep only what stacks or has no wire. */
	if (!nd_stack_kind_virtual(s->kind) && strcmp(s->kind, "dummy"))
		s->kind[0] = '\0';
}

static bool is_tunnel(const char *kind)
{
	return !strcmp(kind, "vxlan") || !strcmp(kind, "geneve") || !strcmp(kind, "vlan");
}

/* Live, what sysfs does not say: a VLAN's id, a tunnel's remote and
 * whether it is IPv6, from `ip -d link show dev IF` (the parser a
 * sosreport's text goes through).  A tunnel without a `dev` has no
 * lower_* link: its underlay is the device of the route to its remote. */
static void live_details(const struct nd_root *root, const char *ifname, struct nd_stack *s)
{
	char *argv[] = { "ip", "-d", "link", "show", "dev", (char *)ifname, NULL };
	char *text = NULL, why[160];
	struct nd_stack t;
	struct nd_route route;
	size_t len = 0;

	if (!is_tunnel(s->kind) || nd_run_capture(argv, 3000, 64 * 1024, &text, &len) < 0)
		return;
	if (nd_parse_iplink_stack(text, len, ifname, &t) == 0 && !strcmp(t.kind, s->kind)) {
		s->vlan_id = t.vlan_id;
		s->underlay_ipv6 = t.underlay_ipv6;
		nd_strlcpy(s->remote, t.remote, sizeof(s->remote));
		nd_strlcpy(s->underlay_dev, t.underlay_dev, sizeof(s->underlay_dev));
	}
	free(text);
	if (s->n_lowers || !s->remote[0] || strcmp(s->kind, "vlan") == 0 ||
	    nd_probe_route(root, s->remote, &route, why, sizeof(why)) < 0 ||
	    !strcmp(route.dev, ifname) || nd_ifname_valid(route.dev) < 0)
		return;
	nd_strlcpy(s->underlay_dev, route.dev, sizeof(s->underlay_dev));
	nd_strlcpy(s->lowers[s->n_lowers++], route.dev, ND_IFNAMSIZ);
}

void nd_probe_stack(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_stack *s = &facts->stack;
	char path[64];
	struct dirent *ent;
	DIR *d;

	if (s->st.known)
		return;		/* the source said (a record's text) */
	memset(s, 0, sizeof(*s));
	s->vlan_id = -1;
	s->via_speed_mbps = -1;
	read_kind(root, ifname, facts);
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	d = nd_sysroot_opendir(root, path);
	while (d && (ent = readdir(d)) != NULL && s->n_lowers < ND_MAX_LOWERS) {
		const char *name = ent->d_name + 6;

		if (strncmp(ent->d_name, "lower_", 6) || nd_ifname_valid(name) < 0)
			continue;
		nd_strlcpy(s->lowers[s->n_lowers++], name, ND_IFNAMSIZ);
	}
	if (d)
		closedir(d);
	qsort(s->lowers, s->n_lowers, sizeof(s->lowers[0]), cmp_name);
	if (!d && !s->kind[0]) {
		nd_status_set_unknown(&s->st, "%s not readable", path);
		return;
	}
	nd_status_set_known(&s->st);
	snprintf(s->st.source, sizeof(s->st.source), "/sys/class/net/%s/lower_*", ifname);
	if (nd_sysroot_is_live(root))
		live_details(root, ifname, s);
}

/*
 * link_sysfs.c - the link group from /sys/class/net/IF when netlink, the
 * snapshot's ethtool/IF.json or the bundle's text did not give it: mtu,
 * operstate, carrier, address, ifindex and statistics/ (facts has no
 * field for tx_queue_len), and the speed and
 * duplex the kernel shows in speed/duplex.  Runs live too (a netlink
 * failure still leaves sysfs readable) and in every sysroot.  What it
 * fills names these files as its source.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

static int read_attr(const struct nd_root *root, const char *ifname, const char *attr, char *buf,
		     size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, attr);
	return nd_sysroot_read_line(root, path, buf, size);
}

static int read_attr_u64(const struct nd_root *root, const char *ifname, const char *attr,
			 unsigned long long *ret)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, attr);
	return nd_probe_read_unsigned(root, path, ret);
}

static void read_stats(const struct nd_root *root, const char *ifname, struct nd_link *link)
{
	static const struct {
		const char *name;
		size_t offset;
	} stats[] = {
		{ "rx_bytes", offsetof(struct nd_link, stats.rx_bytes) },
		{ "tx_bytes", offsetof(struct nd_link, stats.tx_bytes) },
		{ "rx_packets", offsetof(struct nd_link, stats.rx_packets) },
		{ "tx_packets", offsetof(struct nd_link, stats.tx_packets) },
		{ "rx_errors", offsetof(struct nd_link, stats.rx_errors) },
		{ "tx_errors", offsetof(struct nd_link, stats.tx_errors) },
		{ "rx_dropped", offsetof(struct nd_link, stats.rx_dropped) },
		{ "tx_dropped", offsetof(struct nd_link, stats.tx_dropped) },
		{ "rx_missed_errors", offsetof(struct nd_link, stats.rx_missed) },
		{ "rx_fifo_errors", offsetof(struct nd_link, stats.rx_fifo) },
		{ "rx_over_errors", offsetof(struct nd_link, stats.rx_over) },
		{ "rx_crc_errors", offsetof(struct nd_link, stats.rx_crc) },
		{ "rx_frame_errors", offsetof(struct nd_link, stats.rx_frame) },
	};

	unsigned read = 0;

	for (size_t i = 0; i < ND_ARRAY_SIZE(stats); i++) {
		char attr[64];
		unsigned long long value;

		snprintf(attr, sizeof(attr), "statistics/%s", stats[i].name);
		if (read_attr_u64(root, ifname, attr, &value) == 0) {
			*(uint64_t *)((char *)link + stats[i].offset) = value;
			read++;
		}
	}
	/* A copied tree often lacks statistics/: zeros would read "no drops". */
	if (!read) {
		nd_status_set_unknown(&link->stats_st, "no counters in /sys/class/net/%s/statistics",
				      ifname);
		return;
	}
	nd_status_set_known(&link->stats_st);
	snprintf(link->stats_st.source, sizeof(link->stats_st.source),
		 "/sys/class/net/%s/statistics", ifname);
}

/* The link group needs the MTU at least; carrier and operstate when there. */
static void fill_link(const struct nd_root *root, const char *ifname, struct nd_link *link)
{
	unsigned long long mtu, value;
	char text[32];

	if (read_attr_u64(root, ifname, "mtu", &mtu) < 0 || mtu == 0 || mtu > UINT_MAX)
		return;
	memset(link, 0, sizeof(*link));
	link->mtu = (unsigned)mtu;
	if (read_attr(root, ifname, "operstate", link->operstate, sizeof(link->operstate)) < 0)
		nd_strlcpy(link->operstate, "unknown", sizeof(link->operstate));
	/* carrier reads EINVAL while the interface is down: no carrier. */
	link->carrier = read_attr_u64(root, ifname, "carrier", &value) == 0 && value == 1;
	if (read_attr(root, ifname, "address", text, sizeof(text)) == 0 && strlen(text) == 17)
		nd_strlcpy(link->mac, text, sizeof(link->mac));
	if (read_attr_u64(root, ifname, "ifindex", &value) == 0 && value <= INT_MAX)
		link->ifindex = (int)value;
	read_stats(root, ifname, link);
	link->stats.rx_phy_known = read_attr_u64(root, ifname, "statistics/rx_crc_errors",
						 &value) == 0;
	if (read_attr_u64(root, ifname, "carrier_changes", &value) == 0) {
		link->stats.carrier_changes = value;
		link->stats.carrier_changes_known = true;
	}
	nd_status_set_known(&link->st);
	snprintf(link->st.source, sizeof(link->st.source), "/sys/class/net/%s/mtu", ifname);
}

/* speed reads -1 or EINVAL without a link: then the speed stays unknown. */
static void fill_speed(const struct nd_root *root, const char *ifname, struct nd_linkmodes *lm)
{
	char text[32], *end;
	long long speed;

	if (read_attr(root, ifname, "speed", text, sizeof(text)) < 0)
		return;
	speed = strtoll(text, &end, 10);
	if (end == text || *end || speed <= 0 || speed > 10000000)
		return;
	memset(lm, 0, sizeof(*lm));
	lm->speed_mbps = speed;
	lm->duplex = -1;
	if (read_attr(root, ifname, "duplex", text, sizeof(text)) == 0)
		lm->duplex = !strcmp(text, "full") ? 1 : !strcmp(text, "half") ? 0 : -1;
	nd_status_set_known(&lm->st);
	snprintf(lm->st.source, sizeof(lm->st.source), "/sys/class/net/%s/speed", ifname);
	nd_status_set_unknown(&lm->modes_st, "/sys/class/net/%s/speed gives no link modes", ifname);
}

void nd_probe_link_sysfs(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	if (nd_ifname_valid(ifname) < 0)
		return;
	if (!facts->link.st.known)
		fill_link(root, ifname, &facts->link);
	if (!facts->linkmodes.st.known)
		fill_speed(root, ifname, &facts->linkmodes);
}

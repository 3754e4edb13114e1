/*
 * drvinfo.c - driver identity and the driver's own counters (`ethtool -i`
 * and `ethtool -S`).  Both exist only as SIOCETHTOOL ioctls: netlink has
 * no DRVINFO message and its STATS_GET carries only standard groups, not
 * the driver's private counters where drops per queue show up.  The sysfs
 * driver link names the driver when the ioctl fails, and in a sysroot.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

/* Drivers report a few thousand counters at most; refuse absurd counts. */
#define STATS_SANE_MAX 65536u

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	nd_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* The driver name from /sys/class/net/IF/device/driver; virtual devices
 * without a device/ link have none. */
static int driver_from_sysfs(const struct nd_root *root, const char *ifname, struct nd_drvinfo *drv)
{
	char path[96], name[sizeof(drv->driver)];
	int r;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", ifname);
	r = nd_sysroot_link_basename(root, path, name, sizeof(name));
	if (r < 0)
		return r;
	memset(drv, 0, sizeof(*drv));
	nd_strlcpy(drv->driver, name, sizeof(drv->driver));
	nd_status_set_known(&drv->st);
	return 0;
}

static void probe_drvinfo_ioctl(const struct nd_root *root, int fd, const char *ifname,
				struct nd_drvinfo *drv)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	int r = ethtool_ioctl(fd, ifname, &info);

	memset(drv, 0, sizeof(*drv));
	if (r < 0) {
		if (driver_from_sysfs(root, ifname, drv) < 0)
			nd_status_set_unknown(&drv->st, "ETHTOOL_GDRVINFO: %s", strerror(-r));
		return;
	}
	nd_strlcpy(drv->driver, info.driver, sizeof(drv->driver));
	nd_strlcpy(drv->version, info.version, sizeof(drv->version));
	nd_strlcpy(drv->fw_version, info.fw_version, sizeof(drv->fw_version));
	nd_strlcpy(drv->bus_info, info.bus_info, sizeof(drv->bus_info));
	nd_status_set_known(&drv->st);
}

/* Number of ETH_SS_STATS strings: 0 when the driver has none. */
static int stats_count(int fd, const char *ifname, unsigned *ret_count)
{
	/* Room for one data[] entry: the length of the one set we ask for. */
	struct ethtool_sset_info *sset = calloc(1, sizeof(*sset) + sizeof(uint32_t));
	int r;

	if (!sset)
		return -ENOMEM;
	sset->cmd = ETHTOOL_GSSET_INFO;
	sset->sset_mask = 1ULL << ETH_SS_STATS;
	r = ethtool_ioctl(fd, ifname, sset);
	if (r == 0) {
		*ret_count = (sset->sset_mask & (1ULL << ETH_SS_STATS)) ? sset->data[0] : 0;
		if (*ret_count > STATS_SANE_MAX)
			r = -E2BIG;
	}
	free(sset);
	return r;
}

static int stats_read(int fd, const char *ifname, unsigned count, struct nd_nicstats *ns)
{
	struct ethtool_gstrings *names = calloc(1, sizeof(*names) + (size_t)count * ETH_GSTRING_LEN);
	struct ethtool_stats *values = calloc(1, sizeof(*values) + (size_t)count * sizeof(uint64_t));
	int r = -ENOMEM;

	if (!names || !values)
		goto out;
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = count;
	values->cmd = ETHTOOL_GSTATS;
	values->n_stats = count;
	r = ethtool_ioctl(fd, ifname, names);
	if (r == 0)
		r = ethtool_ioctl(fd, ifname, values);
	if (r < 0)
		goto out;
	/* The kernel may shrink the count between calls; trust the smaller. */
	if (names->len < count)
		count = names->len;
	if (values->n_stats < count)
		count = values->n_stats;
	ns->count = count < ND_MAX_STATS ? count : ND_MAX_STATS;
	for (unsigned i = 0; i < ns->count; i++) {
		char name[ETH_GSTRING_LEN + 1];

		memcpy(name, names->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		nd_strlcpy(ns->s[i].name, name, sizeof(ns->s[i].name));
		ns->s[i].value = values->data[i];
	}
out:
	free(names);
	free(values);
	return r;
}

static void probe_nicstats(int fd, const char *ifname, struct nd_nicstats *ns)
{
	unsigned count = 0;
	int r = stats_count(fd, ifname, &count);

	memset(ns, 0, sizeof(*ns));
	if (r == 0 && count > 0)
		r = stats_read(fd, ifname, count, ns);
	if (r < 0) {
		memset(ns, 0, sizeof(*ns));
		nd_status_set_unknown(&ns->st, "ETHTOOL_GSTATS: %s", strerror(-r));
		return;
	}
	nd_status_set_known(&ns->st);
}

void nd_probe_drvinfo(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	int fd;

	if (!nd_sysroot_is_live(root)) {
		/* The snapshot owns both groups; the driver link in the tree
		 * can still name the driver when the snapshot does not. */
		if (!facts->drvinfo.st.known)
			driver_from_sysfs(root, ifname, &facts->drvinfo);
		return;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int err = errno;

		if (driver_from_sysfs(root, ifname, &facts->drvinfo) < 0)
			nd_status_set_unknown(&facts->drvinfo.st, "socket: %s", strerror(err));
		nd_status_set_unknown(&facts->nicstats.st, "socket: %s", strerror(err));
		return;
	}
	probe_drvinfo_ioctl(root, fd, ifname, &facts->drvinfo);
	probe_nicstats(fd, ifname, &facts->nicstats);
	close(fd);
}

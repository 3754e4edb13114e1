/*
 * sysctl.c - the "sysctl" probe source: the network sysctls the checks
 * and the ceiling model need, read as raw text from /proc/sys.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

static const struct {
	const char *path;
	size_t offset;
} sysctl_table[] = {
	{ "/proc/sys/net/core/rmem_max", offsetof(struct nd_sysctls, rmem_max) },
	{ "/proc/sys/net/core/wmem_max", offsetof(struct nd_sysctls, wmem_max) },
	{ "/proc/sys/net/core/netdev_max_backlog", offsetof(struct nd_sysctls, netdev_max_backlog) },
	{ "/proc/sys/net/core/netdev_budget", offsetof(struct nd_sysctls, netdev_budget) },
	{ "/proc/sys/net/core/rps_sock_flow_entries", offsetof(struct nd_sysctls, rps_sock_flow_entries) },
	{ "/proc/sys/net/core/default_qdisc", offsetof(struct nd_sysctls, default_qdisc) },
	{ "/proc/sys/net/ipv4/tcp_rmem", offsetof(struct nd_sysctls, tcp_rmem) },
	{ "/proc/sys/net/ipv4/tcp_wmem", offsetof(struct nd_sysctls, tcp_wmem) },
	{ "/proc/sys/net/ipv4/tcp_congestion_control", offsetof(struct nd_sysctls, tcp_congestion_control) },
};

static void read_sysctl(const struct nd_root *root, const char *path, struct nd_sysctl *ctl)
{
	int r = nd_sysroot_read_line(root, path, ctl->text, sizeof(ctl->text));

	memset(ctl->reason, 0, sizeof(ctl->reason));
	memset(ctl->source, 0, sizeof(ctl->source));
	if (r < 0) {
		ctl->known = false;
		ctl->text[0] = '\0';
		nd_probe_read_reason(ctl->reason, sizeof(ctl->reason), path, r);
		return;
	}
	/* tcp_rmem is tab-separated: normalise to single spaces. */
	for (char *p = ctl->text; *p; p++)
		if (*p == '\t')
			*p = ' ';
	ctl->known = true;
	nd_strlcpy(ctl->source, path, sizeof(ctl->source));
}

void nd_probe_sysctls(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	(void)ifname;
	for (size_t i = 0; i < ND_ARRAY_SIZE(sysctl_table); i++)
		read_sysctl(root, sysctl_table[i].path,
			    (struct nd_sysctl *)((char *)&facts->sysctl + sysctl_table[i].offset));
}

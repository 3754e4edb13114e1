/*
 * sysctl_wmem_max_low.c - sysctl.wmem_max_low: the send buffer sysctls
 * (net.core.wmem_max, net.ipv4.tcp_wmem) allow too little data in flight
 * for line rate.  The judgement, and why Debian's defaults pass on a LAN,
 * is in sysctl_window.c.
 */
#include <stddef.h>

#include "checks.h"
#include "sysctl_window.h"

static const struct nd_window_side send_side = {
	.role = "send",
	.core_sysctl = "net.core.wmem_max",
	.tcp_sysctl = "net.ipv4.tcp_wmem",
	.sockopt = "SO_SNDBUF",
	.core_key = "wmem_max",
	.tcp_key = "tcp_wmem",
	.core_offset = offsetof(struct nd_sysctls, wmem_max),
	.tcp_offset = offsetof(struct nd_sysctls, tcp_wmem),
};

void nd_check_sysctl_wmem_max_low(const struct nd_facts *facts, struct nd_finding *f)
{
	nd_check_window(facts, f, &send_side);
}

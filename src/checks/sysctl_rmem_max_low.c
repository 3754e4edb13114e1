/*
 * sysctl_rmem_max_low.c - sysctl.rmem_max_low: the receive buffer sysctls
 * (net.core.rmem_max, net.ipv4.tcp_rmem) allow too small a TCP window for
 * line rate.  The judgement, and why Debian's defaults pass on a LAN, is in
 * sysctl_window.c.
 */
#include <stddef.h>

#include "checks.h"
#include "sysctl_window.h"

static const struct nd_window_side receive_side = {
	.role = "receive",
	.core_sysctl = "net.core.rmem_max",
	.tcp_sysctl = "net.ipv4.tcp_rmem",
	.sockopt = "SO_RCVBUF",
	.core_key = "rmem_max",
	.tcp_key = "tcp_rmem",
	.core_offset = offsetof(struct nd_sysctls, rmem_max),
	.tcp_offset = offsetof(struct nd_sysctls, tcp_rmem),
};

void nd_check_sysctl_rmem_max_low(const struct nd_facts *facts, struct nd_finding *f)
{
	nd_check_window(facts, f, &receive_side);
}

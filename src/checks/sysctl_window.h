/*
 * sysctl_window.h - the socket-buffer window judgement shared by
 * sysctl.rmem_max_low (receiver) and sysctl.wmem_max_low (sender).
 */
#ifndef NICDOCTOR_CHECKS_SYSCTL_WINDOW_H
#define NICDOCTOR_CHECKS_SYSCTL_WINDOW_H

#include "nicdoctor/check.h"

/* One direction of a TCP connection: which sysctls bound its window. */
struct nd_window_side {
	const char *role;		/* "receive", "send" */
	const char *core_sysctl;	/* "net.core.rmem_max": caps SO_RCVBUF */
	const char *tcp_sysctl;		/* "net.ipv4.tcp_rmem": autotuning's max */
	const char *sockopt;		/* "SO_RCVBUF" */
	const char *core_key;		/* evidence key of the core value */
	const char *tcp_key;		/* evidence key of the tcp triple */
	size_t core_offset;		/* offsetof(struct nd_sysctls, rmem_max) */
	size_t tcp_offset;		/* offsetof(struct nd_sysctls, tcp_rmem) */
};

/* An RTT typical of a LAN when none was measured, in microseconds. */
#define ND_WINDOW_LAN_RTT_USEC 500.0

void nd_check_window(const struct nd_facts *facts, struct nd_finding *f,
		     const struct nd_window_side *side);

#endif

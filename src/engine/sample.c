/*
 * sample.c - the streams' side of what happens during a test: which
 * interface carries a socket, TCP_INFO of each stream and its congestion
 * control.  The host's side (per-CPU load, interface counters) is
 * src/probe/host_sample.c.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "nicdoctor/common.h"
#include "engine_int.h"
#include "nicdoctor/sysroot.h"

static bool same_addr(const struct sockaddr *ifa, const struct sockaddr_storage *ss)
{
	if (ifa->sa_family == AF_INET && ss->ss_family == AF_INET)
		return memcmp(&((const struct sockaddr_in *)ifa)->sin_addr,
			      &((const struct sockaddr_in *)ss)->sin_addr, 4) == 0;
	if (ifa->sa_family == AF_INET6 && ss->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)ifa)->sin6_addr,
			      &((const struct sockaddr_in6 *)ss)->sin6_addr, 16) == 0;
	if (ifa->sa_family == AF_INET && ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;

		return IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) &&
		       memcmp(&((const struct sockaddr_in *)ifa)->sin_addr,
			      &s6->sin6_addr.s6_addr[12], 4) == 0;
	}
	return false;
}

/* The interface that holds the socket's local address (the egress one). */
int nd_iface_for_fd(int fd, char *ifname, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifs = NULL, *it;
	int rc = -ENOENT;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -errno;
	if (getifaddrs(&ifs) < 0)
		return -errno;
	for (it = ifs; it; it = it->ifa_next) {
		if (it->ifa_addr && same_addr(it->ifa_addr, &ss)) {
			nd_strlcpy(ifname, it->ifa_name, size);
			rc = 0;
			break;
		}
	}
	freeifaddrs(ifs);
	return rc;
}

/* The kernel's tcp_info goes on past glibc's copy (and linux/tcp.h clashes
 * with netinet/tcp.h): tcpi_reord_seen at 220, tcpi_snd_wnd at 228. */
#define ND_TCPI_REORD_SEEN_OFF 220
#define ND_TCPI_SND_WND_OFF    228
union nd_tcp_info {
	struct tcp_info ti;
	uint8_t raw[ND_TCPI_SND_WND_OFF + 4];
};

static uint32_t tcpi_u32(const union nd_tcp_info *u, socklen_t len, size_t off)
{
	uint32_t v = 0;

	if (len >= off + sizeof(v))
		memcpy(&v, u->raw + off, sizeof(v));
	return v;
}

int nd_sample_tcpinfo(int fd, struct nd_engine_tcpinfo *t)
{
	union nd_tcp_info u;
	struct tcp_info ti;
	socklen_t sl = sizeof(u);

	memset(&u, 0, sizeof(u));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &u, &sl) < 0)
		return -errno;
	ti = u.ti;
	t->snd_wnd_bytes = tcpi_u32(&u, sl, ND_TCPI_SND_WND_OFF);
	t->reorder = tcpi_u32(&u, sl, ND_TCPI_REORD_SEEN_OFF);
	if (t->snd_wnd_bytes > t->max_snd_wnd_bytes)
		t->max_snd_wnd_bytes = t->snd_wnd_bytes;
	t->valid = true;
	t->rtt_usec = ti.tcpi_rtt;
	t->rttvar_usec = ti.tcpi_rttvar;
	t->snd_cwnd_bytes = ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	t->pmtu_bytes = ti.tcpi_pmtu;
	t->total_retrans = ti.tcpi_total_retrans;
	if (ti.tcpi_rtt) {
		if (!t->rtt_samples || ti.tcpi_rtt < t->min_rtt_usec)
			t->min_rtt_usec = ti.tcpi_rtt;
		if (ti.tcpi_rtt > t->max_rtt_usec)
			t->max_rtt_usec = ti.tcpi_rtt;
		t->rtt_sum_usec += ti.tcpi_rtt;
		t->rtt_samples++;
	}
	if (t->snd_cwnd_bytes > t->max_snd_cwnd_bytes)
		t->max_snd_cwnd_bytes = t->snd_cwnd_bytes;
	return 0;
}

void nd_tcp_congestion(int fd, char *buf, size_t size)
{
	char name[16] = "";
	socklen_t sl = sizeof(name) - 1;

	buf[0] = '\0';
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &sl) == 0) {
		name[sizeof(name) - 1] = '\0';
		nd_strlcpy(buf, name, size);
	}
}

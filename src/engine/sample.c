/*
 * sample.c - what the host does while a test runs: per-CPU busy and softirq
 * shares from /proc/stat, the carrying interface's counters from
 * /sys/class/net/IF/statistics (both through the sysroot seam), and
 * TCP_INFO of each stream.  The parsers are pure and unit tested.
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
#include "nicdoctor/engine_int.h"
#include "nicdoctor/sysroot.h"

/* Parse the "cpuN user nice system idle iowait irq softirq steal" lines. */
int nd_parse_proc_stat(const char *text, struct nd_cpu_snap *snap)
{
	const char *line = text;

	snap->count = 0;
	while (line && *line) {
		unsigned long long v[8] = { 0 };
		int cpu, n;

		if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9' &&
		    snap->count < ND_ENGINE_MAX_CPUS) {
			n = sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
			if (n >= 5) {
				int i = snap->count++;

				snap->c[i].cpu = cpu;
				snap->c[i].total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] +
						   v[6] + v[7];
				snap->c[i].idle = v[3] + v[4];
				snap->c[i].softirq = v[6];
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return snap->count > 0 ? 0 : -EINVAL;
}

int nd_sample_cpus(struct nd_cpu_snap *snap)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	snap->count = 0;
	rc = nd_sysroot_read_alloc("/proc/stat", &text, &len);
	if (rc < 0)
		return rc;
	rc = nd_parse_proc_stat(text, snap);
	free(text);
	return rc;
}

int nd_cpu_shares(const struct nd_cpu_snap *a, const struct nd_cpu_snap *b,
		  struct nd_engine_cpu_share *out, int out_max)
{
	int i, j, n = 0;

	for (i = 0; i < b->count && n < out_max; i++) {
		for (j = 0; j < a->count; j++) {
			uint64_t total, idle, soft;

			if (a->c[j].cpu != b->c[i].cpu)
				continue;
			total = b->c[i].total - a->c[j].total;
			idle = b->c[i].idle - a->c[j].idle;
			soft = b->c[i].softirq - a->c[j].softirq;
			out[n].cpu = b->c[i].cpu;
			out[n].busy_pct = total ? 100.0 * (double)(total - idle) / (double)total : 0;
			out[n].softirq_pct = total ? 100.0 * (double)soft / (double)total : 0;
			n++;
			break;
		}
	}
	return n;
}

static const char *const if_counters[8] = {
	"rx_bytes", "tx_bytes", "rx_packets", "tx_packets",
	"rx_dropped", "tx_dropped", "rx_errors", "tx_errors",
};

int nd_sample_iface(const char *ifname, struct nd_if_snap *snap)
{
	char buf[64];
	size_t i;

	memset(snap, 0, sizeof(*snap));
	if (!ifname || !ifname[0] || nd_ifname_valid(ifname) < 0)
		return -EINVAL;
	for (i = 0; i < ND_ARRAY_SIZE(if_counters); i++) {
		ssize_t n = nd_sysroot_readf(buf, sizeof(buf), "/sys/class/net/%s/statistics/%s",
					     ifname, if_counters[i]);

		if (n < 0)
			return (int)n;
		snap->v[i] = strtoull(buf, NULL, 10);
	}
	snap->valid = true;
	return 0;
}

void nd_iface_delta(const char *ifname, const struct nd_if_snap *a, const struct nd_if_snap *b,
		    struct nd_engine_if_delta *out)
{
	memset(out, 0, sizeof(*out));
	if (!a->valid || !b->valid)
		return;
	out->valid = true;
	nd_strlcpy(out->ifname, ifname, sizeof(out->ifname));
	out->rx_bytes = b->v[0] - a->v[0];
	out->tx_bytes = b->v[1] - a->v[1];
	out->rx_packets = b->v[2] - a->v[2];
	out->tx_packets = b->v[3] - a->v[3];
	out->rx_dropped = b->v[4] - a->v[4];
	out->tx_dropped = b->v[5] - a->v[5];
	out->rx_errors = b->v[6] - a->v[6];
	out->tx_errors = b->v[7] - a->v[7];
}

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

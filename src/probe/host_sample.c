/*
 * host_sample.c - what the host does while something runs: per-CPU busy
 * and softirq shares from /proc/stat, an interface's counters from
 * /sys/class/net/IF/statistics (both through the sysroot seam).  The
 * parser is pure and unit tested.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/host_sample.h"
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

int nd_sample_cpus(const struct nd_root *root, struct nd_cpu_snap *snap)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	snap->count = 0;
	rc = nd_sysroot_read_alloc(root, "/proc/stat", &text, &len);
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

int nd_sample_iface(const struct nd_root *root, const char *ifname, struct nd_if_snap *snap)
{
	char buf[64];
	size_t i;

	memset(snap, 0, sizeof(*snap));
	if (!ifname || !ifname[0] || nd_ifname_valid(ifname) < 0)
		return -EINVAL;
	for (i = 0; i < ND_ARRAY_SIZE(if_counters); i++) {
		ssize_t n = nd_sysroot_readf(root, buf, sizeof(buf),
					     "/sys/class/net/%s/statistics/%s",
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


/*
 * queues.c - the "queues" probe source: sysfs /sys/class/net/IF/queues,
 * RPS (rx-N/rps_cpus, rps_flow_cnt) and XPS (tx-N/xps_cpus) per queue.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

/* Highest queue index + 1 of rx-N or tx-N entries; negative errno. */
static int count_queues(const struct nd_root *root, const char *dir, const char *prefix)
{
	unsigned numbers[ND_MAX_QUEUES];
	int found = nd_probe_list_numbered(root, dir, prefix, numbers, ND_MAX_QUEUES);

	if (found <= 0)
		return found;
	return numbers[found - 1] >= ND_MAX_QUEUES ? ND_MAX_QUEUES : (int)numbers[found - 1] + 1;
}

static int read_mask(const struct nd_root *root, const char *path, struct nd_cpuset *set)
{
	char text[512];
	int r = nd_sysroot_read_line(root, path, text, sizeof(text));

	if (r < 0)
		return r;
	return nd_cpuset_parse_mask(text, set);
}

static int read_rx_queue(const struct nd_root *root, const char *ifname, unsigned queue,
			 struct nd_queue_sysfs *q)
{
	char path[PATH_MAX];
	unsigned long long flows;
	int r;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-%u/rps_cpus", ifname, queue);
	r = read_mask(root, path, &q->rps_cpus[queue]);
	if (r < 0 && r != -ENOENT)
		return r;
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-%u/rps_flow_cnt", ifname, queue);
	if (nd_probe_read_unsigned(root, path, &flows) == 0)
		q->rps_flow_cnt[queue] = flows > UINT_MAX ? UINT_MAX : (unsigned)flows;
	return 0;
}

void nd_probe_queues(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_queue_sysfs *q = &facts->queues;
	char dir[PATH_MAX], path[PATH_MAX + 64];
	int rx, tx;

	memset(q, 0, sizeof(*q));
	snprintf(dir, sizeof(dir), "/sys/class/net/%s/queues", ifname);
	rx = count_queues(root, dir, "rx-");
	tx = count_queues(root, dir, "tx-");
	if (rx < 0 || tx < 0) {
		nd_probe_read_reason(q->st.reason, sizeof(q->st.reason), dir, rx < 0 ? rx : tx);
		q->st.known = false;
		return;
	}
	q->n_rx = (unsigned)rx;
	q->n_tx = (unsigned)tx;
	for (unsigned i = 0; i < q->n_rx; i++) {
		int r = read_rx_queue(root, ifname, i, q);

		if (r < 0) {
			snprintf(path, sizeof(path), "%s/rx-%u/rps_cpus", dir, i);
			nd_probe_read_reason(q->st.reason, sizeof(q->st.reason), path, r);
			q->st.known = false;
			return;
		}
	}
	/* xps_cpus is absent or EINVAL on single-queue devices: per queue optional. */
	for (unsigned i = 0; i < q->n_tx; i++) {
		snprintf(path, sizeof(path), "%s/tx-%u/xps_cpus", dir, i);
		q->xps_known[i] = read_mask(root, path, &q->xps_cpus[i]) == 0;
	}
	nd_status_set_known(&q->st);
}

/*
 * queues_below_cpus.c - fewer RX queues than the CPUs that could take
 * them: RSS spreads flows over the queues only, so the other CPUs idle
 * while the queue CPUs saturate.  One queue is queues.single's finding.
 */
#include <stdio.h>

#include "checks.h"
#include "nic_common.h"
#include "virt_common.h"

/* Fewer queues than this share of the usable CPUs is a warning, more is
 * info: the rule ("warning when fewer than half"), because below
 * half at least every other core sits out of receive processing. */
#define QUEUES_WARN_SHARE 0.5

void nd_check_queues_below_cpus(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_channels *ch = &facts->channels;
	unsigned rx_queues, device_max, usable;
	bool virtio = nd_nic_is_virtio_net(facts);

	if (!nd_queue_counts(facts, f, &rx_queues))
		return;
	if (rx_queues == 1) {
		nd_finding_set(f, ND_SEV_OK, "one RX queue: see queues.single");
		return;
	}
	if (!ch->st.known)
		return nd_finding_unknown(f, "channels (device maximum)", ch->st.reason);
	device_max = ch->combined_max > ch->rx_max ? ch->combined_max : ch->rx_max;
	usable = device_max < facts->cpus.n_online ? device_max : facts->cpus.n_online;
	cJSON_AddNumberToObject(f->evidence, "device_max_queues", device_max);
	cJSON_AddNumberToObject(f->evidence, "usable_queues", usable);
	if (rx_queues >= usable) {
		nd_finding_set(f, ND_SEV_OK, "%u RX queues for %u usable (%s max %u, %u CPUs)%s",
			       rx_queues, usable, virtio ? "the host's" : "device", device_max,
			       facts->cpus.n_online, virtio && device_max < facts->cpus.n_online ?
			       ": see virt.virtio_queues" : "");
		return;
	}
	nd_finding_set(f, rx_queues < QUEUES_WARN_SHARE * usable ? ND_SEV_WARNING : ND_SEV_INFO,
		       "%u RX queues while %u could run (device max %u, %u CPUs): "
		       "%u CPUs take no receive work", rx_queues, usable, device_max,
		       facts->cpus.n_online, usable - rx_queues);
	nd_fix_rx_channels(facts, f, usable);
}

/*
 * queues_single.c - one RX queue on a multi-CPU host while the device
 * allows more: all receive work lands on one core (the field case: one
 * core at 100% softirq, 6-8 Gbit/s on 10GbE).
 */
#include <stdio.h>

#include "checks.h"
#include "nic_common.h"
#include "virt_common.h"
#include "nicdoctor/queues.h"

void nd_check_queues_single(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_channels *ch = &facts->channels;
	unsigned rx_queues, device_max, target;

	if (!nd_queue_counts(facts, f, &rx_queues))
		return;
	nd_chain_add_evidence(facts, f->evidence);
	if (rx_queues > 1 || facts->cpus.n_online <= 1) {
		nd_finding_set(f, ND_SEV_OK, "%u RX queue%s for %u online CPU%s", rx_queues,
			       rx_queues == 1 ? "" : "s", facts->cpus.n_online,
			       facts->cpus.n_online == 1 ? "" : "s");
		return;
	}
	if (!ch->st.known)
		return nd_finding_unknown(f, "channels (device maximum)", ch->st.reason);
	device_max = ch->combined_max > ch->rx_max ? ch->combined_max : ch->rx_max;
	cJSON_AddNumberToObject(f->evidence, "device_max_queues", device_max);
	if (device_max <= 1) {
		/* A virtio device's maximum is its host's setting, not hardware. */
		nd_finding_set(f, ND_SEV_OK, nd_nic_is_virtio_net(facts) ?
			       "one RX queue: the host offers no more (see virt.virtio_queues)" :
			       "one RX queue, and the device has no more");
		return;
	}
	target = device_max < facts->cpus.n_online ? device_max : facts->cpus.n_online;
	nd_finding_set(f, ND_SEV_WARNING,
		       "one RX queue of %u possible on a %u-CPU host: one core takes all receive work",
		       device_max, facts->cpus.n_online);
	nd_fix_rx_channels(facts, f, target);
}

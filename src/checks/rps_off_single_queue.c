/*
 * rps_off_single_queue.c - one RX queue and an empty RPS mask on a
 * multi-CPU host: the CPU taking the queue's interrupt also runs the whole
 * protocol stack for every packet.  RPS spreads that work (see the kernel's
 * Documentation/networking/scaling.rst).
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"
#include "nicdoctor/queues.h"

void nd_check_rps_off_single_queue(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_queue_sysfs *q = &facts->queues;
	char list[256], mask[300];

	if (!q->st.known)
		return nd_finding_unknown(f, "rx queue RPS masks", q->st.reason);
	if (!facts->cpus.st.known)
		return nd_finding_unknown(f, "online CPUs", facts->cpus.st.reason);
	cJSON_AddNumberToObject(f->evidence, "rx_queues", q->n_rx);
	cJSON_AddNumberToObject(f->evidence, "cpus_online", facts->cpus.n_online);
	nd_chain_add_evidence(facts, f->evidence);
	if (q->n_rx != 1 || facts->cpus.n_online <= 1) {
		nd_finding_set(f, ND_SEV_OK, "%u RX queues on %u CPUs: RPS not needed", q->n_rx,
			       facts->cpus.n_online);
		return;
	}
	nd_cpuset_format_list(&q->rps_cpus[0], list, sizeof(list));
	cJSON_AddStringToObject(f->evidence, "rx-0_rps_cpus", list[0] ? list : "(none)");
	if (!nd_cpuset_empty(&q->rps_cpus[0])) {
		nd_finding_set(f, ND_SEV_OK, "one RX queue, RPS spreads it over CPUs %s", list);
		return;
	}
	nd_finding_set(f, ND_SEV_WARNING,
		       "one RX queue and RPS off: one of %u CPUs does all receive processing",
		       facts->cpus.n_online);
	nd_rps_mask(facts, mask, sizeof(mask));
	nd_finding_fix(f, "rps", "echo %s > /sys/class/net/%s/queues/rx-0/rps_cpus", mask,
		       facts->ifname);
}

/*
 * virt_virtio_queues.c - a virtio-net guest whose host offers fewer queue
 * pairs than the guest has vCPUs.  The device's maximum (ethtool -l
 * "Combined" under pre-set maximums) is the host's max_queue_pairs
 * (virtio spec 5.1.4), set by the VM's configuration: without it the
 * guest cannot spread receive work over queues, however it is tuned.
 * The linux-kvm.org multiqueue guide (and libvirt's formatdomain) size it
 * at the vCPU count; a guest spread over up to 8 queues covers most of
 * the gain, so fewer than min(vCPUs, 8) is a warning, fewer than the
 * vCPUs beyond that info.  Until the host changes, RPS spreads the work
 * in the guest.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nic_common.h"
#include "virt_common.h"

#define VIRTIO_QUEUES_WARN_CAP 8

static void add_fix(const struct nd_facts *facts, unsigned want, struct nd_finding *f)
{
	const char *mac = facts->link.st.known && facts->link.mac[0] ? facts->link.mac : "MAC";
	const struct nd_queue_sysfs *q = &facts->queues;
	char mask[300];

	nd_finding_fix(f, "virt_queues", "# on the host, libvirt: virsh edit DOMAIN, in this "
		       "<interface> add <driver name='vhost' queues='%u'/>, then restart the "
		       "guest", want);
	nd_finding_fix(f, "virt_queues", "# Proxmox: qm set VMID --net0 virtio=%s,bridge=vmbr0,"
		       "queues=%u", mac, want);
	nd_finding_fix(f, "virt_queues", "# plain QEMU: -netdev tap,...,queues=%u -device "
		       "virtio-net-pci,mq=on,vectors=%u", want, 2 * want + 2);
	nd_finding_fix(f, "virt_queues", "# then in the guest: ethtool -L %s combined %u",
		       facts->ifname, want);
	/* Meanwhile RPS spreads the one queue's protocol work (rps.off_single_queue). */
	if (q->st.known && facts->channels.combined <= 1 && q->n_rx == 1 &&
	    nd_cpuset_empty(&q->rps_cpus[0])) {
		nd_rps_mask(facts, mask, sizeof(mask));
		nd_finding_fix(f, "virt_queues", "echo %s > /sys/class/net/%s/queues/rx-0/rps_cpus",
			       mask, facts->ifname);
	}
}

void nd_check_virt_virtio_queues(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_channels *ch = &facts->channels;
	unsigned host_max, vcpus, want, warn_below;

	if (!nd_nic_is_virtio_net(facts)) {
		nd_finding_not_applicable(f, "not a virtio-net device");
		return;
	}
	if (!ch->st.known)
		return nd_finding_unknown(f, "channels (the host's queue pairs)", ch->st.reason);
	if (!facts->cpus.st.known)
		return nd_finding_unknown(f, "online CPUs", facts->cpus.st.reason);
	host_max = ch->combined_max;
	vcpus = facts->cpus.n_online;
	want = vcpus;
	warn_below = vcpus < VIRTIO_QUEUES_WARN_CAP ? vcpus : VIRTIO_QUEUES_WARN_CAP;
	cJSON_AddNumberToObject(f->evidence, "host_queue_pairs", host_max);
	cJSON_AddNumberToObject(f->evidence, "queue_pairs_in_use", ch->combined);
	cJSON_AddNumberToObject(f->evidence, "vcpus", vcpus);
	cJSON_AddNumberToObject(f->evidence, "warn_below", warn_below);
	if (host_max >= vcpus) {
		nd_finding_set(f, ND_SEV_OK, "the host offers %u queue pair%s for %u vCPU%s",
			       host_max, host_max == 1 ? "" : "s", vcpus, vcpus == 1 ? "" : "s");
		return;
	}
	nd_finding_set(f, host_max < warn_below ? ND_SEV_WARNING : ND_SEV_INFO,
		       "the host offers %u virtio queue pair%s to %u vCPUs: %s", host_max,
		       host_max == 1 ? "" : "s", vcpus, host_max == 1 ?
		       "one vCPU takes all receive work, whatever the guest sets" :
		       "the guest cannot spread receive work wider");
	add_fix(facts, want, f);
}

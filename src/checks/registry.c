/*
 * registry.c - the one table of checks.  Order is report order; IDs are
 * public interface (nicdoctor(8)) and never renamed.
 */
#include "nicdoctor/check.h"
#include "nicdoctor/common.h"
#include "checks.h"

const struct nd_check nd_checks[] = {
	{ "link.down", "no carrier: nothing can pass", nd_check_link_down },
	{ "link.speed_below_max", "link negotiated below the best speed both ends can do",
	  nd_check_link_speed_below_max },
	{ "link.half_duplex", "link runs half duplex (usually a duplex mismatch)",
	  nd_check_link_half_duplex },
	{ "link.phy_errors", "CRC/FCS, alignment, symbol errors or a flapping carrier (cable, "
	  "optic, port)", nd_check_link_phy_errors },
	{ "pcie.link_downgraded", "PCIe link trained below the card's capability (LnkSta < LnkCap)",
	  nd_check_pcie_link_downgraded },
	{ "pcie.slot_too_slow", "the card's PCIe capability or a bridge above it cannot carry "
	  "all ports at line rate", nd_check_pcie_slot_too_slow },
	{ "pcie.aspm_latency", "ASPM L1/L0s on the NIC's PCIe path wakes slower than the NIC "
	  "accepts", nd_check_pcie_aspm_latency },
	{ "mtu.jumbo_possible", "what jumbo frames would raise the goodput ceiling to (info)",
	  nd_check_mtu_jumbo_possible },
	{ "mtu.stack_mismatch", "a stacked device's MTU plus its headers does not fit its "
	  "lower's MTU (fragments or drops)", nd_check_mtu_stack_mismatch },
	{ "queues.single", "one RX queue on a multi-CPU host while the device allows more",
	  nd_check_queues_single },
	{ "queues.below_cpus", "fewer RX queues than the CPUs and the device allow",
	  nd_check_queues_below_cpus },
	{ "rss.indirection_uneven", "RSS indirection table leaves queues out or is strongly uneven",
	  nd_check_rss_indirection_uneven },
	{ "rss.flows_on_one_queue", "one queue carries nearly all packets or queue interrupts "
	  "(RSS, RPS)", nd_check_rss_flows_on_one_queue },
	{ "rps.off_single_queue", "one RX queue and no RPS: one CPU does all receive work",
	  nd_check_rps_off_single_queue },
	{ "irq.concentrated", "the NIC's firing queue vectors all served by one CPU",
	  nd_check_irq_concentrated },
	{ "irq.remote_numa", "queue interrupts served by CPUs of another NUMA node than the NIC's",
	  nd_check_irq_remote_numa },
	{ "irqbalance.fighting", "irqbalance runs and rewrites queue IRQ affinity unless banned "
	  "(info)", nd_check_irqbalance_fighting },
	{ "offload.disabled", "TSO, GSO, GRO, checksum or scatter-gather offload off though "
	  "the device can do it", nd_check_offload_disabled },
	{ "coalesce.off", "RX interrupt coalescing off: one interrupt per frame (info)",
	  nd_check_coalesce_off },
	{ "sysctl.rmem_max_low", "receive buffer sysctls allow a TCP window below line rate "
	  "at a LAN round trip", nd_check_sysctl_rmem_max_low },
	{ "sysctl.wmem_max_low", "send buffer sysctls allow too little in flight for line rate "
	  "at a LAN round trip", nd_check_sysctl_wmem_max_low },
	{ "sysctl.backlog_low", "backlog drops counted while netdev_max_backlog is at its "
	  "default of 1000", nd_check_sysctl_backlog_low },
	{ "softnet.dropped", "packets dropped because a CPU's input backlog was full "
	  "(softnet_stat)", nd_check_softnet_dropped },
	{ "softnet.squeezed", "receive softirq ran out of netdev_budget often on some CPU "
	  "(time_squeeze)", nd_check_softnet_squeezed },
	{ "nic.rx_dropped", "the interface counts received packets dropped or missed "
	  "(RX ring full)", nd_check_nic_rx_dropped },
	{ "ring.small", "RX ring well below its maximum while the NIC counts drops",
	  nd_check_ring_small },
	{ "pause.mismatch", "Ethernet flow control off or one way only (info)",
	  nd_check_pause_mismatch },
	{ "qdisc.rate_limit", "a tbf/htb shaper on the interface caps it below the wire speed",
	  nd_check_qdisc_rate_limit },
	{ "cpu.governor_powersave", "a power-saving cpufreq governor on the CPUs serving "
	  "the NIC", nd_check_cpu_governor_powersave },
	{ "tool.iperf3_single_threaded", "iperf3 before 3.16 runs all -P streams on one core "
	  "(info unless a run confirms)", nd_check_tool_iperf3_single_threaded },
	{ "path.asymmetric", "forward and reverse runs differ by more than 20% (traffic "
	  "only)", nd_check_path_asymmetric },
	/* guests: not applicable on a physical NIC */
	{ "virt.emulated_nic", "an emulated NIC (e1000, rtl8139, pcnet...) in a VM where a "
	  "paravirtual one would do", nd_check_virt_emulated_nic },
	{ "virt.virtio_queues", "a virtio-net guest offered fewer queue pairs by its host than "
	  "it has vCPUs", nd_check_virt_virtio_queues },
	{ "cloud.ena_allowance", "an AWS instance's bandwidth, PPS, conntrack or link-local "
	  "allowance exceeded (ENA counters)", nd_check_cloud_ena_allowance },
	/* bonds: ok "not a bond" on every other interface */
	{ "bond.member_down", "bond members without link: the bond runs on fewer (or none)",
	  nd_check_bond_member_down },
	{ "bond.speed_mismatch", "bond members up at different speeds (802.3ad leaves the "
	  "slower ones out)", nd_check_bond_speed_mismatch },
	{ "bond.hash_layer2", "balance-xor/802.3ad hash by MAC or IP: one peer's traffic on one "
	  "member", nd_check_bond_hash_layer2 },
	{ "bond.lacp_no_partner", "802.3ad bond without an LACP partner or active aggregator",
	  nd_check_bond_lacp_no_partner },
	{ "bond.aggregator_split", "802.3ad members in different aggregators: some unused",
	  nd_check_bond_aggregator_split },
	{ "bond.active_backup_capacity", "active-backup: one member carries everything by "
	  "design (info)", nd_check_bond_active_backup_capacity },
	{ "bond.flows_on_one_member", "during the traffic runs one member sent nearly all the "
	  "bond's bytes", nd_check_bond_flows_on_one_member },
};

const unsigned nd_checks_count = ND_ARRAY_SIZE(nd_checks);

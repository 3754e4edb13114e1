/*
 * checks.h - the check functions, one per file in checks/, for registry.c.
 */
#ifndef NICDOCTOR_CHECKS_H
#define NICDOCTOR_CHECKS_H

#include "nicdoctor/check.h"

void nd_check_pcie_link_downgraded(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_queues_single(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_rps_off_single_queue(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_irq_concentrated(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_link_down(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_link_speed_below_max(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_link_half_duplex(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_link_phy_errors(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_pcie_slot_too_slow(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_pcie_aspm_latency(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_mtu_jumbo_possible(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_mtu_stack_mismatch(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_queues_below_cpus(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_rss_indirection_uneven(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_rss_flows_on_one_queue(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_irq_remote_numa(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_irqbalance_fighting(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_offload_disabled(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_ring_small(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_coalesce_off(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_pause_mismatch(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_sysctl_rmem_max_low(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_sysctl_wmem_max_low(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_sysctl_backlog_low(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_softnet_dropped(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_softnet_squeezed(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_nic_rx_dropped(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_qdisc_rate_limit(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_cpu_governor_powersave(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_tool_iperf3_single_threaded(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_path_asymmetric(const struct nd_facts *facts, struct nd_finding *f);

/* bonds (checks/bond_*.c) */
void nd_check_virt_emulated_nic(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_virt_virtio_queues(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_cloud_ena_allowance(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_member_down(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_speed_mismatch(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_hash_layer2(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_lacp_no_partner(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_aggregator_split(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_active_backup_capacity(const struct nd_facts *facts, struct nd_finding *f);
void nd_check_bond_flows_on_one_member(const struct nd_facts *facts, struct nd_finding *f);

#endif

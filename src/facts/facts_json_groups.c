/*
 * facts_json_groups.c - which member of struct nd_facts becomes which JSON
 * key.  Pure tables read by the engine in facts_json.c; JSON keys are the
 * C member names so the JSON and facts.h cannot drift apart silently.
 */
#include <stddef.h>

#include "nicdoctor/facts.h"
#include "facts_json_internal.h"

#define S struct nd_link
/* The stats struct is anonymous: keys are its member names, offsets are
 * relative to struct nd_link (the "stats" field below sits at offset 0). */
#define STAT(m) \
	{ .key = #m, .type = ND_J_UINT, .off = offsetof(S, stats.m), \
	  .size = ND_J_MSIZE(S, stats.m), .count_off = ND_J_NO_COUNT }
static const struct nd_jfield link_stats_fields[] = {
	STAT(rx_bytes), STAT(tx_bytes), STAT(rx_packets), STAT(tx_packets),
	STAT(rx_errors), STAT(tx_errors), STAT(rx_dropped), STAT(tx_dropped),
	STAT(rx_missed), STAT(rx_fifo), STAT(rx_over),
	/* added with link.phy_errors: optional, so older snapshots still read */
	{ .key = "rx_crc", .type = ND_J_UINT, .off = offsetof(S, stats.rx_crc),
	  .size = ND_J_MSIZE(S, stats.rx_crc), .count_off = ND_J_NO_COUNT, .optional = true },
	{ .key = "rx_frame", .type = ND_J_UINT, .off = offsetof(S, stats.rx_frame),
	  .size = ND_J_MSIZE(S, stats.rx_frame), .count_off = ND_J_NO_COUNT, .optional = true },
	{ .key = "rx_phy_known", .type = ND_J_BOOL, .off = offsetof(S, stats.rx_phy_known),
	  .size = ND_J_MSIZE(S, stats.rx_phy_known), .count_off = ND_J_NO_COUNT,
	  .optional = true },
	{ .key = "carrier_changes", .type = ND_J_UINT, .off = offsetof(S, stats.carrier_changes),
	  .size = ND_J_MSIZE(S, stats.carrier_changes), .count_off = ND_J_NO_COUNT,
	  .optional = true },
	{ .key = "carrier_changes_known", .type = ND_J_BOOL,
	  .off = offsetof(S, stats.carrier_changes_known),
	  .size = ND_J_MSIZE(S, stats.carrier_changes_known), .count_off = ND_J_NO_COUNT,
	  .optional = true },
	ND_JF_END
};
#undef STAT

static const struct nd_jfield link_fields[] = {
	ND_JF_INT(S, ifindex),
	ND_JF_UINT(S, mtu), ND_JF_UINT(S, min_mtu), ND_JF_UINT(S, max_mtu),
	ND_JF_STR(S, operstate), ND_JF_BOOL(S, carrier),
	ND_JF_UINT(S, rx_queues), ND_JF_UINT(S, tx_queues),
	ND_JF_STR(S, qdisc), ND_JF_STR(S, mac),
	{ .key = "stats", .type = ND_J_SUB, .off = 0, .count_off = ND_J_NO_COUNT,
	  .sub = link_stats_fields },
	ND_JF_STATUS(S, stats_st),
	ND_JF_END
};
#undef S

#define S struct nd_qdisc
static const struct nd_jfield qdisc_fields[] = {
	ND_JF_STR(S, kind), ND_JF_UINT(S, rate_bps), ND_JF_END
};
#undef S

#define S struct nd_linkmodes
static const struct nd_jfield linkmodes_fields[] = {
	ND_JF_INT(S, speed_mbps), ND_JF_INT(S, duplex), ND_JF_BOOL(S, autoneg),
	ND_JF_ARR(S, supported, ND_J_ARR_STR, n_supported, NULL),
	ND_JF_ARR(S, advertised, ND_J_ARR_STR, n_advertised, NULL),
	ND_JF_ARR(S, lp_advertised, ND_J_ARR_STR, n_lp_advertised, NULL),
	ND_JF_STATUS(S, modes_st),
	ND_JF_END
};
#undef S

#define S struct nd_channels
static const struct nd_jfield channels_fields[] = {
	ND_JF_UINT(S, rx), ND_JF_UINT(S, rx_max), ND_JF_UINT(S, tx), ND_JF_UINT(S, tx_max),
	ND_JF_UINT(S, other), ND_JF_UINT(S, other_max),
	ND_JF_UINT(S, combined), ND_JF_UINT(S, combined_max),
	ND_JF_END
};
#undef S

#define S struct nd_feature
static const struct nd_jfield feature_fields[] = {
	ND_JF_STR(S, name), ND_JF_BOOL(S, active), ND_JF_BOOL(S, wanted), ND_JF_BOOL(S, fixed),
	ND_JF_END
};
#undef S

#define S struct nd_features
static const struct nd_jfield features_fields[] = {
	ND_JF_ARR(S, f, ND_J_ARR_OBJ, count, feature_fields), ND_JF_END
};
#undef S

#define S struct nd_rings
static const struct nd_jfield rings_fields[] = {
	ND_JF_UINT(S, rx), ND_JF_UINT(S, rx_max), ND_JF_UINT(S, rx_mini),
	ND_JF_UINT(S, rx_mini_max), ND_JF_UINT(S, rx_jumbo), ND_JF_UINT(S, rx_jumbo_max),
	ND_JF_UINT(S, tx), ND_JF_UINT(S, tx_max),
	ND_JF_END
};
#undef S

#define S struct nd_coalesce
static const struct nd_jfield coalesce_fields[] = {
	ND_JF_UINT(S, rx_usecs), ND_JF_UINT(S, rx_frames), ND_JF_UINT(S, tx_usecs),
	ND_JF_UINT(S, tx_frames), ND_JF_BOOL(S, adaptive_rx), ND_JF_BOOL(S, adaptive_tx),
	ND_JF_END
};
#undef S

#define S struct nd_pause
static const struct nd_jfield pause_fields[] = {
	ND_JF_BOOL(S, autoneg), ND_JF_BOOL(S, rx), ND_JF_BOOL(S, tx), ND_JF_END
};
#undef S

#define S struct nd_rss
static const struct nd_jfield rss_fields[] = {
	ND_JF_ARR(S, indir, ND_J_ARR_UINT, size, NULL), ND_JF_END
};
#undef S

#define S struct nd_stat
static const struct nd_jfield stat_fields[] = {
	ND_JF_STR(S, name), ND_JF_UINT(S, value), ND_JF_END
};
#undef S

#define S struct nd_nicstats
static const struct nd_jfield nicstats_fields[] = {
	ND_JF_ARR(S, s, ND_J_ARR_OBJ, count, stat_fields), ND_JF_END
};
#undef S

#define S struct nd_drvinfo
static const struct nd_jfield drvinfo_fields[] = {
	ND_JF_STR(S, driver), ND_JF_STR(S, version), ND_JF_STR(S, fw_version),
	ND_JF_STR(S, bus_info), ND_JF_END
};
#undef S

#define S struct nd_pcie_aspm
static const struct nd_jfield pcie_aspm_fields[] = {
	ND_JF_BOOL(S, known), ND_JF_BOOL(S, l0s_supported), ND_JF_BOOL(S, l1_supported),
	ND_JF_BOOL(S, l0s_enabled), ND_JF_BOOL(S, l1_enabled), ND_JF_UINT_MAX(S, l0s_exit_code, 7),
	ND_JF_UINT_MAX(S, l1_exit_code, 7), ND_JF_BOOL(S, acceptable_known),
	ND_JF_UINT_MAX(S, l0s_acceptable_code, 7), ND_JF_UINT_MAX(S, l1_acceptable_code, 7), ND_JF_END
};
#undef S

#define S struct nd_pcie_link
static const struct nd_jfield pcie_link_fields[] = {
	ND_JF_STR(S, address), ND_JF_UINT(S, vendor_id), ND_JF_UINT(S, device_id),
	ND_JF_STR(S, name), ND_JF_STR(S, port_type), ND_JF_BOOL(S, is_pcie),
	ND_JF_BOOL(S, link_known), ND_JF_STR(S, link_reason),
	ND_JF_DOUBLE(S, cap_gts), ND_JF_DOUBLE(S, sta_gts),
	ND_JF_UINT(S, cap_width), ND_JF_UINT(S, sta_width), ND_JF_DOUBLE(S, cap2_max_gts),
	ND_JF_UINT(S, mps_bytes), ND_JF_UINT(S, mps_cap_bytes), ND_JF_BOOL(S, from_sysfs),
	ND_JF_SUB(S, aspm, pcie_aspm_fields), ND_JF_BOOL(S, cap_from_sta),
	ND_JF_END
};
#undef S

#define S struct nd_pci
static const struct nd_jfield pci_fields[] = {
	ND_JF_BOOL(S, no_device), ND_JF_SUB(S, dev, pcie_link_fields), ND_JF_INT(S, numa_node),
	ND_JF_ARR(S, upstream, ND_J_ARR_OBJ, n_upstream, pcie_link_fields),
	ND_JF_ARR(S, siblings, ND_J_ARR_OBJ, n_siblings, pcie_link_fields),
	ND_JF_STR(S, kernel_said), ND_JF_STR(S, kernel_source), ND_JF_STR(S, kernel_disagrees),
	ND_JF_BOOL(S, link_from_log), ND_JF_UINT(S, kernel_need_gts),
	ND_JF_END
};
#undef S

/* The four queue arrays share two counts; each array's length sets its
 * count on read, so a hostile file with unequal lengths only leaves zeros. */
#define S struct nd_queue_sysfs
static const struct nd_jfield queues_fields[] = {
	ND_JF_ARR(S, rps_cpus, ND_J_ARR_CPUSET, n_rx, NULL),
	ND_JF_ARR(S, rps_flow_cnt, ND_J_ARR_UINT, n_rx, NULL),
	ND_JF_ARR(S, xps_cpus, ND_J_ARR_CPUSET, n_tx, NULL),
	ND_JF_ARR(S, xps_known, ND_J_ARR_BOOL, n_tx, NULL),
	ND_JF_END
};
#undef S

#define S struct nd_irq
static const struct nd_jfield irq_fields[] = {
	ND_JF_UINT(S, irq), ND_JF_STR(S, name), ND_JF_UINT(S, total),
	ND_JF_ARR_NC(S, per_cpu, ND_J_ARR_UINT),
	ND_JF_CPUSET(S, affinity), ND_JF_BOOL(S, affinity_known),
	ND_JF_CPUSET(S, effective), ND_JF_BOOL(S, effective_known),
	ND_JF_CPUSET(S, hint), ND_JF_BOOL(S, hint_known),
	ND_JF_END
};
#undef S

#define S struct nd_irqs
static const struct nd_jfield irqs_fields[] = {
	ND_JF_UINT_MAX(S, n_cpu_columns, ND_IRQ_MAX_CPUS), ND_JF_BOOL(S, column_cpu_known),
	ND_JF_ARR(S, column_cpu, ND_J_ARR_UINT, n_cpu_columns, NULL),
	ND_JF_ARR(S, irq, ND_J_ARR_OBJ, count, irq_fields),
	ND_JF_BOOL(S, irqbalance_running), ND_JF_BOOL(S, irqbalance_known),
	ND_JF_STR(S, list_source),
	ND_JF_END
};
#undef S

#define S struct nd_softnet_cpu
static const struct nd_jfield softnet_cpu_fields[] = {
	ND_JF_UINT(S, cpu), ND_JF_UINT(S, processed), ND_JF_UINT(S, dropped),
	ND_JF_UINT(S, time_squeeze), ND_JF_UINT(S, received_rps), ND_JF_UINT(S, flow_limit),
	ND_JF_UINT(S, backlog_len), ND_JF_UINT(S, columns),
	ND_JF_END
};
#undef S

#define S struct nd_softnet
static const struct nd_jfield softnet_fields[] = {
	ND_JF_ARR(S, cpu, ND_J_ARR_OBJ, count, softnet_cpu_fields), ND_JF_END
};
#undef S

#define S struct nd_sysctls
static const struct nd_jfield sysctl_fields[] = {
	ND_JF_SYSCTL(S, rmem_max), ND_JF_SYSCTL(S, wmem_max),
	ND_JF_SYSCTL(S, netdev_max_backlog), ND_JF_SYSCTL(S, netdev_budget),
	ND_JF_SYSCTL(S, rps_sock_flow_entries), ND_JF_SYSCTL(S, default_qdisc),
	ND_JF_SYSCTL(S, tcp_rmem), ND_JF_SYSCTL(S, tcp_wmem),
	ND_JF_SYSCTL(S, tcp_congestion_control),
	ND_JF_END
};
#undef S

#define S struct nd_cpus
static const struct nd_jfield cpus_fields[] = {
	ND_JF_CPUSET(S, online), ND_JF_UINT_MAX(S, n_online, ND_MAX_CPUS),
	ND_JF_BOOL(S, governor_known), ND_JF_ARR_NC(S, governor, ND_J_ARR_STR),
	ND_JF_STR(S, scaling_driver),
	ND_JF_ARR(S, node_cpus, ND_J_ARR_CPUSET, n_nodes, NULL),
	ND_JF_END
};
#undef S

#define S struct nd_virt
static const struct nd_jfield virt_fields[] = {
	ND_JF_STR(S, kind), ND_JF_STR(S, vendor), ND_JF_END
};
#undef S

#define S struct nd_tools
static const struct nd_jfield tools_fields[] = {
	ND_JF_STR(S, iperf3_version), ND_JF_INT(S, iperf3_major), ND_JF_INT(S, iperf3_minor),
	ND_JF_END
};
#undef S

/* The netdev family's queue table (and the fallbacks' counters), so that a
 * snapshot's diagnosis sees what the kernel said. */
#define S struct nd_queue_row
static const struct nd_jfield queue_row_fields[] = {
	ND_JF_UINT_MAX(S, kind, ND_QUEUE_TX), ND_JF_UINT_MAX(S, id, ND_MAX_QUEUES - 1),
	ND_JF_UINT(S, napi_id), ND_JF_INT(S, irq), ND_JF_INT(S, napi_pid),
	ND_JF_BOOL(S, counters_known), ND_JF_UINT(S, packets), ND_JF_UINT(S, bytes),
	ND_JF_BOOL(S, hw_drops_known), ND_JF_UINT(S, hw_drops),
	ND_JF_BOOL(S, alloc_fail_known), ND_JF_UINT(S, alloc_fail),
	ND_JF_BOOL(S, stop_known), ND_JF_UINT(S, tx_stop), ND_JF_UINT(S, tx_wake),
	ND_JF_STR(S, counter_source),
	ND_JF_END
};
#undef S

#define S struct nd_queue_table
static const struct nd_jfield queue_table_fields[] = {
	ND_JF_STR(S, list_source), ND_JF_STR(S, why_no_netdev),
	ND_JF_ARR(S, q, ND_J_ARR_OBJ, count, queue_row_fields),
	ND_JF_END
};
#undef S

#define S struct nd_facts
const struct nd_jfield nd_jfields_top[] = {
	ND_JF_STR(S, ifname), ND_JF_STR(S, hostname), ND_JF_STR(S, kernel),
	ND_JF_BOOL(S, sysroot), ND_JF_BOOL(S, as_root),
	ND_JF_END
};

#define GROUP(m, table) \
	{ #m, offsetof(S, m), sizeof(((S *)0)->m), offsetof(S, m.st), table }

const struct nd_jgroup nd_jgroups_netlink[] = {
	GROUP(link, link_fields),
	GROUP(qdisc, qdisc_fields),
	GROUP(linkmodes, linkmodes_fields),
	GROUP(channels, channels_fields),
	GROUP(features, features_fields),
	GROUP(rings, rings_fields),
	GROUP(coalesce, coalesce_fields),
	GROUP(pause, pause_fields),
	GROUP(rss, rss_fields),
	GROUP(nicstats, nicstats_fields),
	GROUP(drvinfo, drvinfo_fields),
	GROUP(queue_table, queue_table_fields),
};
const size_t nd_jgroups_netlink_count =
	sizeof(nd_jgroups_netlink) / sizeof(nd_jgroups_netlink[0]);

/* Groups read from sysfs/procfs and the host, only in the full facts. */
const struct nd_jgroup nd_jgroups_host[] = {
	GROUP(pci, pci_fields),
	GROUP(queues, queues_fields),
	GROUP(irqs, irqs_fields),
	GROUP(softnet, softnet_fields),
	{ "sysctl", offsetof(S, sysctl), sizeof(((S *)0)->sysctl), ND_J_NO_STATUS,
	  sysctl_fields },
	GROUP(cpus, cpus_fields),
	/* tools' status is the iperf3 one: there is only one tool so far. */
	{ "tools", offsetof(S, tools), sizeof(((S *)0)->tools), offsetof(S, tools.iperf3),
	  tools_fields },
	/* added with virt.emulated_nic: a file without it reads as unknown */
	GROUP(virt, virt_fields),
};
const size_t nd_jgroups_host_count = sizeof(nd_jgroups_host) / sizeof(nd_jgroups_host[0]);
#undef S

/*
 * facts.h - everything the probe learned about one interface and its host.
 *
 * Plain data, no pointers to OS state.  Every group is optional: a group's
 * `st` says whether it was read and, when not, why (DESIGN.md: "unknown is a
 * value with a reason, not a zero").  Checks read only this structure.
 */
#ifndef NICDOCTOR_FACTS_H
#define NICDOCTOR_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "nicdoctor/cpuset.h"

#define ND_IFNAMSIZ        16
#define ND_REASON_LEN     160
#define ND_MAX_QUEUES     256
#define ND_MAX_IRQS       256
#define ND_MAX_CPUS      1024
#define ND_IRQ_MAX_CPUS  ND_MAX_CPUS	/* every CPU a host may have gets its IRQ column */
#define ND_MAX_FEATURES   128
#define ND_MAX_LINKMODES  128
#define ND_MAX_STATS      512
#define ND_MAX_RSS_INDIR 2048
#define ND_MAX_PCI_CHAIN    8
#define ND_MAX_SIBLINGS    16

/* Whether a fact (or group of facts) is known, and if not, why. */
struct nd_status {
	bool known;
	char reason[ND_REASON_LEN];	/* set when !known: "no permission", ... */
	/* Where the group was read, for the evidence: "netlink",
	 * "ethtool/eth0.json", "/sys/class/net/eth0/speed",
	 * "sos_commands/networking/ethtool_-l_ens3"; "" not said. */
	char source[96];
};

/* The interface's 64-bit counters (rtnetlink), cumulative since it came up. */
struct nd_link_stats {
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets;
	uint64_t rx_errors, tx_errors, rx_dropped, tx_dropped;
	uint64_t rx_missed, rx_fifo, rx_over;
	/* Physical-layer receive errors: frames that failed the FCS (CRC) and
	 * misaligned frames (rtnetlink rx_crc_errors, rx_frame_errors). */
	uint64_t rx_crc, rx_frame;
	bool rx_phy_known;		/* rx_crc/rx_frame were read, not only zero */
	/* Times the carrier went up or down (IFLA_CARRIER_CHANGES, sysfs
	 * carrier_changes, ip's "transns"); known only where it was read. */
	uint64_t carrier_changes;
	bool carrier_changes_known;
};

/* rtnetlink (libnl-route) view of the link. */
struct nd_link {
	struct nd_status st;
	int ifindex;
	unsigned mtu, min_mtu, max_mtu;	/* max_mtu 0 when the kernel did not say */
	char operstate[16];		/* "up", "down", "unknown", ... */
	bool carrier;
	unsigned rx_queues, tx_queues;	/* allocated (IFLA_NUM_*_QUEUES), not in use */
	char qdisc[16];			/* root qdisc kind: "mq", "fq_codel", "tbf" */
	char mac[18];			/* aa:bb:cc:dd:ee:ff, redacted in reports */
	struct nd_link_stats stats;
	/* stats were read (rtnetlink, statistics/, ip -s link): without them
	 * the counters are 0, which is no "no drops". */
	struct nd_status stats_st;
};

/* A shaping qdisc on the interface (root or any child), with its rate. */
struct nd_qdisc {
	struct nd_status st;
	char kind[16];			/* "tbf", "htb": the lowest-rate shaper */
	uint64_t rate_bps;		/* 0: no shaper found */
};

/* ETHTOOL_MSG_LINKMODES_GET / LINKINFO_GET */
struct nd_linkmodes {
	struct nd_status st;
	int64_t speed_mbps;		/* -1 unknown (link down) */
	int duplex;			/* 0 half, 1 full, -1 unknown */
	bool autoneg;
	unsigned n_supported, n_advertised, n_lp_advertised;
	char supported[ND_MAX_LINKMODES][48];	/* "10000baseT/Full" */
	char advertised[ND_MAX_LINKMODES][48];
	char lp_advertised[ND_MAX_LINKMODES][48];
	/* The mode lists were read (netlink, ethtool's text): sysfs's speed
	 * file has none, and empty lists then say nothing of the driver. */
	struct nd_status modes_st;
};

/* ETHTOOL_MSG_CHANNELS_GET; a count the device does not have is 0/0. */
struct nd_channels {
	struct nd_status st;
	unsigned rx, rx_max, tx, tx_max, other, other_max, combined, combined_max;
};

struct nd_feature {
	char name[40];			/* "rx-gro", "tx-tcp-segmentation" */
	bool active, wanted, fixed;	/* fixed: cannot be changed */
};

/* ETHTOOL_MSG_FEATURES_GET */
struct nd_features {
	struct nd_status st;
	unsigned count;
	struct nd_feature f[ND_MAX_FEATURES];
};

/* ETHTOOL_MSG_RINGS_GET */
struct nd_rings {
	struct nd_status st;
	unsigned rx, rx_max, rx_mini, rx_mini_max, rx_jumbo, rx_jumbo_max, tx, tx_max;
};

/* ETHTOOL_MSG_COALESCE_GET */
struct nd_coalesce {
	struct nd_status st;
	unsigned rx_usecs, rx_frames, tx_usecs, tx_frames;
	bool adaptive_rx, adaptive_tx;
};

/* ETHTOOL_MSG_PAUSE_GET */
struct nd_pause {
	struct nd_status st;
	bool autoneg, rx, tx;
};

/* ETHTOOL_MSG_RSS_GET: indirection table (queue index per entry). */
struct nd_rss {
	struct nd_status st;
	unsigned size;
	uint32_t indir[ND_MAX_RSS_INDIR];
};

struct nd_stat {
	char name[48];
	uint64_t value;
};

/* ethtool -S (ETHTOOL_GSTATS ioctl: netlink has only standard groups). */
struct nd_nicstats {
	struct nd_status st;
	unsigned count;
	struct nd_stat s[ND_MAX_STATS];
};

/* ETHTOOL_GDRVINFO (ioctl: netlink lacks it) plus the sysfs driver link. */
struct nd_drvinfo {
	struct nd_status st;
	char driver[32], version[32], fw_version[64], bus_info[32];
};

/*
 * ASPM of one PCIe function, as the spec encodes it (PCIe r6.0 7.5.3.3,
 * 7.5.3.6, 7.5.3.7): LnkCap's supported states and exit latencies,
 * LnkCtl's enabled states, and DevCap's acceptable latencies (what an
 * endpoint tolerates on wake, through every link above it).  Codes 0-7:
 * L0s exit and acceptable 64 << code ns, L1 1000 << code ns; 7 is "more
 * than 4 us / 64 us" for an exit, "no limit" for an acceptable latency.
 */
struct nd_pcie_aspm {
	bool known;			/* LnkCap and LnkCtl read */
	bool l0s_supported, l1_supported;
	bool l0s_enabled, l1_enabled;
	unsigned l0s_exit_code, l1_exit_code;
	bool acceptable_known;		/* DevCap's latencies (endpoints only) */
	unsigned l0s_acceptable_code, l1_acceptable_code;
};

/* One PCIe function (the NIC or a bridge above it), from libpci. */
struct nd_pcie_link {
	char address[16];		/* "0000:09:00.0" */
	uint16_t vendor_id, device_id;
	char name[128];			/* "Intel Corporation 82599ES ..." */
	/* One of: "endpoint", "legacy_endpoint", "rc_endpoint", "root_port",
	 * "upstream", "downstream", "pcie_bridge", "pci_bridge",
	 * "rc_event_collector" (PCI_EXP_TYPE_*); "" when not PCIe. */
	char port_type[24];
	bool is_pcie;			/* has a PCI Express capability */
	bool link_known;		/* LnkCap/LnkSta could be read */
	char link_reason[ND_REASON_LEN];
	double cap_gts, sta_gts;	/* GT/s per lane; 0 unknown */
	unsigned cap_width, sta_width;	/* lanes */
	double cap2_max_gts;		/* highest speed in LnkCap2, 0 if absent */
	unsigned mps_bytes;		/* DevCtl max payload in use, 0 unknown */
	unsigned mps_cap_bytes;		/* DevCap max payload supported */
	bool from_sysfs;		/* current_link_* used: config space closed */
	struct nd_pcie_aspm aspm;
	/* LnkCap not recorded: a kernel log line (ixgbe's "(Speed:5.0GT/s,
	 * Width: x4") said the trained link only; cap_* repeat sta_*. */
	bool cap_from_sta;
};

struct nd_pci {
	struct nd_status st;		/* !known: virtual device, no PCI, ... */
	bool no_device;			/* virtual interface: there is no bus to judge */
	struct nd_pcie_link dev;
	int numa_node;			/* -1 none/unknown */
	unsigned n_upstream;		/* bridges towards the root port, nearest first */
	struct nd_pcie_link upstream[ND_MAX_PCI_CHAIN];
	unsigned n_siblings;		/* other functions of the same card */
	struct nd_pcie_link siblings[ND_MAX_SIBLINGS];
	/* The kernel's own verdict on the device's link, from a bundle's
	 * kernel log ("16.000 Gb/s available PCIe bandwidth, limited by ..."):
	 * its words, where ("sos_commands/kernel/dmesg line 78"), and what
	 * lspci or the config bytes say otherwise; "" none. */
	char kernel_said[200];
	char kernel_source[96];
	char kernel_disagrees[ND_REASON_LEN];
	/* dev's link is the kernel log's alone (no config bytes, no lspci):
	 * the link at boot, not read now. */
	bool link_from_log;
	unsigned kernel_need_gts;	/* the driver's "at least 20GT/s ... required", 0 unsaid */
};

/* Whether the host is a virtual machine and whose (probe/virt.c): the
 * first that answers of /sys/hypervisor/type, DMI sys_vendor and
 * product_name (or a bundle's dmidecode), the NIC's PCI subsystem IDs,
 * lscpu's "Hypervisor vendor" and the CPUID "hypervisor" flag. */
struct nd_virt {
	struct nd_status st;		/* known: decided; kind may be "none" */
	/* "none" (no sign of a hypervisor), "qemu" (QEMU/KVM), "vmware",
	 * "virtualbox", "hyperv", "xen", "aws", "gce", "unknown" (a
	 * hypervisor whose name nothing said). */
	char kind[16];
	char vendor[64];		/* the words it was told by: "QEMU", "VMware, Inc." */
};

/* sysfs queues/rx-N and tx-N. */
struct nd_queue_sysfs {
	struct nd_status st;
	unsigned n_rx, n_tx;
	struct nd_cpuset rps_cpus[ND_MAX_QUEUES];
	unsigned rps_flow_cnt[ND_MAX_QUEUES];
	struct nd_cpuset xps_cpus[ND_MAX_QUEUES];
	bool xps_known[ND_MAX_QUEUES];
};

struct nd_irq {
	unsigned irq;
	char name[64];			/* action name: "mlx5_comp0@pci:..." */
	uint64_t total;
	uint64_t per_cpu[ND_IRQ_MAX_CPUS];	/* counts by CPU column */
	struct nd_cpuset affinity;	/* smp_affinity_list */
	bool affinity_known;
	struct nd_cpuset effective;	/* effective_affinity_list */
	bool effective_known;
	struct nd_cpuset hint;		/* affinity_hint */
	bool hint_known;
};

/* The interface's interrupts: msi_irqs + /proc/interrupts + /proc/irq/N. */
struct nd_irqs {
	struct nd_status st;
	unsigned n_cpu_columns;
	bool column_cpu_known;		/* header named the CPU of each column */
	unsigned column_cpu[ND_IRQ_MAX_CPUS];	/* "CPU0 CPU1 CPU3": 0, 1, 3 */
	unsigned count;
	struct nd_irq irq[ND_MAX_IRQS];
	bool irqbalance_running;
	bool irqbalance_known;
	/* Where the IRQ numbers came from: "msi_irqs", "netdev" (the queues'
	 * napi-get IRQs), "irq names" (action names in /proc/interrupts). */
	char list_source[16];
};

struct nd_softnet_cpu {
	unsigned cpu;			/* column 12 when present, else row index */
	uint64_t processed, dropped, time_squeeze, received_rps, flow_limit;
	uint64_t backlog_len;
	unsigned columns;
};

struct nd_softnet {
	struct nd_status st;
	unsigned count;
	struct nd_softnet_cpu cpu[ND_MAX_CPUS];
};

/* A sysctl: known with its raw text, or unknown with why. */
struct nd_sysctl {
	bool known;
	char text[64];
	char reason[ND_REASON_LEN];
	/* Where it was read: "/proc/sys/net/core/rmem_max",
	 * "sos_commands/kernel/sysctl_-a"; "" not said. */
	char source[96];
};

struct nd_sysctls {
	struct nd_sysctl rmem_max, wmem_max, netdev_max_backlog, netdev_budget;
	struct nd_sysctl rps_sock_flow_entries, default_qdisc;
	struct nd_sysctl tcp_rmem, tcp_wmem, tcp_congestion_control;
};

struct nd_cpus {
	struct nd_status st;
	struct nd_cpuset online;
	unsigned n_online;
	bool governor_known;
	char governor[ND_MAX_CPUS][16];	/* "" where unknown for that CPU */
	char scaling_driver[32];	/* cpufreq driver of the first CPU: "intel_pstate", "" unknown */
	unsigned n_nodes;		/* NUMA nodes seen */
	struct nd_cpuset node_cpus[16];
};

struct nd_tools {
	struct nd_status iperf3;	/* known: found in PATH */
	char iperf3_version[32];	/* "3.12" */
	int iperf3_major, iperf3_minor;
};

/* /proc/uptime: how long the since-boot counters have been counting
 * (live, or the snapshot's when diagnosing one). */
struct nd_uptime {
	struct nd_status st;
	double seconds;
};

/* One read of every cumulative counter the rate checks judge. */
/* A set of IRQs' counts summed per /proc/interrupts CPU column: what a
 * second read of the interrupts keeps (watch, the counter window). */
struct nd_irq_sums {
	bool known;
	unsigned irqs;			/* how many of the wanted IRQs the file had */
	unsigned n_columns;
	unsigned column_cpu[ND_IRQ_MAX_CPUS];	/* the CPU of each column */
	uint64_t per_column[ND_IRQ_MAX_CPUS];
	/* Each IRQ's count summed over the columns, in the file's order: which
	 * queue's vector fired in a window, not only on which CPU. */
	unsigned irq_number[ND_MAX_IRQS];
	uint64_t per_irq[ND_MAX_IRQS];
};

struct nd_counter_sample {
	bool link_known;
	struct nd_link_stats link;
	struct nd_softnet softnet;	/* st.known when read */
	struct nd_nicstats nicstats;	/* st.known when read */
	struct nd_irq_sums queue_irqs;	/* the interface's queue IRQs */
};

/*
 * An observation window: the counters read at its start and its end.
 * The counter checks judge what grew in it (a rate), and use the
 * since-boot totals of the facts only as context.  Filled by diagnose:
 * a short sample of its own (--sample S), or the traffic runs.
 */
struct nd_counter_window {
	bool known;
	char reason[ND_REASON_LEN];	/* !known: why there is none */
	double seconds;			/* the window's length */
	char what[64];			/* "sample", "run peer plan": evidence.window.source */
	char label[64];			/* how a title says it: "the last 1 s", "the 3 runs" */
	struct nd_counter_sample before, after;
};

/* One member (slave) of a bond: netlink IFLA_BOND_SLAVE_*, else the
 * "Slave Interface:" block of /proc/net/bonding/BOND, else
 * the member's sysfs bonding_slave directory; speed and duplex from the block or
 * the member's own /sys (netlink's slave info has none). */
struct nd_bond_member {
	char name[ND_IFNAMSIZ];
	char mii_status[16];		/* "up", "down", "going down", "going back"; "" unknown */
	char state[8];			/* "active", "backup"; "" unknown */
	int64_t speed_mbps;		/* -1 unknown */
	int duplex;			/* 0 half, 1 full, -1 unknown */
	int64_t link_failure_count;	/* -1 unknown */
	char perm_hwaddr[18];
	int queue_id;			/* -1 unknown */
	int aggregator_id;		/* 802.3ad; -1 unknown or N/A */
	int actor_port_state;		/* LACP_STATE_* bits; -1 unknown */
	int partner_port_state;
	char partner_system_mac[18];	/* the partner's LACPDU; "" unknown */
	bool churned;			/* actor or partner churn state "churned" */
	bool window_known;		/* counters grew over the traffic runs */
	uint64_t window_tx_bytes, window_rx_bytes;
	uint64_t tx_bytes_start, rx_bytes_start;	/* the window's first read */
	bool window_packets_known;	/* tx_packets/rx_packets read too */
	uint64_t window_tx_packets, window_rx_packets;
	uint64_t tx_packets_start, rx_packets_start;
};

#define ND_MAX_BOND_MEMBERS 32

/* A bonding master.  st.known: the interface is a bond and was read;
 * is_bond false with st.reason "not a bond" for every other interface. */
struct nd_bond {
	struct nd_status st;
	bool is_bond;
	char source[32];		/* "netlink", "/proc/net/bonding", "sysfs" */
	char mode[16];			/* the kernel's short name: "802.3ad", "active-backup", ... */
	char xmit_hash_policy[16];	/* "layer2", "layer3+4", ...; "" not reported */
	int miimon_ms, arp_interval_ms;	/* -1 unknown */
	char active_slave[ND_IFNAMSIZ];	/* "" none or unknown */
	char lacp_rate[8];		/* "slow", "fast"; "" unknown */
	bool ad_info_known;		/* the active aggregator was shown (root on new kernels) */
	bool ad_no_active_aggregator;	/* "bond X has no active aggregator" */
	int ad_aggregator_id, ad_num_ports, ad_actor_key, ad_partner_key;
	char ad_partner_mac[18];
	unsigned n_members;
	struct nd_bond_member members[ND_MAX_BOND_MEMBERS];
	bool window_known;		/* members' counters read over the traffic runs */
	double window_seconds;
	/* A team device (the team driver; its runner lives in teamd): mode
	 * and xmit_hash_policy are the bond names the runner and tx_hash
	 * mean, so the bond checks judge it; mode "" when teamd's state was
	 * not there (team_reason says why). */
	bool is_team;
	char team_runner[16];		/* runner.name: "lacp", "loadbalance", ...; "" unknown */
	char team_tx_hash[64];		/* runner.tx_hash joined: "eth,ipv4,ipv6"; "" unknown */
	bool team_tx_hash_default;	/* the config named none: teamd's default */
	char team_reason[ND_REASON_LEN];	/* why the runner or tx_hash is unknown */
};

/*
 * A stacked device (bridge, VLAN, macvlan, vxlan, ...) and the devices
 * under it: /sys/class/net/IF/lower_* (the kernel's adjacency lists, which
 * bridges, VLANs, macvlan/macvtap/ipvlan, vxlan/geneve with a `dev`,
 * bonds and teams all keep), the kind from uevent's DEVTYPE or the
 * driver, or a record's `ip -d link` text.  st.known with kind "" for a
 * device that is not stacked (a NIC).  The wire fields are derived by
 * the diagnosis from the lowers' own facts (src/diagnose/stack.c).
 */
#define ND_MAX_LOWERS 16
#define ND_STACK_MAX_DEPTH 8

struct nd_stack {
	struct nd_status st;
	char kind[16];			/* "bridge", "vlan", "macvlan", "vxlan", "bond", "veth", ... */
	unsigned n_lowers;
	char lowers[ND_MAX_LOWERS][ND_IFNAMSIZ];
	int vlan_id;			/* -1 unknown or not a VLAN */
	bool underlay_ipv6;		/* a vxlan/geneve remote or group over IPv6 */
	char underlay_dev[ND_IFNAMSIZ];	/* vxlan/geneve `dev` (also a lower) */
	char remote[48];		/* a tunnel's remote address; "" none or unknown */
	/* Derived: the physical lower a frame leaves by, its speed and MTU,
	 * and the bytes the stack adds to each frame on the way down. */
	bool wire_known;
	char via[ND_IFNAMSIZ];
	int64_t via_speed_mbps;		/* -1 unknown */
	unsigned via_mtu;		/* 0 unknown */
	unsigned encap_bytes;		/* on the wire: every header, a VLAN tag too */
	unsigned mtu_overhead;		/* what the lower's MTU must hold more (no tag) */
	char via_path[128];		/* "br0 -> vx0 -> eth0": the lowers walked */
};

/* src/facts/stack.c */
/* Bytes a stacked device adds to each frame on its lower (the issue's
 * "ceilings through the stack"): an 802.1Q tag 4; VXLAN and Geneve (no
 * options) the inner Ethernet header 14 + UDP 8 + their own 8 + the outer
 * IP header, 20 over IPv4 (50) or 40 over IPv6 (70); GRE 4 + outer IP
 * (gretap: + the inner Ethernet 14).  0 for a kind that adds nothing
 * (bridge, macvlan, macvtap, ipvlan, bond, team) or that is unknown. */
#define ND_ENCAP_VLAN 4
#define ND_ENCAP_VXLAN_IPV4 50
#define ND_ENCAP_VXLAN_IPV6 70
unsigned nd_stack_encap_bytes(const char *kind, bool ipv6);

/* Whether the kind is a device of the kernel's own (no wire, no speed
 * of its own that bounds anything): every stacked kind, veth, tun/tap. */
bool nd_stack_kind_virtual(const char *kind);

/* A stacked upper (bridge, VLAN, macvlan, macvtap, ipvlan, vxlan, geneve,
 * GRE): no wire, queues, interrupts or PHY of its own; its lowers are
 * judged for those.  Bonds, teams, veth and tun/tap keep their own. */
bool nd_stack_is_upper(const struct nd_stack *s);

/*
 * The interface's queues as the kernel's netdev netlink family sees them
 * (queue-get, napi-get, qstats-get scope queue), with per-queue counters
 * filled from fallbacks where the kernel gave none: the driver's ethtool -S
 * names (src/probe/queue_stats.c) or an mq root qdisc's classes.  Each row
 * says where its IRQ and counters came from.
 */
#define ND_MAX_QUEUE_ROWS (2 * ND_MAX_QUEUES)
#define ND_QUEUE_RX 0			/* NETDEV_QUEUE_TYPE_RX */
#define ND_QUEUE_TX 1			/* NETDEV_QUEUE_TYPE_TX */

struct nd_queue_row {
	unsigned kind;			/* ND_QUEUE_RX or ND_QUEUE_TX */
	unsigned id;
	unsigned napi_id;		/* 0: none given */
	int irq;			/* -1: none given */
	int napi_pid;			/* threaded NAPI poller thread, -1 none */
	bool counters_known;
	uint64_t packets, bytes;
	bool hw_drops_known;		/* rx-hw-drops / tx-hw-drops */
	uint64_t hw_drops;
	bool alloc_fail_known;		/* rx-alloc-fail */
	uint64_t alloc_fail;
	bool stop_known;		/* tx-stop, tx-wake */
	uint64_t tx_stop, tx_wake;
	char counter_source[24];	/* "netdev", "ethtool -S", "mq class", "" none */
};

struct nd_queue_table {
	struct nd_status st;		/* known: the queue list was read */
	char list_source[16];		/* "netdev", "sysfs", "ethtool -S" */
	char why_no_netdev[ND_REASON_LEN];	/* why the family did not answer, "" it did */
	unsigned count;
	struct nd_queue_row q[ND_MAX_QUEUE_ROWS];
};

struct nd_facts {
	char ifname[ND_IFNAMSIZ];
	char hostname[64];
	char kernel[64];
	bool sysroot;			/* gathered from a snapshot, not live */
	/* What the sysroot was, for the header: "" live, else "a snapshot",
	 * "a sosreport (sos 4.2) of web1 taken Mon Jan  8 ...". */
	char origin[192];
	bool as_root;
	struct nd_link link;
	struct nd_qdisc qdisc;
	struct nd_linkmodes linkmodes;
	struct nd_channels channels;
	struct nd_features features;
	struct nd_rings rings;
	struct nd_coalesce coalesce;
	struct nd_pause pause;
	struct nd_rss rss;
	struct nd_nicstats nicstats;
	struct nd_drvinfo drvinfo;
	struct nd_pci pci;
	struct nd_queue_sysfs queues;
	struct nd_irqs irqs;
	struct nd_softnet softnet;
	struct nd_sysctls sysctl;
	struct nd_cpus cpus;
	struct nd_tools tools;
	struct nd_uptime uptime;
	struct nd_counter_window window;	/* !known unless diagnose measured one */
	struct nd_bond bond;		/* bonding master: mode, policy, members */
	struct nd_queue_table queue_table;	/* netdev family + per-queue fallbacks */
	struct nd_virt virt;		/* the host is a VM: whose */
	struct nd_stack stack;		/* a stacked device's kind and lowers */
};

/* Free what nd_probe (src/sources/probe.c) or a fix's read allocated. */
void nd_facts_free(struct nd_facts *facts);

void nd_status_set_known(struct nd_status *st);
void nd_status_set_unknown(struct nd_status *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Find a feature by its ethtool name; NULL when absent or features unknown. */
const struct nd_feature *nd_facts_feature(const struct nd_facts *facts, const char *name);

/* feature_deps.c: what the kernel needs on before it turns a feature on
 * (netdev_fix_features).  A dependency is met when any of any_of is active. */
#define ND_FEATURE_MAX_DEPS 2
#define ND_FEATURE_DEP_ALTS 3
struct nd_feature_dep {
	const char *label;		/* "scatter-gather" */
	const char *keyword;		/* ethtool -K word that switches it: "sg" */
	const char *any_of[ND_FEATURE_DEP_ALTS];	/* kernel feature names */
};
enum nd_dep_state { ND_DEP_MET, ND_DEP_OFF, ND_DEP_FIXED_OFF, ND_DEP_UNKNOWN };
/* The index-th dependency of feature (kernel name), NULL after the last. */
const struct nd_feature_dep *nd_feature_dep(const char *feature, unsigned index);
/* *ret_blocker (may be NULL): the feature of the group to switch on (a
 * changeable one), or its first when all are fixed; untouched when met. */
enum nd_dep_state nd_feature_dep_state(const struct nd_facts *facts,
				       const struct nd_feature_dep *dep,
				       const struct nd_feature **ret_blocker);
/* Whether a dependency keeps feature off: ND_DEP_FIXED_OFF (the hardware:
 * it can never come on) before ND_DEP_OFF (switch *ret_dep on first);
 * ND_DEP_MET when none does.  Outputs untouched when ND_DEP_MET. */
enum nd_dep_state nd_feature_blocked(const struct nd_facts *facts, const char *feature,
				     const struct nd_feature_dep **ret_dep,
				     const struct nd_feature **ret_blocker);

/* Number of RX queues actually in use: channels (ethtool -l), else the
 * sysfs rx-N directories, else rtnetlink's allocated count when it is 1,
 * else the receive IRQs named for the interface (no more than allocated);
 * 0 unknown. */
unsigned nd_facts_rx_queues(const struct nd_facts *facts);
/* The same count, with where it came from in buf ("ethtool -l: FILE",
 * "4 receive IRQs named for eth0 in /proc/interrupts ..."), or why it is
 * unknown when 0. */
unsigned nd_facts_rx_queues_source(const struct nd_facts *facts, char *buf, size_t size);

/* derive.c: readings the checks, fixes and watch share. */
/* Whether an IRQ carries queue traffic (not config, async, admin...). */
bool nd_irq_is_queue(const struct nd_irq *irq);
/* The netdev_max_backlog to suggest for this link; current 0 when unknown. */
uint64_t nd_softnet_backlog_suggest(const struct nd_facts *facts, uint64_t current);

#endif

/*
 * parse_text.h - parsers for command output as found in support bundles
 * (sosreport, supportconfig) and pasted into tickets: ethtool per option,
 * lspci -vv, ip -s -d link, tc -s qdisc, sysctl -a, lscpu, and the
 * supportconfig section format.
 *
 * All are pure: they take (text, len), never read past len, need no NUL,
 * and accept CRLF, a missing final newline, truncation and leading stderr
 * lines.  They fill the fact groups of facts.h.  Return codes:
 *   0            parsed; the group's st is known
 *   -EOPNOTSUPP  the text says the device does not support it; st unknown
 *                with "not supported by the driver (ethtool -l said: ...)"
 *   -EIO         the command failed for another reason (quoted in st)
 *   -EINVAL      no such output in the text; st unknown saying so
 *   -ENOENT      (lookups) the interface, device, key or section is absent
 * On every return the output group has been reset and its st set.
 */
#ifndef NICDOCTOR_PARSE_TEXT_H
#define NICDOCTOR_PARSE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/facts.h"

/* ---- ethtool, one parser per option (src/parse/ethtool_text*.c) ---- */

/* `ethtool IF`; *ret_carrier (may be NULL) is 1/0 from "Link detected",
 * -1 when the text does not say.  Link modes and speed may be unknown
 * (-EOPNOTSUPP) while the carrier is known. */
int nd_parse_ethtool_settings(const char *text, size_t len, struct nd_linkmodes *out,
			      int *ret_carrier);
int nd_parse_ethtool_drvinfo(const char *text, size_t len, struct nd_drvinfo *out);	/* -i */
int nd_parse_ethtool_channels(const char *text, size_t len, struct nd_channels *out);	/* -l */
int nd_parse_ethtool_rings(const char *text, size_t len, struct nd_rings *out);	/* -g */
/* -k; ethtool's legacy names ("generic-receive-offload") become the
 * kernel's ("rx-gro"), the names the netlink probe stores. */
int nd_parse_ethtool_features(const char *text, size_t len, struct nd_features *out);
int nd_parse_ethtool_coalesce(const char *text, size_t len, struct nd_coalesce *out);	/* -c */
int nd_parse_ethtool_pause(const char *text, size_t len, struct nd_pause *out);	/* -a */
int nd_parse_ethtool_stats(const char *text, size_t len, struct nd_nicstats *out);	/* -S */

/* ---- lspci -vv / -vvv / -nnvv / -vvxxx (src/parse/lspci_text.c) ---- */

/* One device's lines, from its "BB:DD.F ..." header to the next header. */
struct nd_lspci_block {
	const char *text;
	size_t len;
	char address[16];		/* normalised "0000:08:00.0" */
};

/* Iterate devices: *pos starts at 0.  0, or -ENOENT after the last. */
int nd_lspci_next(const char *text, size_t len, size_t *pos, struct nd_lspci_block *ret);
/* The device at `address` ("08:00.0" or "0000:08:00.0").  0 or -ENOENT. */
int nd_lspci_find(const char *text, size_t len, const char *address,
		  struct nd_lspci_block *ret);
/* Fill one function from its block (header line first). 0 or -EINVAL. */
int nd_parse_lspci_device(const char *text, size_t len, struct nd_pcie_link *out);
/* The ASPM fields of one device's block (src/parse/lspci_aspm.c): 0, or
 * -EINVAL without LnkCap and LnkCtl (out->known false; DevCap's
 * acceptable latencies may still be set).  nd_parse_lspci_device calls it. */
int nd_parse_lspci_aspm(const char *text, size_t len, struct nd_pcie_aspm *out);

/* ---- package lists and kernel logs (src/parse/records.c) ---- */

/* The upstream version ("3.1.3") of the installed package `name` in a
 * package list: dpkg -l, rpm -qa (installed-rpms, package-data) or
 * supportconfig's rpm.txt; its 1-based line in *ret_line (may be NULL).
 * 0, -ENOENT when the list does not hold it, -EINVAL bad arguments. */
int nd_parse_package_version(const char *text, size_t len, const char *name, char *buf,
			     size_t size, unsigned *ret_line);

/* The kernel's PCIe verdict on one device, from a kernel log. */
struct nd_kernel_pcie {
	char address[16];		/* the device the line is about */
	double avail_gbps;		/* "16.000 Gb/s available"; 0 (ixgbe) not said */
	double gts;			/* the link that sets it: "5.0 GT/s PCIe x4" */
	unsigned width;
	bool limited;			/* "limited by ... at limited_at" */
	char limited_at[16];		/* the limiting link's port, maybe not the device */
	double cap_gbps, cap_gts;	/* "capable of ... with 5.0 GT/s PCIe x8"; 0 unsaid */
	unsigned cap_width;
	unsigned line;			/* 1-based line of the log */
	char words[200];		/* the line past its timestamp */
	/* ixgbe's older "PCI Express bandwidth of 4GT/s available": the
	 * link's rate after encoding, 0 unsaid; link_inferred: no
	 * "(Speed:" line followed, gts and width are the lanes that give
	 * that rate (N/4 at 5.0 GT/s, else N/2 at 2.5: the same 8b/10b rate). */
	unsigned driver_gts;
	bool link_inferred;
	unsigned need_gts;		/* "at least 20GT/s ... is required"; 0 unsaid */
};

/* The last verdict on `address` ("0000:82:00.0") in a kernel log (dmesg,
 * journalctl, supportconfig's boot.txt): pcie_print_link_status()'s
 * "available PCIe bandwidth" line or ixgbe's "(Speed:..., Width: xN" or
 * "PCI Express bandwidth of NGT/s available" (with the need that follows).
 * 0, -ENOENT none, -EINVAL bad arguments. */
int nd_parse_kernel_pcie(const char *text, size_t len, const char *address,
			 struct nd_kernel_pcie *out);

/* ---- ip link / ip -s link / ip -s -d link (src/parse/iplink_text.c) ---- */

/* Names of the interfaces listed ("eth0.100" for "eth0.100@eth0"). */
int nd_parse_iplink_names(const char *text, size_t len, char (*names)[ND_IFNAMSIZ],
			  unsigned max, unsigned *ret_count);
/* *ret_stats_known (may be NULL): the text had RX/TX counters (-s). */
int nd_parse_iplink(const char *text, size_t len, const char *ifname, struct nd_link *out,
		    bool *ret_stats_known);

/* The stacked kind of ifname ("vlan", "bridge", "vxlan", "bond", "veth";
 * "" a NIC) and its lowers (src/parse/iplink_stack.c), from `ip -d link`
 * text: a VLAN's, macvlan's, macvtap's or ipvlan's "@LOWER", a vxlan's or
 * geneve's "dev X", every link whose header names ifname its master (a
 * bridge's ports, a bond's or team's members).  0, -ENOENT not listed. */
int nd_parse_iplink_stack(const char *text, size_t len, const char *ifname,
			  struct nd_stack *out);

/* ---- ip route [show table all] (src/parse/iproute_text.c) ---- */

/* Interface of the lowest-metric default route of the main table into buf
 * (untouched on failure).  0, -ENOENT when there is none. */
int nd_parse_ip_route_default(const char *text, size_t len, char *buf, size_t size);

/* ---- tc -s qdisc show [+ class show] (src/parse/tc_text.c) ---- */

/* Root qdisc kind of ifname into ret_root_kind (may be NULL, 16 bytes,
 * "" when none), and the lowest tbf rate / htb class ceil into out. */
int nd_parse_tc_qdisc(const char *text, size_t len, const char *ifname, struct nd_qdisc *out,
		      char ret_root_kind[16]);
/* "500Mbit", "1Gbit", "10Kbit", "1Mibit", "100Mbps" (bytes) -> bit/s. */
int nd_parse_tc_rate(const char *text, size_t len, uint64_t *ret_bps);

/* ---- sysctl -a, lscpu (src/parse/sysctl_text.c) ---- */

/* The value of `key` ("net.core.rmem_max" or "net/core/rmem_max"), tabs
 * as single spaces.  0, -ENOENT, -EACCES ("permission denied on key"). */
int nd_parse_sysctl_lookup(const char *text, size_t len, const char *key, char *buf,
			   size_t size);
/* Every nd_sysctls entry: known when the text holds its key. 0 or -EINVAL
 * when the text has no "key = value" line at all. */
int nd_parse_sysctl_text(const char *text, size_t len, struct nd_sysctls *out);
/* `lscpu`: online set, NUMA nodes and their CPUs. 0 or -EINVAL. */
int nd_parse_lscpu(const char *text, size_t len, struct nd_cpus *out);

/* ---- supportconfig sections (src/parse/supportconfig.c) ---- */

struct nd_sc_section {
	const char *kind;		/* "Command", "Configuration File", ... */
	size_t kind_len;
	const char *name;		/* "/usr/sbin/ethtool -l eth0", "/proc/interrupts" */
	size_t name_len;		/* path without " - Last N Lines" */
	const char *body;		/* to the next "#==[", blank tail cut */
	size_t body_len;
	bool file_missing;		/* "# /path - File not found" */
};

/* Iterate sections: *pos starts at 0.  0, or -ENOENT after the last. */
int nd_sc_next(const char *text, size_t len, size_t *pos, struct nd_sc_section *ret);
/* A command ("ethtool -l eth0": basename of the first word plus its
 * arguments, blanks collapsed) or a path ("/proc/interrupts").  0 or -ENOENT. */
int nd_sc_find(const char *text, size_t len, const char *what, struct nd_sc_section *ret);
/* Whether a section's command is what ("ip -stats link"), by the same rule. */
bool nd_sc_command_is(const struct nd_sc_section *sec, const char *what);

#endif

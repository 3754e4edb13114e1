/*
 * probe.h - the only code that reads the OS.
 *
 * Each source fills its groups of struct nd_facts and marks what it could
 * not read as unknown with the reason; a source never fails the whole probe.
 * Sources follow pciutils' backend shape: a table of {name, function}.
 */
#ifndef NICDOCTOR_PROBE_H
#define NICDOCTOR_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_probe_source {
	const char *name;		/* "rtnl", "ethtool", "pci", "sysfs", ... */
	bool needs_live_kernel;		/* netlink: replaced by the snapshot in a sysroot */
	void (*probe)(const char *ifname, struct nd_facts *facts);
};

/* Allocate and fill facts for ifname (live or from the sysroot).
 * -ENODEV: no such interface (the only fatal outcome); -ENOMEM. */
int nd_probe(const char *ifname, struct nd_facts **ret_facts);
void nd_facts_free(struct nd_facts *facts);

/* What the sysroot is (an enum nd_bundle_kind) and how the report's header
 * names it; set once before nd_probe by --sysroot. */
void nd_probe_set_origin(int bundle_kind, const char *description);

/*
 * A kind of record the facts can come from besides the live kernel and a
 * plain sysroot tree (DESIGN.md, "Sources"): one per file, chosen by the
 * bundle kind nd_bundle_open detected.  fill_netlink replaces the netlink
 * sources; fill_pci (NULL: libpci on sys/bus/pci) the pci source;
 * fill_gaps runs after the sysfs/procfs sources and fills or re-words
 * what they left unknown.  Each leaves what it cannot fill unknown with
 * its own reason and sets every group's st.source.
 */
struct nd_record_source {
	const char *name;		/* "sosreport" */
	int bundle_kind;		/* enum nd_bundle_kind */
	const char *noun;		/* "the sosreport", for messages */
	void (*fill_netlink)(const char *ifname, struct nd_facts *facts);
	void (*fill_pci)(const char *ifname, struct nd_facts *facts);
	void (*fill_gaps)(const char *ifname, struct nd_facts *facts);
	/* Interfaces the record names, sorted; 0 or negative errno. */
	int (*list_ifaces)(char (*names)[ND_IFNAMSIZ], unsigned max, unsigned *ret_count);
	/* Interface of the default route the record holds; 0 or -ENOENT. */
	int (*default_iface)(char *buf, size_t size);
};

extern const struct nd_record_source nd_record_sos;

/* The record source of the current sysroot, NULL live or for a plain tree. */
const struct nd_record_source *nd_probe_record(void);

/* Interfaces of the sysroot (sys/class/net plus what the record names),
 * sorted, deduplicated; and how messages name the sysroot ("the
 * sosreport", "the snapshot").  0 or negative errno. */
int nd_probe_list_ifaces(char (*names)[ND_IFNAMSIZ], unsigned max, unsigned *ret_count);
const char *nd_probe_origin_noun(void);

/* Whether the interface exists (live: rtnetlink; sysroot: /sys/class/net/IF). */
bool nd_probe_iface_exists(const char *ifname);

/* Interface of the default route (live: rtnetlink; sysroot: /proc/net/route).
 * 0, -ENOENT when there is no default route. */
int nd_probe_default_iface(char *buf, size_t size);

/* The interface that owns a local IPv4/IPv6 address (live only; an
 * IPv4-mapped IPv6 address counts as IPv4).  0, -ENODEV, -EIO. */
struct sockaddr;
int nd_probe_iface_by_addr(const struct sockaddr *sa, char *buf, size_t size);

/* Individual sources (src/probe/<name>.c). */
void nd_probe_rtnl(const char *ifname, struct nd_facts *facts);
void nd_probe_ethtool(const char *ifname, struct nd_facts *facts);
void nd_probe_drvinfo(const char *ifname, struct nd_facts *facts);
void nd_probe_pci(const char *ifname, struct nd_facts *facts);
void nd_probe_queues(const char *ifname, struct nd_facts *facts);
void nd_probe_irqs(const char *ifname, struct nd_facts *facts);
/* /proc/interrupts read again: the wanted IRQs' counts summed per CPU
 * column into ret (known when the file had any of them); scratch is the
 * caller's, as it is large. */
void nd_probe_irq_sums(const unsigned *wanted, unsigned n_wanted, struct nd_irqs *scratch,
		       struct nd_irq_sums *ret);
void nd_probe_softnet(const char *ifname, struct nd_facts *facts);
void nd_probe_sysctls(const char *ifname, struct nd_facts *facts);
void nd_probe_cpus(const char *ifname, struct nd_facts *facts);
void nd_probe_tools(const char *ifname, struct nd_facts *facts);
void nd_probe_bond(const char *ifname, struct nd_facts *facts);	/* bond.c */
/* queue_table.c: netdev family queues + per-queue counter fallbacks. */
void nd_probe_queue_table(const char *ifname, struct nd_facts *facts);
/* Live: the queue table's counters once more (watch, experiments).
 * 0; -ENODEV the interface is gone; -ENODATA no queue counters at all. */
int nd_probe_queue_sample(const char *ifname, struct nd_queue_table *ret);
/* counters.c: /proc/uptime (the snapshot's in a sysroot). */
void nd_probe_uptime(struct nd_uptime *ret);
/* CLOCK_MONOTONIC in seconds, for the length of a window. */
double nd_probe_clock_sec(void);
/* The counters as facts already hold them (the probe's read). */
void nd_counter_sample_from_facts(const struct nd_facts *facts, struct nd_counter_sample *ret);
/* What a counter sample reads: the interface, and the IRQs whose
 * /proc/interrupts counts it sums (the caller's choice: its queue IRQs). */
struct nd_counter_source {
	const char *ifname;
	const unsigned *queue_irqs;
	unsigned n_queue_irqs;
};
/* Read softnet_stat, the link stats, ethtool -S and the queue IRQs' counts
 * once more.  0, -ENOMEM. */
int nd_probe_counter_sample(const struct nd_counter_source *src, struct nd_counter_sample *ret);
/* Two reads `seconds` apart into ret (what "sample", label "the last S s").
 * 0, or a negative errno with ret unknown. */
int nd_probe_counter_window(const struct nd_counter_source *src, double seconds,
			    struct nd_counter_window *ret);
/* Mark a window known over `seconds` (what and label as in facts.h), or
 * unknown with why. */
void nd_counter_window_set(struct nd_counter_window *w, const char *what, const char *label,
			   double seconds);
void nd_counter_window_unknown(struct nd_counter_window *w, const char *reason);
/* In a sysroot: netlink groups from <root>/ethtool/<IF>.json. */
void nd_probe_snapshot(const char *ifname, struct nd_facts *facts);
/* Where netlink (or the record) left the link group or the speed unknown:
 * /sys/class/net/IF/{speed,duplex,mtu,operstate,carrier,tx_queue_len}. */
void nd_probe_link_sysfs(const char *ifname, struct nd_facts *facts);

#endif

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
void nd_probe_softnet(const char *ifname, struct nd_facts *facts);
void nd_probe_sysctls(const char *ifname, struct nd_facts *facts);
void nd_probe_cpus(const char *ifname, struct nd_facts *facts);
void nd_probe_tools(const char *ifname, struct nd_facts *facts);
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
/* Read softnet_stat, the link stats and ethtool -S once more.  0, -ENOMEM. */
int nd_probe_counter_sample(const char *ifname, struct nd_counter_sample *ret);
/* Two reads `seconds` apart into ret (what "sample", label "the last S s").
 * 0, or a negative errno with ret unknown. */
int nd_probe_counter_window(const char *ifname, double seconds, struct nd_counter_window *ret);
/* Mark a window known over `seconds` (what and label as in facts.h), or
 * unknown with why. */
void nd_counter_window_set(struct nd_counter_window *w, const char *what, const char *label,
			   double seconds);
void nd_counter_window_unknown(struct nd_counter_window *w, const char *reason);
/* In a sysroot: netlink groups from <root>/ethtool/<IF>.json. */
void nd_probe_snapshot(const char *ifname, struct nd_facts *facts);

#endif

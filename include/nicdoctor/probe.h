/*
 * probe.h - the only code that reads the OS.
 *
 * Each reader fills its groups of struct nd_facts and marks what it could
 * not read as unknown with the reason; a reader never fails the whole probe.
 * Which readers run for an interface, and what replaces the netlink ones
 * in a bundle, is the source's choice (source.h, src/sources/).
 */
#ifndef NICDOCTOR_PROBE_H
#define NICDOCTOR_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

/* Whether the interface exists (live: rtnetlink; sysroot: /sys/class/net/IF).
 * What else a bundle names is nd_source_iface_exists's (source.h). */
bool nd_probe_iface_exists(const struct nd_root *root, const char *ifname);

/* Interface of the default route (live: rtnetlink; sysroot: /proc/net/route).
 * 0, -ENOENT when there is no default route.  nd_source_default_iface
 * asks a bundle's own record after this. */
int nd_probe_default_iface(const struct nd_root *root, char *buf, size_t size);

/* The interface that owns a local IPv4/IPv6 address (live only; an
 * IPv4-mapped IPv6 address counts as IPv4).  0, -ENODEV, -EIO. */
struct sockaddr;
int nd_probe_iface_by_addr(const struct sockaddr *sa, char *buf, size_t size);

/* The route the kernel gives host (resolved as the engine resolves it:
 * getaddrinfo's first address), as `ip route get` asks it, with the route
 * device's lowers read below root (src/probe/route.c).  0; a negative
 * errno with a one-line reason in why: -EHOSTUNREACH the name does not
 * resolve, else the kernel's ("no route to 10.9.9.9: Network is
 * unreachable"). */
struct nd_route;
int nd_probe_route(const struct nd_root *root, const char *host, struct nd_route *ret,
		   char *why, size_t why_size);

/* Individual sources (src/probe/<name>.c). */
void nd_probe_rtnl(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_ethtool(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_drvinfo(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_pci(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_queues(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_irqs(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
/* /proc/interrupts read again: the wanted IRQs' counts summed per CPU
 * column, and each IRQ's own sum, into ret (known when the file had any
 * of them); scratch is the
 * caller's, as it is large. */
void nd_probe_irq_sums(const struct nd_root *root, const unsigned *wanted, unsigned n_wanted,
		       struct nd_irqs *scratch,
		       struct nd_irq_sums *ret);
void nd_probe_softnet(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_sysctls(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_cpus(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_tools(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
void nd_probe_bond(const struct nd_root *root, const char *ifname,
		   struct nd_facts *facts);	/* bond.c */
/* stack.c: a stacked device's kind and its lowers (facts->stack). */
void nd_probe_stack(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
/* queue_table.c: netdev family queues + per-queue counter fallbacks. */
void nd_probe_queue_table(const struct nd_root *root, const char *ifname, struct nd_facts *facts);
/* Live: the queue table's counters once more (watch, experiments).
 * 0; -ENODEV the interface is gone; -ENODATA no queue counters at all. */
int nd_probe_queue_sample(const struct nd_root *root, const char *ifname,
			  struct nd_queue_table *ret);
/* counters.c: /proc/uptime (the snapshot's in a sysroot). */
void nd_probe_uptime(const struct nd_root *root, struct nd_uptime *ret);
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
int nd_probe_counter_sample(const struct nd_root *root, const struct nd_counter_source *src,
			    struct nd_counter_sample *ret);
/* Two reads `seconds` apart into ret (what "sample", label "the last S s").
 * 0, or a negative errno with ret unknown. */
int nd_probe_counter_window(const struct nd_root *root, const struct nd_counter_source *src,
			    double seconds,
			    struct nd_counter_window *ret);
/* Mark a window known over `seconds` (what and label as in facts.h), or
 * unknown with why. */
void nd_counter_window_set(struct nd_counter_window *w, const char *what, const char *label,
			   double seconds);
void nd_counter_window_unknown(struct nd_counter_window *w, const char *reason);
/* Where netlink (or the record) left the link group or the speed unknown:
 * /sys/class/net/IF/{speed,duplex,mtu,operstate,carrier,tx_queue_len}. */
void nd_probe_link_sysfs(const struct nd_root *root, const char *ifname, struct nd_facts *facts);

#endif

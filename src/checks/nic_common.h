/*
 * nic_common.h - small readers over facts shared by the NIC checks
 * (link modes, queue interrupts, CPU columns), so that each rule is
 * written once.  Pure functions, no I/O.
 */
#ifndef NICDOCTOR_CHECKS_NIC_COMMON_H
#define NICDOCTOR_CHECKS_NIC_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/check.h"
#include "nicdoctor/facts.h"

/* Speed of an ethtool link mode name ("25000baseCR/Full" -> 25000);
 * 0 for the bits that are not speeds ("Autoneg", "Pause", "FIBRE"). */
long nd_linkmode_speed_mbps(const char *mode);

/* Whether a link mode name ends in "/Full". */
bool nd_linkmode_full_duplex(const char *mode);

/* Whether name is one of the n modes in list. */
bool nd_linkmode_in(const char (*list)[48], unsigned n, const char *name);

/* Highest speed among the n modes of list, optionally only those also
 * in other (other NULL: no filter); 0 when none. */
long nd_linkmodes_best_mbps(const char (*list)[48], unsigned n,
			    const char (*other)[48], unsigned n_other);

/* CPU number of a /proc/interrupts count column.  The kernel prints one
 * column per online CPU in order, so with CPUs offline column k is the
 * k-th online CPU, not CPU k. */
unsigned nd_irq_column_cpu(const struct nd_facts *facts, unsigned column);

/* Number of count columns of facts->irqs that can be indexed. */
unsigned nd_irq_columns(const struct nd_facts *facts);

/* The MTU of the interface for goodput arithmetic: link.mtu when known,
 * else 1500 with *ret_assumed set. */
unsigned nd_port_mtu(const struct nd_facts *facts, bool *ret_assumed);

/* The RX queues in use and the online CPUs, which the queue checks start
 * from, into the evidence; false after marking f unknown. */
bool nd_queue_counts(const struct nd_facts *facts, struct nd_finding *f, unsigned *ret_rx_queues);

/* Add the `ethtool -L` command raising RX queues to target: combined
 * channels where the device has them, else rx. */
void nd_fix_rx_channels(const struct nd_facts *facts, struct nd_finding *f, unsigned target);

/* The rps_cpus mask to steer to (the NIC's NUMA node's CPUs when known,
 * else all online), short form ("f", "ff,00000000"). */
void nd_rps_mask(const struct nd_facts *facts, char *buf, size_t size);

/* Mbit/s for evidence, rounded as the titles' %.0f and nd_finding_ceiling round. */
double nd_round_mbps(double mbps);

/* Whether an ethtool -S counter name holds word (lower case), in any case. */
bool nd_stat_name_has(const char *name, const char *word);

/* A pcie.* check on an interface with no PCI device (virtual, platform),
 * or whose function has no link of its own (paravirtual, emulated in a
 * VM, a VF with LnkSta x0: virt_common.h): marks f not applicable with
 * the reason and returns true. */
bool nd_pcie_check_not_applicable(const struct nd_facts *facts, struct nd_finding *f);

#endif

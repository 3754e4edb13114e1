/*
 * queues.h - the interface's queues: the netdev netlink family's answers
 * (probe/netdev_nl.c), the per-queue counter fallbacks (probe/queue_stats.c,
 * probe/mq_stats.c) and the queue -> NAPI -> IRQ -> CPU chain built from
 * the facts (src/queue_chain.c, pure), which the IRQ, queue, RSS and RPS
 * checks, the experiments and `watch` share.
 */
#ifndef NICDOCTOR_QUEUES_H
#define NICDOCTOR_QUEUES_H

#include <stddef.h>
#include <stdint.h>

#include "nicdoctor/facts.h"

/* Parse a buffer of netdev-family netlink messages (queue-get, napi-get,
 * qstats-get replies, as the kernel sends them) into qt; messages of
 * another interface (ifindex > 0 given) are skipped.  0, or -EBADMSG when
 * the buffer holds no well-formed message. */
int nd_netdev_parse_replies(const void *buf, size_t len, int ifindex, struct nd_queue_table *qt);

/* Live: dump the three commands for ifindex into qt (rows reset first).
 * 0; -EPROTONOSUPPORT without the family; another negative errno. */
int nd_netdev_dump(int ifindex, struct nd_queue_table *qt);

/* The row of queue (kind, id), added when absent; NULL when full. */
struct nd_queue_row *nd_queue_row_get(struct nd_queue_table *qt, unsigned kind, unsigned id);

/* Per-queue counters from a driver's ethtool -S names where a row has
 * none: the driver's table entry names the pattern.  Returns the number of
 * rows filled, and the table entry's name in ret_style ("" none). */
int nd_queue_stats_from_ethtool(const char *driver, const struct nd_nicstats *stats,
				struct nd_queue_table *qt, const char **ret_style);

/* Live: TX counters of an mq root qdisc's classes (class :N is tx-(N-1))
 * for rows without counters.  Rows filled, or a negative errno. */
int nd_queue_stats_from_mq(int ifindex, struct nd_queue_table *qt);

/* One row of the chain. */
struct nd_chain_row {
	unsigned kind, id;
	unsigned napi_id;
	int napi_pid;
	int irq;			/* -1 none found */
	const char *irq_source;		/* "netdev", "irq name", "" */
	struct nd_cpuset cpus;		/* effective affinity, else smp_affinity */
	bool cpus_known;
	int numa_node;			/* the NIC's, -1 unknown */
	bool counters_known;
	uint64_t packets, bytes;
	const char *counter_source;
};

struct nd_chain {
	unsigned count;
	unsigned n_rx, n_tx;
	bool kernel_irqs;		/* some IRQ came from napi-get */
	struct nd_chain_row r[ND_MAX_QUEUE_ROWS];
};

/* Build the chain from the facts: netdev's napi -> IRQ where given, else
 * IRQ action names ("eth0-TxRx-3", "virtio0-input.0", "mlx5_comp2").
 * Pure.  ret is always filled (count 0 when the queues are unknown). */
void nd_queue_chain_build(const struct nd_facts *facts, struct nd_chain *ret);

/* The chain row of queue (kind, id), NULL when absent. */
const struct nd_chain_row *nd_chain_find(const struct nd_chain *c, unsigned kind, unsigned id);

/* The chain as a JSON array for a finding's evidence (queue, irq,
 * irq_source, cpus, numa_node; with deltas, share_pct of packets).
 * deltas may be NULL: packets per row in chain order. */
struct cJSON;
struct cJSON *nd_chain_to_json(const struct nd_chain *c, const uint64_t *deltas);

/* The chain into a finding's evidence as "queue_chain" (when any queue is
 * known): what the IRQ, queue, RSS and RPS checks show. */
void nd_chain_add_evidence(const struct nd_facts *facts, struct cJSON *evidence);

/* Whether an IRQ serves a queue: the kernel's napi -> IRQ links where it
 * gave any (c->kernel_irqs), else the IRQ's name (not config, async...). */
bool nd_chain_irq_serves_queue(const struct nd_chain *c, const struct nd_irq *irq);
/* The same from the facts' queue table, without building a chain. */
bool nd_facts_irq_serves_queue(const struct nd_facts *facts, const struct nd_irq *irq);
/* The numbers of the facts' IRQs that serve queues, at most max; the count. */
unsigned nd_facts_queue_irqs(const struct nd_facts *facts, unsigned *ret, unsigned max);

#endif

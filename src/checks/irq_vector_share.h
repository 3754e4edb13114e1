/*
 * irq_vector_share.h - how the NIC's queue interrupts are shared out, by
 * vector and by CPU, in the one place the IRQ and RSS checks read it.
 * Three patterns need three different fixes, and the counts tell them
 * apart:
 *   one-busy  one queue vector takes (nearly) every queue interrupt: the
 *             traffic reaches one queue (RSS off or unsupported, or one
 *             flow); moving the idle vectors to other CPUs changes nothing,
 *             RSS (ethtool -X) or RPS (rps_cpus) does;
 *   one-hot   the vectors are spread over CPUs but one queue carries most
 *             interrupts (64% on one of four): the flows hash unevenly;
 *   one-cpu   several vectors fire and one CPU serves them all: an
 *             affinity problem (smp_affinity_list);
 *   spread    none of these.
 * The counts are the observation window's when it saw enough of them,
 * else the since-boot totals.  Pure: no I/O.
 */
#ifndef NICDOCTOR_CHECKS_IRQ_VECTOR_SHARE_H
#define NICDOCTOR_CHECKS_IRQ_VECTOR_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicdoctor/check.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/queues.h"

/* Below this many queue interrupts in total the counts say nothing yet. */
#define ND_IRQ_MIN_COUNTS 1000
/* One queue with this share of all its queues' work (interrupts, or
 * packets where the queues count them) is "one busy": the others together
 * got 1 in 20, the crumbs a second flow or an ARP leave. */
#define ND_ONE_BUSY_SHARE 0.95

enum nd_irq_pattern {
	ND_IRQ_FEW,			/* fewer than ND_IRQ_MIN_COUNTS, or < 2 vectors */
	ND_IRQ_SPREAD,
	ND_IRQ_ONE_BUSY,
	ND_IRQ_ONE_HOT,
	ND_IRQ_ONE_CPU,
};

struct nd_irq_share {
	bool from_window;		/* the window's growth, else since boot */
	bool per_vector_known;		/* counts per vector, not only per CPU */
	unsigned vectors;		/* queue vectors counted */
	uint64_t total;			/* their interrupts */
	unsigned top_irq;		/* the busiest vector's IRQ number */
	const char *top_name;		/* its action name ("" unknown) */
	int top_queue;			/* the queue it serves, -1 unknown */
	double top_vector_share;	/* its share of total, 0..1 */
	unsigned top_cpu;		/* the busiest CPU (a CPU number) */
	double top_cpu_share;
	double hot_share;		/* the one-hot threshold for this many vectors */
	enum nd_irq_pattern pattern;
};

/* Classify counts: per_vector[n_vectors] (NULL: not known per vector) and
 * per_cpu[n_cpus], with the CPU number of each column in column_cpu. */
void nd_irq_share_classify(const uint64_t *per_vector, unsigned n_vectors,
			   const uint64_t *per_cpu, const unsigned *column_cpu, unsigned n_cpus,
			   struct nd_irq_share *ret);

/* Since boot: the facts' queue IRQs (chain may be NULL: by name). */
void nd_irq_share_boot(const struct nd_facts *facts, const struct nd_chain *chain,
		       struct nd_irq_share *ret);

/* The window's growth; false when there is no window with the queue IRQs
 * read at both ends. */
bool nd_irq_share_window(const struct nd_facts *facts, const struct nd_chain *chain,
			 struct nd_irq_share *ret);

/* What the checks judge: the window's when it saw ND_IRQ_MIN_COUNTS, else
 * since boot (ret->pattern ND_IRQ_FEW when neither has enough).
 * ret_boot (may be NULL) gets the since-boot one as well. */
void nd_irq_share_judged(const struct nd_facts *facts, const struct nd_chain *chain,
			 struct nd_irq_share *ret, struct nd_irq_share *ret_boot);

/* "one-busy", "one-hot", "spread", "one-cpu", "few-counts". */
const char *nd_irq_pattern_name(enum nd_irq_pattern pattern);

/* "since boot" or "in " the window's label ("in the last 1 s") into buf. */
const char *nd_irq_share_when(const struct nd_facts *facts, const struct nd_irq_share *s,
			      char *buf, size_t size);

/* evidence.irq_vectors {pattern, from, vectors, interrupts,
 * busiest_vector_irq, busiest_vector_queue, busiest_vector_share_pct,
 * busiest_cpu, busiest_cpu_share_pct, one_busy_share_pct, one_hot_share_pct}
 * and evidence.pattern. */
void nd_irq_share_evidence(const struct nd_irq_share *s, cJSON *evidence);

/* Percent with one decimal, as the evidence rounds it. */
double nd_share_pct1(double share);

#endif

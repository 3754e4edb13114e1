/*
 * softnet_tally.h - per-CPU tallies of /proc/net/softnet_stat counters and
 * the backlog size to suggest, shared by softnet.dropped, softnet.squeezed
 * and sysctl.backlog_low.
 */
#ifndef NICDOCTOR_CHECKS_SOFTNET_TALLY_H
#define NICDOCTOR_CHECKS_SOFTNET_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "nicdoctor/check.h"

/* The kernel's default net.core.netdev_max_backlog (net/core/dev.c). */
#define ND_BACKLOG_DEFAULT 1000

struct nd_softnet_tally {
	uint64_t total;			/* the counter summed over all CPUs */
	uint64_t processed_total;
	struct nd_cpuset counted;	/* CPUs whose counter is > 0 */
	unsigned cpus_counted;
	unsigned cpus_over_min;		/* CPUs whose counter reaches min_count */
	/* Among CPUs whose counter reaches min_count: the highest share. */
	bool worst_known;
	unsigned worst_cpu;
	uint64_t worst_count, worst_processed;
	double worst_share;		/* counter / processed; 1 when nothing processed */
};

/*
 * Tally the softnet column at counter_offset (offsetof(struct
 * nd_softnet_cpu, dropped)) and add to evidence: "<name>_total",
 * "cpus_with_<name>" (a CPU list) and "per_cpu" [{cpu, <name>, processed,
 * share_pct}] for every CPU with a count, at most ND_SOFTNET_LISTED.
 */
#define ND_SOFTNET_LISTED 32
void nd_softnet_tally(const struct nd_softnet *softnet, size_t counter_offset,
		      const char *name, uint64_t min_count, cJSON *evidence,
		      struct nd_softnet_tally *ret);


#endif

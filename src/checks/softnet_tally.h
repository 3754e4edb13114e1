/*
 * softnet_tally.h - per-CPU tallies of /proc/net/softnet_stat counters,
 * since boot and in the observation window, and the backlog size to
 * suggest, shared by softnet.dropped, softnet.squeezed and
 * sysctl.backlog_low.
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
	unsigned cpus_counted;		/* how many CPUs that is */
	unsigned cpus_over_min;		/* CPUs whose counter reaches min_count */
	/* Among CPUs whose counter reaches min_count: the highest share. */
	bool worst_known;
	unsigned worst_cpu;
	uint64_t worst_count, worst_processed;
	double worst_share;		/* counter / processed; 1 when nothing processed */
};

/* A softnet counter since boot and, when a window was measured with
 * softnet_stat read at both ends, its growth in that window. */
struct nd_softnet_view {
	struct nd_softnet_tally boot;
	bool window;
	struct nd_softnet_tally win;
	double rate_per_sec;		/* win.total / window seconds */
	double seconds;
};

/*
 * Tally the softnet column at counter_offset (offsetof(struct
 * nd_softnet_cpu, dropped)) since boot (min_count boot_min) and in the
 * window (min_count win_min), and add to evidence the since-boot view:
 * "<name>_total", "processed_total", "cpus_with_<name>" (how many CPUs),
 * "cpus_with_<name>_list" (which), "per_cpu" [{cpu, <name>, processed,
 * share_pct}] for at most ND_SOFTNET_LISTED CPUs with a count, the uptime;
 * and "window" {source, seconds, <name>, processed, <name>_per_sec,
 * cpus_with_<name>, cpus_with_<name>_list, per_cpu} or null with
 * "window_reason".
 */
#define ND_SOFTNET_LISTED 32
void nd_softnet_view(const struct nd_facts *facts, size_t counter_offset, const char *name,
		     uint64_t boot_min, uint64_t win_min, cJSON *evidence,
		     struct nd_softnet_view *ret);

/* Title tail for a total that did not grow: "1034 drops since boot, 47 min
 * ago; none in the last 1 s".  Returns buf. */
char *nd_softnet_history_text(const struct nd_facts *facts, uint64_t total, const char *noun,
			      char *buf, size_t size);

#endif

/*
 * counter_window.h - how every check over a cumulative counter judges it:
 * by what grew in the observation window (facts->window), with the
 * since-boot total and the uptime as context only.  A total that did not
 * grow is history: at most info.
 */
#ifndef NICDOCTOR_CHECKS_COUNTER_WINDOW_H
#define NICDOCTOR_CHECKS_COUNTER_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicdoctor/check.h"

/* Fewer events than this in a window are a burst TCP absorbs, whatever
 * their share: in the default 1 s sample it is also netdata's alarm level
 * for the softnet counters (10 events/s averaged over a minute). */
#define ND_WINDOW_MIN_COUNT 10

/* A counter's growth; 0 when it went backwards (the counter was reset:
 * a driver reload, a CPU gone offline), as nothing can be said then. */
/* The link's counters were read (a link group from sysfs may lack them):
 * zeros that were never read are no "no drops". */
bool nd_link_stats_known(const struct nd_facts *facts);

/* Why they were not ("" when they were). */
const char *nd_link_stats_reason(const struct nd_facts *facts);

uint64_t nd_counter_delta(uint64_t before, uint64_t after);

/* evidence.window {source, seconds} (or null and window_reason) and
 * evidence.uptime_sec (or null); returns the window object or NULL. */
cJSON *nd_window_evidence(const struct nd_facts *facts, cJSON *evidence);

/* "47 min ago", "3.2 days before the snapshot", "uptime unknown": since
 * when the since-boot totals count.  Returns buf. */
char *nd_uptime_text(const struct nd_facts *facts, char *buf, size_t size);

/* Why there is no window, for a history title: "none in the last 1 s",
 * "no window measured (--sample 0)", "one read in a snapshot".  Returns buf. */
char *nd_window_none_text(const struct nd_facts *facts, char *buf, size_t size);

/* An ethtool -S counter's value by name, hint the index where it usually
 * is; false when the sample does not have it. */
bool nd_nicstat_value(const struct nd_nicstats *stats, const char *name, unsigned hint,
		      uint64_t *ret);

/* Events per second in the window, 0 when it has no length. */
double nd_window_rate(const struct nd_counter_window *w, uint64_t count);

#endif

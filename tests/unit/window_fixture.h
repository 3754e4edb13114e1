/*
 * window_fixture.h - an observation window on hand-made facts: the facts'
 * counters are the window's last read, and the first read is the same
 * counters scaled down, so a test says how much of each total grew in the
 * window (1: all of it, 0: none: drops only in the past).
 */
#ifndef NICDOCTOR_TEST_WINDOW_FIXTURE_H
#define NICDOCTOR_TEST_WINDOW_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/facts.h"

static inline uint64_t window_scaled(uint64_t value, double kept)
{
	return (uint64_t)((double)value * kept);
}

static inline void window_scale_link(struct nd_link_stats *l, double kept)
{
	l->rx_packets = window_scaled(l->rx_packets, kept);
	l->rx_dropped = window_scaled(l->rx_dropped, kept);
	l->rx_missed = window_scaled(l->rx_missed, kept);
	l->rx_fifo = window_scaled(l->rx_fifo, kept);
	l->rx_over = window_scaled(l->rx_over, kept);
	l->rx_errors = window_scaled(l->rx_errors, kept);
}

/* A window of seconds in which the share `grown` of every counter grew. */
static inline void window_set(struct nd_facts *facts, double seconds, double grown)
{
	struct nd_counter_window *w = &facts->window;
	double kept = 1.0 - grown;

	memset(w, 0, sizeof(*w));
	w->known = true;
	w->seconds = seconds;
	nd_strlcpy(w->what, "sample", sizeof(w->what));
	nd_strlcpy(w->label, "the last 1 s", sizeof(w->label));
	w->after.link_known = w->before.link_known = facts->link.st.known;
	w->after.link = w->before.link = facts->link.stats;
	w->after.softnet = w->before.softnet = facts->softnet;
	w->after.nicstats = w->before.nicstats = facts->nicstats;
	window_scale_link(&w->before.link, kept);
	for (unsigned i = 0; i < w->before.softnet.count; i++) {
		struct nd_softnet_cpu *c = &w->before.softnet.cpu[i];

		c->processed = window_scaled(c->processed, kept);
		c->dropped = window_scaled(c->dropped, kept);
		c->time_squeeze = window_scaled(c->time_squeeze, kept);
	}
	for (unsigned i = 0; i < w->before.nicstats.count; i++)
		w->before.nicstats.s[i].value = window_scaled(w->before.nicstats.s[i].value, kept);
}

static inline void window_clear(struct nd_facts *facts)
{
	memset(&facts->window, 0, sizeof(facts->window));
	nd_strlcpy(facts->window.reason, "--sample 0", sizeof(facts->window.reason));
}

#endif

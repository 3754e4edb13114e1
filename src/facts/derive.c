/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * derive.c - readings of the facts that checks, fixes and watch all make,
 * written once here, below them: which IRQs carry queue traffic, and the
 * netdev_max_backlog to suggest for a link.  Pure functions, no I/O.
 */
#include <stdint.h>
#include <string.h>

#include "nicdoctor/facts.h"

/* netdev_max_backlog suggestions, from ESnet's Linux host tuning
 * (fasterdata.es.net/host-tuning/linux/): 30000 for 10G hosts, 250000 for
 * 40G/100G hosts. */
#define BACKLOG_SUGGEST_10G 30000
#define BACKLOG_SUGGEST_FAST 250000
#define BACKLOG_FAST_SPEED_MBPS 10000

bool nd_irq_is_queue(const struct nd_irq *irq)
{
	/* Vectors that carry no queue traffic: configuration, async events,
	 * admin queues (the same list as irq.concentrated). */
	static const char *const not_queue[] = { "config", "async", "-fw", "ctrl", "misc",
						  "-event", "pages", "cmd" };

	for (size_t i = 0; i < sizeof(not_queue) / sizeof(not_queue[0]); i++)
		if (strstr(irq->name, not_queue[i]))
			return false;
	return true;
}

uint64_t nd_softnet_backlog_suggest(const struct nd_facts *facts, uint64_t current)
{
	uint64_t suggest = BACKLOG_SUGGEST_10G;

	if (facts->linkmodes.st.known && facts->linkmodes.speed_mbps > BACKLOG_FAST_SPEED_MBPS)
		suggest = BACKLOG_SUGGEST_FAST;
	/* Near or above the guide's value and still dropping: double what is set. */
	if (current * 2 > suggest)
		suggest = current * 2;
	return suggest;
}

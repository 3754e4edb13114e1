/*
 * summary.c - whether a run's flows covered the queues, decided from the
 * queues' own counters during the test, not from where the flows were
 * placed at connect: a queue carried a flow's share when it moved at least
 * a quarter of an even share.  Pure.
 */
#include "nicdoctor/spread.h"

#define SHARE_MIN_PACKETS 10	/* below this a queue carried only stray packets */

void nd_spread_summarize(struct nd_spread_summary *s)
{
	uint64_t total = 0, share_floor;

	s->carrying = 0;
	s->idle_below = 0;
	s->lowest = -1;
	for (unsigned i = 0; i < s->queues; i++)
		total += s->q[i].packets;
	share_floor = s->flows ? total / s->flows / 4 : total;
	if (share_floor < SHARE_MIN_PACKETS)
		share_floor = SHARE_MIN_PACKETS;
	for (unsigned i = 0; i < s->queues; i++) {
		if (s->q[i].packets >= share_floor)
			s->carrying++;
		else
			s->idle_below++;
		if (s->lowest < 0 || s->q[i].packets < s->q[s->lowest].packets)
			s->lowest = (int)i;
	}
}

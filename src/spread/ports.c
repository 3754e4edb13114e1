/*
 * ports.c - source ports that spread flows over buckets (RX queues by RSS,
 * bond members by layer3+4, TX queues seen at connect): the balance rule
 * and a repeatable picker over a --cport range.  Pure: the bucket of a
 * port comes from the caller's function.
 */
#include <errno.h>
#include <stdlib.h>

#include "nicdoctor/spread.h"

bool nd_spread_wanted(const unsigned *count, unsigned buckets, int bucket)
{
	unsigned fewest = ~0u;

	if (bucket < 0 || (unsigned)bucket >= buckets)
		return false;
	for (unsigned b = 0; b < buckets; b++)
		if (count[b] < fewest)
			fewest = count[b];
	return count[bucket] == fewest;
}

/* One pass: take unused ports whose bucket holds fewer than `level` flows. */
static void pick_pass(uint16_t first, uint16_t last, unsigned n, unsigned level,
		      const int *bucket_of_port, unsigned char *used, unsigned *count,
		      uint16_t *ret_ports, int *ret_buckets, unsigned *picked)
{
	for (unsigned port = first; port <= last && *picked < n; port++) {
		int b = bucket_of_port[port - first];

		if (used[port - first] || b < 0 || count[b] >= level)
			continue;
		used[port - first] = 1;
		count[b]++;
		ret_ports[*picked] = (uint16_t)port;
		if (ret_buckets)
			ret_buckets[*picked] = b;
		(*picked)++;
	}
}

int nd_spread_pick(uint16_t first, uint16_t last, unsigned n, unsigned buckets,
		   nd_spread_bucket_fn bucket_of, void *arg, uint16_t *ret_ports,
		   int *ret_buckets)
{
	unsigned span = (unsigned)last - first + 1, picked = 0, covered = 0, usable = 0;
	unsigned count[ND_SPREAD_MAX_BUCKETS] = { 0 };
	unsigned char *used;
	int *bucket_of_port;

	if (!first || last < first || !n || !buckets || buckets > ND_SPREAD_MAX_BUCKETS ||
	    !bucket_of || !ret_ports)
		return -EINVAL;
	bucket_of_port = calloc(span, sizeof(*bucket_of_port));
	used = calloc(span, 1);
	if (!bucket_of_port || !used) {
		free(bucket_of_port);
		free(used);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < span; i++) {
		int b = bucket_of((uint16_t)(first + i), arg);

		bucket_of_port[i] = b >= 0 && (unsigned)b < buckets ? b : -1;
		usable += bucket_of_port[i] >= 0;
	}
	if (usable < n) {
		free(bucket_of_port);
		free(used);
		return -ERANGE;
	}
	/* Level L: every bucket the range reaches gets L flows before any L+1. */
	for (unsigned level = 1; picked < n; level++)
		pick_pass(first, last, n, level, bucket_of_port, used, count, ret_ports,
			  ret_buckets, &picked);
	for (unsigned b = 0; b < buckets; b++)
		covered += count[b] > 0;
	free(bucket_of_port);
	free(used);
	return (int)covered;
}

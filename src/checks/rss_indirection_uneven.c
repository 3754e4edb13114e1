/*
 * rss_indirection_uneven.c - the RSS indirection table leaves active
 * queues out, or gives some queues far more entries than others.  Each
 * entry takes an equal share of hashed flows, so a queue's share of the
 * receive work is its entry count over the table size: a queue with no
 * entry idles its CPU, a queue with twice the entries saturates its CPU
 * at half the others' load.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "nicdoctor/queues.h"

/* Busiest queue with at least this many times the entries of the least
 * busy one is "strongly uneven": at 2x the busiest CPU reaches 100% while
 * the lightest is at 50%, so the host saturates at about 75% of its
 * receive capacity.  The kernel's default table (entry i -> queue i % n)
 * never comes near: its weights differ by at most one entry. */
#define RSS_UNEVEN_RATIO 2.0
/* A spread of one entry is the rounding of a table size that the queue
 * count does not divide (64 entries over 48 queues: 2 and 1); it cannot
 * be evened out, so it is never flagged. */
#define RSS_ROUNDING_ENTRIES 1

struct rss_weights {
	unsigned queues;
	unsigned weight[ND_MAX_QUEUES];
	unsigned out_of_range;		/* entries naming a queue not active */
	unsigned missing;		/* active queues with no entry */
	unsigned min_weight, max_weight;
};

static void count_weights(const struct nd_rss *rss, unsigned queues, struct rss_weights *w)
{
	memset(w, 0, sizeof(*w));
	w->queues = queues < ND_MAX_QUEUES ? queues : ND_MAX_QUEUES;
	for (unsigned i = 0; i < rss->size && i < ND_MAX_RSS_INDIR; i++) {
		if (rss->indir[i] < w->queues)
			w->weight[rss->indir[i]]++;
		else
			w->out_of_range++;
	}
	w->min_weight = w->weight[0];
	for (unsigned q = 0; q < w->queues; q++) {
		if (!w->weight[q])
			w->missing++;
		if (w->weight[q] < w->min_weight)
			w->min_weight = w->weight[q];
		if (w->weight[q] > w->max_weight)
			w->max_weight = w->weight[q];
	}
}

static void add_evidence(const struct nd_rss *rss, const struct rss_weights *w, cJSON *evidence)
{
	cJSON *weights = cJSON_AddArrayToObject(evidence, "entries_per_queue");
	cJSON *missing = cJSON_AddArrayToObject(evidence, "queues_missing");

	cJSON_AddNumberToObject(evidence, "table_size", rss->size);
	cJSON_AddNumberToObject(evidence, "active_queues", w->queues);
	for (unsigned q = 0; q < w->queues; q++) {
		cJSON_AddItemToArray(weights, cJSON_CreateNumber(w->weight[q]));
		if (!w->weight[q])
			cJSON_AddItemToArray(missing, cJSON_CreateNumber(q));
	}
	cJSON_AddNumberToObject(evidence, "min_entries", w->min_weight);
	cJSON_AddNumberToObject(evidence, "max_entries", w->max_weight);
	if (w->out_of_range)
		cJSON_AddNumberToObject(evidence, "entries_beyond_active_queues", w->out_of_range);
}

void nd_check_rss_indirection_uneven(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_rss *rss = &facts->rss;
	unsigned queues = nd_facts_rx_queues(facts);
	struct rss_weights w;

	/* One queue needs no table, whatever the driver reports of it. */
	if (queues == 1) {
		nd_finding_set(f, ND_SEV_OK, "one RX queue: no table to balance");
		cJSON_AddNumberToObject(f->evidence, "active_queues", 1);
		return;
	}
	if (!rss->st.known)
		return nd_finding_unknown(f, "RSS indirection table", rss->st.reason);
	if (!rss->size)
		return nd_finding_unknown(f, "RSS indirection table",
					  "the driver reports an empty table (no RSS)");
	if (!queues)
		return nd_finding_unknown(f, "rx queue count", facts->channels.st.reason);
	count_weights(rss, queues, &w);
	nd_chain_add_evidence(facts, f->evidence);
	add_evidence(rss, &w, f->evidence);
	cJSON_AddNumberToObject(f->evidence, "uneven_ratio_threshold", RSS_UNEVEN_RATIO);
	if (w.missing && rss->size < w.queues) {
		/* Not fixable in the table: fewer entries than queues. */
		nd_finding_set(f, ND_SEV_INFO, "RSS table of %u entries cannot reach all %u RX "
			       "queues: %u get no hashed flows", rss->size, w.queues, w.missing);
		nd_finding_fix(f, "channels", "ethtool -L %s combined %u", facts->ifname,
			       rss->size);
		return;
	}
	if (w.missing) {
		nd_finding_set(f, ND_SEV_WARNING, "%u of %u active RX queues have no RSS entry: "
			       "their CPUs get no hashed flows", w.missing, w.queues);
	} else if (w.max_weight >= RSS_UNEVEN_RATIO * w.min_weight &&
		   w.max_weight - w.min_weight > RSS_ROUNDING_ENTRIES) {
		nd_finding_set(f, ND_SEV_WARNING, "RSS table uneven: one queue has %u entries, "
			       "another %u (%.1fx)", w.max_weight, w.min_weight,
			       (double)w.max_weight / w.min_weight);
	} else {
		nd_finding_set(f, ND_SEV_OK, "RSS table spreads %u entries over %u queues "
			       "(%u to %u each)", rss->size, w.queues, w.min_weight, w.max_weight);
		return;
	}
	nd_finding_fix(f, "rss", "ethtool -X %s equal %u", facts->ifname, w.queues);
}

/*
 * verdict_queues.c - per-queue traffic as evidence: which queue carried the
 * packets of a run (the queue table's deltas, sampled with the per-CPU
 * load), cited by the CPU suspects' verdicts (queues.single, RSS, RPS,
 * IRQs) and deciding rss.flows_on_one_queue, which only traffic confirms:
 * several flows, several queues, one queue carrying nearly all packets.
 * Pure, like verdict.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict_int.h"

/* "Nearly all": one queue carrying 90% of several flows' packets; the
 * hash of 4 flows over 4 queues puts at most ~60% on one in practice. */
#define ONE_QUEUE_SHARE 0.90
/* Spread: no queue above 70%. */
#define SPREAD_QUEUE_SHARE 0.70
/* Fewer packets than this in a run say nothing about a hash. */
#define QUEUE_MIN_PACKETS 1000

struct queue_share {
	int top;			/* index into run->queues, -1 none */
	unsigned queues, used;		/* of this kind; with packets */
	uint64_t total;
	double share;			/* of the top queue */
};

static void share_of(const struct nd_exp_run *run, unsigned kind, struct queue_share *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->top = -1;
	for (unsigned i = 0; i < run->queues_count && i < ND_MAX_QUEUE_ROWS; i++) {
		const struct nd_exp_queue_delta *d = &run->queues[i];

		if (d->kind != kind)
			continue;
		ret->queues++;
		ret->total += d->packets;
		ret->used += d->packets > 0;
		if (ret->top < 0 || d->packets > run->queues[ret->top].packets)
			ret->top = (int)i;
	}
	if (ret->top >= 0 && ret->total)
		ret->share = (double)run->queues[ret->top].packets / (double)ret->total;
}

static const char *kind_name(unsigned kind)
{
	return kind == ND_QUEUE_RX ? "rx" : "tx";
}

static bool add_queues(cJSON *e, const struct nd_exp_run *run, unsigned kind,
		       struct queue_share *s)
{
	cJSON *arr;

	share_of(run, kind, s);
	if (s->top < 0 || !s->total)
		return false;
	arr = cJSON_AddArrayToObject(e, "queues");
	for (unsigned i = 0; arr && i < run->queues_count; i++) {
		const struct nd_exp_queue_delta *d = &run->queues[i];
		cJSON *o;
		char name[24];

		if (d->kind != kind || !(o = cJSON_CreateObject()))
			continue;
		snprintf(name, sizeof(name), "%s-%u", kind_name(kind), d->id);
		cJSON_AddStringToObject(o, "queue", name);
		cJSON_AddNumberToObject(o, "packets", (double)d->packets);
		cJSON_AddNumberToObject(o, "bytes", (double)d->bytes);
		cJSON_AddNumberToObject(o, "share_pct",
					round(1000.0 * (double)d->packets / (double)s->total) / 10.0);
		cJSON_AddItemToArray(arr, o);
	}
	return true;
}

/* The run's packets and shares into the rows of the finding's queue chain
 * (evidence.queue_chain), so that one table reads queue, IRQ, CPUs, node
 * and what the queue carried. */
static void join_chain(struct nd_finding *f, const cJSON *e)
{
	const cJSON *queues = cJSON_GetObjectItem(e, "queues"), *q;
	cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItem(f->evidence, "queue_chain")) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "queue"));

		cJSON_ArrayForEach(q, queues) {
			const char *qn = cJSON_GetStringValue(cJSON_GetObjectItem(q, "queue"));

			if (!name || !qn || strcmp(name, qn))
				continue;
			cJSON_AddNumberToObject(row, "run_packets",
						cJSON_GetNumberValue(cJSON_GetObjectItem(q, "packets")));
			cJSON_AddNumberToObject(row, "run_share_pct",
						cJSON_GetNumberValue(cJSON_GetObjectItem(q, "share_pct")));
		}
	}
}

void nd_verdict_queue_evidence(struct nd_finding *f, cJSON *e, const struct nd_exp_run *run,
			       unsigned kind, char *cite, size_t size)
{
	struct queue_share s;

	cite[0] = '\0';
	if (!add_queues(e, run, kind, &s))
		return;
	join_chain(f, e);
	snprintf(cite, size, "; %s-%u carried %.0f%% of the %d-stream run's packets",
		 kind_name(kind), run->queues[s.top].id, 100.0 * s.share, run->streams);
}

/* The run whose queues speak: RX queues receive in the reverse run. */
static const struct nd_exp_run *queue_run(const struct nd_exp_set *set, unsigned kind,
					  enum nd_exp_run_kind *ret_k)
{
	*ret_k = kind == ND_QUEUE_RX ? ND_RUN_REVERSE_MANY : ND_RUN_FORWARD_MANY;
	return nd_exp_run_get(set, *ret_k);
}

void nd_judge_queue_flows(struct nd_finding *f, const struct nd_exp_set *set)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(f->evidence, "queue_kind");
	unsigned kind = cJSON_IsString(k) && !strcmp(k->valuestring, "tx") ? ND_QUEUE_TX
									    : ND_QUEUE_RX;
	enum nd_exp_run_kind rk;
	const struct nd_exp_run *run = queue_run(set, kind, &rk);
	struct queue_share s;
	cJSON *e;

	if (!run)
		return;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "kind", "queues");
	cJSON_AddStringToObject(e, "run", nd_exp_run_name(rk));
	cJSON_AddNumberToObject(e, "streams", run->streams);
	if (!add_queues(e, run, kind, &s))
		return nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "no per-queue %s counters "
				      "during the runs", kind_name(kind));
	join_chain(f, e);
	cJSON_AddNumberToObject(e, "queues_used", s.used);
	cJSON_AddNumberToObject(e, "one_queue_from_pct", 100.0 * ONE_QUEUE_SHARE);
	if (run->streams < 2 || s.queues < 2 || s.total < QUEUE_MIN_PACKETS)
		return nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "%d stream%s, %u %s queue%s, "
				      "%llu packets: too little to judge a hash", run->streams,
				      run->streams == 1 ? "" : "s", s.queues, kind_name(kind),
				      s.queues == 1 ? "" : "s", (unsigned long long)s.total);
	if (s.share >= ONE_QUEUE_SHARE)
		return nd_verdict_set(f, ND_VERDICT_CONFIRMED, e, "%s-%u carried %.0f%% of the "
				      "%d-stream run's packets; %u of %u queues were used",
				      kind_name(kind), run->queues[s.top].id, 100.0 * s.share,
				      run->streams, s.used, s.queues);
	if (s.share < SPREAD_QUEUE_SHARE)
		return nd_verdict_set(f, ND_VERDICT_REFUTED, e, "%d streams spread over %u of %u "
				      "%s queues; the busiest, %s-%u, carried %.0f%%", run->streams,
				      s.used, s.queues, kind_name(kind), kind_name(kind),
				      run->queues[s.top].id, 100.0 * s.share);
	nd_verdict_set(f, ND_VERDICT_INCONCLUSIVE, e, "%s-%u carried %.0f%% of the %d-stream "
		       "run's packets", kind_name(kind), run->queues[s.top].id, 100.0 * s.share,
		       run->streams);
}

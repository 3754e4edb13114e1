/*
 * view.c - two watch samples as one interval's numbers (pure): device and
 * per-queue rates, per-CPU busy/softirq shares with the interrupts and
 * softnet drops each CPU took, and one line of live diagnosis when the
 * evidence holds.  The same JSON object is printed by --json and drawn as
 * text (report/watch.c), so the two never drift apart.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/watch.h"

/* A CPU "at" softirq: busy at 90% or more, at least half of it softirq
 * (the verdicts' saturation rule, src/experiment/verdict.c). */
#define CPU_PEGGED_PCT 90.0
#define CPU_SOFTIRQ_MOSTLY 0.5
/* One queue carrying 90% of a kind's packets, of at least this many a second. */
#define ONE_QUEUE_SHARE 0.90
#define ONE_QUEUE_MIN_PPS 1000.0

/* statistics/ order in struct nd_if_snap (engine/sample.c). */
enum { IF_RX_BYTES, IF_TX_BYTES, IF_RX_PACKETS, IF_TX_PACKETS, IF_RX_DROPPED, IF_TX_DROPPED,
       IF_RX_ERRORS, IF_TX_ERRORS };

static double rate(uint64_t a, uint64_t b, double dt)
{
	return b >= a && dt > 0 ? (double)(b - a) / dt : 0;
}

static double round1(double v)
{
	return round(v * 10.0) / 10.0;
}

static void add_device(cJSON *view, const struct nd_watch_sample *a,
		       const struct nd_watch_sample *b, double dt, bool summary)
{
	cJSON *d = cJSON_AddObjectToObject(view, "device");
	const uint64_t *x = a->link.v, *y = b->link.v;

	cJSON_AddNumberToObject(d, "rx_pps", round1(rate(x[IF_RX_PACKETS], y[IF_RX_PACKETS], dt)));
	cJSON_AddNumberToObject(d, "tx_pps", round1(rate(x[IF_TX_PACKETS], y[IF_TX_PACKETS], dt)));
	cJSON_AddNumberToObject(d, "rx_mbps", round1(8 * rate(x[IF_RX_BYTES], y[IF_RX_BYTES], dt) / 1e6));
	cJSON_AddNumberToObject(d, "tx_mbps", round1(8 * rate(x[IF_TX_BYTES], y[IF_TX_BYTES], dt) / 1e6));
	cJSON_AddNumberToObject(d, "rx_dropped_ps", round1(rate(x[IF_RX_DROPPED], y[IF_RX_DROPPED], dt)));
	cJSON_AddNumberToObject(d, "tx_dropped_ps", round1(rate(x[IF_TX_DROPPED], y[IF_TX_DROPPED], dt)));
	cJSON_AddNumberToObject(d, "rx_errors_ps", round1(rate(x[IF_RX_ERRORS], y[IF_RX_ERRORS], dt)));
	cJSON_AddNumberToObject(d, "tx_errors_ps", round1(rate(x[IF_TX_ERRORS], y[IF_TX_ERRORS], dt)));
	if (summary) {
		cJSON_AddNumberToObject(d, "rx_packets", (double)(y[IF_RX_PACKETS] - x[IF_RX_PACKETS]));
		cJSON_AddNumberToObject(d, "tx_packets", (double)(y[IF_TX_PACKETS] - x[IF_TX_PACKETS]));
		cJSON_AddNumberToObject(d, "rx_bytes", (double)(y[IF_RX_BYTES] - x[IF_RX_BYTES]));
		cJSON_AddNumberToObject(d, "tx_bytes", (double)(y[IF_TX_BYTES] - x[IF_TX_BYTES]));
	}
}

struct busiest {
	int row;			/* index into b->queues.q, -1 none */
	double pps, total_pps;
	unsigned queues;
};

static const struct nd_queue_row *row_in(const struct nd_queue_table *qt,
					 const struct nd_queue_row *like)
{
	for (unsigned i = 0; i < qt->count; i++)
		if (qt->q[i].kind == like->kind && qt->q[i].id == like->id)
			return qt->q[i].counters_known ? &qt->q[i] : NULL;
	return NULL;
}

static void add_queue(cJSON *arr, const struct nd_watch_ctx *ctx, const struct nd_queue_row *qa,
		      const struct nd_queue_row *qb, double dt, bool summary)
{
	const struct nd_chain_row *c = nd_chain_find(&ctx->chain, qb->kind, qb->id);
	cJSON *o = cJSON_CreateObject();
	char name[24], cpus[128];

	if (!o)
		return;
	snprintf(name, sizeof(name), "%s-%u", qb->kind == ND_QUEUE_RX ? "rx" : "tx", qb->id);
	cJSON_AddStringToObject(o, "queue", name);
	cJSON_AddNumberToObject(o, "pps", round1(rate(qa->packets, qb->packets, dt)));
	cJSON_AddNumberToObject(o, "mbps", round1(8 * rate(qa->bytes, qb->bytes, dt) / 1e6));
	if (summary) {
		cJSON_AddNumberToObject(o, "packets", (double)(qb->packets - qa->packets));
		cJSON_AddNumberToObject(o, "bytes", (double)(qb->bytes - qa->bytes));
	}
	if (c && c->irq >= 0)
		cJSON_AddNumberToObject(o, "irq", c->irq);
	if (c && c->cpus_known)
		cJSON_AddStringToObject(o, "cpus", nd_cpuset_format_list(&c->cpus, cpus,
									sizeof(cpus)));
	cJSON_AddStringToObject(o, "source", qb->counter_source);
	cJSON_AddItemToArray(arr, o);
}

/* Per-queue rates of the queues counted in both samples; busiest per kind. */
static void add_queues(cJSON *view, const struct nd_watch_ctx *ctx,
		       const struct nd_watch_sample *a, const struct nd_watch_sample *b,
		       double dt, bool summary, struct busiest *best)
{
	cJSON *arr = cJSON_AddArrayToObject(view, "queues");

	best[0] = best[1] = (struct busiest){ .row = -1 };
	for (unsigned i = 0; b->queues_known && a->queues_known && i < b->queues.count; i++) {
		const struct nd_queue_row *qb = &b->queues.q[i], *qa;
		struct busiest *k;
		double pps;

		if (!qb->counters_known || !(qa = row_in(&a->queues, qb)) ||
		    qb->packets < qa->packets || qb->bytes < qa->bytes)
			continue;
		add_queue(arr, ctx, qa, qb, dt, summary);
		pps = rate(qa->packets, qb->packets, dt);
		k = &best[qb->kind == ND_QUEUE_TX];
		k->queues++;
		k->total_pps += pps;
		if (k->row < 0 || pps > k->pps) {
			k->row = (int)i;
			k->pps = pps;
		}
	}
	/* Shares of each kind's packets, for the eye and the diagnosis. */
	for (cJSON *o = arr ? arr->child : NULL; o; o = o->next) {
		const cJSON *q = cJSON_GetObjectItem(o, "queue"), *p = cJSON_GetObjectItem(o, "pps");
		double total = best[q->valuestring[0] == 't'].total_pps;

		cJSON_AddNumberToObject(o, "share_pct", total > 0 ? round1(100 * p->valuedouble / total)
								  : 0);
	}
}

struct cpu_view {
	int count;
	struct nd_engine_cpu_share share[ND_ENGINE_MAX_CPUS];
	double dropped_ps_total, squeezed_ps_total;
	int worst_drop_cpu;
	double worst_drop_ps;
};

static double softnet_rate(const struct nd_softnet *a, const struct nd_softnet *b, unsigned i,
			   bool squeezed, double dt)
{
	for (unsigned j = 0; j < a->count; j++)
		if (a->cpu[j].cpu == b->cpu[i].cpu)
			return squeezed ? rate(a->cpu[j].time_squeeze, b->cpu[i].time_squeeze, dt)
					: rate(a->cpu[j].dropped, b->cpu[i].dropped, dt);
	return 0;
}

static cJSON *cpu_object(const struct nd_watch_sample *a, const struct nd_watch_sample *b,
			 const struct nd_engine_cpu_share *s, double dt, struct cpu_view *cv)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "cpu", s->cpu);
	cJSON_AddNumberToObject(o, "busy_pct", round1(s->busy_pct));
	cJSON_AddNumberToObject(o, "softirq_pct", round1(s->softirq_pct));
	for (unsigned c = 0; a->irqs.known && b->irqs.known && c < b->irqs.n_columns; c++)
		if ((int)b->irqs.column_cpu[c] == s->cpu && c < a->irqs.n_columns)
			cJSON_AddNumberToObject(o, "interrupts_ps",
						round1(rate(a->irqs.per_column[c],
							    b->irqs.per_column[c], dt)));
	for (unsigned i = 0; a->softnet.st.known && b->softnet.st.known && i < b->softnet.count;
	     i++) {
		double drop, squeeze;

		if ((int)b->softnet.cpu[i].cpu != s->cpu)
			continue;
		drop = softnet_rate(&a->softnet, &b->softnet, i, false, dt);
		squeeze = softnet_rate(&a->softnet, &b->softnet, i, true, dt);
		cJSON_AddNumberToObject(o, "softnet_dropped_ps", round1(drop));
		cJSON_AddNumberToObject(o, "softnet_squeezed_ps", round1(squeeze));
		cv->dropped_ps_total += drop;
		cv->squeezed_ps_total += squeeze;
		if (drop > cv->worst_drop_ps) {
			cv->worst_drop_ps = drop;
			cv->worst_drop_cpu = s->cpu;
		}
	}
	return o;
}

static void add_cpus(cJSON *view, const struct nd_watch_sample *a,
		     const struct nd_watch_sample *b, double dt, struct cpu_view *cv)
{
	cJSON *arr = cJSON_AddArrayToObject(view, "cpus"), *sn;

	memset(cv, 0, sizeof(*cv));
	cv->worst_drop_cpu = -1;
	if (a->cpus_known && b->cpus_known)
		cv->count = nd_cpu_shares(&a->cpus, &b->cpus, cv->share, ND_ENGINE_MAX_CPUS);
	for (int i = 0; arr && i < cv->count; i++)
		cJSON_AddItemToArray(arr, cpu_object(a, b, &cv->share[i], dt, cv));
	sn = cJSON_AddObjectToObject(view, "softnet");
	if (a->softnet.st.known && b->softnet.st.known) {
		cJSON_AddNumberToObject(sn, "dropped_ps", round1(cv->dropped_ps_total));
		cJSON_AddNumberToObject(sn, "squeezed_ps", round1(cv->squeezed_ps_total));
	}
}

static bool rps_off(const struct nd_facts *facts)
{
	return facts->queues.st.known && facts->queues.n_rx >= 1 &&
	       nd_cpuset_empty(&facts->queues.rps_cpus[0]);
}

/* The RX queue whose IRQ the chain puts on cpu, -1 none. */
static int rx_queue_on(const struct nd_chain *chain, int cpu)
{
	for (unsigned i = 0; i < chain->count; i++)
		if (chain->r[i].kind == ND_QUEUE_RX && chain->r[i].cpus_known &&
		    nd_cpuset_count(&chain->r[i].cpus) == 1 &&
		    nd_cpuset_has(&chain->r[i].cpus, (unsigned)cpu))
			return (int)chain->r[i].id;
	return -1;
}

static void diagnose(cJSON *view, const struct nd_watch_ctx *ctx, const struct nd_watch_sample *b,
		     const struct busiest *best, const struct cpu_view *cv)
{
	const struct nd_engine_cpu_share *top = NULL;
	unsigned n_rx = ctx->chain.n_rx;
	char line[256] = "";
	int q;

	for (int i = 0; i < cv->count; i++)
		if (cv->share[i].busy_pct >= CPU_PEGGED_PCT &&
		    cv->share[i].softirq_pct >= CPU_SOFTIRQ_MOSTLY * cv->share[i].busy_pct &&
		    (!top || cv->share[i].softirq_pct > top->softirq_pct))
			top = &cv->share[i];
	if (top && (q = rx_queue_on(&ctx->chain, top->cpu)) >= 0)
		snprintf(line, sizeof(line), "CPU %d at %.0f%% softirq takes rx-%d%s%s", top->cpu,
			 top->softirq_pct, q, n_rx == 1 ? ", the only RX queue" : "",
			 n_rx == 1 && rps_off(ctx->facts) ? "; RPS off: see rps.off_single_queue"
							 : "");
	else if (top)
		snprintf(line, sizeof(line), "CPU %d at %.0f%% softirq", top->cpu, top->softirq_pct);
	for (int k = 0; k < 2 && !line[0]; k++)
		if (best[k].queues >= 2 && best[k].total_pps >= ONE_QUEUE_MIN_PPS &&
		    best[k].pps >= ONE_QUEUE_SHARE * best[k].total_pps)
			snprintf(line, sizeof(line), "%s-%u carries %.0f%% of the packets of %u %s "
				 "queues: see rss.flows_on_one_queue", k ? "tx" : "rx",
				 b->queues.q[best[k].row].id, 100 * best[k].pps / best[k].total_pps,
				 best[k].queues, k ? "TX" : "RX");
	if (!line[0] && cv->worst_drop_cpu >= 0)
		snprintf(line, sizeof(line), "CPU %d drops %.0f packets/s at a full backlog: see "
			 "softnet.dropped", cv->worst_drop_cpu, cv->worst_drop_ps);
	if (!line[0]) {
		const cJSON *d = cJSON_GetObjectItem(cJSON_GetObjectItem(view, "device"),
						     "rx_dropped_ps");

		if (cJSON_IsNumber(d) && d->valuedouble > 0)
			snprintf(line, sizeof(line), "the interface drops %.0f received packets/s: "
				 "see nic.rx_dropped", d->valuedouble);
	}
	if (line[0])
		cJSON_AddStringToObject(view, "diagnosis", line);
	else
		cJSON_AddNullToObject(view, "diagnosis");
}

/* What could not be read, and why (a user without root sees which). */
static void add_unavailable(cJSON *view, const struct nd_watch_ctx *ctx,
			    const struct nd_watch_sample *b)
{
	cJSON *arr = cJSON_AddArrayToObject(view, "unavailable");
	struct { bool missing; const char *what, *why; } items[] = {
		{ !b->link.valid, "device counters", "cannot read 'statistics/' of the interface" },
		{ !b->queues_known, "per-queue counters", b->queues_reason },
		{ !b->softnet.st.known, "softnet_stat", b->softnet.st.reason },
		{ !b->cpus_known, "per-CPU load", "cannot read '/proc/stat'" },
		{ !b->irqs.known, "interrupts per CPU", ctx->n_irqs ? "cannot read '/proc/interrupts'"
				 : ctx->facts->irqs.st.reason },
	};

	for (size_t i = 0; arr && i < sizeof(items) / sizeof(items[0]); i++) {
		cJSON *o;

		if (!items[i].missing || !(o = cJSON_CreateObject()))
			continue;
		cJSON_AddStringToObject(o, "what", items[i].what);
		cJSON_AddStringToObject(o, "reason", items[i].why && items[i].why[0] ? items[i].why
										     : "unknown");
		cJSON_AddItemToArray(arr, o);
	}
}

cJSON *nd_watch_view(const struct nd_watch_ctx *ctx, const struct nd_watch_sample *a,
		     const struct nd_watch_sample *b, unsigned index, bool summary)
{
	cJSON *view = cJSON_CreateObject();
	double dt = b->t_sec - a->t_sec;
	struct busiest best[2];
	struct cpu_view *cv = calloc(1, sizeof(*cv));

	if (!view || !cv) {
		cJSON_Delete(view);
		free(cv);
		return NULL;
	}
	cJSON_AddStringToObject(view, "type", summary ? "summary" : "interval");
	cJSON_AddStringToObject(view, "interface", ctx->ifname);
	cJSON_AddNumberToObject(view, summary ? "intervals" : "interval", index);
	cJSON_AddNumberToObject(view, summary ? "duration_s" : "seconds", round(dt * 1000) / 1000);
	add_device(view, a, b, dt, summary);
	add_queues(view, ctx, a, b, dt, summary, best);
	add_cpus(view, a, b, dt, cv);
	if (!summary)
		diagnose(view, ctx, b, best, cv);
	add_unavailable(view, ctx, b);
	free(cv);
	return view;
}

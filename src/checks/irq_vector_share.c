/*
 * irq_vector_share.c - the queue interrupts' shares by vector and by CPU,
 * and the pattern they make (see irq_vector_share.h), for irq.concentrated
 * and rss.flows_on_one_queue.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_window.h"
#include "irq_vector_share.h"
#include "nic_common.h"

/* One CPU taking this share of all queue interrupts is "concentrated":
 * a spread over two CPUs already gives each about half. */
#define ONE_CPU_SHARE 0.90
/* One vector of three or more with half of all interrupts and at least
 * twice its fair share (1/n) is "one hot": a hash that spreads flows
 * evenly gives each queue 1/n.  Of two vectors, one needs three times the
 * other's count (75%) for the same word. */
#define ONE_HOT_SHARE 0.50
#define ONE_HOT_FAIR_TIMES 2.0
#define ONE_HOT_SHARE_OF_TWO 0.75

double nd_share_pct1(double share)
{
	return round(share * 1000.0) / 10.0;
}

static double hot_share(unsigned vectors)
{
	double twice_fair = ONE_HOT_FAIR_TIMES / (double)(vectors ? vectors : 1);

	if (vectors == 2)
		return ONE_HOT_SHARE_OF_TWO;
	return twice_fair > ONE_HOT_SHARE ? twice_fair : ONE_HOT_SHARE;
}

void nd_irq_share_classify(const uint64_t *per_vector, unsigned n_vectors,
			   const uint64_t *per_cpu, const unsigned *column_cpu, unsigned n_cpus,
			   struct nd_irq_share *ret)
{
	uint64_t top_vector = 0, top_cpu = 0, total = 0;
	unsigned top_column = 0;

	ret->vectors = n_vectors;
	ret->per_vector_known = per_vector != NULL;
	ret->hot_share = hot_share(n_vectors);
	ret->top_vector_share = ret->top_cpu_share = 0;
	ret->top_cpu = 0;
	for (unsigned c = 0; c < n_cpus; c++) {
		total += per_cpu[c];
		if (per_cpu[c] > top_cpu) {
			top_cpu = per_cpu[c];
			top_column = c;
		}
	}
	for (unsigned v = 0; per_vector && v < n_vectors; v++)
		if (per_vector[v] > top_vector)
			top_vector = per_vector[v];
	ret->total = total;
	if (n_cpus)
		ret->top_cpu = column_cpu ? column_cpu[top_column] : top_column;
	if (total) {
		ret->top_cpu_share = (double)top_cpu / (double)total;
		ret->top_vector_share = (double)top_vector / (double)total;
	}
	if (total < ND_IRQ_MIN_COUNTS || n_vectors < 2)
		ret->pattern = ND_IRQ_FEW;
	else if (per_vector && ret->top_vector_share >= ND_ONE_BUSY_SHARE)
		ret->pattern = ND_IRQ_ONE_BUSY;
	else if (n_cpus >= 2 && ret->top_cpu_share >= ONE_CPU_SHARE)
		ret->pattern = ND_IRQ_ONE_CPU;
	else if (per_vector && ret->top_vector_share >= ret->hot_share)
		ret->pattern = ND_IRQ_ONE_HOT;
	else
		ret->pattern = ND_IRQ_SPREAD;
}

static bool serves_queue(const struct nd_facts *facts, const struct nd_chain *chain,
			 const struct nd_irq *irq)
{
	return chain ? nd_chain_irq_serves_queue(chain, irq) : nd_facts_irq_serves_queue(facts, irq);
}

/* The queue an IRQ serves: the chain's row (RX first), else the number
 * that ends its name ("eth0-TxRx-3", "eth0-3", "virtio0-input.3"). */
static int queue_of(const struct nd_chain *chain, const struct nd_irq *irq)
{
	size_t len = strlen(irq->name);
	int found = -1;

	for (unsigned i = 0; chain && i < chain->count && i < ND_MAX_QUEUE_ROWS; i++)
		if (chain->r[i].irq >= 0 && (unsigned)chain->r[i].irq == irq->irq &&
		    (found < 0 || chain->r[i].kind == ND_QUEUE_RX))
			found = (int)chain->r[i].id;
	if (found >= 0 || !len || !isdigit((unsigned char)irq->name[len - 1]))
		return found;
	while (len && isdigit((unsigned char)irq->name[len - 1]))
		len--;
	/* "mlx5_comp3@pci:0000:09:00.0" ends in a PCI function, not a queue */
	if (strchr(irq->name, '@') || strchr(irq->name, ':'))
		return -1;
	return atoi(irq->name + len);
}

static void set_top(const struct nd_chain *chain, const struct nd_irq *irq,
		    struct nd_irq_share *ret)
{
	ret->top_irq = irq ? irq->irq : 0;
	ret->top_name = irq ? irq->name : "";
	ret->top_queue = irq ? queue_of(chain, irq) : -1;
}

void nd_irq_share_boot(const struct nd_facts *facts, const struct nd_chain *chain,
		       struct nd_irq_share *ret)
{
	const struct nd_irqs *irqs = &facts->irqs;
	unsigned columns = nd_irq_columns(facts), n = 0;
	uint64_t *per_vector = calloc(ND_MAX_IRQS, sizeof(*per_vector));
	uint64_t per_cpu[ND_IRQ_MAX_CPUS] = { 0 };
	unsigned column_cpu[ND_IRQ_MAX_CPUS];
	const struct nd_irq *top = NULL;
	uint64_t top_count = 0;

	memset(ret, 0, sizeof(*ret));
	for (unsigned c = 0; c < columns; c++)
		column_cpu[c] = nd_irq_column_cpu(facts, c);
	for (unsigned i = 0; irqs->st.known && i < irqs->count && i < ND_MAX_IRQS; i++) {
		const struct nd_irq *irq = &irqs->irq[i];
		uint64_t sum = 0;

		if (!serves_queue(facts, chain, irq))
			continue;
		for (unsigned c = 0; c < columns; c++) {
			per_cpu[c] += irq->per_cpu[c];
			sum += irq->per_cpu[c];
		}
		if (per_vector)
			per_vector[n] = sum;
		n++;
		if (!top || sum > top_count) {
			top = irq;
			top_count = sum;
		}
	}
	nd_irq_share_classify(per_vector, n, per_cpu, column_cpu, columns, ret);
	set_top(chain, top, ret);
	free(per_vector);
}

static uint64_t sum_of(const struct nd_irq_sums *s, unsigned irq, bool *ret_found)
{
	for (unsigned i = 0; i < s->irqs && i < ND_MAX_IRQS; i++)
		if (s->irq_number[i] == irq) {
			*ret_found = true;
			return s->per_irq[i];
		}
	*ret_found = false;
	return 0;
}

static const struct nd_irq *irq_by_number(const struct nd_facts *facts, unsigned number)
{
	for (unsigned i = 0; i < facts->irqs.count && i < ND_MAX_IRQS; i++)
		if (facts->irqs.irq[i].irq == number)
			return &facts->irqs.irq[i];
	return NULL;
}

bool nd_irq_share_window(const struct nd_facts *facts, const struct nd_chain *chain,
			 struct nd_irq_share *ret)
{
	const struct nd_counter_window *w = &facts->window;
	const struct nd_irq_sums *a = &w->before.queue_irqs, *b = &w->after.queue_irqs;
	uint64_t per_cpu[ND_IRQ_MAX_CPUS], *per_vector;
	unsigned n = 0, top_number = 0;
	uint64_t top_count = 0;
	bool have_top = false;

	memset(ret, 0, sizeof(*ret));
	ret->from_window = true;
	ret->top_queue = -1;
	ret->top_name = "";
	if (!w->known || !a->known || !b->known || a->n_columns != b->n_columns ||
	    b->n_columns > ND_IRQ_MAX_CPUS)
		return false;
	for (unsigned c = 0; c < b->n_columns; c++)
		per_cpu[c] = nd_counter_delta(a->per_column[c], b->per_column[c]);
	/* Per vector only when both reads have them (a read before the sums
	 * kept each IRQ's count has none). */
	per_vector = b->irqs && a->irqs ? calloc(ND_MAX_IRQS, sizeof(*per_vector)) : NULL;
	for (unsigned i = 0; per_vector && i < b->irqs && i < ND_MAX_IRQS; i++) {
		bool found;
		uint64_t old = sum_of(a, b->irq_number[i], &found);

		if (!found)
			continue;
		per_vector[n] = nd_counter_delta(old, b->per_irq[i]);
		if (!have_top || per_vector[n] > top_count) {
			have_top = true;
			top_count = per_vector[n];
			top_number = b->irq_number[i];
		}
		n++;
	}
	if (!per_vector)	/* how many fire is then the facts' count of queue IRQs */
		for (unsigned i = 0; i < facts->irqs.count && i < ND_MAX_IRQS; i++)
			n += serves_queue(facts, chain, &facts->irqs.irq[i]);
	nd_irq_share_classify(per_vector, n, per_cpu, b->column_cpu, b->n_columns, ret);
	ret->from_window = true;
	set_top(chain, have_top ? irq_by_number(facts, top_number) : NULL, ret);
	free(per_vector);
	return true;
}

void nd_irq_share_judged(const struct nd_facts *facts, const struct nd_chain *chain,
			 struct nd_irq_share *ret, struct nd_irq_share *ret_boot)
{
	struct nd_irq_share boot;

	nd_irq_share_boot(facts, chain, &boot);
	if (ret_boot)
		*ret_boot = boot;
	if (nd_irq_share_window(facts, chain, ret) && ret->total >= ND_IRQ_MIN_COUNTS)
		return;
	*ret = boot;
}

const char *nd_irq_pattern_name(enum nd_irq_pattern pattern)
{
	switch (pattern) {
	case ND_IRQ_ONE_BUSY:
		return "one-busy";
	case ND_IRQ_ONE_HOT:
		return "one-hot";
	case ND_IRQ_ONE_CPU:
		return "one-cpu";
	case ND_IRQ_SPREAD:
		return "spread";
	case ND_IRQ_FEW:
		break;
	}
	return "few-counts";
}

const char *nd_irq_share_when(const struct nd_facts *facts, const struct nd_irq_share *s,
			      char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", s->from_window ? "in " : "since boot",
		 s->from_window ? facts->window.label : "");
	return buf;
}

void nd_irq_share_evidence(const struct nd_irq_share *s, cJSON *evidence)
{
	cJSON *obj = cJSON_AddObjectToObject(evidence, "irq_vectors");

	cJSON_AddStringToObject(evidence, "pattern", nd_irq_pattern_name(s->pattern));
	cJSON_AddStringToObject(obj, "pattern", nd_irq_pattern_name(s->pattern));
	cJSON_AddStringToObject(obj, "from", s->from_window ? "window" : "since boot");
	cJSON_AddNumberToObject(obj, "vectors", s->vectors);
	cJSON_AddNumberToObject(obj, "interrupts", (double)s->total);
	if (s->per_vector_known && s->total) {
		cJSON_AddNumberToObject(obj, "busiest_vector_irq", s->top_irq);
		if (s->top_name && s->top_name[0])
			cJSON_AddStringToObject(obj, "busiest_vector_name", s->top_name);
		if (s->top_queue >= 0)
			cJSON_AddNumberToObject(obj, "busiest_vector_queue", s->top_queue);
		else
			cJSON_AddNullToObject(obj, "busiest_vector_queue");
		cJSON_AddNumberToObject(obj, "busiest_vector_share_pct",
					nd_share_pct1(s->top_vector_share));
	}
	if (s->total) {
		cJSON_AddNumberToObject(obj, "busiest_cpu", s->top_cpu);
		cJSON_AddNumberToObject(obj, "busiest_cpu_share_pct", nd_share_pct1(s->top_cpu_share));
	}
	cJSON_AddNumberToObject(obj, "min_interrupts", ND_IRQ_MIN_COUNTS);
	cJSON_AddNumberToObject(obj, "one_busy_share_pct", ND_ONE_BUSY_SHARE * 100);
	cJSON_AddNumberToObject(obj, "one_cpu_share_pct", ONE_CPU_SHARE * 100);
	cJSON_AddNumberToObject(obj, "one_hot_share_pct", nd_share_pct1(s->hot_share));
}

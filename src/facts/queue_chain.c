/*
 * queue_chain.c - the queue -> NAPI -> IRQ -> CPU chain, one table built
 * from the facts for the IRQ, queue, RSS and RPS checks, the experiments'
 * evidence and `watch`.  The kernel's netdev family names a queue's IRQ
 * where the driver links its NAPI to one (napi-get irq); elsewhere the IRQ
 * action names are read the way each driver writes them.  Pure.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "nicdoctor/queues.h"

#define QUEUE_RX_BIT 1u
#define QUEUE_TX_BIT 2u

/* Queue number after token in name; -1 when token is absent or no digits follow. */
static long number_after(const char *name, const char *token)
{
	const char *p = strstr(name, token);
	char *end;
	long v;

	if (!p || !isdigit((unsigned char)p[strlen(token)]))
		return -1;
	v = strtol(p + strlen(token), &end, 10);
	return v >= 0 && v < ND_MAX_QUEUES ? v : -1;
}

/* Which queue an IRQ action name serves, as drivers name them: virtio_net
 * "virtio2-input.0"/"output.0"; Intel "eth0-TxRx-3", igb "eth0-rx-0";
 * ena "eth0-Tx-Rx-2"; mlx5 "mlx5_comp2@pci:...".  -1 when it names none. */
static long irq_name_queue(const char *name, unsigned *ret_kinds)
{
	static const struct { const char *token; unsigned kinds; } forms[] = {
		{ "input.", QUEUE_RX_BIT }, { "output.", QUEUE_TX_BIT },
		{ "TxRx-", QUEUE_RX_BIT | QUEUE_TX_BIT }, { "Tx-Rx-", QUEUE_RX_BIT | QUEUE_TX_BIT },
		{ "-rx-", QUEUE_RX_BIT }, { "-tx-", QUEUE_TX_BIT },
		{ "_comp", QUEUE_RX_BIT | QUEUE_TX_BIT },
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		long q = number_after(name, forms[i].token);

		if (q >= 0) {
			*ret_kinds = forms[i].kinds;
			return q;
		}
	}
	return -1;
}

static const struct nd_irq *irq_by_number(const struct nd_irqs *irqs, int number)
{
	if (!irqs->st.known || number < 0)
		return NULL;
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS; i++)
		if (irqs->irq[i].irq == (unsigned)number)
			return &irqs->irq[i];
	return NULL;
}

static void irqs_by_name(const struct nd_irqs *irqs, struct nd_chain *c)
{
	for (unsigned i = 0; irqs->st.known && i < irqs->count && i < ND_MAX_IRQS; i++) {
		unsigned kinds = 0;
		long q;

		if (!nd_irq_is_queue(&irqs->irq[i]) ||
		    (q = irq_name_queue(irqs->irq[i].name, &kinds)) < 0)
			continue;
		for (unsigned r = 0; r < c->count; r++) {
			struct nd_chain_row *row = &c->r[r];

			if (row->irq < 0 && row->id == (unsigned)q &&
			    (kinds & (row->kind == ND_QUEUE_RX ? QUEUE_RX_BIT : QUEUE_TX_BIT))) {
				row->irq = (int)irqs->irq[i].irq;
				row->irq_source = "irq name";
			}
		}
	}
}

void nd_queue_chain_build(const struct nd_facts *facts, struct nd_chain *ret)
{
	const struct nd_queue_table *qt = &facts->queue_table;
	int node = facts->pci.st.known ? facts->pci.numa_node : -1;

	memset(ret, 0, sizeof(*ret));
	for (unsigned i = 0; qt->st.known && i < qt->count && i < ND_MAX_QUEUE_ROWS; i++) {
		const struct nd_queue_row *q = &qt->q[i];
		struct nd_chain_row *row = &ret->r[ret->count++];

		row->kind = q->kind;
		row->id = q->id;
		row->napi_id = q->napi_id;
		row->napi_pid = q->napi_pid;
		row->irq = q->irq;
		row->irq_source = q->irq >= 0 ? "netdev" : "";
		ret->kernel_irqs |= q->irq >= 0;
		row->counters_known = q->counters_known;
		row->packets = q->packets;
		row->bytes = q->bytes;
		row->counter_source = q->counter_source;
		row->numa_node = node;
		if (q->kind == ND_QUEUE_RX)
			ret->n_rx++;
		else
			ret->n_tx++;
	}
	irqs_by_name(&facts->irqs, ret);
	for (unsigned i = 0; i < ret->count; i++) {
		const struct nd_irq *irq = irq_by_number(&facts->irqs, ret->r[i].irq);

		if (irq && (irq->effective_known || irq->affinity_known)) {
			ret->r[i].cpus = irq->effective_known ? irq->effective : irq->affinity;
			ret->r[i].cpus_known = true;
		}
	}
}

const struct nd_chain_row *nd_chain_find(const struct nd_chain *c, unsigned kind, unsigned id)
{
	for (unsigned i = 0; i < c->count; i++)
		if (c->r[i].kind == kind && c->r[i].id == id)
			return &c->r[i];
	return NULL;
}

static uint64_t kind_total(const struct nd_chain *c, const uint64_t *deltas, unsigned kind)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < c->count; i++)
		if (c->r[i].kind == kind)
			total += deltas[i];
	return total;
}

cJSON *nd_chain_to_json(const struct nd_chain *c, const uint64_t *deltas)
{
	uint64_t totals[2] = { 0, 0 };
	cJSON *arr = cJSON_CreateArray();

	if (deltas) {
		totals[ND_QUEUE_RX] = kind_total(c, deltas, ND_QUEUE_RX);
		totals[ND_QUEUE_TX] = kind_total(c, deltas, ND_QUEUE_TX);
	}
	for (unsigned i = 0; arr && i < c->count; i++) {
		const struct nd_chain_row *r = &c->r[i];
		cJSON *o = cJSON_CreateObject();
		char name[24], cpus[256];

		if (!o)
			break;
		snprintf(name, sizeof(name), "%s-%u", r->kind == ND_QUEUE_RX ? "rx" : "tx", r->id);
		cJSON_AddStringToObject(o, "queue", name);
		if (r->napi_id)
			cJSON_AddNumberToObject(o, "napi_id", r->napi_id);
		if (r->irq >= 0) {
			cJSON_AddNumberToObject(o, "irq", r->irq);
			cJSON_AddStringToObject(o, "irq_source", r->irq_source);
		} else {
			cJSON_AddNullToObject(o, "irq");
		}
		if (r->cpus_known)
			cJSON_AddStringToObject(o, "cpus", nd_cpuset_format_list(&r->cpus, cpus,
										sizeof(cpus)));
		if (r->numa_node >= 0)
			cJSON_AddNumberToObject(o, "numa_node", r->numa_node);
		if (deltas && totals[r->kind]) {
			cJSON_AddNumberToObject(o, "packets", (double)deltas[i]);
			cJSON_AddNumberToObject(o, "share_pct",
						(double)(long)(1000.0 * (double)deltas[i] /
							       (double)totals[r->kind]) / 10.0);
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

void nd_chain_add_evidence(const struct nd_facts *facts, cJSON *evidence)
{
	struct nd_chain *c = calloc(1, sizeof(*c));

	if (!c)
		return;
	nd_queue_chain_build(facts, c);
	if (c->count)
		cJSON_AddItemToObject(evidence, "queue_chain", nd_chain_to_json(c, NULL));
	free(c);
}

bool nd_chain_irq_serves_queue(const struct nd_chain *c, const struct nd_irq *irq)
{
	if (!c || !c->kernel_irqs)
		return nd_irq_is_queue(irq);
	for (unsigned i = 0; i < c->count; i++)
		if (c->r[i].irq >= 0 && (unsigned)c->r[i].irq == irq->irq)
			return true;
	return false;
}

bool nd_facts_irq_serves_queue(const struct nd_facts *facts, const struct nd_irq *irq)
{
	const struct nd_queue_table *qt = &facts->queue_table;
	bool kernel_irqs = false;

	for (unsigned i = 0; qt->st.known && i < qt->count && i < ND_MAX_QUEUE_ROWS; i++) {
		if (qt->q[i].irq < 0)
			continue;
		kernel_irqs = true;
		if ((unsigned)qt->q[i].irq == irq->irq)
			return true;
	}
	return !kernel_irqs && nd_irq_is_queue(irq);
}

unsigned nd_facts_queue_irqs(const struct nd_facts *facts, unsigned *ret, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; facts->irqs.st.known && i < facts->irqs.count && i < ND_MAX_IRQS &&
			     n < max; i++)
		if (nd_facts_irq_serves_queue(facts, &facts->irqs.irq[i]))
			ret[n++] = facts->irqs.irq[i].irq;
	return n;
}

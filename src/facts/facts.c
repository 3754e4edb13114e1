/*
 * facts.c - small accessors over struct nd_facts shared by checks and
 * reports, and the one walk that cleans every string the probe read.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/sanitize.h"

#define CLEAN(field) nd_sanitize_buf((field), sizeof(field), 0)

void nd_facts_free(struct nd_facts *facts)
{
	free(facts);
}

void nd_status_set_known(struct nd_status *st)
{
	st->known = true;
	st->reason[0] = '\0';
}

void nd_status_set_unknown(struct nd_status *st, const char *fmt, ...)
{
	va_list ap;

	st->known = false;
	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
}

const struct nd_feature *nd_facts_feature(const struct nd_facts *facts, const char *name)
{
	if (!facts->features.st.known)
		return NULL;
	for (unsigned i = 0; i < facts->features.count && i < ND_MAX_FEATURES; i++)
		if (!strcmp(facts->features.f[i].name, name))
			return &facts->features.f[i];
	return NULL;
}

/* The receive vectors among the interface's IRQs, by their names: the rx
 * or combined ones ("eth0-TxRx-3", "enp1s0-rx-0", "virtio0-input.0",
 * "mlx5_comp0@pci:..."), else the numbered ones ("eth0-0"); not tx-only
 * vectors, nor the one named just after the interface (igb's link IRQ). */
static unsigned rx_vectors(const struct nd_facts *facts)
{
	const struct nd_irqs *irqs = &facts->irqs;
	unsigned rx = 0, plain = 0;

	if (!irqs->st.known)
		return 0;
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS; i++) {
		const struct nd_irq *irq = &irqs->irq[i];
		char name[sizeof(irq->name)];

		if (!nd_irq_is_queue(irq) || !strcmp(irq->name, facts->ifname))
			continue;
		for (size_t c = 0; c < sizeof(name); c++) {
			name[c] = (char)tolower((unsigned char)irq->name[c]);
			if (!name[c])
				break;
		}
		name[sizeof(name) - 1] = '\0';
		if (strstr(name, "rx") || strstr(name, "input") || strstr(name, "comp"))
			rx++;
		else if (!strstr(name, "tx") && !strstr(name, "output"))
			plain++;
	}
	return rx ? rx : plain;
}

/* The count and where it came from (what nd_facts_rx_queues returns). */
static unsigned rx_queues_from(const struct nd_facts *facts, char *buf, size_t size)
{
	const struct nd_channels *ch = &facts->channels;
	unsigned allocated = facts->link.st.known ? facts->link.rx_queues : 0, vectors;

	/* Channels are what the driver uses; a device with separate rx and
	 * combined channels receives on both. */
	if (ch->st.known && (ch->combined || ch->rx)) {
		snprintf(buf, size, "ethtool -l%s%s", ch->st.source[0] ? ": " : "", ch->st.source);
		return ch->combined + ch->rx;
	}
	/* sysfs has an rx-N directory per queue in use (real_num_rx_queues). */
	if (facts->queues.st.known && facts->queues.n_rx) {
		snprintf(buf, size, "sys/class/net/%s/queues", facts->ifname);
		return facts->queues.n_rx;
	}
	/* rtnetlink's count is what the device allocated: one allocated is
	 * one in use; more is only an upper bound on the vectors. */
	if (allocated == 1) {
		snprintf(buf, size, "numrxqueues 1 (%s): one queue allocated",
			 facts->link.st.source[0] ? facts->link.st.source : "rtnetlink");
		return 1;
	}
	vectors = rx_vectors(facts);
	if (vectors) {
		if (allocated && vectors > allocated)
			vectors = allocated;
		snprintf(buf, size, "%u receive IRQ%s named for %s in /proc/interrupts "
			 "(%s: no ethtool -l)", vectors, vectors == 1 ? "" : "s", facts->ifname,
			 facts->irqs.list_source[0] ? facts->irqs.list_source : "irq names");
		return vectors;
	}
	snprintf(buf, size, "%s%s", ch->st.reason,
		 allocated > 1 ? "; numrxqueues (allocated, an upper bound) is not the count in use"
			       : "");
	return 0;
}

unsigned nd_facts_rx_queues(const struct nd_facts *facts)
{
	char ignored[ND_REASON_LEN];

	return rx_queues_from(facts, ignored, sizeof(ignored));
}

unsigned nd_facts_rx_queues_source(const struct nd_facts *facts, char *buf, size_t size)
{
	return rx_queues_from(facts, buf, size);
}

static void pcie_link_sanitize(struct nd_pcie_link *l)
{
	CLEAN(l->address);
	CLEAN(l->name);
	CLEAN(l->port_type);
	CLEAN(l->link_reason);
}

static void sysctls_sanitize(struct nd_sysctls *s)
{
	struct nd_sysctl *all[] = {
		&s->rmem_max, &s->wmem_max, &s->netdev_max_backlog, &s->netdev_budget,
		&s->rps_sock_flow_entries, &s->default_qdisc, &s->tcp_rmem, &s->tcp_wmem,
		&s->tcp_congestion_control,
	};

	for (size_t i = 0; i < ND_ARRAY_SIZE(all); i++) {
		CLEAN(all[i]->text);
		CLEAN(all[i]->reason);
		CLEAN(all[i]->source);
	}
}

static void lists_sanitize(struct nd_facts *f)
{
	struct nd_linkmodes *lm = &f->linkmodes;

	for (unsigned i = 0; i < lm->n_supported && i < ND_MAX_LINKMODES; i++)
		CLEAN(lm->supported[i]);
	for (unsigned i = 0; i < lm->n_advertised && i < ND_MAX_LINKMODES; i++)
		CLEAN(lm->advertised[i]);
	for (unsigned i = 0; i < lm->n_lp_advertised && i < ND_MAX_LINKMODES; i++)
		CLEAN(lm->lp_advertised[i]);
	for (unsigned i = 0; i < f->features.count && i < ND_MAX_FEATURES; i++)
		CLEAN(f->features.f[i].name);
	for (unsigned i = 0; i < f->nicstats.count && i < ND_MAX_STATS; i++)
		CLEAN(f->nicstats.s[i].name);
	for (unsigned i = 0; i < f->irqs.count && i < ND_MAX_IRQS; i++)
		CLEAN(f->irqs.irq[i].name);
	for (unsigned i = 0; i < ND_MAX_CPUS; i++)
		CLEAN(f->cpus.governor[i]);
	pcie_link_sanitize(&f->pci.dev);
	for (unsigned i = 0; i < f->pci.n_upstream && i < ND_MAX_PCI_CHAIN; i++)
		pcie_link_sanitize(&f->pci.upstream[i]);
	for (unsigned i = 0; i < f->pci.n_siblings && i < ND_MAX_SIBLINGS; i++)
		pcie_link_sanitize(&f->pci.siblings[i]);
	CLEAN(f->pci.kernel_said);
	CLEAN(f->pci.kernel_source);
	CLEAN(f->pci.kernel_disagrees);
}

/* Every string of the facts: what the renderers print comes from here, so
 * a hostile snapshot or a kernel name with controls is made safe once. */
void nd_facts_sanitize(struct nd_facts *f)
{
	struct nd_status *groups[] = {
		&f->link.st, &f->qdisc.st, &f->linkmodes.st, &f->channels.st, &f->features.st,
		&f->rings.st, &f->coalesce.st, &f->pause.st, &f->rss.st, &f->nicstats.st,
		&f->drvinfo.st, &f->pci.st, &f->queues.st, &f->irqs.st, &f->softnet.st,
		&f->cpus.st, &f->tools.iperf3, &f->link.stats_st, &f->linkmodes.modes_st,
	};

	CLEAN(f->ifname);
	CLEAN(f->hostname);
	CLEAN(f->kernel);
	for (size_t i = 0; i < ND_ARRAY_SIZE(groups); i++)
		CLEAN(groups[i]->reason);
	CLEAN(f->link.operstate);
	CLEAN(f->link.qdisc);
	CLEAN(f->link.mac);
	CLEAN(f->qdisc.kind);
	CLEAN(f->drvinfo.driver);
	CLEAN(f->drvinfo.version);
	CLEAN(f->drvinfo.fw_version);
	CLEAN(f->drvinfo.bus_info);
	CLEAN(f->cpus.scaling_driver);
	CLEAN(f->tools.iperf3_version);
	sysctls_sanitize(&f->sysctl);
	lists_sanitize(f);
}

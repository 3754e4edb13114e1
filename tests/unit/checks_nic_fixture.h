/*
 * checks_nic_fixture.h - a healthy host for the NIC check tests, and the
 * helpers to run one check and read its evidence.
 *
 * The host: a 25G dual-port E810-XXV-like card (values from the E810
 * captures in fixtures-raw: features, rings, channels) at 16 GT/s x8 in an
 * x16 root port, link up full duplex at 25G, 8 combined queues of 64 on 8
 * CPUs, one queue IRQ per CPU on the single (local) node, an even RSS
 * table, every offload on, rings at their maximum, adaptive coalescing,
 * pause on, MTU 1500 of 9702.  Each test breaks one thing.  The helpers
 * are static inline so that a test file may leave some unused.
 */
#ifndef NICDOCTOR_TEST_CHECKS_NIC_FIXTURE_H
#define NICDOCTOR_TEST_CHECKS_NIC_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/check.h"
#include "nicdoctor/common.h"

#define HEALTHY_IF "enp65s0f0"
#define HEALTHY_CPUS 8
#define HEALTHY_QUEUES 8
#define HEALTHY_RSS_SIZE 512
#define HEALTHY_FIRST_IRQ 100

static struct nd_finding finding;

static inline void add_mode(char (*list)[48], unsigned *n, const char *mode)
{
	nd_strlcpy(list[(*n)++], mode, 48);
}

static inline void healthy_linkmodes(struct nd_linkmodes *lm)
{
	static const char *const supported[] = {
		"1000baseT/Full", "25000baseCR/Full", "25000baseSR/Full", "1000baseX/Full",
		"10000baseCR/Full", "10000baseSR/Full", "10000baseLR/Full", "Autoneg", "FIBRE",
		"Pause",
	};

	nd_status_set_known(&lm->st);
	nd_status_set_known(&lm->modes_st);
	lm->speed_mbps = 25000;
	lm->duplex = 1;
	lm->autoneg = true;
	for (size_t i = 0; i < ND_ARRAY_SIZE(supported); i++)
		add_mode(lm->supported, &lm->n_supported, supported[i]);
	add_mode(lm->advertised, &lm->n_advertised, "25000baseCR/Full");
	add_mode(lm->advertised, &lm->n_advertised, "10000baseCR/Full");
	add_mode(lm->advertised, &lm->n_advertised, "Pause");
	add_mode(lm->lp_advertised, &lm->n_lp_advertised, "25000baseCR/Full");
	add_mode(lm->lp_advertised, &lm->n_lp_advertised, "10000baseCR/Full");
	add_mode(lm->lp_advertised, &lm->n_lp_advertised, "Pause");
}

static inline void add_feature(struct nd_features *features, const char *name, bool active,
			       bool fixed)
{
	struct nd_feature *feat = &features->f[features->count++];

	nd_strlcpy(feat->name, name, sizeof(feat->name));
	feat->active = feat->wanted = active;
	feat->fixed = fixed;
}

/* `ethtool -k em1` of the E810 capture, the features the checks read. */
static inline void healthy_features(struct nd_features *features)
{
	nd_status_set_known(&features->st);
	add_feature(features, "rx-checksum", true, false);
	add_feature(features, "tx-checksum-ipv4", true, false);
	add_feature(features, "tx-checksum-ip-generic", false, true);
	add_feature(features, "tx-checksum-ipv6", true, false);
	add_feature(features, "tx-scatter-gather", true, false);
	add_feature(features, "tx-tcp-segmentation", true, false);
	add_feature(features, "tx-generic-segmentation", true, false);
	add_feature(features, "rx-gro", true, false);
	add_feature(features, "rx-lro", false, true);
}

static inline void set_function(struct nd_pcie_link *link, const char *address,
				const char *type, double gts, unsigned width)
{
	nd_strlcpy(link->address, address, sizeof(link->address));
	nd_strlcpy(link->port_type, type, sizeof(link->port_type));
	link->is_pcie = link->link_known = true;
	link->cap_gts = link->sta_gts = gts;
	link->cap_width = link->sta_width = width;
	link->mps_bytes = 256;
}

static inline void healthy_pci(struct nd_pci *pci)
{
	nd_status_set_known(&pci->st);
	set_function(&pci->dev, "0000:41:00.0", "endpoint", 16, 8);
	pci->dev.vendor_id = 0x8086;
	pci->dev.device_id = 0x159b;
	nd_strlcpy(pci->dev.name, "Intel Corporation Ethernet Controller E810-XXV for SFP",
		   sizeof(pci->dev.name));
	pci->numa_node = 0;
	pci->n_siblings = 1;
	pci->siblings[0] = pci->dev;
	nd_strlcpy(pci->siblings[0].address, "0000:41:00.1", sizeof(pci->siblings[0].address));
	pci->n_upstream = 1;
	set_function(&pci->upstream[0], "0000:40:01.1", "root_port", 16, 16);
	pci->upstream[0].sta_width = 8;
}

static inline void add_irq(struct nd_irqs *irqs, unsigned irq, const char *name, int cpu,
			   uint64_t count)
{
	struct nd_irq *entry = &irqs->irq[irqs->count++];

	entry->irq = irq;
	nd_strlcpy(entry->name, name, sizeof(entry->name));
	if (cpu < 0)
		return;
	entry->per_cpu[cpu] = count;
	entry->total = count;
	nd_cpuset_add(&entry->affinity, (unsigned)cpu);
	nd_cpuset_add(&entry->effective, (unsigned)cpu);
	nd_cpuset_add(&entry->hint, (unsigned)cpu);
	entry->affinity_known = entry->effective_known = entry->hint_known = true;
}

static inline void healthy_irqs(struct nd_irqs *irqs)
{
	char name[64];

	nd_status_set_known(&irqs->st);
	irqs->n_cpu_columns = HEALTHY_CPUS;
	add_irq(irqs, HEALTHY_FIRST_IRQ - 1, "ice-0000:41:00.0:misc", 0, 12);
	for (unsigned q = 0; q < HEALTHY_QUEUES; q++) {
		snprintf(name, sizeof(name), "ice-%s-TxRx-%u", HEALTHY_IF, q);
		add_irq(irqs, HEALTHY_FIRST_IRQ + q, name, (int)q, 50000);
	}
	irqs->irqbalance_known = true;
	irqs->irqbalance_running = false;
}

static inline void healthy_cpus(struct nd_cpus *cpus)
{
	nd_status_set_known(&cpus->st);
	for (unsigned cpu = 0; cpu < HEALTHY_CPUS; cpu++) {
		nd_cpuset_add(&cpus->online, cpu);
		nd_cpuset_add(&cpus->node_cpus[0], cpu);
	}
	cpus->n_online = HEALTHY_CPUS;
	cpus->n_nodes = 1;
}

static inline void add_stat(struct nd_nicstats *stats, const char *name, uint64_t value)
{
	nd_strlcpy(stats->s[stats->count].name, name, sizeof(stats->s[0].name));
	stats->s[stats->count++].value = value;
}

static inline void healthy_link(struct nd_link *link)
{
	nd_status_set_known(&link->st);
	nd_status_set_known(&link->stats_st);
	link->mtu = 1500;
	link->min_mtu = 68;
	link->max_mtu = 9702;
	nd_strlcpy(link->operstate, "up", sizeof(link->operstate));
	link->carrier = true;
	link->rx_queues = link->tx_queues = HEALTHY_QUEUES;
	link->stats.rx_packets = 123456789;
}

static inline struct nd_facts *healthy_facts(void)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	nd_strlcpy(facts->ifname, HEALTHY_IF, sizeof(facts->ifname));
	healthy_link(&facts->link);
	healthy_linkmodes(&facts->linkmodes);
	nd_status_set_known(&facts->channels.st);
	facts->channels.combined = HEALTHY_QUEUES;
	facts->channels.combined_max = facts->channels.rx_max = facts->channels.tx_max = 64;
	facts->channels.other = facts->channels.other_max = 1;
	healthy_features(&facts->features);
	nd_status_set_known(&facts->rings.st);
	facts->rings.rx = facts->rings.rx_max = facts->rings.tx = facts->rings.tx_max = 8160;
	nd_status_set_known(&facts->coalesce.st);
	facts->coalesce.adaptive_rx = facts->coalesce.adaptive_tx = true;
	facts->coalesce.rx_usecs = facts->coalesce.tx_usecs = 50;
	nd_status_set_known(&facts->pause.st);
	facts->pause.rx = facts->pause.tx = true;
	nd_status_set_known(&facts->rss.st);
	facts->rss.size = HEALTHY_RSS_SIZE;
	for (unsigned i = 0; i < HEALTHY_RSS_SIZE; i++)
		facts->rss.indir[i] = i % HEALTHY_QUEUES;
	nd_status_set_known(&facts->nicstats.st);
	add_stat(&facts->nicstats, "rx_dropped", 0);
	add_stat(&facts->nicstats, "rx_dropped.nic", 0);
	add_stat(&facts->nicstats, "tx_dropped", 0);
	healthy_pci(&facts->pci);
	healthy_irqs(&facts->irqs);
	healthy_cpus(&facts->cpus);
	nd_status_set_known(&facts->queues.st);
	facts->queues.n_rx = facts->queues.n_tx = HEALTHY_QUEUES;
	return facts;
}

static inline void run(const char *id, const struct nd_facts *facts)
{
	const struct nd_check *check = nd_check_find(id);

	assert_non_null(check);
	nd_finding_free(&finding);
	nd_check_run(check, facts, &finding);
}

static inline const cJSON *evidence_item(const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(finding.evidence, key);
}

static inline const char *evidence_string(const char *key)
{
	const cJSON *item = evidence_item(key);

	return cJSON_IsString(item) ? item->valuestring : "";
}

/* -1 when absent or not a number, so a missing key fails an equality. */
static inline double evidence_number(const char *key)
{
	const cJSON *item = evidence_item(key);

	return cJSON_IsNumber(item) ? item->valuedouble : -1;
}

static inline bool evidence_bool(const char *key)
{
	return cJSON_IsTrue(evidence_item(key));
}

static inline void assert_unknown(const char *missing)
{
	assert_int_equal(finding.severity, ND_SEV_UNKNOWN);
	assert_string_equal(evidence_string("missing"), missing);
	assert_true(finding.ceiling_mbps < 0);
	assert_int_equal(finding.fix.n_commands, 0);
}

static inline int teardown(void **state)
{
	(void)state;
	nd_finding_free(&finding);
	return 0;
}

#endif

/*
 * softnet_tally.c - per-CPU tallies of /proc/net/softnet_stat counters,
 * with the evidence every softnet check shows the same way, and the backlog
 * size to suggest when the per-CPU backlog overflows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "softnet_tally.h"

/* netdev_max_backlog suggestions, from ESnet's Linux host tuning
 * (fasterdata.es.net/host-tuning/linux/): 30000 for 10G hosts, 250000 for
 * 40G/100G hosts. */
#define BACKLOG_SUGGEST_10G 30000
#define BACKLOG_SUGGEST_FAST 250000
#define BACKLOG_FAST_SPEED_MBPS 10000

static uint64_t counter_at(const struct nd_softnet_cpu *cpu, size_t offset)
{
	uint64_t value;

	memcpy(&value, (const char *)cpu + offset, sizeof(value));
	return value;
}

static double share_of(uint64_t count, uint64_t processed)
{
	return processed ? (double)count / (double)processed : 1.0;
}

static void add_cpu(cJSON *per_cpu, const struct nd_softnet_cpu *cpu, const char *name,
		    uint64_t count)
{
	cJSON *entry = cJSON_CreateObject();

	cJSON_AddNumberToObject(entry, "cpu", cpu->cpu);
	cJSON_AddNumberToObject(entry, name, (double)count);
	cJSON_AddNumberToObject(entry, "processed", (double)cpu->processed);
	/* Four decimals of a percent: 1 in a million still shows. */
	cJSON_AddNumberToObject(entry, "share_pct",
				round(share_of(count, cpu->processed) * 1e6) / 1e4);
	cJSON_AddItemToArray(per_cpu, entry);
}

void nd_softnet_tally(const struct nd_softnet *softnet, size_t counter_offset,
		      const char *name, uint64_t min_count, cJSON *evidence,
		      struct nd_softnet_tally *ret)
{
	cJSON *per_cpu = cJSON_CreateArray();
	char key[64], list[512];
	unsigned listed = 0;

	memset(ret, 0, sizeof(*ret));
	for (unsigned i = 0; i < softnet->count && i < ND_MAX_CPUS; i++) {
		const struct nd_softnet_cpu *cpu = &softnet->cpu[i];
		uint64_t count = counter_at(cpu, counter_offset);
		double share = share_of(count, cpu->processed);

		ret->total += count;
		ret->processed_total += cpu->processed;
		if (!count)
			continue;
		ret->cpus_counted++;
		if (cpu->cpu < ND_CPUSET_BITS)
			nd_cpuset_add(&ret->counted, cpu->cpu);
		if (listed++ < ND_SOFTNET_LISTED)
			add_cpu(per_cpu, cpu, name, count);
		if (count < min_count)
			continue;
		ret->cpus_over_min++;
		if (!ret->worst_known || share > ret->worst_share) {
			ret->worst_known = true;
			ret->worst_cpu = cpu->cpu;
			ret->worst_count = count;
			ret->worst_processed = cpu->processed;
			ret->worst_share = share;
		}
	}
	snprintf(key, sizeof(key), "%s_total", name);
	cJSON_AddNumberToObject(evidence, key, (double)ret->total);
	cJSON_AddNumberToObject(evidence, "processed_total", (double)ret->processed_total);
	cJSON_AddNumberToObject(evidence, "cpus_in_softnet_stat", softnet->count);
	snprintf(key, sizeof(key), "cpus_with_%s", name);
	cJSON_AddStringToObject(evidence, key, nd_cpuset_format_list(&ret->counted, list,
								      sizeof(list)));
	cJSON_AddItemToObject(evidence, "per_cpu", per_cpu);
	if (listed > ND_SOFTNET_LISTED)
		cJSON_AddNumberToObject(evidence, "per_cpu_not_listed", listed - ND_SOFTNET_LISTED);
	cJSON_AddStringToObject(evidence, "scope", "host-wide since boot: every interface's "
				"receive work, including loopback and veth, counts here");
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

/*
 * softnet_tally.c - per-CPU tallies of /proc/net/softnet_stat counters,
 * since boot and as growth over the observation window, with the
 * evidence every softnet check shows the same way, and the backlog size
 * to suggest when the per-CPU backlog overflows.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "counter_window.h"
#include "softnet_tally.h"

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

/* The same CPU in an earlier read: rows are usually in the same place. */
static const struct nd_softnet_cpu *cpu_in(const struct nd_softnet *sn, unsigned i, unsigned cpu)
{
	if (i < sn->count && sn->cpu[i].cpu == cpu)
		return &sn->cpu[i];
	for (unsigned j = 0; j < sn->count && j < ND_MAX_CPUS; j++)
		if (sn->cpu[j].cpu == cpu)
			return &sn->cpu[j];
	return NULL;
}

static void add_cpu(cJSON *per_cpu, unsigned cpu, const char *name, uint64_t count,
		    uint64_t processed)
{
	cJSON *entry = cJSON_CreateObject();

	cJSON_AddNumberToObject(entry, "cpu", cpu);
	cJSON_AddNumberToObject(entry, name, (double)count);
	cJSON_AddNumberToObject(entry, "processed", (double)processed);
	/* Four decimals of a percent: 1 in a million still shows. */
	cJSON_AddNumberToObject(entry, "share_pct", round(share_of(count, processed) * 1e6) / 1e4);
	cJSON_AddItemToArray(per_cpu, entry);
}

/* Tally now's column (minus then's, when given) into ret and per_cpu. */
static void tally(const struct nd_softnet *now, const struct nd_softnet *then, size_t offset,
		  const char *name, uint64_t min_count, cJSON *per_cpu,
		  struct nd_softnet_tally *ret)
{
	unsigned listed = 0;

	memset(ret, 0, sizeof(*ret));
	for (unsigned i = 0; i < now->count && i < ND_MAX_CPUS; i++) {
		const struct nd_softnet_cpu *cpu = &now->cpu[i];
		const struct nd_softnet_cpu *old = then ? cpu_in(then, i, cpu->cpu) : NULL;
		uint64_t count = counter_at(cpu, offset), processed = cpu->processed;
		double share;

		if (then && !old)
			continue;	/* came online in the window: no baseline */
		if (old) {
			count = nd_counter_delta(counter_at(old, offset), count);
			processed = nd_counter_delta(old->processed, processed);
		}
		share = share_of(count, processed);
		ret->total += count;
		ret->processed_total += processed;
		if (!count)
			continue;
		ret->cpus_counted++;
		if (cpu->cpu < ND_CPUSET_BITS)
			nd_cpuset_add(&ret->counted, cpu->cpu);
		if (listed++ < ND_SOFTNET_LISTED)
			add_cpu(per_cpu, cpu->cpu, name, count, processed);
		if (count < min_count)
			continue;
		ret->cpus_over_min++;
		if (!ret->worst_known || share > ret->worst_share) {
			ret->worst_known = true;
			ret->worst_cpu = cpu->cpu;
			ret->worst_count = count;
			ret->worst_processed = processed;
			ret->worst_share = share;
		}
	}
}

/* "cpus_with_<name>" counts, "cpus_with_<name>_list" names them. */
static void add_cpus(cJSON *obj, const char *name, const struct nd_softnet_tally *t)
{
	char key[64], list[512];

	snprintf(key, sizeof(key), "cpus_with_%s", name);
	cJSON_AddNumberToObject(obj, key, t->cpus_counted);
	snprintf(key, sizeof(key), "cpus_with_%s_list", name);
	cJSON_AddStringToObject(obj, key, nd_cpuset_format_list(&t->counted, list, sizeof(list)));
}

static void add_listing(cJSON *obj, cJSON *per_cpu, const struct nd_softnet_tally *t)
{
	cJSON_AddItemToObject(obj, "per_cpu", per_cpu);
	if (t->cpus_counted > ND_SOFTNET_LISTED)
		cJSON_AddNumberToObject(obj, "per_cpu_not_listed",
					t->cpus_counted - ND_SOFTNET_LISTED);
}

static void window_view(const struct nd_facts *facts, size_t offset, const char *name,
			uint64_t win_min, cJSON *win, struct nd_softnet_view *ret)
{
	const struct nd_counter_window *w = &facts->window;
	cJSON *per_cpu = cJSON_CreateArray();
	char key[64];

	tally(&w->after.softnet, &w->before.softnet, offset, name, win_min, per_cpu, &ret->win);
	ret->window = true;
	ret->seconds = w->seconds;
	ret->rate_per_sec = nd_window_rate(w, ret->win.total);
	cJSON_AddNumberToObject(win, name, (double)ret->win.total);
	cJSON_AddNumberToObject(win, "processed", (double)ret->win.processed_total);
	snprintf(key, sizeof(key), "%s_per_sec", name);
	cJSON_AddNumberToObject(win, key, round(ret->rate_per_sec * 10) / 10);
	add_cpus(win, name, &ret->win);
	add_listing(win, per_cpu, &ret->win);
}

void nd_softnet_view(const struct nd_facts *facts, size_t counter_offset, const char *name,
		     uint64_t boot_min, uint64_t win_min, cJSON *evidence,
		     struct nd_softnet_view *ret)
{
	const struct nd_counter_window *w = &facts->window;
	cJSON *per_cpu = cJSON_CreateArray(), *win;
	char key[64];

	memset(ret, 0, sizeof(*ret));
	tally(&facts->softnet, NULL, counter_offset, name, boot_min, per_cpu, &ret->boot);
	snprintf(key, sizeof(key), "%s_total", name);
	cJSON_AddNumberToObject(evidence, key, (double)ret->boot.total);
	cJSON_AddNumberToObject(evidence, "processed_total", (double)ret->boot.processed_total);
	cJSON_AddNumberToObject(evidence, "cpus_in_softnet_stat", facts->softnet.count);
	add_cpus(evidence, name, &ret->boot);
	add_listing(evidence, per_cpu, &ret->boot);
	cJSON_AddStringToObject(evidence, "scope", "host-wide: every interface's receive work, "
				"including loopback and veth, counts here");
	win = nd_window_evidence(facts, evidence);
	if (!win)
		return;
	if (!w->before.softnet.st.known || !w->after.softnet.st.known) {
		cJSON_AddStringToObject(win, "unreadable", "softnet_stat not read at both ends");
		return;
	}
	window_view(facts, counter_offset, name, win_min, win, ret);
}

char *nd_softnet_history_text(const struct nd_facts *facts, uint64_t total, const char *noun,
			      char *buf, size_t size)
{
	char when[64], none[128];

	snprintf(buf, size, "%" PRIu64 " %s since boot, %s; %s", total, noun,
		 nd_uptime_text(facts, when, sizeof(when)),
		 nd_window_none_text(facts, none, sizeof(none)));
	return buf;
}


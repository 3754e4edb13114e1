/*
 * counter_window.c - the observation window and uptime as every counter
 * check shows them, so that "in the last 1 s" and "since boot, 47 min ago"
 * read the same in each.
 */
#include <stdio.h>
#include <string.h>

#include "counter_window.h"

bool nd_link_stats_known(const struct nd_facts *facts)
{
	return facts->link.st.known && facts->link.stats_st.known;
}

const char *nd_link_stats_reason(const struct nd_facts *facts)
{
	const struct nd_status *st = facts->link.st.known ? &facts->link.stats_st : &facts->link.st;

	return st->known ? "" : st->reason[0] ? st->reason : "link counters not read";
}

uint64_t nd_counter_delta(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : 0;
}

double nd_window_rate(const struct nd_counter_window *w, uint64_t count)
{
	return w->known && w->seconds > 0 ? (double)count / w->seconds : 0;
}

cJSON *nd_window_evidence(const struct nd_facts *facts, cJSON *evidence)
{
	const struct nd_counter_window *w = &facts->window;
	cJSON *obj = NULL;

	if (facts->uptime.st.known)
		cJSON_AddNumberToObject(evidence, "uptime_sec", (double)(long long)facts->uptime.seconds);
	else
		cJSON_AddNullToObject(evidence, "uptime_sec");
	if (!w->known) {
		char why[128];

		cJSON_AddNullToObject(evidence, "window");
		cJSON_AddStringToObject(evidence, "window_reason",
					nd_window_none_text(facts, why, sizeof(why)));
		return NULL;
	}
	obj = cJSON_AddObjectToObject(evidence, "window");
	cJSON_AddStringToObject(obj, "source", w->what);
	/* milliseconds: enough to recompute every rate */
	cJSON_AddNumberToObject(obj, "seconds", (double)(long long)(w->seconds * 1000 + 0.5) / 1000);
	return obj;
}

char *nd_uptime_text(const struct nd_facts *facts, char *buf, size_t size)
{
	double sec = facts->uptime.seconds;
	const char *when = facts->sysroot ? "before the snapshot" : "ago";

	if (!facts->uptime.st.known)
		snprintf(buf, size, "uptime unknown");
	else if (sec < 120)
		snprintf(buf, size, "%.0f s %s", sec, when);
	else if (sec < 2 * 3600)
		snprintf(buf, size, "%.0f min %s", sec / 60, when);
	else if (sec < 2 * 86400)
		snprintf(buf, size, "%.1f h %s", sec / 3600, when);
	else
		snprintf(buf, size, "%.1f days %s", sec / 86400, when);
	return buf;
}

char *nd_window_none_text(const struct nd_facts *facts, char *buf, size_t size)
{
	const struct nd_counter_window *w = &facts->window;

	if (w->known)
		snprintf(buf, size, "none in %s", w->label);
	else if (facts->sysroot)
		snprintf(buf, size, "a snapshot holds one read: no window");
	else
		snprintf(buf, size, "no window measured (%s)",
			 w->reason[0] ? w->reason : "one read");
	return buf;
}

bool nd_nicstat_value(const struct nd_nicstats *stats, const char *name, unsigned hint,
		      uint64_t *ret)
{
	if (!stats->st.known)
		return false;
	if (hint < stats->count && hint < ND_MAX_STATS && !strcmp(stats->s[hint].name, name)) {
		*ret = stats->s[hint].value;
		return true;
	}
	for (unsigned i = 0; i < stats->count && i < ND_MAX_STATS; i++)
		if (!strcmp(stats->s[i].name, name)) {
			*ret = stats->s[i].value;
			return true;
		}
	return false;
}

/*
 * render.c - format dispatch and the helpers every renderer shares.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/report.h"
#include "render.h"

int nd_report_render(const struct nd_report *report, enum nd_format format, FILE *out)
{
	switch (format) {
	case ND_FORMAT_TEXT:
		return nd_render_text(report, out);
	case ND_FORMAT_MARKDOWN:
		return nd_render_markdown(report, out);
	case ND_FORMAT_JSON:
		return nd_render_json(report, out);
	case ND_FORMAT_PROMETHEUS:
		return nd_render_prometheus(report, out);
	}
	return -EINVAL;
}

char *nd_json_text(const cJSON *item, char *buf, size_t size)
{
	char *printed;

	if (!item || cJSON_IsNull(item)) {
		nd_strlcpy(buf, "unknown", size);
	} else if (cJSON_IsString(item)) {
		nd_strlcpy(buf, item->valuestring, size);
	} else if (cJSON_IsBool(item)) {
		nd_strlcpy(buf, cJSON_IsTrue(item) ? "yes" : "no", size);
	} else if (cJSON_IsNumber(item)) {
		double v = item->valuedouble;

		if (v == floor(v) && fabs(v) < 1e15)
			snprintf(buf, size, "%.0f", v);
		else
			snprintf(buf, size, "%.4g", v);
	} else {
		printed = cJSON_PrintUnformatted(item);
		nd_strlcpy(buf, printed ? printed : "?", size);
		free(printed);
	}
	return buf;
}

char *nd_mbps_text(double mbps, char *buf, size_t size)
{
	snprintf(buf, size, mbps >= 100 ? "%.0f" : "%.1f", mbps);
	return buf;
}

const char *nd_json_str(const cJSON *obj, const char *key, const char *fallback)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(item) && item->valuestring ? item->valuestring : fallback;
}

int nd_severity_from_name(const char *name)
{
	for (int sev = ND_SEV_OK; name && sev <= ND_SEV_CRITICAL; sev++) {
		if (strcmp(name, nd_severity_name(sev)) == 0)
			return sev;
	}
	return -1;
}

/* "a, b (reason); c (other reason)": groups sharing a reason are named
 * together, so a run without root does not list "no permission" ten times. */
char *nd_unreadable_text(const cJSON *doc, char *buf, size_t size)
{
	const cJSON *u = cJSON_GetObjectItem(doc, "unreadable"), *item, *other;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(item, u) {
		const char *reason = cJSON_IsString(item) ? item->valuestring : "?";
		bool seen = false, first = true;
		int n;

		for (other = u->child; other != item; other = other->next)
			seen |= cJSON_IsString(other) && strcmp(other->valuestring, reason) == 0;
		if (seen)
			continue;	/* printed with an earlier group */
		for (other = item; other; other = other->next) {
			if (!cJSON_IsString(other) || strcmp(other->valuestring, reason) != 0)
				continue;
			n = snprintf(buf + used, size - used, "%s%s",
				     first ? (used ? "; " : "") : ", ",
				     other->string ? other->string : "?");
			if (n > 0 && (size_t)n < size - used)
				used += (size_t)n;
			first = false;
		}
		n = snprintf(buf + used, size - used, " (%s)", reason);
		if (n > 0 && (size_t)n < size - used)
			used += (size_t)n;
	}
	return buf;
}

/* The counts in report order, the unknowns left out unless with_unknown. */
static char *counts_text(const cJSON *doc, bool with_unknown, char *buf, size_t size)
{
	static const char *const order[][2] = {
		{ "critical", "critical" }, { "warning", "warning" }, { "unknown", "unknown" },
		{ "info", "info" }, { "ok", "ok" }, { "not_applicable", "not applicable" },
		{ "skipped", "skipped" },
	};
	const cJSON *counts = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "summary"), "counts");
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const cJSON *n = cJSON_GetObjectItem(counts, order[i][0]);
		int len;

		if (!cJSON_IsNumber(n) || n->valueint == 0 ||
		    (!with_unknown && !strcmp(order[i][0], "unknown")))
			continue;
		len = snprintf(buf + used, size - used, "%s%d %s", used ? ", " : "",
			       n->valueint, order[i][1]);
		if (len > 0 && (size_t)len < size - used)
			used += (size_t)len;
	}
	return buf;
}

char *nd_counts_text(const cJSON *doc, char *buf, size_t size)
{
	return counts_text(doc, true, buf, size);
}

/*
 * "warning (1 warning, 3 unknown, 20 ok)" when something is warning or
 * worse; otherwise "no problem found (...)" and how many checks could not
 * judge: unknowns are gaps in what could be read (a VM has no PCIe, a
 * bundle no ethtool -S), not a result of their own.
 */
char *nd_result_text(const cJSON *doc, const char *where, char *buf, size_t size)
{
	const cJSON *sum = cJSON_GetObjectItem(doc, "summary");
	const char *worst = nd_json_str(sum, "worst", "?");
	const cJSON *unknown = cJSON_GetObjectItem(cJSON_GetObjectItem(sum, "counts"), "unknown");
	int gaps = cJSON_IsNumber(unknown) ? unknown->valueint : 0;
	int sev = nd_severity_from_name(worst);
	char counts[256];

	if (!nd_counts_text(doc, counts, sizeof(counts))[0])
		snprintf(buf, size, "no checks ran");
	else if (sev >= ND_SEV_WARNING || sev < 0)
		snprintf(buf, size, "%s (%s)", worst, counts);
	else if (gaps > 0)
		snprintf(buf, size, "no problem found (%s); %d check%s could not judge "
			 "(listed %s, with why)", counts_text(doc, false, counts, sizeof(counts)),
			 gaps, gaps == 1 ? "" : "s", where);
	else
		snprintf(buf, size, "no problem found (%s)", counts);
	return buf;
}

/* throughput.route's device when the traffic took another path than the
 * interface diagnosed (--allow-route), else NULL. */
const char *nd_route_other_dev(const cJSON *doc)
{
	const cJSON *route = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "throughput"), "route");

	if (!cJSON_IsObject(route) || !cJSON_IsFalse(cJSON_GetObjectItem(route, "matches")))
		return NULL;
	return nd_json_str(route, "dev", "?");
}

/* " via br0 over eth0" when the route's device sits above the interface,
 * else "". */
const char *nd_route_upper_text(const cJSON *doc, char *buf, size_t size)
{
	const cJSON *route = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "throughput"), "route");
	const char *ifname = nd_json_str(cJSON_GetObjectItem(doc, "interface"), "name", "");
	const char *dev = nd_json_str(route, "dev", "");

	buf[0] = '\0';
	if (cJSON_IsTrue(cJSON_GetObjectItem(route, "matches")) && *dev && strcmp(dev, ifname))
		snprintf(buf, size, " via %s over %s", dev, ifname);
	return buf;
}

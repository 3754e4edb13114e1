/*
 * build.c - turn facts into a report: run every registered check (minus
 * --skip, or only --only), gather the ceilings in one place, lowest first,
 * and map the worst severity to the exit code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/common.h"
#include "nicdoctor/report.h"

/* Call fn for each non-empty, whitespace-trimmed item of a comma list;
 * stops at the first non-zero return and returns it. */
static int list_each(const char *list, int (*fn)(const char *item, size_t len, void *ctx),
		     void *ctx)
{
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *item = p;
		int r;

		while (len > 0 && (*item == ' ' || *item == '\t')) {
			item++;
			len--;
		}
		while (len > 0 && (item[len - 1] == ' ' || item[len - 1] == '\t'))
			len--;
		if (len > 0) {
			r = fn(item, len, ctx);
			if (r)
				return r;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

static const struct nd_check *registry_find(const char *item, size_t len)
{
	for (unsigned i = 0; i < nd_checks_count; i++) {
		if (strlen(nd_checks[i].id) == len && strncmp(nd_checks[i].id, item, len) == 0)
			return &nd_checks[i];
	}
	return NULL;
}

static int validate_item(const char *item, size_t len, void *ctx)
{
	struct nd_report *report = ctx;

	if (registry_find(item, len))
		return 0;
	if (len >= sizeof(report->bad_id))
		len = sizeof(report->bad_id) - 1;
	memcpy(report->bad_id, item, len);
	report->bad_id[len] = '\0';
	return -EINVAL;
}

static int match_item(const char *item, size_t len, void *ctx)
{
	const char *id = ctx;

	return strlen(id) == len && strncmp(id, item, len) == 0;
}

static bool list_has(const char *list, const char *id)
{
	return list_each(list, match_item, (void *)id) != 0;
}

static void finding_skipped(const struct nd_check *check, struct nd_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = check->id;
	f->severity = ND_SEV_OK;
	f->skipped = true;
	f->ceiling_mbps = -1;
	f->verdict = ND_VERDICT_UNTESTED;
	nd_strlcpy(f->title, check->help ? check->help : "", sizeof(f->title));
}

/* Insert keeping one entry per source (the lowest) and the array sorted
 * ascending; when full, a new lower ceiling pushes out the highest. */
void nd_report_add_ceiling(struct nd_report *report, const char *source, double mbps,
			   const char *detail)
{
	struct nd_ceiling *c = report->ceilings;
	unsigned n = report->n_ceilings, pos;

	if (!source || !source[0] || !(mbps >= 0))
		return;
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(c[i].source, source) != 0)
			continue;
		if (mbps >= c[i].mbps)
			return;
		memmove(&c[i], &c[i + 1], (n - i - 1) * sizeof(*c));
		n--;
		break;
	}
	if (n == ND_MAX_CEILINGS) {
		if (mbps >= c[n - 1].mbps) {
			report->n_ceilings = n;
			return;
		}
		n--;
	}
	for (pos = 0; pos < n && c[pos].mbps <= mbps; pos++)
		;
	memmove(&c[pos + 1], &c[pos], (n - pos) * sizeof(*c));
	memset(&c[pos], 0, sizeof(*c));
	nd_strlcpy(c[pos].source, source, sizeof(c[pos].source));
	c[pos].mbps = mbps;
	nd_strlcpy(c[pos].detail, detail ? detail : "", sizeof(c[pos].detail));
	report->n_ceilings = n + 1;
}

static void collect_ceilings(struct nd_report *report)
{
	const struct nd_facts *facts = report->facts;
	double wire = nd_facts_wire_ceiling_mbps(facts);

	if (wire >= 0) {
		char detail[160];

		snprintf(detail, sizeof(detail),
			 "TCP/IPv4 goodput of a %lld Mbit/s link at MTU %u",
			 (long long)facts->linkmodes.speed_mbps, facts->link.mtu);
		nd_report_add_ceiling(report, "wire", wire, detail);
	}
	for (unsigned i = 0; i < report->n_findings; i++) {
		const struct nd_finding *f = &report->findings[i];

		if (f->skipped || f->ceiling_mbps < 0)
			continue;
		nd_report_add_ceiling(report, f->ceiling_source, f->ceiling_mbps, f->title);
	}
}

int nd_report_build(struct nd_report *report, const struct nd_facts *facts,
		    const char *skip, const char *only, const char **ret_bad_id)
{
	/* An --only list that names nothing (",") selects nothing: skip all. */
	bool only_given = only != NULL && only[0] != '\0';
	int r;

	/* The caller's struct may be uninitialised: nothing in it is read. */
	memset(report, 0, sizeof(*report));
	report->facts = facts;

	r = list_each(skip, validate_item, report);
	if (r == 0)
		r = list_each(only, validate_item, report);
	if (r < 0) {
		if (ret_bad_id)
			*ret_bad_id = report->bad_id;
		return r;
	}
	report->findings = calloc(nd_checks_count ? nd_checks_count : 1, sizeof(*report->findings));
	if (!report->findings)
		return -ENOMEM;
	for (unsigned i = 0; i < nd_checks_count; i++) {
		const struct nd_check *check = &nd_checks[i];
		struct nd_finding *f = &report->findings[i];

		if (list_has(skip, check->id) || (only_given && !list_has(only, check->id))) {
			finding_skipped(check, f);
		} else {
			nd_check_run(check, facts, f);
			if (!f->id)
				f->id = check->id;
		}
		report->n_findings = i + 1;
	}
	collect_ceilings(report);
	return 0;
}

void nd_report_rejudge(struct nd_report *report, unsigned n_checks)
{
	/* Only the registered checks (experiments' findings follow them) that
	 * ran; skipped ones stay skipped. */
	for (unsigned i = 0; i < n_checks && i < nd_checks_count && i < report->n_findings; i++) {
		struct nd_finding *f = &report->findings[i];

		if (f->skipped)
			continue;
		nd_finding_free(f);
		nd_check_run(&nd_checks[i], report->facts, f);
		if (!f->id)
			f->id = nd_checks[i].id;
	}
	report->n_ceilings = 0;
	collect_ceilings(report);
}

int nd_report_add_finding(struct nd_report *report, struct nd_finding *f)
{
	struct nd_finding *grown = realloc(report->findings,
					   (report->n_findings + 1) * sizeof(*grown));

	if (!grown) {
		nd_finding_free(f);
		return -ENOMEM;
	}
	report->findings = grown;
	report->findings[report->n_findings++] = *f;
	memset(f, 0, sizeof(*f));
	return 0;
}

void nd_report_free(struct nd_report *report)
{
	if (!report)
		return;
	for (unsigned i = 0; i < report->n_findings; i++)
		nd_finding_free(&report->findings[i]);
	free(report->findings);
	report->findings = NULL;
	report->n_findings = 0;
	cJSON_Delete(report->throughput);
	report->throughput = NULL;
	cJSON_Delete(report->peer);
	cJSON_Delete(report->members);
	report->peer = NULL;
}

int nd_report_exit_code(const struct nd_report *report)
{
	enum nd_severity worst = ND_SEV_OK;

	for (unsigned i = 0; i < report->n_findings; i++) {
		const struct nd_finding *f = &report->findings[i];

		if (!f->skipped && f->severity > worst)
			worst = f->severity;
	}
	if (report->members_worst > (int)worst)
		worst = (enum nd_severity)report->members_worst;
	if (worst == ND_SEV_CRITICAL)
		return ND_EXIT_CRITICAL;
	if (worst == ND_SEV_WARNING)
		return ND_EXIT_WARNING;
	return ND_EXIT_OK;
}

/*
 * build.c - the report document: the findings the checks made (run.c in
 * src/checks/ runs them), the ceilings gathered in one place, lowest
 * first, the experiments' and far end's parts, and the worst severity
 * mapped to the exit code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/common.h"
#include "nicdoctor/report.h"

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

		if (facts->stack.wire_known && facts->stack.encap_bytes)	/* through a stack */
			snprintf(detail, sizeof(detail), "TCP/IPv4 goodput of %s's %lld Mbit/s link "
				 "at MTU %u, %u B of %s headers a frame", facts->stack.via,
				 (long long)facts->stack.via_speed_mbps, facts->link.mtu,
				 facts->stack.encap_bytes, facts->stack.kind);
		else if (facts->stack.wire_known)
			snprintf(detail, sizeof(detail), "TCP/IPv4 goodput of %s's %lld Mbit/s link "
				 "at MTU %u", facts->stack.via,
				 (long long)facts->stack.via_speed_mbps, facts->link.mtu);
		else
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

void nd_report_init(struct nd_report *report, const struct nd_facts *facts,
		    struct nd_finding *findings, unsigned n_findings)
{
	/* The caller's struct may be uninitialised: nothing in it is read. */
	memset(report, 0, sizeof(*report));
	report->facts = facts;
	report->findings = findings;
	report->n_findings = n_findings;
	collect_ceilings(report);
}

void nd_report_collect_ceilings(struct nd_report *report)
{
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
	cJSON_Delete(report->stack);
	report->peer = NULL;
	report->members = NULL;
	report->stack = NULL;
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

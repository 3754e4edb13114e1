/*
 * report.h - the diagnosis as one value, and its renderers.
 *
 * The JSON document is built once (nd_report_to_json); text and markdown
 * walk the same report so the formats never drift apart.  report/ is the
 * only place that formats output.
 */
#ifndef NICDOCTOR_REPORT_H
#define NICDOCTOR_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "nicdoctor/check.h"
#include "nicdoctor/facts.h"

#define ND_REPORT_SCHEMA "nicdoctor.report/1"
#define ND_MAX_CEILINGS 8

enum nd_format {
	ND_FORMAT_TEXT = 0,
	ND_FORMAT_MARKDOWN,
	ND_FORMAT_JSON,
	ND_FORMAT_PROMETHEUS,
};

struct nd_ceiling {
	char source[24];			/* "wire", "pcie", "shaping", "window" */
	double mbps;
	char detail[160];			/* how it was computed */
};

struct nd_report {
	const struct nd_facts *facts;
	struct nd_finding *findings;		/* one per registered check */
	unsigned n_findings;
	struct nd_ceiling ceilings[ND_MAX_CEILINGS];	/* lowest first */
	unsigned n_ceilings;
	cJSON *throughput;			/* experiments' numbers, or NULL; owned */
	cJSON *peer;				/* the far end (experiment/far.c), or NULL; owned */
	cJSON *members;				/* a bond's members' own diagnoses, or NULL; owned */
	int members_worst;			/* their worst enum nd_severity, in the exit code */
	cJSON *stack;				/* a stacked device's lowers (--json "stack"), or NULL; owned */
	bool redact;
	bool color;				/* text: --color, a terminal, NO_COLOR unset */
	bool verbose;				/* text: every check with its evidence */
	char bad_id[64];			/* nd_diagnose_judge's -EINVAL: the unknown ID */
};

/* A report of the findings the checks made (src/checks/run.c; the report
 * owns the array of n_findings from here on) with their ceilings
 * collected; report is zeroed first: set redact, color, throughput after. */
void nd_report_init(struct nd_report *report, const struct nd_facts *facts,
		    struct nd_finding *findings, unsigned n_findings);
void nd_report_free(struct nd_report *report);

/* The ceilings collected anew from the findings (the checks judged again
 * on a counter window); before any experiment adds findings or ceilings. */
void nd_report_collect_ceilings(struct nd_report *report);

/* Add a ceiling (experiments add measured ones: "window", "cpu"): one per
 * source, the lowest kept, the array sorted lowest first.  mbps < 0 or an
 * empty source is ignored. */
void nd_report_add_ceiling(struct nd_report *report, const char *source, double mbps,
			   const char *detail);

/* Append a finding made by an experiment (path.asymmetric); the report
 * takes ownership of its evidence and experiment.  0 or -ENOMEM (then
 * the finding is freed). */
int nd_report_add_finding(struct nd_report *report, struct nd_finding *f);

/* Worst severity among findings -> exit code (0, 1, 2). */
int nd_report_exit_code(const struct nd_report *report);

cJSON *nd_report_to_json(const struct nd_report *report);
int nd_report_render(const struct nd_report *report, enum nd_format format, FILE *out);

/* Several ports' reports (`diagnose IF1,IF2`), then the ports together
 * (experiment/group.c's object, or NULL): report/together.c. */
int nd_render_ports(const struct nd_report *reports, unsigned n, const cJSON *together,
		    enum nd_format format, FILE *out);

/* Individual renderers (src/report/<format>.c). */
int nd_render_text(const struct nd_report *report, FILE *out);
int nd_render_markdown(const struct nd_report *report, FILE *out);
int nd_render_json(const struct nd_report *report, FILE *out);
/* A bond's members, one line each (text_members.c); nothing without. */
void nd_text_members(FILE *out, const cJSON *doc);
/* A stacked device's chain and lowers (text_members.c); nothing without. */
void nd_text_stack(FILE *out, const cJSON *doc);

/* Redaction: stable placeholders for addresses and the host name. */
void nd_redact_json(cJSON *doc, const struct nd_facts *facts);

#endif

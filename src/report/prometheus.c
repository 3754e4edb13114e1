/*
 * prometheus.c - --format prometheus: findings and ceilings as gauges in the
 * Prometheus text exposition format, for node_exporter's textfile collector
 * (write to a *.prom file atomically), so a fleet is watched with the tools
 * it already runs.  Rendered from the (redacted) JSON document.
 *
 *   nicdoctor_finding{interface="eth0",id="queues.single"} 0
 *   nicdoctor_ceiling_mbps{interface="eth0",source="wire"} 9415.4
 *   nicdoctor_worst_severity{interface="eth0"} 3
 *
 * Skipped checks are left out: no sample is better than a made-up one.
 * The severity is a finding's value, never a label: a label that changes
 * with the state would start a new series at every change, breaking
 * rate(), alert `for:` clauses and history across the change.
 */
#include <errno.h>
#include <stdio.h>

#include "nicdoctor/report.h"
#include "render.h"

/* Label values escape backslash, double quote and newline. */
static void put_label(FILE *out, const char *name, const char *value, bool last)
{
	fprintf(out, "%s=\"", name);
	for (; *value; value++) {
		if (*value == '\\' || *value == '"')
			fprintf(out, "\\%c", *value);
		else if (*value == '\n')
			fputs("\\n", out);
		else
			fputc(*value, out);
	}
	fputs(last ? "\"}" : "\",", out);
}

static void findings(FILE *out, const cJSON *doc, const char *ifname)
{
	const cJSON *f;

	fputs("# HELP nicdoctor_finding Result of one check: 0 ok, 1 info, 2 unknown, "
	      "3 warning, 4 critical.\n# TYPE nicdoctor_finding gauge\n", out);
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
		const char *severity = nd_json_str(f, "severity", NULL);
		int sev = nd_severity_from_name(severity);

		if (sev < 0 || cJSON_IsTrue(cJSON_GetObjectItem(f, "skipped")))
			continue;
		fputs("nicdoctor_finding{", out);
		put_label(out, "interface", ifname, false);
		put_label(out, "id", nd_json_str(f, "id", "?"), true);
		fprintf(out, " %d\n", sev);
	}
	fputs("# HELP nicdoctor_finding_ceiling_mbps Most throughput a suspected cause "
	      "allows, in Mbit/s.\n# TYPE nicdoctor_finding_ceiling_mbps gauge\n", out);
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
		const cJSON *ceiling = cJSON_GetObjectItem(f, "ceiling_mbps");

		if (!cJSON_IsNumber(ceiling) || cJSON_IsTrue(cJSON_GetObjectItem(f, "skipped")))
			continue;
		fputs("nicdoctor_finding_ceiling_mbps{", out);
		put_label(out, "interface", ifname, false);
		put_label(out, "id", nd_json_str(f, "id", "?"), true);
		fprintf(out, " %.1f\n", ceiling->valuedouble);
	}
}

static void ceilings(FILE *out, const cJSON *doc, const char *ifname)
{
	const cJSON *c;

	fputs("# HELP nicdoctor_ceiling_mbps Throughput ceiling by source (wire, pcie, "
	      "shaping, window), in Mbit/s.\n# TYPE nicdoctor_ceiling_mbps gauge\n", out);
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(doc, "ceilings")) {
		const cJSON *mbps = cJSON_GetObjectItem(c, "mbps");

		if (!cJSON_IsNumber(mbps))
			continue;
		fputs("nicdoctor_ceiling_mbps{", out);
		put_label(out, "interface", ifname, false);
		put_label(out, "source", nd_json_str(c, "source", "?"), true);
		fprintf(out, " %.1f\n", mbps->valuedouble);
	}
}

int nd_render_prometheus(const struct nd_report *report, FILE *out)
{
	cJSON *doc = nd_report_document(report);
	const cJSON *sum, *counts, *c;
	const char *ifname;

	if (!doc)
		return -ENOMEM;
	ifname = nd_json_str(cJSON_GetObjectItem(doc, "interface"), "name", "");
	sum = cJSON_GetObjectItem(doc, "summary");
	counts = cJSON_GetObjectItem(sum, "counts");
	findings(out, doc, ifname);
	ceilings(out, doc, ifname);
	fputs("# HELP nicdoctor_findings Number of checks by result.\n"
	      "# TYPE nicdoctor_findings gauge\n", out);
	cJSON_ArrayForEach(c, counts) {
		fputs("nicdoctor_findings{", out);
		put_label(out, "interface", ifname, false);
		put_label(out, "result", c->string ? c->string : "?", true);
		fprintf(out, " %d\n", c->valueint);
	}
	fputs("# HELP nicdoctor_worst_severity Worst result: 0 ok, 1 info, 2 unknown, "
	      "3 warning, 4 critical.\n# TYPE nicdoctor_worst_severity gauge\n"
	      "nicdoctor_worst_severity{", out);
	put_label(out, "interface", ifname, true);
	fprintf(out, " %d\n", nd_severity_from_name(nd_json_str(sum, "worst", "ok")));
	cJSON_Delete(doc);
	return ferror(out) ? -EIO : 0;
}

/*
 * together.c - the report of `diagnose IF1,IF2 --peer HOST1,HOST2`: every
 * port's own report, then the ports together (the "together" object of
 * experiment/group.c).  JSON keeps the first port's report as the
 * document, every key as for one port, and adds "other_ports" (the other
 * ports' reports, same shape) and "together".  Text and markdown print the
 * reports one after another and the together section last.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/report.h"
#include "render.h"

const cJSON *nd_together_confirmed(const cJSON *doc)
{
	const cJSON *f;

	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
		const cJSON *e = cJSON_GetObjectItem(f, "experiment");

		if (!strcmp(nd_json_str(e, "kind", ""), "together") &&
		    !strcmp(nd_json_str(f, "verdict", ""), "confirmed"))
			return f;
	}
	return NULL;
}

static cJSON *together_doc(const struct nd_report *first, const cJSON *together)
{
	cJSON *t = cJSON_Duplicate(together, true);

	if (t && first->redact)
		nd_redact_json(t, first->facts);
	return t;
}

static int render_json(const struct nd_report *reports, unsigned n, const cJSON *together,
		       FILE *out)
{
	cJSON *doc = nd_report_document(&reports[0]), *others;

	if (!doc)
		return -ENOMEM;
	others = cJSON_AddArrayToObject(doc, "other_ports");
	for (unsigned i = 1; i < n; i++) {
		cJSON *one = nd_report_document(&reports[i]);

		if (!one) {
			cJSON_Delete(doc);
			return -ENOMEM;
		}
		cJSON_AddItemToArray(others, one);
	}
	cJSON_AddItemToObject(doc, "together", together_doc(&reports[0], together));
	return nd_report_print_json(doc, out);
}

/* Mbit/s as every report prints them; "unknown" for null. */
static const char *mbps_of(const cJSON *obj, const char *key, char *buf, size_t size)
{
	const cJSON *v = cJSON_GetObjectItem(obj, key);

	return cJSON_IsNumber(v) ? nd_mbps_text(v->valuedouble, buf, size)
				 : nd_json_text(v, buf, size);
}

static void port_line(FILE *out, const cJSON *p, bool markdown)
{
	char alone[32], together[32], ceiling[32];

	fprintf(out, "%s%s -> %s: alone %s, together %s Mbit/s (own ceiling %s%s%s)\n",
		markdown ? "- " : "    ", nd_json_str(p, "interface", "?"),
		nd_json_str(p, "peer", "?"),
		mbps_of(p, "alone_mbps", alone, sizeof(alone)),
		mbps_of(p, "together_mbps", together, sizeof(together)),
		mbps_of(p, "link_ceiling_mbps", ceiling, sizeof(ceiling)),
		cJSON_GetObjectItem(p, "link_ceiling_source") ? ", " : "",
		nd_json_str(p, "link_ceiling_source", ""));
	if (cJSON_GetObjectItem(p, "error"))
		fprintf(out, "%s  failed: %s\n", markdown ? "" : "    ",
			nd_json_str(p, "error", "?"));
}

static void render_section(const cJSON *t, bool markdown, FILE *out)
{
	const cJSON *v = cJSON_GetObjectItem(t, "verdict"), *slot = cJSON_GetObjectItem(t, "slot");
	const cJSON *p;
	char ceiling[32], sum[32];

	fprintf(out, markdown ? "\n## Ports together\n\n" : "\nPorts together\n");
	if (markdown)
		fprintf(out, "**%s: %s**\n\n%s\n\n", nd_json_str(v, "id", "?"),
			nd_json_str(v, "verdict", "?"), nd_json_str(v, "reason", ""));
	else
		fprintf(out, "    %s: %s\n    %s\n", nd_json_str(v, "id", "?"),
			nd_json_str(v, "verdict", "?"), nd_json_str(v, "reason", ""));
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(t, "ports"))
		port_line(out, p, markdown);
	fprintf(out, "%ssum together %s Mbit/s over %s s, one clock\n", markdown ? "- " : "    ",
		mbps_of(t, "together_mbps", sum, sizeof(sum)),
		nd_json_text(cJSON_GetObjectItem(t, "duration_sec"), ceiling, sizeof(ceiling)));
	if (cJSON_IsTrue(cJSON_GetObjectItem(slot, "shared")))
		fprintf(out, "%sslot: device %s, %s, ceiling %s Mbit/s\n", markdown ? "- " : "    ",
			nd_json_str(slot, "device", "?"), nd_json_str(slot, "link", "?"),
			mbps_of(slot, "ceiling_mbps", ceiling, sizeof(ceiling)));
	else
		fprintf(out, "%sslot: not shared (%s)\n", markdown ? "- " : "    ",
			nd_json_str(slot, "why_not", "?"));
}

int nd_render_ports(const struct nd_report *reports, unsigned n, const cJSON *together,
		    enum nd_format format, FILE *out)
{
	cJSON *t;
	int r = 0;

	if (format == ND_FORMAT_JSON)
		return render_json(reports, n, together, out);
	for (unsigned i = 0; i < n && r == 0; i++) {
		if (i)
			fputc('\n', out);
		r = nd_report_render(&reports[i], format, out);
	}
	if (r < 0 || !together || format == ND_FORMAT_PROMETHEUS)
		return r;
	t = together_doc(&reports[0], together);
	if (!t)
		return -ENOMEM;
	render_section(t, format == ND_FORMAT_MARKDOWN, out);
	cJSON_Delete(t);
	return ferror(out) ? -EIO : 0;
}

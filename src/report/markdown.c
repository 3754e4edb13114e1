/*
 * markdown.c - the report for pasting into a ticket (GitHub-flavoured
 * markdown), top-down like the text: a title, a table of what is not ok
 * (worst first), the ceilings, a section per critical then warning finding
 * with its evidence, ceiling and fix commands in a ```sh block, then the
 * table of every check.  A healthy report stays short: title, result line
 * and the two tables.  Rendered from the (redacted) JSON
 * document, like every format.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/report.h"
#include "render.h"

#define CELL_MAX 72		/* a summary-table evidence cell, in bytes */

/* Text inside a table cell: '|' escaped, line breaks flattened. */
static void put_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			fputc(' ', out);
		else if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			fputc(*s, out);
	}
}

/* A value as inline code, so "rx_dropped" or "*" are not read as markup;
 * plain when it holds a backtick itself. */
static void put_code(FILE *out, const char *s, bool in_table)
{
	bool backtick = strchr(s, '`') != NULL;

	if (!backtick)
		fputc('`', out);
	if (in_table)
		put_cell(out, s);
	else
		for (; *s; s++)
			fputc(*s == '\n' ? ' ' : *s, out);
	if (!backtick)
		fputc('`', out);
}

/* "key=value, key=value", cut at CELL_MAX with "..."; the title when
 * there is no evidence.  size must exceed CELL_MAX. */
static void short_evidence(const cJSON *f, char *buf, size_t size)
{
	const cJSON *item;
	size_t used = 0;
	char value[256];

	buf[0] = '\0';
	cJSON_ArrayForEach(item, cJSON_GetObjectItem(f, "evidence")) {
		int n = snprintf(buf + used, size - used, "%s%s=%s", used ? ", " : "",
				 item->string ? item->string : "?",
				 nd_json_text(item, value, sizeof(value)));

		if (n < 0 || (size_t)n >= size - used) {
			used = size - 1;
			break;
		}
		used += (size_t)n;
	}
	if (used > CELL_MAX)
		strcpy(buf + CELL_MAX - 3, "...");
	if (!used)
		nd_strlcpy(buf, nd_json_str(f, "title", ""), size);
}

static const char *result_of(const cJSON *f)
{
	if (cJSON_IsTrue(cJSON_GetObjectItem(f, "skipped")))
		return "skipped";
	if (cJSON_IsTrue(cJSON_GetObjectItem(f, "not_applicable")))
		return "not applicable";
	return nd_json_str(f, "severity", "skipped");
}

static void title(FILE *out, const cJSON *doc)
{
	const cJSON *iface = cJSON_GetObjectItem(doc, "interface");
	const cJSON *host = cJSON_GetObjectItem(doc, "host");
	const char *origin = nd_json_str(host, "origin", "");
	const char *pci = nd_json_str(iface, "pci_address", NULL);
	char num[32], result[400];
	size_t verdict_len;

	fprintf(out, "# nicdoctor: %s on %s\n\n", nd_json_str(iface, "name", "?"),
		nd_json_str(host, "name", "unknown host"));
	nd_result_text(doc, "in the tables below", result, sizeof(result));
	/* "no problem found (...); ...": the verdict in bold, the counts not */
	verdict_len = strchr(result, '(') ? strcspn(result, "(") - 1 : strlen(result);
	fprintf(out, "**Result: %.*s**%s\n\n", (int)verdict_len, result, result + verdict_len);
	fprintf(out, "Driver %s, PCI %s, ", nd_json_str(iface, "driver", "unknown"),
		pci ? pci : "none");
	nd_json_text(cJSON_GetObjectItem(iface, "speed_mbps"), num, sizeof(num));
	fprintf(out, "%s%s, ", num, strcmp(num, "unknown") ? " Mbit/s" : " speed");
	nd_json_text(cJSON_GetObjectItem(iface, "mtu"), num, sizeof(num));
	fprintf(out, "MTU %s, %s; kernel %s, ", num, nd_json_str(iface, "operstate", "state unknown"),
		nd_json_str(host, "kernel", "unknown"));
	nd_json_text(cJSON_GetObjectItem(host, "cpus_online"), num, sizeof(num));
	fprintf(out, "%s CPUs online; nicdoctor %s%s%s\n\n", num,
		nd_json_str(cJSON_GetObjectItem(doc, "tool"), "version", "?"),
		*origin ? ", from " : "", origin);
}

static void table_row(FILE *out, const cJSON *f)
{
	const char *result = result_of(f);
	int sev = nd_severity_from_name(result);
	char cell[CELL_MAX + 64];

	{
		fputs("| ", out);
		put_code(out, nd_json_str(f, "id", "?"), true);
		fprintf(out, sev >= ND_SEV_WARNING ? " | **%s** | " : " | %s | ", result);
		if (strcmp(result, "skipped") == 0)
			cell[0] = '\0';
		else
			short_evidence(f, cell, sizeof(cell));
		put_cell(out, cell);
		fputs(" |\n", out);
	}
}

static void summary_table(FILE *out, const cJSON *doc)
{
	const cJSON *f;

	fputs("| check | result | evidence |\n|---|---|---|\n", out);
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings"))
		table_row(out, f);
	fputc('\n', out);
}

/* What is not ok, worst first: the table a reader of the ticket needs. */
static bool problems_table(FILE *out, const cJSON *doc)
{
	static const int order[] = { ND_SEV_CRITICAL, ND_SEV_WARNING, ND_SEV_UNKNOWN,
				     ND_SEV_INFO };
	const cJSON *f;
	bool any = false;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
			if (nd_severity_from_name(result_of(f)) != order[i])
				continue;
			if (!any)
				fputs("## Needs attention\n\n| check | result | evidence |\n"
				      "|---|---|---|\n", out);
			any = true;
			table_row(out, f);
		}
	if (any)
		fputc('\n', out);
	return any;
}

static void ceilings_table(FILE *out, const cJSON *doc)
{
	const cJSON *arr = cJSON_GetObjectItem(doc, "ceilings"), *c;
	char num[32];

	if (cJSON_GetArraySize(arr) == 0)
		return;
	fputs("Ceilings, lowest first:\n\n| source | Mbit/s | detail |\n|---|---:|---|\n", out);
	cJSON_ArrayForEach(c, arr) {
		const cJSON *mbps = cJSON_GetObjectItem(c, "mbps");

		fputs("| ", out);
		put_cell(out, nd_json_str(c, "source", "?"));
		fprintf(out, " | %s | ",
			cJSON_IsNumber(mbps) ? nd_mbps_text(mbps->valuedouble, num, sizeof(num)) : "?");
		put_cell(out, nd_json_str(c, "detail", ""));
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

static void fix_block(FILE *out, const cJSON *fix)
{
	const cJSON *cmd;

	fputs("Fix (", out);
	put_code(out, nd_json_str(fix, "id", "?"), false);
	fputs("):\n\n```sh\n", out);
	cJSON_ArrayForEach(cmd, cJSON_GetObjectItem(fix, "commands")) {
		if (cJSON_IsString(cmd))
			fprintf(out, "%s\n", cmd->valuestring);
	}
	fputs("```\n\n", out);
}

static void section(FILE *out, const cJSON *f)
{
	const cJSON *ceiling = cJSON_GetObjectItem(f, "ceiling_mbps");
	const cJSON *fix = cJSON_GetObjectItem(f, "fix"), *item;
	const char *verdict = nd_json_str(f, "verdict", "untested"), *reason;
	char value[1024];

	fputs("## ", out);
	put_code(out, nd_json_str(f, "id", "?"), false);
	fprintf(out, ": %s\n\n%s\n\n", result_of(f), nd_json_str(f, "title", ""));
	cJSON_ArrayForEach(item, cJSON_GetObjectItem(f, "evidence")) {
		fputs("- ", out);
		put_code(out, item->string ? item->string : "?", false);
		fputs(": ", out);
		put_code(out, nd_json_text(item, value, sizeof(value)), false);
		fputc('\n', out);
	}
	fputc('\n', out);
	if (cJSON_IsNumber(ceiling))
		fprintf(out, "Ceiling: **%s Mbit/s** (%s)\n\n",
			nd_mbps_text(ceiling->valuedouble, value, sizeof(value)),
			nd_json_str(f, "ceiling_source", "?"));
	if (strcmp(verdict, "untested") != 0) {
		fprintf(out, "Verdict: **%s**", verdict);
		reason = nd_json_str(cJSON_GetObjectItem(f, "experiment"), "reason", "");
		if (reason[0]) {
			fputs(": ", out);
			put_cell(out, reason);
		}
		fputs("\n\n", out);
	}
	if (cJSON_IsObject(fix))
		fix_block(out, fix);
}

static double num_of(const cJSON *obj, const char *key)
{
	const cJSON *item = cJSON_GetObjectItem(obj, key);

	return cJSON_IsNumber(item) ? item->valuedouble : -1;
}

/* A run's retransmits and min RTT cells: a reverse run's sender is the
 * peer, so ours are not there: its own count when it reported one. */
static void run_counts(FILE *out, const cJSON *run)
{
	bool reverse = !strcmp(nd_json_str(run, "direction", ""), "reverse");
	double retr = num_of(run, "retransmits"), peer = num_of(run, "peer_retransmits");
	double rtt = num_of(run, "min_rtt_usec");

	if (retr >= 0)
		fprintf(out, "%.0f | ", retr);
	else if (reverse && peer >= 0)
		fprintf(out, "%.0f (the peer's) | ", peer);
	else
		fputs(reverse ? "n/a (the peer sends) | " : "unknown | ", out);
	if (rtt > 0)
		fprintf(out, "%.0f |\n", rtt);
	else
		fputs(reverse ? "n/a (the peer sends) |\n" : "unknown |\n", out);
}

/* The experiments: headline, bottleneck, one table row per run, trials. */
static void throughput(FILE *out, const cJSON *doc)
{
	const cJSON *tp = cJSON_GetObjectItem(doc, "throughput"), *run, *t, *together;
	const cJSON *b = cJSON_GetObjectItem(tp, "bottleneck");
	double measured = num_of(tp, "measured_mbps"), wire = num_of(tp, "wire_ceiling_mbps");
	const char *other = nd_route_other_dev(doc);
	const char *ifname = nd_json_str(cJSON_GetObjectItem(doc, "interface"), "name", "?");
	char a[32], c[32], upper[64];

	if (!cJSON_IsObject(tp))
		return;
	nd_route_upper_text(doc, upper, sizeof(upper));
	if (!strcmp(nd_json_str(tp, "mode", ""), "loopback"))
		fprintf(out, "**Host capacity** (loopback, not wire speed): one TCP stream moves "
			"%s Mbit/s through this host's stack.\n\n",
			nd_mbps_text(num_of(tp, "host_capacity_mbps"), a, sizeof(a)));
	else if (measured >= 0 && other)
		fprintf(out, "**Measured %s Mbit/s over %s, not %s** (--allow-route): %s's "
			"findings stay untested\n\n", nd_mbps_text(measured, a, sizeof(a)), other,
			ifname, ifname);
	else if (measured >= 0 && wire > 0)
		fprintf(out, "**Measured %s of the %s Mbit/s wire goodput (%.0f%%)%s**",
			nd_mbps_text(measured, a, sizeof(a)), nd_mbps_text(wire, c, sizeof(c)),
			100 * measured / wire, upper);
	else if (measured >= 0)
		fprintf(out, "**Measured %s Mbit/s%s**", nd_mbps_text(measured, a, sizeof(a)),
			upper);
	else
		fprintf(out, "No throughput measured: %s\n\n", nd_json_str(tp, "error", "?"));
	/* another path (other): no bottleneck of this interface's to name */
	if (measured >= 0 && !other && cJSON_IsObject(b)) {
		fprintf(out, "; bottleneck%s ",
			strcmp(nd_json_str(b, "host", "here"), "far end") ? "" : " on the far end");
		put_code(out, nd_json_str(b, "id", "?"), false);
		if (nd_json_str(b, "via", NULL)) {
			fputs(" via ", out);
			put_code(out, nd_json_str(b, "via", "?"), false);
		}
		fprintf(out, ", **%s**: %s\n\n", nd_json_str(b, "verdict", "?"),
			nd_json_str(b, "reason", ""));
	} else if (measured >= 0 && !other) {
		fprintf(out, "; %s\n\n", cJSON_IsTrue(cJSON_GetObjectItem(tp, "at_wire"))
			? "line rate reached" : "no bottleneck confirmed");
	}
	together = nd_together_confirmed(doc);
	if (measured >= 0 && together &&
	    strcmp(nd_json_str(b, "id", ""), nd_json_str(together, "id", "?"))) {
		fputs("**Ports together:** ", out);
		put_code(out, nd_json_str(together, "id", "?"), false);
		fprintf(out, ", **confirmed**: %s\n\n",
			nd_json_str(cJSON_GetObjectItem(together, "experiment"), "reason", ""));
	}
	fputs("| run | streams | Mbit/s | retransmits | min RTT (us) |\n|---|---:|---:|---:|---:|\n",
	      out);
	cJSON_ArrayForEach(run, cJSON_GetObjectItem(tp, "runs")) {
		fprintf(out, "| %s | %.0f | %s | ", nd_json_str(run, "name", "?"),
			num_of(run, "streams"), nd_mbps_text(num_of(run, "mbps"), a, sizeof(a)));
		run_counts(out, run);
	}
	fputc('\n', out);
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(tp, "trials")) {
		fputs("- trial ", out);
		put_code(out, nd_json_str(t, "fix", "?"), false);
		fprintf(out, " for %s: before %.0f, after %.0f Mbit/s, %s\n",
			nd_json_str(t, "finding", "?"), num_of(t, "before_mbps"),
			num_of(t, "after_mbps"),
			cJSON_IsTrue(cJSON_GetObjectItem(t, "reverted")) ? "reverted" : "NOT reverted");
	}
	if (cJSON_GetArraySize(cJSON_GetObjectItem(tp, "trials")))
		fputc('\n', out);
}

/* The far end: what it said of itself, and its warnings with their
 * verdicts, as sections whose commands are for the far host. */
static void far_end(FILE *out, const cJSON *doc)
{
	const cJSON *peer = cJSON_GetObjectItem(doc, "peer"), *report, *f;

	if (!cJSON_IsObject(peer))
		return;
	fprintf(out, "## Far end: %s\n\n%s.\n\n", nd_json_str(peer, "host", "?"),
		nd_json_str(peer, "reason", ""));
	report = cJSON_GetObjectItem(peer, "report");
	if (!cJSON_IsObject(report))
		return;
	summary_table(out, report);
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(report, "findings")) {
		if (nd_severity_from_name(result_of(f)) >= ND_SEV_WARNING)
			section(out, f);
	}
	fputs("_The commands in this section are for the far host: run them there._\n\n", out);
}

/* One row of a device under the one reported (a bond member, a lower):
 * the cells of keys ("?" when absent, "" for the label), then its error
 * and the IDs of its findings of warning or worse. */
static void device_row(FILE *out, const cJSON *m, const char *const *keys)
{
	const char *sep = "";
	const cJSON *f;

	for (; *keys; keys++) {
		fputs("| ", out);
		put_cell(out, nd_json_str(m, *keys, strcmp(*keys, "label") ? "?" : ""));
		fputc(' ', out);
	}
	fputs("| ", out);
	put_cell(out, nd_json_str(m, "error", ""));
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(m, "findings")) {
		fputs(sep, out);
		put_cell(out, nd_json_str(f, "id", "?"));
		sep = ", ";
	}
	fputs(" |\n", out);
}

/* A bond's members, one row each (see text_members.c). */
static void members_table(FILE *out, const cJSON *doc)
{
	static const char *const keys[] = { "name", "worst", NULL };
	const cJSON *members = cJSON_GetObjectItem(doc, "members"), *m;

	if (!cJSON_IsArray(members))
		return;
	fputs("## Members\n\n| Member | Worst | Warning or worse |\n|---|---|---|\n", out);
	cJSON_ArrayForEach(m, members)
		device_row(out, m, keys);
	fputc('\n', out);
}

/* A stacked device's lowers: the chain, then one row each. */
static void stack_table(FILE *out, const cJSON *doc)
{
	static const char *const keys[] = { "name", "upper", "kind", "label", "worst", NULL };
	const cJSON *stack = cJSON_GetObjectItem(doc, "stack"), *m;

	if (!cJSON_IsObject(stack))
		return;
	fputs("## Stack\n\n", out);
	if (nd_json_str(stack, "path", NULL))
		fprintf(out, "Wire via `%s` (%s; %d bytes added per frame)\n\n",
			nd_json_str(stack, "via", "?"), nd_json_str(stack, "path", "?"),
			(int)cJSON_GetNumberValue(cJSON_GetObjectItem(stack, "encap_bytes")));
	fputs("| Lower | Under | Kind | Driver, PCI | Worst | Warning or worse |\n"
	      "|---|---|---|---|---|---|\n", out);
	cJSON_ArrayForEach(m, cJSON_GetObjectItem(stack, "lowers"))
		device_row(out, m, keys);
	fputc('\n', out);
}

static void unreadable(FILE *out, const cJSON *doc)
{
	char groups[2048];

	if (nd_unreadable_text(doc, groups, sizeof(groups))[0])
		fprintf(out, "Not readable: %s\n\n", groups);
}

int nd_render_markdown(const struct nd_report *report, FILE *out)
{
	cJSON *doc = nd_report_document(report);
	const cJSON *f;
	bool problems;

	if (!doc)
		return -ENOMEM;
	title(out, doc);
	throughput(out, doc);
	problems = problems_table(out, doc);
	ceilings_table(out, doc);
	for (int sev = ND_SEV_CRITICAL; sev >= ND_SEV_WARNING; sev--)
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
			if (nd_severity_from_name(result_of(f)) == sev)
				section(out, f);
		}
	if (problems)
		fputs("## All checks\n\n", out);
	summary_table(out, doc);
	far_end(out, doc);
	members_table(out, doc);
	stack_table(out, doc);
	unreadable(out, doc);
	cJSON_Delete(doc);
	return ferror(out) ? -EIO : 0;
}

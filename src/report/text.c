/*
 * text.c - the default, human report: fits 80 columns, one line per check,
 * the details only under what needs attention.  Rendered from the (redacted)
 * JSON document so it never says something the JSON does not.  Colour only
 * when report->color (the caller decides: a terminal and NO_COLOR unset).
 *
 *   eth0: ixgbe, PCI 0000:09:00.0, 10000 Mbit/s, MTU 1500, up
 *   host host-1, kernel 6.1.0-13-amd64, 8 CPUs online
 *
 *   Ceilings, lowest first:
 *        3662 Mbit/s  pcie     PCIe link at 5 GT/s x1 of 8 GT/s x4
 *        9415 Mbit/s  wire     TCP/IPv4 goodput of a 10000 Mbit/s link ...
 *
 *   [CRIT] pcie.link_downgraded  PCIe link at 5 GT/s x1 of 8 GT/s x4
 *          sta_width: 1
 *          ceiling: 3662 Mbit/s (pcie)
 *          fix (pcie):
 *            setpci -s 0000:09:00.0 ...
 *   [ OK ] queues.single  8 RX queues
 *   [ ?? ] irq.concentrated  cannot tell where interrupts go
 *          missing: irqs
 *   [skip] rps.off_single_queue  ...
 *   [ NA ] bond.member_down  not a bond
 *
 *   Not readable: irqs (no permission)
 *
 * With experiments, a headline (measured against the wire, the binding
 * bottleneck, each suspect's verdict) follows the host line and the runs
 * with the per-CPU bars come after the findings (text_throughput.c).
 *
 *   Result: critical (1 critical, 1 unknown, 1 ok, 1 skipped)
 *
 * or, when nothing is warning or worse, "Result: no problem found (...)"
 * and how many checks could not judge.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/report.h"
#include "render.h"

#define WIDTH ND_TEXT_WIDTH
#define TAG_INDENT 7		/* under "[WARN] " */
#define DETAIL_INDENT 9		/* under "key: " of an evidence line */
#define HEADLINE_FIX_INDENT 4	/* under "To fix it:" */
#define CEILING_INDENT 27	/* "  " + 9 + " Mbit/s  " + 7 + "  " */

struct text_out {
	FILE *out;
	bool color;
};

static const struct {
	const char *tag, *color;
} sev_style[] = {
	[ND_SEV_OK] = { "[ OK ]", "\033[32m" },
	[ND_SEV_INFO] = { "[INFO]", "\033[36m" },
	[ND_SEV_UNKNOWN] = { "[ ?? ]", "\033[35m" },
	[ND_SEV_WARNING] = { "[WARN]", "\033[1;33m" },
	[ND_SEV_CRITICAL] = { "[CRIT]", "\033[1;31m" },
};

static const char skip_tag[] = "[skip]", skip_color[] = "\033[2m", reset[] = "\033[0m";
static const char not_applicable_tag[] = "[ NA ]";

/* Write n bytes with control characters shown as '?': a value from a
 * snapshot must not be able to move the cursor or change colours. */
static void put_clean(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

/*
 * Print text from column col, breaking at spaces before WIDTH; continuation
 * lines start at column indent.  A word too long for a line is split.
 * Shell commands are not wrapped here: see nd_shell_print (shell.c).
 */
static void wrap(FILE *out, size_t col, size_t indent, const char *text)
{
	bool fresh = true;
	const char *p = text;

	if (col >= WIDTH) {
		fprintf(out, "\n%*s", (int)indent, "");
		col = indent;
	}
	while (*p) {
		size_t len;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		len = strcspn(p, " \t\n");
		/* a word that fits a fresh line is not split at the prefix */
		if ((fresh && col > indent && col + len > WIDTH && indent + len <= WIDTH) ||
		    (!fresh && col + 1 + len > WIDTH)) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
			fresh = true;
		}
		if (!fresh) {
			fputc(' ', out);
			col++;
		}
		while (col + len > WIDTH) {
			size_t chunk = WIDTH - col;

			put_clean(out, p, chunk);
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
			p += chunk;
			len -= chunk;
		}
		put_clean(out, p, len);
		col += len;
		p += len;
		fresh = false;
	}
	fputc('\n', out);
}

void nd_text_wrap(FILE *out, size_t col, size_t indent, const char *text)
{
	wrap(out, col, indent, text);
}

static size_t put_tag(const struct text_out *t, const char *tag, const char *color)
{
	if (t->color)
		fprintf(t->out, "%s%s%s ", color, tag, reset);
	else
		fprintf(t->out, "%s ", tag);
	return strlen(tag) + 1;
}

static void header(const struct text_out *t, const cJSON *doc)
{
	const cJSON *iface = cJSON_GetObjectItem(doc, "interface");
	const cJSON *host = cJSON_GetObjectItem(doc, "host");
	const char *origin = nd_json_str(host, "origin", "");
	const cJSON *speed = cJSON_GetObjectItem(iface, "speed_mbps");
	const cJSON *mtu = cJSON_GetObjectItem(iface, "mtu");
	const cJSON *cpus = cJSON_GetObjectItem(host, "cpus_online");
	const char *pci = nd_json_str(iface, "pci_address", NULL);
	const char *virt_kind = nd_json_str(cJSON_GetObjectItem(host, "virt"), "kind", "none");
	char line[512], speed_text[32], mtu_text[32], num[32], vm[48] = "";

	/* A guest says so: its NIC's speed and PCIe link are the hypervisor's. */
	if (strcmp(virt_kind, "none"))
		snprintf(vm, sizeof(vm), "a VM (%s)", !strcmp(virt_kind, "unknown") ?
			 "hypervisor unknown" : virt_kind);
	snprintf(line, sizeof(line), "%s: %s, %s%s, %s%s, MTU %s, %s",
		 nd_json_str(iface, "name", "?"), nd_json_str(iface, "driver", "driver unknown"),
		 pci ? "PCI " : "", pci ? pci : "no PCI address",
		 cJSON_IsNumber(speed) ? nd_json_text(speed, speed_text, sizeof(speed_text))
				       : "speed unknown",
		 cJSON_IsNumber(speed) ? " Mbit/s" : "",
		 nd_json_text(mtu, mtu_text, sizeof(mtu_text)),
		 nd_json_str(iface, "operstate", "state unknown"));
	if (t->color)
		fputs("\033[1m", t->out);
	wrap(t->out, 0, 4, line);
	if (t->color)
		fputs(reset, t->out);
	snprintf(line, sizeof(line), "host %s, kernel %s, %s CPUs online%s%s%s%s%s",
		 nd_json_str(host, "name", "unknown"), nd_json_str(host, "kernel", "unknown"),
		 nd_json_text(cpus, num, sizeof(num)), vm[0] ? ", " : "", vm,
		 *origin ? " (from " : "", origin, *origin ? ")" : "");
	wrap(t->out, 0, 4, line);
}

static void ceilings(const struct text_out *t, const cJSON *doc)
{
	const cJSON *arr = cJSON_GetObjectItem(doc, "ceilings"), *c;
	char num[32];

	if (cJSON_GetArraySize(arr) == 0)
		return;
	fputs("\nCeilings, lowest first:\n", t->out);
	cJSON_ArrayForEach(c, arr) {
		const cJSON *mbps = cJSON_GetObjectItem(c, "mbps");
		char source[8];

		snprintf(source, sizeof(source), "%s", nd_json_str(c, "source", "?"));
		fprintf(t->out, "  %7s Mbit/s  %-7s  ",
			cJSON_IsNumber(mbps) ? nd_mbps_text(mbps->valuedouble, num, sizeof(num)) : "?",
			source);
		wrap(t->out, CEILING_INDENT, CEILING_INDENT, nd_json_str(c, "detail", ""));
	}
}

/* "key: value" lines of an evidence object, wrapped under the value. */
static void evidence(const struct text_out *t, const cJSON *ev)
{
	const cJSON *item;
	char value[1024], key[64];

	cJSON_ArrayForEach(item, ev) {
		size_t col;

		snprintf(key, sizeof(key), "%s", item->string ? item->string : "?");
		fprintf(t->out, "%*s", TAG_INDENT, "");
		put_clean(t->out, key, strlen(key));
		fputs(": ", t->out);
		col = TAG_INDENT + strlen(key) + 2;
		wrap(t->out, col, DETAIL_INDENT, nd_json_text(item, value, sizeof(value)));
	}
}

static void finding_details(const struct text_out *t, const cJSON *f)
{
	const cJSON *ceiling = cJSON_GetObjectItem(f, "ceiling_mbps");
	const cJSON *fix = cJSON_GetObjectItem(f, "fix");
	const char *verdict = nd_json_str(f, "verdict", "untested");
	char line[512], num[32];

	evidence(t, cJSON_GetObjectItem(f, "evidence"));
	if (cJSON_IsNumber(ceiling)) {
		snprintf(line, sizeof(line), "ceiling: %s Mbit/s (%s)",
			 nd_mbps_text(ceiling->valuedouble, num, sizeof(num)),
			 nd_json_str(f, "ceiling_source", "?"));
		fprintf(t->out, "%*s", TAG_INDENT, "");
		wrap(t->out, TAG_INDENT, DETAIL_INDENT, line);
	}
	if (strcmp(verdict, "untested") != 0) {
		const char *reason = nd_json_str(cJSON_GetObjectItem(f, "experiment"), "reason", "");

		snprintf(line, sizeof(line), "verdict: %s%s%s", verdict, reason[0] ? ": " : "",
			 reason);
		fprintf(t->out, "%*s", TAG_INDENT, "");
		wrap(t->out, TAG_INDENT, DETAIL_INDENT, line);
	}
	if (cJSON_IsObject(fix)) {
		const cJSON *cmd;

		snprintf(line, sizeof(line), "fix (%s):", nd_json_str(fix, "id", "?"));
		fprintf(t->out, "%*s", TAG_INDENT, "");
		wrap(t->out, TAG_INDENT, DETAIL_INDENT, line);
		cJSON_ArrayForEach(cmd, cJSON_GetObjectItem(fix, "commands")) {
			if (!cJSON_IsString(cmd))
				continue;
			fprintf(t->out, "%*s", DETAIL_INDENT, "");
			nd_shell_print(t->out, DETAIL_INDENT, DETAIL_INDENT, cmd->valuestring);
		}
	}
}

static void finding(const struct text_out *t, const cJSON *f);

#define SEV_SKIPPED (-1)
#define SEV_NOT_APPLICABLE (-2)

/* A finding's severity, SEV_SKIPPED or SEV_NOT_APPLICABLE. */
static int finding_sev(const cJSON *f)
{
	if (cJSON_IsTrue(cJSON_GetObjectItem(f, "skipped")))
		return SEV_SKIPPED;
	if (cJSON_IsTrue(cJSON_GetObjectItem(f, "not_applicable")))
		return SEV_NOT_APPLICABLE;
	return nd_severity_from_name(nd_json_str(f, "severity", NULL));
}

/* The tag and title line of a finding, without details. */
static void finding_line(const struct text_out *t, const cJSON *f, int sev)
{
	const char *id = nd_json_str(f, "id", "?");
	size_t col = put_tag(t, sev_style[sev].tag, sev_style[sev].color);

	put_clean(t->out, id, strlen(id));
	fputs("  ", t->out);
	wrap(t->out, col + strlen(id) + 2, TAG_INDENT, nd_json_str(f, "title", ""));
}

/* Warnings and criticals: title, ceiling, verdict and fix; the evidence
 * lines only in the verbose listing (--json has them all). */
static void finding_brief(const struct text_out *t, const cJSON *f, int sev)
{
	cJSON *copy = cJSON_Duplicate(f, true);

	finding_line(t, f, sev);
	if (!copy)
		return;
	cJSON_ReplaceItemInObjectCaseSensitive(copy, "evidence", cJSON_CreateObject());
	finding_details(t, copy);
	cJSON_Delete(copy);
}

/* "Passed: a, b, c", "Skipped: ..." or, with why, "Could not judge: id
 * (missing: reason); ...": one paragraph of the findings of severity want. */
static void id_paragraph(const struct text_out *t, const cJSON *doc, int want, const char *lead,
			 bool why)
{
	char line[4096];
	size_t used;
	unsigned n = 0;
	const cJSON *f;

	used = (size_t)snprintf(line, sizeof(line), "%s", lead);
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
		const cJSON *ev = cJSON_GetObjectItem(f, "evidence");
		const char *sep;
		int len;

		if (finding_sev(f) != want)
			continue;
		sep = n++ ? (why ? "; " : ", ") : " ";
		if (why)
			len = snprintf(line + used, sizeof(line) - used, "%s%s (%s: %s)", sep,
				       nd_json_str(f, "id", "?"), nd_json_str(ev, "missing", "?"),
				       nd_json_str(ev, "reason", "unknown"));
		else
			len = snprintf(line + used, sizeof(line) - used, "%s%s", sep,
				       nd_json_str(f, "id", "?"));
		if (len > 0 && (size_t)len < sizeof(line) - used)
			used += (size_t)len;
	}
	if (!n)
		return;
	fputc('\n', t->out);
	wrap(t->out, 0, 4, line);
}

/* "Not applicable: a, b (not a bond); c (mode active-backup ...)": the
 * checks with nothing here to judge, grouped by why. */
static void not_applicable_paragraph(const struct text_out *t, const cJSON *doc)
{
	const cJSON *findings = cJSON_GetObjectItem(doc, "findings"), *f, *g;
	char line[4096];
	size_t used = (size_t)snprintf(line, sizeof(line), "Not applicable:");
	bool any = false;

	cJSON_ArrayForEach(f, findings) {
		const char *why = nd_json_str(f, "title", "");
		bool seen = false, first = true;
		int len;

		if (finding_sev(f) != SEV_NOT_APPLICABLE)
			continue;
		for (g = findings->child; g != f; g = g->next)
			seen |= finding_sev(g) == SEV_NOT_APPLICABLE &&
				!strcmp(nd_json_str(g, "title", ""), why);
		if (seen)
			continue;	/* named with an earlier one of the same reason */
		for (g = f; g; g = g->next) {
			if (finding_sev(g) != SEV_NOT_APPLICABLE ||
			    strcmp(nd_json_str(g, "title", ""), why))
				continue;
			len = snprintf(line + used, sizeof(line) - used, "%s%s",
				       first ? (any ? "; " : " ") : ", ", nd_json_str(g, "id", "?"));
			if (len > 0 && (size_t)len < sizeof(line) - used)
				used += (size_t)len;
			first = false;
		}
		len = snprintf(line + used, sizeof(line) - used, " (%s)", why);
		if (len > 0 && (size_t)len < sizeof(line) - used)
			used += (size_t)len;
		any = true;
	}
	if (!any)
		return;
	fputc('\n', t->out);
	wrap(t->out, 0, 4, line);
}

/*
 * The binding bottleneck's fix, right under the headline: every command of
 * it, one a line under "To fix it:", so the indented block pasted into a
 * shell runs exactly the finding's fix.commands.
 */
static void bottleneck_fix(const struct text_out *t, const cJSON *doc)
{
	const cJSON *b = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "throughput"), "bottleneck");
	const char *id = nd_json_str(b, "id", NULL);
	bool far = !strcmp(nd_json_str(b, "host", "here"), "far end");
	const cJSON *f, *cmd, *findings = cJSON_GetObjectItem(doc, "findings");
	bool shown = false;

	if (!id)
		return;
	if (far)	/* its fix is typed there: the far end's own report has it */
		findings = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "peer"),
								   "report"), "findings");
	if (nd_json_str(b, "via", NULL))	/* a lower's: the fix is on it */
		findings = cJSON_GetObjectItem(b, "lower_findings");
	cJSON_ArrayForEach(f, findings) {
		if (strcmp(nd_json_str(f, "id", ""), id) != 0)
			continue;
		cJSON_ArrayForEach(cmd, cJSON_GetObjectItem(cJSON_GetObjectItem(f, "fix"),
							   "commands")) {
			if (!cJSON_IsString(cmd))
				continue;
			if (!shown)
				fputs(far ? "To fix it, on the far host:\n" : "To fix it:\n", t->out);
			shown = true;
			fprintf(t->out, "%*s", HEADLINE_FIX_INDENT, "");
			nd_shell_print(t->out, HEADLINE_FIX_INDENT, HEADLINE_FIX_INDENT,
				       cmd->valuestring);
		}
		break;
	}
}

/* The default order: what needs attention first, worst first, then info,
 * then one paragraph for what passed and one for what could not be read. */
static void findings_top_down(const struct text_out *t, const cJSON *doc)
{
	static const int order[] = { ND_SEV_CRITICAL, ND_SEV_WARNING };
	const cJSON *f;
	bool any = false;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings"))
			if (finding_sev(f) == order[i]) {
				if (!any)
					fputc('\n', t->out);
				any = true;
				finding_brief(t, f, order[i]);
			}
	any = false;
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings"))
		if (finding_sev(f) == ND_SEV_INFO) {
			if (!any)
				fputc('\n', t->out);
			any = true;
			finding_line(t, f, ND_SEV_INFO);
		}
	id_paragraph(t, doc, ND_SEV_OK, "Passed:", false);
	id_paragraph(t, doc, SEV_SKIPPED, "Skipped:", false);
	not_applicable_paragraph(t, doc);
	id_paragraph(t, doc, ND_SEV_UNKNOWN, "Could not judge:", true);
}

static void finding(const struct text_out *t, const cJSON *f)
{
	const char *id = nd_json_str(f, "id", "?");
	bool skipped = cJSON_IsTrue(cJSON_GetObjectItem(f, "skipped"));
	int sev = nd_severity_from_name(nd_json_str(f, "severity", NULL));
	size_t col;

	if (skipped || sev < 0)
		col = put_tag(t, skip_tag, skip_color);
	else if (cJSON_IsTrue(cJSON_GetObjectItem(f, "not_applicable")))
		col = put_tag(t, not_applicable_tag, skip_color);
	else
		col = put_tag(t, sev_style[sev].tag, sev_style[sev].color);
	put_clean(t->out, id, strlen(id));
	fputs("  ", t->out);
	wrap(t->out, col + strlen(id) + 2, TAG_INDENT, nd_json_str(f, "title", ""));
	if (skipped || sev < 0)
		return;
	if (sev == ND_SEV_UNKNOWN)
		evidence(t, cJSON_GetObjectItem(f, "evidence"));
	else if (sev >= ND_SEV_WARNING)
		finding_details(t, f);
}

/*
 * The far end: its own report in the same layout, cut to what matters in a
 * ticket (warnings and worse, and anything a run judged), its CPU load
 * during our forward run, which is its receive run.  Its fixes are printed
 * to be run there: `fix` never touches another host.
 */
void nd_text_peer(FILE *out, bool color, const cJSON *doc)
{
	const cJSON *peer = cJSON_GetObjectItem(doc, "peer"), *report, *f;
	struct text_out t = { .out = out, .color = color };
	char line[600];
	unsigned shown = 0;

	if (!cJSON_IsObject(peer))
		return;
	snprintf(line, sizeof(line), "Far end (%s): %s", nd_json_str(peer, "host", "?"),
		 nd_json_str(peer, "reason", ""));
	fputc('\n', out);
	nd_text_wrap(out, 0, 4, line);
	report = cJSON_GetObjectItem(peer, "report");
	if (cJSON_IsObject(report)) {
		header(&t, report);
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(report, "findings")) {
			int sev = nd_severity_from_name(nd_json_str(f, "severity", NULL));

			if (sev < ND_SEV_WARNING &&
			    !strcmp(nd_json_str(f, "verdict", "untested"), "untested"))
				continue;
			finding(&t, f);
			shown++;
		}
		if (!shown)
			fputs("No warning on the far end.\n", out);
		else
			fputs("(fix commands above are for the far host: run them there)\n", out);
	}
	nd_text_cpu_bars(out, color, cJSON_GetObjectItem(peer, "cpus_forward"),
			 "CPU load on the far end during the forward run");
}

static void unreadable(const struct text_out *t, const cJSON *doc)
{
	char groups[2048], line[2100];

	if (!nd_unreadable_text(doc, groups, sizeof(groups))[0])
		return;
	snprintf(line, sizeof(line), "Not readable: %s", groups);
	fputc('\n', t->out);
	wrap(t->out, 0, 4, line);
}

static void summary(const struct text_out *t, const cJSON *doc)
{
	char result[400], line[420];

	snprintf(line, sizeof(line), "Result: %s", nd_result_text(doc, "above", result, sizeof(result)));
	fputc('\n', t->out);
	if (t->color)
		fputs("\033[1m", t->out);
	wrap(t->out, 0, 4, line);
	if (t->color)
		fputs(reset, t->out);
}

int nd_render_text(const struct nd_report *report, FILE *out)
{
	struct text_out t = { .out = out, .color = report->color };
	cJSON *doc = nd_report_document(report);
	const cJSON *f;

	if (!doc)
		return -ENOMEM;
	header(&t, doc);
	nd_text_headline(out, t.color, doc);
	bottleneck_fix(&t, doc);
	ceilings(&t, doc);
	if (report->verbose) {
		fputc('\n', out);
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings"))
			finding(&t, f);
	} else {
		findings_top_down(&t, doc);
	}
	nd_text_throughput(out, t.color, doc);
	nd_text_peer(out, t.color, doc);
	nd_text_members(out, doc);
	nd_text_stack(out, doc);
	unreadable(&t, doc);
	summary(&t, doc);
	cJSON_Delete(doc);
	return ferror(out) ? -EIO : 0;
}

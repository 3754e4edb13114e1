/*
 * text_throughput.c - the experiments in the text report, from the
 * document's `throughput` object and the findings' verdicts:
 *
 *   Measured 2790 of the 9415 Mbit/s wire goodput (30%)
 *   Bottleneck: qdisc.rate_limit, confirmed: measured 2790 Mbit/s sits at
 *       the 2900 Mbit/s shaping ceiling, the lowest
 *   Suspects:
 *     confirmed     qdisc.rate_limit: measured 2790 Mbit/s sits at ...
 *     refuted       tool.iperf3_single_threaded: one stream moves ...
 *
 * and after the findings the runs (a reverse run's retransmits are the
 * peer's, starred, since the peer sends), one bar per CPU for the forward run
 * (softirq '#', other busy '=', so a pegged core is seen before it is
 * read) and the trial fixes.  Fits 80 columns; colour only when asked.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/report.h"
#include "render.h"

#define BAR_WIDTH 40
#define SUSPECT_INDENT 16		/* "  " + verdict column of 14 */

static const char bold[] = "\033[1m", reset[] = "\033[0m";
static const char softirq_color[] = "\033[31m", busy_color[] = "\033[33m";

static const char *verdict_color(const char *verdict)
{
	if (!strcmp(verdict, "confirmed"))
		return "\033[1;31m";
	if (!strcmp(verdict, "refuted"))
		return "\033[32m";
	return "\033[33m";
}

static double num(const cJSON *obj, const char *key, double fallback)
{
	const cJSON *item = cJSON_GetObjectItem(obj, key);

	return cJSON_IsNumber(item) ? item->valuedouble : fallback;
}

static void measured_line(FILE *out, bool color, const cJSON *doc)
{
	const cJSON *tp = cJSON_GetObjectItem(doc, "throughput");
	double measured = num(tp, "measured_mbps", -1), wire = num(tp, "wire_ceiling_mbps", -1);
	const char *other = nd_route_other_dev(doc);
	const char *ifname = nd_json_str(cJSON_GetObjectItem(doc, "interface"), "name", "?");
	char line[300], a[32], b[32], upper[64];

	nd_route_upper_text(doc, upper, sizeof(upper));
	if (!strcmp(nd_json_str(tp, "mode", ""), "loopback")) {
		snprintf(line, sizeof(line), "Host capacity (loopback, not wire speed): one TCP "
			 "stream moves %s Mbit/s through this host's stack",
			 nd_mbps_text(num(tp, "host_capacity_mbps", 0), a, sizeof(a)));
	} else if (measured < 0) {
		snprintf(line, sizeof(line), "No throughput measured: %s; the findings stay "
			 "untested", nd_json_str(tp, "error", "the runs did not complete"));
	} else if (other) {
		snprintf(line, sizeof(line), "Measured %s Mbit/s over %s, not %s (--allow-route): "
			 "%s's findings stay untested", nd_mbps_text(measured, a, sizeof(a)), other,
			 ifname, ifname);
	} else if (wire > 0) {
		snprintf(line, sizeof(line), "Measured %s of the %s Mbit/s wire goodput (%.0f%%)%s",
			 nd_mbps_text(measured, a, sizeof(a)), nd_mbps_text(wire, b, sizeof(b)),
			 100.0 * measured / wire, upper);
	} else {
		snprintf(line, sizeof(line), "Measured %s Mbit/s%s (wire goodput unknown: no link "
			 "speed)", nd_mbps_text(measured, a, sizeof(a)), upper);
	}
	fputc('\n', out);
	if (color)
		fputs(bold, out);
	nd_text_wrap(out, 0, 4, line);
	if (color)
		fputs(reset, out);
}

/* The ports run together met a limit this port alone did not show: the
 * suspect's line below has the reason, the together section the figures. */
static void together_line(FILE *out, const cJSON *b, const cJSON *doc)
{
	const cJSON *f = nd_together_confirmed(doc);
	char line[512];

	if (!f || !strcmp(nd_json_str(b, "id", ""), nd_json_str(f, "id", "?")))
		return;
	snprintf(line, sizeof(line), "Bottleneck together: %s, confirmed (see Ports together)",
		 nd_json_str(f, "id", "?"));
	nd_text_wrap(out, 0, 4, line);
}

static void bottleneck_line(FILE *out, const cJSON *tp, const cJSON *doc)
{
	const cJSON *b = cJSON_GetObjectItem(tp, "bottleneck");
	char line[512];

	if (cJSON_IsObject(b) && nd_json_str(b, "via", NULL))	/* a lower's (stack) */
		snprintf(line, sizeof(line), "Bottleneck: %s via %s, %s: %s",
			 nd_json_str(b, "id", "?"), nd_json_str(b, "via", "?"),
			 nd_json_str(b, "verdict", "?"), nd_json_str(b, "reason", ""));
	else if (cJSON_IsObject(b))
		snprintf(line, sizeof(line), "Bottleneck%s: %s, %s: %s",
			 strcmp(nd_json_str(b, "host", "here"), "far end") ? "" : " on the far end",
			 nd_json_str(b, "id", "?"), nd_json_str(b, "verdict", "?"),
			 nd_json_str(b, "reason", ""));
	else if (cJSON_IsTrue(cJSON_GetObjectItem(tp, "at_wire")))
		snprintf(line, sizeof(line), "Bottleneck: none below the wire: line rate reached");
	else
		snprintf(line, sizeof(line), "Bottleneck: none confirmed");
	nd_text_wrap(out, 0, 4, line);
	together_line(out, cJSON_GetObjectItem(tp, "bottleneck"), doc);
}

static void suspects(FILE *out, bool color, const cJSON *doc)
{
	const cJSON *f;
	bool any = false;

	cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
		const char *verdict = nd_json_str(f, "verdict", "untested");
		char line[512];

		if (!strcmp(verdict, "untested"))
			continue;
		if (!any)
			fputs("Suspects:\n", out);
		any = true;
		fprintf(out, "  %s%-13s%s ", color ? verdict_color(verdict) : "", verdict,
			color ? reset : "");
		snprintf(line, sizeof(line), "%s: %s", nd_json_str(f, "id", "?"),
			 nd_json_str(cJSON_GetObjectItem(f, "experiment"), "reason", ""));
		nd_text_wrap(out, SUSPECT_INDENT, SUSPECT_INDENT, line);
	}
}

void nd_text_headline(FILE *out, bool color, const cJSON *doc)
{
	const cJSON *tp = cJSON_GetObjectItem(doc, "throughput");

	if (!cJSON_IsObject(tp))
		return;
	measured_line(out, color, doc);
	if (!strcmp(nd_json_str(tp, "mode", ""), "peer") && num(tp, "measured_mbps", -1) >= 0 &&
	    !nd_route_other_dev(doc))
		bottleneck_line(out, tp, doc);
	suspects(out, color, doc);
}

static void run_line(FILE *out, const cJSON *run)
{
	const cJSON *nic = cJSON_GetObjectItem(run, "nic");
	const cJSON *sn = cJSON_GetObjectItem(run, "softnet");
	double streams = num(run, "streams", 0), retr = num(run, "retransmits", -1);
	double rtt = num(run, "min_rtt_usec", -1);
	double peer_retr = num(run, "peer_retransmits", -1);
	bool reverse = !strcmp(nd_json_str(run, "direction", ""), "reverse");
	char line[200], mbps[32], retr_text[32] = "?", rtt_text[32] = "?", drops_text[32] = "?";

	if (retr >= 0)
		snprintf(retr_text, sizeof(retr_text), "%.0f", retr);
	else if (reverse && peer_retr >= 0)	/* the peer sent: its own count */
		snprintf(retr_text, sizeof(retr_text), "%.0f*", peer_retr);
	else if (reverse)
		snprintf(retr_text, sizeof(retr_text), "n/a*");
	if (rtt <= 0 && reverse)
		snprintf(rtt_text, sizeof(rtt_text), "n/a*");
	if (rtt > 0)
		snprintf(rtt_text, sizeof(rtt_text), "%.0f us", rtt);
	if (cJSON_IsObject(nic) || cJSON_IsObject(sn))
		snprintf(drops_text, sizeof(drops_text), "%.0f",
			 num(nic, "rx_dropped", 0) + num(nic, "tx_dropped", 0) +
			 num(sn, "dropped", 0));
	/* Aligned columns: printed as is (at most 78 columns), not wrapped. */
	snprintf(line, sizeof(line), "  %-7.7s %2.0f stream%s %7s Mbit/s  retr %-6s min RTT %-8s "
		 "drops %s", nd_json_str(run, "direction", "?"), streams, streams == 1 ? " " : "s",
		 nd_mbps_text(num(run, "mbps", 0), mbps, sizeof(mbps)), retr_text, rtt_text,
		 drops_text);
	fprintf(out, "%.80s\n", line);
}

/* One CPU: softirq part '#', the rest of busy '=', idle '.'. */
static void cpu_bar(FILE *out, bool color, const cJSON *c)
{
	double busy = fmin(fmax(num(c, "busy_pct", 0), 0), 100);
	double soft = fmin(fmax(num(c, "softirq_pct", 0), 0), busy);
	int soft_cols = (int)lround(soft * BAR_WIDTH / 100.0);
	int busy_cols = (int)lround(busy * BAR_WIDTH / 100.0) - soft_cols;

	if (busy_cols < 0)
		busy_cols = 0;
	fprintf(out, "  cpu%-4.0f [", num(c, "cpu", 0));
	if (color)
		fputs(softirq_color, out);
	for (int i = 0; i < soft_cols; i++)
		fputc('#', out);
	if (color)
		fprintf(out, "%s%s", reset, busy_color);
	for (int i = 0; i < busy_cols; i++)
		fputc('=', out);
	if (color)
		fputs(reset, out);
	for (int i = soft_cols + busy_cols; i < BAR_WIDTH; i++)
		fputc('.', out);
	fprintf(out, "] %3.0f%% busy, %3.0f%% softirq\n", busy, soft);
}

static void cpu_bars(FILE *out, bool color, const cJSON *runs)
{
	const cJSON *run, *chosen = NULL;
	char title[80];

	/* The forward many-stream run; the loopback baseline has only one. */
	cJSON_ArrayForEach(run, runs) {
		if (!chosen || !strcmp(nd_json_str(run, "name", ""), "forward_many"))
			chosen = run;
	}
	if (!chosen)
		return;
	snprintf(title, sizeof(title), "CPU load during the %s run",
		 nd_json_str(chosen, "direction", "?"));
	nd_text_cpu_bars(out, color, cJSON_GetObjectItem(chosen, "cpus"), title);
}

void nd_text_cpu_bars(FILE *out, bool color, const cJSON *cpus, const char *title)
{
	const cJSON *c;

	if (cJSON_GetArraySize(cpus) == 0)
		return;
	fprintf(out, "%s (# softirq, = other busy):\n", title);
	cJSON_ArrayForEach(c, cpus)
		cpu_bar(out, color, c);
}

static void trials(FILE *out, const cJSON *arr)
{
	const cJSON *t;
	char line[512], a[32], b[32];

	if (cJSON_GetArraySize(arr) == 0)
		return;
	fputs("Trial fixes, each applied, measured forward in Mbit/s, reverted:\n", out);
	cJSON_ArrayForEach(t, arr) {
		int n;

		n = snprintf(line, sizeof(line), "%s (%s): ", nd_json_str(t, "fix", "?"),
			     nd_json_str(t, "finding", "?"));
		if (cJSON_IsNumber(cJSON_GetObjectItem(t, "after_mbps")))
			snprintf(line + n, sizeof(line) - (size_t)n, "before %s, after %s "
				 "(%+.0f%%), %s", nd_mbps_text(num(t, "before_mbps", 0), a, sizeof(a)),
				 nd_mbps_text(num(t, "after_mbps", 0), b, sizeof(b)),
				 num(t, "change_pct", 0),
				 cJSON_IsTrue(cJSON_GetObjectItem(t, "reverted")) ? "reverted"
										  : "NOT reverted");
		else
			snprintf(line + n, sizeof(line) - (size_t)n, "%s",
				 nd_json_str(t, "error", "not measured"));
		fputs("  ", out);
		nd_text_wrap(out, 2, 4, line);
	}
}

void nd_text_throughput(FILE *out, bool color, const cJSON *doc)
{
	const cJSON *tp = cJSON_GetObjectItem(doc, "throughput");
	const cJSON *runs = cJSON_GetObjectItem(tp, "runs"), *run;
	char line[400];
	bool reverse = false;

	if (!cJSON_IsObject(tp) || cJSON_GetArraySize(runs) == 0)
		return;
	snprintf(line, sizeof(line), "Throughput runs (%s %s):",
		 strcmp(nd_json_str(tp, "mode", ""), "loopback") ? "peer" : "loopback,",
		 nd_json_str(tp, "peer", "?"));
	fputc('\n', out);
	nd_text_wrap(out, 0, 4, line);
	cJSON_ArrayForEach(run, runs) {
		run_line(out, run);
		reverse |= !strcmp(nd_json_str(run, "direction", ""), "reverse");
	}
	if (reverse) {	/* the starred columns: what this side cannot count */
		fputs("  ", out);
		nd_text_wrap(out, 2, 4, "* reverse: the peer sends: retr is the count it "
			     "reported (n/a: none), and no socket of ours has the RTT");
	}
	cpu_bars(out, color, runs);
	trials(out, cJSON_GetObjectItem(tp, "trials"));
}

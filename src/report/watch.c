/*
 * watch.c - `nicdoctor watch` output: one interval's view (src/watch/view.c)
 * as a plain text block, redrawn in place on a terminal (ANSI home + clear,
 * no curses), or as one JSON line (like iperf3 --json-stream); the summary
 * at the end in the same two forms.  The per-CPU bars are the report's.
 */
#include <stdio.h>
#include <string.h>

#include "nicdoctor/watch.h"
#include "render.h"

static double num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(obj, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void device_lines(FILE *out, const cJSON *d)
{
	char rx[32], tx[32];

	fprintf(out, "device  rx %10.0f pkt/s %9s Mbit/s   tx %10.0f pkt/s %9s Mbit/s\n",
		num(d, "rx_pps"), nd_mbps_text(num(d, "rx_mbps"), rx, sizeof(rx)),
		num(d, "tx_pps"), nd_mbps_text(num(d, "tx_mbps"), tx, sizeof(tx)));
	fprintf(out, "        drops rx %.0f/s tx %.0f/s   errors rx %.0f/s tx %.0f/s\n",
		num(d, "rx_dropped_ps"), num(d, "tx_dropped_ps"), num(d, "rx_errors_ps"),
		num(d, "tx_errors_ps"));
}

static void queue_lines(FILE *out, const cJSON *queues, bool summary)
{
	const cJSON *q;

	if (cJSON_GetArraySize(queues) == 0)
		return;
	fprintf(out, "queue        pkt/s    Mbit/s  share  irq   cpus  %scounted by\n",
		summary ? "   packets  " : "");
	cJSON_ArrayForEach(q, queues) {
		const cJSON *irq = cJSON_GetObjectItem(q, "irq");
		char mbps[32], irq_text[16], packets[24] = "";

		snprintf(irq_text, sizeof(irq_text), "%s", "-");
		if (cJSON_IsNumber(irq))
			snprintf(irq_text, sizeof(irq_text), "%d", irq->valueint);
		if (summary)
			snprintf(packets, sizeof(packets), "%10.0f  ", num(q, "packets"));
		fprintf(out, "%-8.8s %9.0f %9s %5.0f%%  %-5s %-5.5s %s%s\n",
			nd_json_str(q, "queue", "?"), num(q, "pps"),
			nd_mbps_text(num(q, "mbps"), mbps, sizeof(mbps)), num(q, "share_pct"),
			irq_text, nd_json_str(q, "cpus", "-"), packets, nd_json_str(q, "source", ""));
	}
}

static void cpu_lines(FILE *out, const cJSON *cpus, const cJSON *softnet)
{
	const cJSON *c;
	bool any_irq = false;

	nd_text_cpu_bars(out, false, cpus, "per-CPU load");
	cJSON_ArrayForEach(c, cpus)
		any_irq |= cJSON_IsNumber(cJSON_GetObjectItem(c, "interrupts_ps"));
	if (any_irq) {
		fputs("interrupts/s", out);
		cJSON_ArrayForEach(c, cpus)
			if (cJSON_IsNumber(cJSON_GetObjectItem(c, "interrupts_ps")))
				fprintf(out, "  cpu%.0f %.0f", num(c, "cpu"), num(c, "interrupts_ps"));
		fputc('\n', out);
	}
	if (cJSON_IsNumber(cJSON_GetObjectItem(softnet, "dropped_ps")))
		fprintf(out, "softnet  drops %.0f/s  squeezes %.0f/s\n", num(softnet, "dropped_ps"),
			num(softnet, "squeezed_ps"));
}

static void unavailable_line(FILE *out, const cJSON *arr)
{
	const cJSON *u;

	cJSON_ArrayForEach(u, arr)
		fprintf(out, "unavailable: %s (%s)\n", nd_json_str(u, "what", "?"),
			nd_json_str(u, "reason", "?"));
}

void nd_watch_render_text(FILE *out, const cJSON *view, bool tty)
{
	bool summary = !strcmp(nd_json_str(view, "type", ""), "summary");
	const cJSON *diag = cJSON_GetObjectItem(view, "diagnosis"), *d;

	if (tty && !summary)
		fputs("\033[H\033[2J", out);
	if (summary)
		fprintf(out, "summary of %s: %.0f intervals over %.1f s (rates are averages)\n",
			nd_json_str(view, "interface", "?"), num(view, "intervals"),
			num(view, "duration_s"));
	else
		fprintf(out, "%s  interval %.0f (%.1f s)\n", nd_json_str(view, "interface", "?"),
			num(view, "interval"), num(view, "seconds"));
	device_lines(out, cJSON_GetObjectItem(view, "device"));
	queue_lines(out, cJSON_GetObjectItem(view, "queues"), summary);
	cpu_lines(out, cJSON_GetObjectItem(view, "cpus"), cJSON_GetObjectItem(view, "softnet"));
	if (cJSON_IsString(diag))
		fprintf(out, "diagnosis: %s\n", diag->valuestring);
	cJSON_ArrayForEach(d, cJSON_GetObjectItem(view, "diagnoses"))
		fprintf(out, "seen %.0f times: %s\n", num(d, "intervals"),
			nd_json_str(d, "diagnosis", "?"));
	unavailable_line(out, cJSON_GetObjectItem(view, "unavailable"));
	if (!tty)
		fputc('\n', out);
	fflush(out);
}

void nd_watch_render_json(FILE *out, const cJSON *view)
{
	char *text = cJSON_PrintUnformatted(view);

	if (text) {
		fprintf(out, "%s\n", text);
		cJSON_free(text);
	}
	fflush(out);
}

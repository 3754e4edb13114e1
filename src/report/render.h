/*
 * render.h - private to src/report/: the document every renderer walks and
 * the small formatting helpers they share.
 *
 * Text, markdown and prometheus render from the same JSON document that
 * --json prints, after redaction, so the formats never drift apart and a
 * redacted report is redacted in every format.
 */
#ifndef NICDOCTOR_REPORT_RENDER_H
#define NICDOCTOR_REPORT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "nicdoctor/report.h"

/* nd_report_to_json, redacted when report->redact.  NULL on ENOMEM. */
cJSON *nd_report_document(const struct nd_report *report);

/* doc printed as the JSON reports are (indented, a newline), then freed;
 * NULL is -ENOMEM.  0, -ENOMEM or -EIO. */
int nd_report_print_json(cJSON *doc, FILE *out);

/* A JSON value as a person reads it: strings unquoted, integers without a
 * fraction, null as "unknown", objects and arrays compact.  Returns buf. */
char *nd_json_text(const cJSON *item, char *buf, size_t size);

/* Mbit/s as text: no decimals from 100 up, one below. */
char *nd_mbps_text(double mbps, char *buf, size_t size);

/* Item's string, or fallback when absent or not a string. */
const char *nd_json_str(const cJSON *obj, const char *key, const char *fallback);

/* Severity name -> enum; -1 when not a severity (skipped: null). */
int nd_severity_from_name(const char *name);

/* The document's "unreadable" groups as "a, b (reason); c (other)";
 * "" when everything was read.  Returns buf. */
char *nd_unreadable_text(const cJSON *doc, char *buf, size_t size);

/* The result counts in report order, "1 critical, 2 ok" (zeros left out);
 * "" when no check ran.  Returns buf. */
char *nd_counts_text(const cJSON *doc, char *buf, size_t size);

/* The result line's words: "critical (1 critical, 2 ok)" when anything is
 * warning or worse, else "no problem found (...)" with how many checks
 * could not judge, "(listed WHERE, with why)".  Returns buf. */
char *nd_result_text(const cJSON *doc, const char *where, char *buf, size_t size);

/* The text report's width, in columns. */
#define ND_TEXT_WIDTH 80

/* shell.c: one fix command (or comment) from column col, so that pasted it
 * runs exactly cmd: wrapped only where the shell splits words, with " \"
 * (continuation lines at indent + 2), comments continued as comments
 * ("# " at indent). */
void nd_shell_print(FILE *out, size_t col, size_t indent, const char *cmd);

/* throughput.route (the peer's route): its device when the traffic took
 * another path than the interface (--allow-route), else NULL; and
 * " via br0 over eth0" when the device sits above the interface, else "".
 * render.c. */
const char *nd_route_other_dev(const cJSON *doc);
const char *nd_route_upper_text(const cJSON *doc, char *buf, size_t size);

/* text.c: print text from column col, wrapped at 80 columns, continuation
 * lines at column indent, control characters shown as '?'. */
void nd_text_wrap(FILE *out, size_t col, size_t indent, const char *text);

/* text_throughput.c: the experiments' headline (after the host line) and
 * their runs, per-CPU bars and trials (after the findings). */
void nd_text_headline(FILE *out, bool color, const cJSON *doc);
void nd_text_throughput(FILE *out, bool color, const cJSON *doc);
/* One bar per CPU of a cpus array ({cpu, busy_pct, softirq_pct}) under title. */
void nd_text_cpu_bars(FILE *out, bool color, const cJSON *cpus, const char *title);
/* text_peer.c: the far end's section (after our throughput). */
void nd_text_peer(FILE *out, bool color, const cJSON *doc);

/* together.c: the finding the ports-together run confirmed (its experiment
 * of kind "together"), or NULL.  A port's headline bottleneck is its run
 * alone; this is what the ports met at once. */
const cJSON *nd_together_confirmed(const cJSON *doc);

int nd_render_prometheus(const struct nd_report *report, FILE *out);

#endif

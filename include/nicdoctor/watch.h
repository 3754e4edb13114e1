/*
 * watch.h - `nicdoctor watch`: a live per-queue, per-CPU view while any
 * traffic runs.  probe/watch_sample.c reads one sample of every counter
 * (the only part that reads the OS); src/watch/view.c turns two samples
 * into one interval's JSON object (rates, the queue chain, one line of
 * live diagnosis) and the whole watch into a summary, purely;
 * report/watch.c prints those as text blocks or JSON lines.
 */
#ifndef NICDOCTOR_WATCH_H
#define NICDOCTOR_WATCH_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "nicdoctor/host_sample.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/queues.h"

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

/* What the watch learned once at its start (the probe's facts) and keeps
 * reusing, so that one interval reads only the counters. */
struct nd_watch_ctx {
	const char *ifname;
	const struct nd_facts *facts;	/* chain, RPS masks, queue counts */
	struct nd_chain chain;
	unsigned n_irqs;
	unsigned irq_numbers[ND_MAX_IRQS];
	struct nd_irqs *irqs_scratch;	/* /proc/interrupts parse target (large) */
};

struct nd_watch_sample {
	double t_sec;			/* CLOCK_MONOTONIC */
	struct nd_if_snap link;		/* statistics/: rx/tx bytes, packets, drops, errors */
	bool cpus_known;
	struct nd_cpu_snap cpus;
	struct nd_softnet softnet;	/* st.known when read */
	bool queues_known;
	char queues_reason[ND_REASON_LEN];
	struct nd_queue_table queues;
	struct nd_irq_sums irqs;	/* the interface's IRQs */
};

/* Fill ctx from facts (which must outlive ctx).  0 or -ENOMEM. */
int nd_watch_ctx_init(struct nd_watch_ctx *ctx, const char *ifname, const struct nd_facts *facts);
void nd_watch_ctx_release(struct nd_watch_ctx *ctx);

/* One read of every counter.  -ENODEV when the interface is gone (the
 * only fatal outcome); a source that cannot be read is marked unknown. */
int nd_watch_sample_read(const struct nd_root *root, const struct nd_watch_ctx *ctx,
			 struct nd_watch_sample *ret);

/* One interval (a to b) as {"type":"interval", ...}; summary=true gives the
 * whole watch (a = first sample) as {"type":"summary", ...}.  NULL on ENOMEM. */
cJSON *nd_watch_view(const struct nd_watch_ctx *ctx, const struct nd_watch_sample *a,
		     const struct nd_watch_sample *b, unsigned index, bool summary);

/* report/watch.c: one view as a text block (tty: after ANSI home+clear). */
void nd_watch_render_text(FILE *out, const cJSON *view, bool tty);
void nd_watch_render_json(FILE *out, const cJSON *view);

#endif

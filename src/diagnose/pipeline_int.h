/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline_int.h - private to src/diagnose/: the members of a bond or
 * team, each a diagnosis of its own, and one counter read.
 */
#ifndef NICDOCTOR_PIPELINE_INT_H
#define NICDOCTOR_PIPELINE_INT_H

#include "nicdoctor/diagnose.h"
#include "nicdoctor/probe.h"

/* A team's ports are read into the bond's members too. */
#define ND_DIAG_MAX_MEMBERS ND_MAX_BOND_MEMBERS

struct nd_diag_member {
	char name[ND_IFNAMSIZ];
	int error;			/* probe's negative errno, 0 when diagnosed */
	struct nd_diagnosis d;
	/* A lower of a stacked device (stack.c), not a bond's member: the
	 * device it is under and how deep (1: under the diagnosed one). */
	bool stacked;
	char upper[ND_IFNAMSIZ];
	unsigned depth;
};

/* One interface's counters read: its facts and what a read covers. */
struct window_read {
	struct nd_facts *facts;
	struct nd_counter_source src;
	unsigned irqs[ND_MAX_IRQS];
};

/* members.c */
void nd_diag_members_probe(struct nd_source *src, struct nd_diagnosis *d);
void nd_diag_members_judge(struct nd_diagnosis *d);
void nd_diag_members_rejudge(struct nd_diagnosis *d);
void nd_diag_members_free(struct nd_diagnosis *d);

/* stack.c: a stacked device's lowers, followed down to the NICs (into
 * d->members, after a bond's own members), the wire they give the upper,
 * and the report's "stack" object; the lowers' suspects judged on the
 * upper's runs, and the headline's bottleneck "via" a lower. */
void nd_diag_stack_probe(struct nd_source *src, struct nd_diagnosis *d);
void nd_diag_stack_report(struct nd_diagnosis *d);
void nd_diag_stack_derive(struct nd_diagnosis *d);
void nd_diag_stack_verdicts(struct nd_diagnosis *d);
/* members.c: one lower's or member's summary object. */
cJSON *nd_diag_member_json(const struct nd_diag_member *m, int *ret_worst);

#endif

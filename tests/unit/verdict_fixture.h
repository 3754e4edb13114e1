/*
 * verdict_fixture.h - measurement sets and findings made by hand, as the
 * runs and the checks would leave them, for the verdict tests: a 10GbE
 * wire, a peer set of forward-many, forward-one and reverse-many runs.
 * Static inline so that a test file may leave some unused.
 */
#ifndef NICDOCTOR_TEST_VERDICT_FIXTURE_H
#define NICDOCTOR_TEST_VERDICT_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"

#define WIRE_10G_MBPS 9414.8

static inline void finding(struct nd_finding *f, const char *id, enum nd_severity sev)
{
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	f->ceiling_mbps = -1;
	f->evidence = cJSON_CreateObject();
	nd_strlcpy(f->title, id, sizeof(f->title));
}

static inline void with_ceiling(struct nd_finding *f, const char *source, double mbps)
{
	f->ceiling_mbps = mbps;
	nd_strlcpy(f->ceiling_source, source, sizeof(f->ceiling_source));
}

static inline void run(struct nd_exp_set *set, enum nd_exp_run_kind k, int streams,
		       double mbps)
{
	struct nd_exp_run *r = &set->runs[k];

	r->done = true;
	r->reverse = k == ND_RUN_REVERSE_MANY;
	r->streams = streams;
	r->duration_sec = 6;
	r->mbps = mbps;
	r->retransmits = 0;
	r->nic_valid = true;
	r->softnet_valid = true;
	r->min_rtt_usec = k == ND_RUN_REVERSE_MANY ? 0 : 120;
}

/* A peer set: forward many, one, reverse many. */
static inline struct nd_exp_set *peer_set(double fwd_many, double fwd_one, double rev_many)
{
	struct nd_exp_set *set = calloc(1, sizeof(*set));

	assert_non_null(set);
	set->mode = ND_EXP_PEER;
	set->wire_mbps = WIRE_10G_MBPS;
	strcpy(set->peer, "10.0.0.2:5201");
	run(set, ND_RUN_FORWARD_MANY, 4, fwd_many);
	run(set, ND_RUN_FORWARD_ONE, 1, fwd_one);
	run(set, ND_RUN_REVERSE_MANY, 4, rev_many);
	return set;
}

static inline void free_findings(struct nd_finding *fs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		nd_finding_free(&fs[i]);
}

#endif

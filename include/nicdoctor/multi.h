/*
 * multi.h - several iperf3 targets in one run (issue 15): the target list
 * that `bench -c HOST1,HOST2:PORT -p 5201-5204` names (targets.c), the run
 * that tests them at the same time with one clock (multi.c), and the port
 * ranges `serve -p` listens on.
 */
#ifndef NICDOCTOR_MULTI_H
#define NICDOCTOR_MULTI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "nicdoctor/engine.h"

/* Each target runs its own test threads and -P streams: 16 keeps a run of
 * 16 x 128 streams within what one host can open and report. */
#define ND_MULTI_MAX_TARGETS 16

struct nd_target {
	char host[256];
	uint16_t port;		/* 0: none given, the engine's 5201 */
	char bind[256];		/* -B for this target; "": the run's own */
};

struct nd_targets {
	struct nd_target t[ND_MULTI_MAX_TARGETS];
	int count;
};

/*
 * hosts: "HOST[:PORT],..." ("[V6]:PORT" for IPv6 with a port; a bare
 * address with several colons is all host).  ports: NULL, "PORT",
 * "FIRST-LAST" or a comma list of those.  A host with its own :PORT is one
 * target; every other host is one target per port of the list.  0, or
 * -EINVAL / -E2BIG with a one-line reason in err.
 */
int nd_targets_parse(const char *hosts, const char *ports, struct nd_targets *out,
		     char *err, size_t err_size);

/*
 * -B ADDR1,ADDR2,...: one source address per target, in order (a single
 * ADDR without a comma stays the run's -B for all).  0, or -EINVAL with a
 * one-line reason when the count does not match.
 */
int nd_targets_set_binds(struct nd_targets *tg, const char *binds, char *err,
			 size_t err_size);

/* The ports of "PORT", "FIRST-LAST" or a comma list, at most max. */
int nd_ports_parse(const char *text, uint16_t *ports, int max, int *ret_count,
		   char *err, size_t err_size);

/*
 * Run base's test against every target at once: each its own connection
 * and streams, all released together once every one is set up, the same
 * duration.  Text goes to out with a "[tN]" prefix per line and a sum at
 * the end; with json, *ret_json is { targets: [...], sum, nicdoctor }.
 * 0, or the first target's error.
 */
int nd_multi_run(const struct nd_engine_params *base, const struct nd_targets *tg,
		 bool json, FILE *out, cJSON **ret_json);

/*
 * The same clock for callers that keep the numbers (diagnose's together
 * run): params[i] is target i's whole test, nothing is printed, each
 * result and rc lands in results[i] and rcs[i].  0, or the first
 * target's error.
 */
int nd_multi_run_params(const struct nd_engine_params *params, int count,
			struct nd_engine_result *results, int *rcs);

#endif

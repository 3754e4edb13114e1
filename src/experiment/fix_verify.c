/*
 * fix_verify.c - `fix --apply --peer HOST`: measure, apply, measure again.
 *
 * Throughput is measured receiving from the peer (iperf3 -R: most fixes
 * are on the receive path) with the engine's in-process client.  Two
 * baseline runs give the level and the run-to-run noise; then each fix
 * kind's steps are applied as a group and measured, and a group that made
 * throughput worse than the last accepted level by more than the noise is
 * rolled back at once.  The engine also measures the RTT that sizes the
 * socket-buffer sysctls, in a short forward run where TCP_INFO is ours.
 * Each run is the one measurement diagnose makes (experiment/measure.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/engine.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/fix.h"

/* Below this share two runs of the same setup differ anyway. */
#define NOISE_FLOOR_SHARE 0.05

/* One run through the measurement diagnose uses (experiment/measure.c). */
static int run_once(const struct nd_fix_peer *peer, bool reverse, double duration_sec,
		    struct nd_exp_run *run, char *why, size_t why_size)
{
	struct nd_exp_target target = { .host = peer->host, .port = peer->port,
					.ifname = peer->ifname, .auth = peer->auth };
	char reason[200] = "";
	int r = nd_exp_measure(&target, peer->streams > 0 ? peer->streams : 1, reverse,
			       duration_sec, run, reason, sizeof(reason));

	if (r < 0)
		snprintf(why, why_size, "cannot measure against '%s': %s", peer->host, reason);
	return r;
}

/* One receive run: Mbit/s, or a negative errno with the engine's words. */
static int measure_once(const struct nd_fix_peer *peer, double *ret_mbps, char *why,
			size_t why_size)
{
	struct nd_exp_run *run = calloc(1, sizeof(*run));
	int r;

	if (!run)
		return -ENOMEM;
	r = run_once(peer, true, peer->duration_sec, run, why, why_size);
	if (r == 0)
		*ret_mbps = run->mbps;
	free(run);
	return r;
}

/* Lowest RTT TCP_INFO saw on our sending sockets: the path without the
 * queueing a bulk run adds. */
static int measure_rtt(const struct nd_fix_peer *peer, double *ret_rtt_usec, char *why,
		       size_t why_size)
{
	struct nd_exp_run *run = calloc(1, sizeof(*run));
	int r;

	if (!run)
		return -ENOMEM;
	r = run_once(peer, false, 1, run, why, why_size);
	if (r == 0 && run->min_rtt_usec > 0)
		*ret_rtt_usec = run->min_rtt_usec;
	free(run);
	return r;
}

int nd_fix_measure_baseline(const struct nd_fix_peer *peer, struct nd_fix_baseline *ret,
			    char *why, size_t why_size)
{
	struct nd_fix_baseline b = { 0 };
	double first = 0, second = 0;
	int r;

	r = measure_rtt(peer, &b.rtt_usec, why, why_size);
	if (r == 0)
		r = measure_once(peer, &first, why, why_size);
	if (r == 0)
		r = measure_once(peer, &second, why, why_size);
	if (r < 0)
		return r;
	b.mbps = (first + second) / 2;
	b.noise_share = fabs(first - second) / fmax(first, second);
	if (b.noise_share < NOISE_FLOOR_SHARE)
		b.noise_share = NOISE_FLOOR_SHARE;
	*ret = b;
	return 0;
}

/* Steps [first, end) of one kind: the unit that is kept or rolled back. */
static unsigned group_end(const struct nd_fix_journal *j, unsigned first)
{
	unsigned end = first + 1;

	while (end < j->n_steps && j->steps[end].kind == j->steps[first].kind)
		end++;
	return end;
}

int nd_fix_apply_verified(struct nd_fix_journal *j, const struct nd_fix_peer *peer,
			  const struct nd_fix_baseline *base, const struct nd_fix_verify_cbs *cbs,
			  struct nd_fix_outcome *out)
{
	double level = base->mbps, mbps = 0;
	unsigned first = 0, end;
	bool worse;
	int r;

	out->failed_index = -1;
	out->measured = true;
	out->before_mbps = out->after_mbps = base->mbps;
	for (; first < j->n_steps; first = end) {
		end = group_end(j, first);
		/* A failing step rolls back its own group; then undo the earlier ones. */
		r = nd_fix_apply_range(j, first, end, cbs->on_step, cbs->arg, out);
		if (r < 0) {
			nd_fix_undo_range(j, 0, first, cbs->on_step, cbs->arg, out);
			return r;
		}
		r = measure_once(peer, &mbps, out->failed_detail, sizeof(out->failed_detail));
		if (r < 0) {
			out->error = r;
			nd_fix_undo_range(j, 0, end, cbs->on_step, cbs->arg, out);
			return r;
		}
		worse = mbps < level * (1 - base->noise_share);
		if (cbs->on_measure)
			cbs->on_measure(j->steps[first].kind->name, mbps, level, worse, cbs->arg);
		if (!worse) {
			level = mbps;
			continue;
		}
		nd_fix_undo_range(j, first, end, cbs->on_step, cbs->arg, out);
		out->worse_undone += end - first;
	}
	out->after_mbps = level;
	return 0;
}

/*
 * plan.c - the bounded experiment plan of `diagnose --peer` (many streams
 * forward, one stream forward, many streams reverse) and the loopback
 * baseline without a peer.  Each run goes through measure.c; progress
 * lines go to a callback (the command prints them on a terminal only).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"

int nd_exp_streams_for(const struct nd_facts *facts)
{
	int queues = (int)nd_facts_rx_queues(facts);

	if (queues < ND_EXP_MIN_STREAMS)
		return ND_EXP_MIN_STREAMS;
	return queues > ND_EXP_MAX_STREAMS ? ND_EXP_MAX_STREAMS : queues;
}

double nd_exp_run_sec(double total_sec, int n_runs)
{
	double sec = n_runs > 0 ? total_sec / n_runs : total_sec;

	return sec < ND_EXP_MIN_RUN_SEC ? ND_EXP_MIN_RUN_SEC : sec;
}

static void progress_f(nd_exp_progress_fn fn, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void progress_f(nd_exp_progress_fn fn, void *arg, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fn(line, arg);
}

void nd_exp_peer_message(const struct nd_exp_set *set, int err, char *buf, size_t size)
{
	const char *why = set->error[0] ? set->error : strerror(err < 0 ? -err : err);
	bool some_done = false;
	const char *what;

	for (int k = 0; k < ND_RUN_KINDS; k++)
		some_done |= set->runs[k].done;
	switch (err) {
	case -EBUSY: what = "is busy (running another test)"; break;
	case -EACCES: what = "wants authentication"; break;
	case -ECONNRESET: case -EPIPE: what = "went away mid-run"; break;
	case -ETIMEDOUT:
		what = some_done ? "stopped answering mid-plan" : "is unreachable"; break;
	case -ECONNREFUSED: case -EHOSTUNREACH: case -ENETUNREACH:
		what = some_done ? "went away mid-plan" : "is unreachable"; break;
	default: what = "failed";
	}
	snprintf(buf, size, "peer '%s' %s: %s", set->peer, what, why);
}

void nd_exp_set_release(struct nd_exp_set *set)
{
	cJSON_Delete(set->far_view);
	set->far_view = NULL;
}

/* A many-stream run also asks the far end for its view; the first answer
 * is kept, later ones only give their per-CPU load. */
static int measure_plan_run(const struct nd_exp_target *target, int streams, bool reverse,
			    bool many, double sec, struct nd_exp_run *run, struct nd_exp_set *set)
{
	cJSON *view = NULL;
	int r = nd_exp_measure_peer(target, streams, reverse, sec, run,
				    many && target->want_peer ? &view : NULL, set->error,
				    sizeof(set->error));

	if (view && !set->far_view)
		set->far_view = view;
	else
		cJSON_Delete(view);
	return r;
}

int nd_exp_run_plan(const struct nd_exp_target *target, const struct nd_facts *facts,
		    double total_sec, const volatile sig_atomic_t *stop,
		    nd_exp_progress_fn progress, void *arg, struct nd_exp_set *set)
{
	static const struct {
		enum nd_exp_run_kind kind;
		bool reverse, many;
		const char *what;
	} plan[] = {
		{ ND_RUN_FORWARD_MANY, false, true, "forward (here to peer)" },
		{ ND_RUN_FORWARD_ONE, false, false, "forward (here to peer)" },
		{ ND_RUN_REVERSE_MANY, true, true, "reverse (peer to here)" },
	};
	int many = nd_exp_streams_for(facts);
	double sec = nd_exp_run_sec(total_sec, (int)ND_ARRAY_SIZE(plan));

	set->mode = ND_EXP_PEER;
	for (size_t i = 0; i < ND_ARRAY_SIZE(plan); i++) {
		int streams = plan[i].many ? many : 1;
		struct nd_exp_run *run = &set->runs[plan[i].kind];
		int r;

		if (stop && *stop) {
			set->interrupted = true;
			return set->err = -EINTR;
		}
		progress_f(progress, arg, "run %zu/%zu: %d stream%s %s, %.0f s", i + 1,
			   ND_ARRAY_SIZE(plan), streams, streams > 1 ? "s" : "", plan[i].what, sec);
		r = measure_plan_run(target, streams, plan[i].reverse, plan[i].many, sec, run, set);
		if (r < 0)
			return set->err = r;
		progress_f(progress, arg, "run %zu/%zu: %.0f Mbit/s", i + 1, ND_ARRAY_SIZE(plan),
			   run->mbps);
	}
	return 0;
}

int nd_exp_run_baseline(double duration_sec, nd_exp_progress_fn progress, void *arg,
			struct nd_exp_set *set)
{
	struct nd_exp_target target = { .host = "127.0.0.1", .ifname = "lo" };
	struct nd_server *server = NULL;
	int r;

	set->mode = ND_EXP_LOOPBACK;
	nd_strlcpy(set->peer, "127.0.0.1 (embedded server)", sizeof(set->peer));
	/* Port 0: an ephemeral port, never a server someone else runs. */
	r = nd_server_start_embedded(0, &server);
	if (r < 0) {
		snprintf(set->error, sizeof(set->error), "cannot start the loopback server: %s",
			 strerror(-r));
		return r;
	}
	target.port = nd_server_port(server);
	progress_f(progress, arg, "loopback baseline: 1 stream through this host's stack, %.0f s",
		   duration_sec);
	r = nd_exp_measure(&target, 1, false, duration_sec, &set->runs[ND_RUN_FORWARD_ONE],
			   set->error, sizeof(set->error));
	nd_server_stop_embedded(server);
	return r;
}

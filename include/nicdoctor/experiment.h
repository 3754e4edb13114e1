/*
 * experiment.h - experiments and verdicts (`diagnose --peer`, the loopback
 * baseline, `--trial-fixes`), and the one measurement that `fix --peer`
 * shares with them.
 *
 * A run is plain data: throughput, TCP_INFO, per-CPU load and the counter
 * deltas measured while it ran.  The verdict logic (verdict.c) is a pure
 * function of the findings and a set of runs, unit tested on recorded
 * measurement sets; only measure.c, plan.c and trial.c do I/O (through the
 * engine, the probe and the fixes engine).
 */
#ifndef NICDOCTOR_EXPERIMENT_H
#define NICDOCTOR_EXPERIMENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "nicdoctor/check.h"
#include "nicdoctor/engine.h"
#include "nicdoctor/facts.h"

#define ND_EXP_PLAN_SEC_DEFAULT    20.0	/* traffic of the whole peer plan */
#define ND_EXP_BASELINE_SEC_DEFAULT 2.0	/* the loopback baseline's one run */
#define ND_EXP_MIN_RUN_SEC          1.0
#define ND_EXP_CONNECT_TIMEOUT_MS  5000	/* connect and every control read */
#define ND_EXP_MIN_STREAMS            2	/* "many" means at least two */
#define ND_EXP_MAX_STREAMS           16	/* one per RX queue, bounded */
#define ND_EXP_MAX_TRIALS             8

/* The runs of the plan, in the order they are made. */
enum nd_exp_run_kind {
	ND_RUN_FORWARD_MANY = 0,	/* here -> peer, one stream per RX queue */
	ND_RUN_FORWARD_ONE,		/* here -> peer, one stream */
	ND_RUN_REVERSE_MANY,		/* peer -> here */
	ND_RUN_KINDS,
};

/* Where to measure: a peer, or the embedded loopback server. */
struct nd_exp_target {
	const char *host;
	uint16_t port;			/* 0: 5201 */
	const char *ifname;		/* counters sampled during runs, NULL none */
	int connect_timeout_ms;		/* 0: ND_EXP_CONNECT_TIMEOUT_MS */
	bool want_peer;			/* ask a nicdoctor server for its own view */
	const struct nd_auth_client *auth;	/* credentials for the peer, or NULL */
};

/* One queue's traffic during a run (queue table counters, before/after). */
struct nd_exp_queue_delta {
	unsigned kind, id;		/* ND_QUEUE_RX/TX, queue number */
	uint64_t packets, bytes;
};

/* One run's numbers; deltas are over the run. */
struct nd_exp_run {
	bool done;			/* measured */
	bool reverse;
	int streams;
	double duration_sec;
	double mbps;			/* goodput at the receiving end */
	int64_t retransmits;		/* our sending streams'; -1 unknown */
	int64_t peer_retransmits;	/* reverse: the far end's, as it reported them; -1 */
	double rtt_usec, min_rtt_usec;	/* our sending sockets' TCP_INFO; 0 unknown */
	int cpus_count;
	struct nd_engine_cpu_share cpus[ND_ENGINE_MAX_CPUS];
	bool nic_valid;
	uint64_t nic_rx_dropped, nic_tx_dropped, nic_rx_errors, nic_tx_errors;
	bool softnet_valid;
	uint64_t softnet_dropped, softnet_squeezed;
	int far_cpus_count;		/* the far end's per-CPU load, when it said */
	struct nd_engine_cpu_share far_cpus[ND_ENGINE_MAX_CPUS];
	/* Per-queue packets while the run ran, with the per-CPU load above;
	 * 0 rows: the interface has no per-queue counters (verdict_queues.c). */
	unsigned queues_count;
	struct nd_exp_queue_delta queues[ND_MAX_QUEUE_ROWS];
};

enum nd_exp_mode {
	ND_EXP_NONE = 0,		/* --no-traffic, --sysroot */
	ND_EXP_PEER,
	ND_EXP_LOOPBACK,		/* host capacity, not wire speed */
};

/* Everything the experiments measured, and what the verdicts need. */
struct nd_exp_set {
	enum nd_exp_mode mode;
	char peer[300];			/* "host:port" */
	double wire_mbps;		/* < 0 unknown */
	struct nd_exp_run runs[ND_RUN_KINDS];	/* loopback: FORWARD_ONE only */
	char error[200];		/* peer trouble, "" none */
	int err;			/* the plan's negative errno, 0 none */
	bool interrupted;		/* SIGINT/SIGTERM stopped the plan */
	/* The far end's answer ({"report"}, {"declined"} or {"error"}) from
	 * a nicdoctor server; NULL when the peer said nothing (stock iperf3).
	 * Owned: nd_exp_set_release frees it. */
	cJSON *far_view;
};

void nd_exp_set_release(struct nd_exp_set *set);

/* --trial-fixes: one fix applied, measured, reverted. */
struct nd_exp_trial {
	char finding_id[48];
	char kind[24];			/* fix kind name */
	unsigned steps;
	bool measured;
	double before_mbps, after_mbps;
	bool reverted;			/* every value read back as it was */
	char error[512];		/* "" when it went through */
};

/* What the verdicts concluded as a whole, for the headline. */
struct nd_exp_summary {
	double measured_mbps;		/* the forward many-stream run; < 0 none */
	double wire_mbps;		/* < 0 unknown */
	int binding;			/* index of the binding finding, -1 none */
	bool at_wire;			/* measured at the wire ceiling */
};

/* --- measure.c (engine I/O) --- */

/* "host", "host:5201", "[::1]:5201" or a bare IPv6 address: 0 or -EINVAL. */
int nd_peer_parse(const char *arg, char *ret_host, size_t host_size, uint16_t *ret_port);
/* The other way: "host:port", "[v6]:port" for an IPv6 address (port 0:
 * the default 5201), as a report prints a peer.  Returns buf. */
char *nd_peer_format(char *buf, size_t size, const char *host, uint16_t port);

/* One run: engine test, softnet counters before and after (probe).
 * 0, or the engine's negative errno with a lower-case reason in why. */
int nd_exp_measure(const struct nd_exp_target *target, int streams, bool reverse,
		   double duration_sec, struct nd_exp_run *ret, char *why, size_t why_size);
/* The same, asking the far end for its view when target->want_peer: its
 * per-CPU load goes into ret->far_cpus, the payload to *ret_view (caller
 * frees; NULL when the peer said nothing). */
int nd_exp_measure_peer(const struct nd_exp_target *target, int streams, bool reverse,
			double duration_sec, struct nd_exp_run *ret, cJSON **ret_view,
			char *why, size_t why_size);

/* --- plan.c --- */

/* Streams of the "many" runs: one per active RX queue, within bounds. */
int nd_exp_streams_for(const struct nd_facts *facts);
/* Seconds per run of a plan of total_sec over n_runs (at least 1 s each). */
double nd_exp_run_sec(double total_sec, int n_runs);

typedef void (*nd_exp_progress_fn)(const char *line, void *arg);

/* The three runs against a peer.  Stops at the first failure (0 runs or
 * some done, set->error says why, returns its errno) or when *stop is set.
 * progress may be NULL. */
int nd_exp_run_plan(const struct nd_exp_target *target, const struct nd_facts *facts,
		    double total_sec, const volatile sig_atomic_t *stop,
		    nd_exp_progress_fn progress, void *arg, struct nd_exp_set *set);
/* The loopback baseline: an embedded server on 127.0.0.1 (ephemeral port),
 * one stream for duration_sec. */
int nd_exp_run_baseline(double duration_sec, nd_exp_progress_fn progress, void *arg,
			struct nd_exp_set *set);
/* A one-line message naming the peer for an errno of the plan. */
void nd_exp_peer_message(const struct nd_exp_set *set, int err, char *buf, size_t size);

/* --- verdict.c (pure) --- */

/* Judge every suspect (warning or critical as the check said, or a
 * tool.* info; not skipped) against the runs: verdict and an `experiment`
 * object per finding, then the severity the verdict gives
 * (nd_verdicts_apply_severity).  Findings no experiment speaks to stay
 * untested.  Fills *ret_summary. */
void nd_verdicts_decide(struct nd_finding *findings, unsigned n_findings,
			const struct nd_exp_set *set, struct nd_exp_summary *ret_summary);

/* A window finding's ceiling in each run: window / that run's min RTT. */
#define ND_WINDOW_STABLE_RATIO 1.25	/* stable: highest / lowest at most this */
struct nd_window_measure {
	double window_bytes;
	unsigned runs;			/* runs with a measured RTT */
	double rtt_low_usec, rtt_high_usec;
	double low_mbps, high_mbps;	/* at the longest and the shortest min RTT */
	bool stable;
};
/* 0, or -ENODATA when the finding has no window or no run an RTT. */
int nd_verdict_window_measure(const struct nd_finding *f, const struct nd_exp_set *set,
			      struct nd_window_measure *ret);

/* window / the measured RTT of a window finding (Mbit/s), < 0 when the
 * finding or the runs give no number or the runs disagree (not stable). */
double nd_verdict_window_ceiling_mbps(const struct nd_finding *f, const struct nd_exp_set *set);
/* The same, with the report ceiling's detail: it names the check only
 * when the check judged the window a problem (warning or worse after the
 * verdicts), else the sysctl. */
double nd_verdict_window_ceiling_detail(const struct nd_finding *f, const struct nd_exp_set *set,
					char *detail, size_t size);

/* --- verdict_severity.c (pure) --- */

/* tool.*: info until a run confirms it (then a warning). */
bool nd_finding_info_until_confirmed(const struct nd_finding *f);
/* The severity the check gave, before any verdict changed it. */
enum nd_severity nd_finding_check_severity(const struct nd_finding *f);
/* Severity from the verdict (nd_verdicts_decide does it for all): a
 * refuted warning or critical is info, a confirmed tool.* a warning;
 * severity_before_verdict keeps the check's.  Again after a verdict
 * changes (the ports together), from the check's severity. */
void nd_verdict_apply_severity(struct nd_finding *f);
void nd_verdicts_apply_severity(struct nd_finding *findings, unsigned n);

/* path.asymmetric (a registered check that only traffic judges), in
 * place among the findings: forward and reverse differing by more than
 * the tolerance is a confirmed warning naming the slower direction, info
 * and explained_by when a confirmed cause limits that direction only (an
 * egress shaper: qdisc.rate_limit); within it, ok.  Returns true when
 * asymmetric.  After nd_verdicts_decide. */
bool nd_verdict_asymmetric(const struct nd_exp_set *set, struct nd_finding *findings,
			   unsigned n_findings);

/* --- summary.c (pure) --- */

/* The report's `throughput` object: mode, runs, headline numbers, trials. */
cJSON *nd_exp_throughput_json(const struct nd_exp_set *set, const struct nd_exp_summary *sum,
			      const struct nd_finding *findings, unsigned n_findings,
			      const struct nd_exp_trial *trials, unsigned n_trials);

/* The `bottleneck` object for a binding finding; host "here" or "far end". */
cJSON *nd_exp_bottleneck_json(const struct nd_finding *f, const char *host);

/* --- far.c (pure) --- */

/*
 * The report's `peer` object after a peer plan, NULL otherwise: the far
 * end's own report (from `nicdoctor serve`) with its suspects judged on
 * what the runs measured from its side (its receive runs are our forward
 * runs, its CPUs those it reported), or why there is none (a stock iperf3
 * says nothing; a serve without --share, or one that does not share with
 * this client, declines and says why).  *ret_bottleneck gets the far
 * end's binding suspect in `bottleneck` form (host "far end"), or NULL.
 */
cJSON *nd_far_peer_json(const struct nd_exp_set *set, cJSON **ret_bottleneck);

/* Whether the far end's bottleneck explains the measurement better than
 * ours: we have none, or its ceiling is lower. */
bool nd_far_binding_wins(const cJSON *far_bottleneck, const struct nd_exp_summary *sum,
			 const struct nd_finding *findings, unsigned n_findings);

/* --- trial.c (fixes engine I/O) --- */

/* For each fixable suspect not refuted: plan its fix, journal, apply,
 * rerun the forward many-stream test, revert from the journal.  Stops
 * early when *stop is set or a run fails; never leaves a change behind
 * (a crash leaves the journal for `fix --revert`).  0, or a negative
 * errno: -EINTR when stopped, the run's errno (set->error says why),
 * -EIO when a revert failed (the trial's error names it). */
int nd_exp_run_trials(const struct nd_facts *facts, const struct nd_finding *findings,
		      unsigned n_findings, const struct nd_exp_target *target,
		      struct nd_exp_set *set, const volatile sig_atomic_t *stop,
		      nd_exp_progress_fn progress, void *arg, struct nd_exp_trial *trials,
		      unsigned *ret_n_trials);

#endif

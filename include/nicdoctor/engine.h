/*
 * engine.h - the throughput engine's public, in-process API.
 *
 * The engine speaks the iperf3 control protocol (../shared/iperf3-protocol.md)
 * in both roles.  `nicdoctor bench` and `serve` are thin CLI wrappers; the
 * experiments call nd_engine_run_client() against a peer, or start an
 * embedded loopback server for the host-capacity baseline.
 */
#ifndef NICDOCTOR_ENGINE_H
#define NICDOCTOR_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nicdoctor/host_sample.h"

#define ND_ENGINE_PORT_DEFAULT   5201
#define ND_ENGINE_MAX_STREAMS    128		/* iperf3's -P range */
#define ND_ENGINE_TCP_LEN_DEFAULT (128 * 1024)
#define ND_ENGINE_UDP_RATE_DEFAULT 1048576ULL	/* bits/s, iperf3's -u default */
#define ND_SERVER_RCV_TIMEOUT_DEFAULT 120000	/* ms, as iperf3 -s */
#define ND_SERVER_STREAMS_DEFAULT 256		/* one -P 128 --bidir test */
#define ND_SERVER_MEMORY_DEFAULT (256ULL << 20)	/* its 1 MiB blocks */

struct nd_engine_result;
struct cJSON;
struct sockaddr;
struct nd_auth_client;
struct nd_auth_server;

/* One interval report; called from the thread that runs the test. */
struct nd_engine_interval {
	double start_sec, end_sec;
	uint64_t sent_bytes;		/* this side, all streams it sends on */
	uint64_t received_bytes;	/* this side, all streams it receives on */
	int64_t retransmits;		/* -1 when this side does not send TCP */
	bool omitted;
};
typedef void (*nd_engine_interval_cb)(const struct nd_engine_interval *iv, void *arg);

struct nd_engine_params {
	const char *host;		/* peer; NULL only for the server */
	uint16_t port;			/* 0: 5201 */
	const char *bind_addr;		/* -B, NULL for any */
	int family;			/* AF_UNSPEC, AF_INET (-4), AF_INET6 (-6) */
	int streams;			/* -P, 1..128 */
	double duration_sec;		/* -t; 0 with bytes/blocks */
	int omit_sec;			/* -O */
	double interval_sec;		/* -i; 0 disables interval callbacks */
	uint64_t bytes_total;		/* -n */
	uint64_t blocks_total;		/* -k */
	bool reverse, bidir, udp;
	uint64_t rate_bps;		/* -b; 0 unlimited (UDP default 1 Mbit/s) */
	bool rate_set;
	uint32_t len_bytes;		/* -l; 0 default */
	uint32_t window_bytes;		/* -w */
	int mss_bytes;			/* -M */
	bool nodelay;			/* -N */
	const char *congestion;		/* -C */
	int tos;			/* -S */
	bool zerocopy;			/* -Z */
	bool skip_rx_copy;		/* --skip-rx-copy */
	bool no_gso;			/* --no-gso: UDP GSO/GRO off */
	bool get_server_output;
	/* Ask a nicdoctor server for its own view (parameter "nicdoctor_peer");
	 * its answer, if any, is stored in *ret_peer (caller frees with
	 * cJSON_Delete).  A stock iperf3 server ignores the request. */
	bool want_peer;
	struct cJSON **ret_peer;
	const char *title;		/* -T */
	/* --username, --rsa-public-key-path: sent as iperf3's "authtoken". */
	const struct nd_auth_client *auth;
	int cpus[ND_ENGINE_MAX_STREAMS];	/* -A: one CPU per stream, -1 none */
	int cpus_count;
	const char *ifname;		/* interface to sample; NULL: auto */
	int connect_timeout_ms;		/* 0: 10000 */
	nd_engine_interval_cb on_interval;
	void *on_interval_arg;
	/* The rest of iperf3 3.21's client flags, on the wire as 3.21 names
	 * them (params.c); 0/NULL/false: off. */
	const char *bind_dev;		/* --bind-dev, -B ADDR%DEV, -c HOST%DEV */
	uint16_t cport;			/* --cport: stream i binds cport + i */
	uint16_t cport_last;		/* --cport FIRST-LAST: the range's end, 0 none */
	/* bench --spread (src/spread/run.c): told of each data stream's dial,
	 * may ask for a re-dial; NULL: none. */
	const struct nd_stream_hooks *hooks;
	void *hooks_arg;
	bool mptcp;			/* -m: IPPROTO_MPTCP data streams */
	bool dont_fragment;		/* --dont-fragment: UDP with DF set */
	uint32_t flowlabel;		/* -L: IPv6 flow label, 1..0xfffff */
	uint64_t fq_rate_bps;		/* --fq-rate: SO_MAX_PACING_RATE */
	int pacing_timer_usec;		/* --pacing-timer; 0: 1000 */
	const char *extra_data;		/* --extra-data */
	bool repeating_payload;		/* --repeating-payload (ours always is) */
	bool gsro;			/* --gsro: ask the far end for GSO/GRO */
	int snd_timeout_ms;		/* --snd-timeout: TCP_USER_TIMEOUT */
	bool cntl_ka;			/* --cntl-ka[=IDLE/INTV/CNT] */
	int cntl_ka_idle, cntl_ka_intv, cntl_ka_cnt;
	int server_affinity;		/* -A N,M: M; -1 none */
	const char *file;		/* -F: send this file, or write what is received */
	int debug;			/* -d[=LEVEL]: 0 off, 1..4 */
};

/*
 * What bench --spread learns while the engine connects and runs (client
 * only).  Stream `index` counts data streams in creation order (with
 * --bidir the first half sends).  Called from the thread running the test.
 */
struct nd_stream_hooks {
	/* Control connection up, before the first data stream. */
	void (*before_streams)(void *arg, int ctrl_fd);
	/* About to dial stream index: the source port to bind, 0 ephemeral. */
	uint16_t (*dial)(void *arg, int index);
	/* Stream index connected; for TCP nothing is sent on it yet
	 * (can_redial).  Return true to have it closed and dialed again. */
	bool (*connected)(void *arg, int index, int fd, bool can_redial);
	/* The test's clock started (end false) and stopped (end true). */
	void (*sample)(void *arg, bool end);
	/* The run's spread: text after the summary, an object for -J. */
	void (*text)(void *arg, FILE *f);
	struct cJSON *(*json)(void *arg);
};

/* Fill defaults (port 5201, 1 stream, 10 s, 1 s intervals, no pinning). */
void nd_engine_params_init(struct nd_engine_params *p);

struct nd_engine_tcpinfo {
	bool valid;
	uint32_t rtt_usec, rttvar_usec, min_rtt_usec, max_rtt_usec;
	uint64_t rtt_sum_usec;		/* for the mean over samples */
	uint32_t rtt_samples;
	uint32_t snd_cwnd_bytes, max_snd_cwnd_bytes;
	uint32_t pmtu_bytes;
	uint32_t total_retrans;		/* since the socket opened */
	uint32_t snd_wnd_bytes, max_snd_wnd_bytes;	/* peer's window (Linux 5.4+) */
	uint32_t reorder;		/* reordering events seen (Linux 4.19+) */
};

struct nd_engine_stream_result {
	int id;				/* iperf3 stream id: 1, 3, 4, ... */
	bool local_sends;		/* this side sends on it */
	uint64_t local_bytes;		/* what this side sent or received */
	uint64_t remote_bytes;		/* the peer's count, from the results */
	uint64_t packets;		/* UDP: sent, or highest sequence seen */
	uint64_t remote_packets;
	uint64_t lost_packets;		/* UDP, receiver side (ours or peer's) */
	uint64_t out_of_order;
	double jitter_sec;
	int64_t retransmits;		/* sender's count; -1 unknown */
	double remote_end_sec;
	struct nd_engine_tcpinfo tcp;
	int cpu;			/* pinned CPU or -1 */
};

struct nd_engine_result {
	double duration_sec;		/* measured, omit excluded */
	/* Per direction, client to server (forward) and server to client. */
	uint64_t fwd_sent_bytes, fwd_received_bytes;
	uint64_t rev_sent_bytes, rev_received_bytes;
	double fwd_sent_bps, fwd_received_bps;
	double rev_sent_bps, rev_received_bps;
	/* This side's totals, whatever the direction. */
	double sent_bps, received_bps;
	int64_t retransmits;		/* sum over sending streams, -1 unknown */
	struct nd_engine_stream_result streams[2 * ND_ENGINE_MAX_STREAMS];
	int streams_count;
	double cpu_local_total_pct, cpu_local_user_pct, cpu_local_system_pct;
	double cpu_remote_total_pct, cpu_remote_user_pct, cpu_remote_system_pct;
	struct nd_engine_cpu_share cpus[ND_ENGINE_MAX_CPUS];
	int cpus_count;
	struct nd_engine_if_delta iface;
	char congestion_used[16];
	char remote_congestion[16];
	char error[160];		/* why a run failed, lower case */
};

/*
 * Run one test as the client.  0 on success; -ECONNREFUSED/-ETIMEDOUT/
 * -EHOSTUNREACH when the peer cannot be reached, -EBUSY when it answers
 * busy, -EACCES when it wants authentication or refused the credentials,
 * -EPROTO on a protocol error,
 * -EINVAL on bad parameters.  result->error says more.
 */
int nd_engine_run_client(const struct nd_engine_params *p, struct nd_engine_result *result);

/* Server. */
struct nd_server;

/* Who asks for the far-end view: the two ends of its control connection
 * and whether it passed the server's authentication. */
struct nd_peer_request {
	const struct sockaddr *local;
	const struct sockaddr *peer;
	bool authenticated;
};

#define ND_SERVER_LISTEN_MAX 64	/* ports of one `serve -p FIRST-LAST` */

struct nd_server_config {
	uint16_t port;
	/* `serve -p FIRST-LAST` (listeners.c): 0 for one port; with a range
	 * max_tests becomes the number of ports unless max_tests_given. */
	uint16_t port_last;
	bool max_tests_given;
	const char *bind_addr;		/* NULL: any (IPv6 dual stack, else IPv4) */
	int family;
	int max_tests;			/* concurrent tests, default 1 */
	int debug;			/* -d[=LEVEL]: 3.21's debug lines on stderr */
	int one_off;			/* -1: stop after this many tests (0 = forever) */
	int idle_timeout_ms;		/* every control read, default 10000 */
	/* Longest silence from a client in any state: no data on its
	 * streams during the test (iperf3's --rcv-timeout, default 120000);
	 * control reads wait the smaller of this and idle_timeout_ms. */
	int rcv_timeout_ms;
	/* The budget shared by all running tests: data streams (one worker
	 * thread each) and the stream buffers they allocate. */
	int max_streams;		/* default ND_SERVER_STREAMS_DEFAULT */
	uint64_t max_memory_bytes;	/* default ND_SERVER_MEMORY_DEFAULT */
	/* iperf3 3.21's server limits: a test asking for more than
	 * max_duration_sec (-t plus -O; a -n/-k test has no duration) is
	 * refused, so is one whose -b times its streams exceeds
	 * bitrate_limit_bps, and a running test whose average rate over
	 * bitrate_limit_interval_sec exceeds it is ended.  0: no limit. */
	int max_duration_sec;
	uint64_t bitrate_limit_bps;
	double bitrate_limit_interval_sec;	/* default 5; 0: checked at start only */
	bool json_log;			/* print each test's results as JSON */
	bool quiet;
	bool verbose_text;		/* -V: iperf3's verbose lines per test */
	char format;			/* -f: iperf3's unit letter, 0 adaptive */
	const char *bind_dev;		/* --bind-dev: SO_BINDTODEVICE on listeners */
	bool interval_set;		/* -i: the server's own report interval */
	double interval_sec;
	/* iperf3 3.21's "Server or Client" options, with its server's meaning. */
	bool json_stream;		/* --json-stream: event lines (implies json_log) */
	bool json_stream_full;		/* --json-stream-full-output: the -J object too */
	FILE *json_out;			/* -J and events, unprefixed; NULL: stdout */
	const char *file;		/* -F: write what is received, send its content */
	int snd_timeout_ms;		/* --snd-timeout: TCP_USER_TIMEOUT, control and data */
	bool cntl_ka;			/* --cntl-ka[=IDLE/INTV/CNT] on control connections */
	int cntl_ka_idle, cntl_ka_intv, cntl_ka_cnt;	/* 0: the system's */
	bool mptcp;			/* -m: listen with IPPROTO_MPTCP */
	/* --rsa-private-key-path and --authorized-users-path: every test must
	 * authenticate, as with iperf3 -s; NULL refuses any credentials. */
	const struct nd_auth_server *auth;
	/* Answer a client that asked for "nicdoctor_peer": peer_begin just
	 * before the test's traffic (the counters' window opens), peer_payload
	 * at the results exchange with what peer_begin returned (the object
	 * is added to the results under that key, with this host's per-CPU
	 * shares when it holds a report), peer_end after, always. */
	void *(*peer_begin)(const struct nd_peer_request *req, void *arg);
	struct cJSON *(*peer_payload)(const struct nd_peer_request *req, void *state, void *arg);
	void (*peer_end)(void *state, void *arg);
	void *peer_payload_arg;
};

void nd_server_config_init(struct nd_server_config *cfg);
/* Bind and listen; 0 or negative errno. */
int nd_server_create(const struct nd_server_config *cfg, struct nd_server **ret_server);
/* Run the accept loop in this thread until stopped or one_off reached. */
int nd_server_run(struct nd_server *server);
/* Ask the loop to stop (safe from another thread or a signal-driven flag). */
void nd_server_request_stop(struct nd_server *server);
void nd_server_destroy(struct nd_server *server);
/* Where -J and --json-stream go from now on (before nd_server_run). */
void nd_server_set_json_out(struct nd_server *server, FILE *f);
/* The bound port (useful with port 0). */
uint16_t nd_server_port(const struct nd_server *server);
unsigned nd_server_tests_done(const struct nd_server *server);

/* Embedded loopback server in a background thread, for the baseline. */
int nd_server_start_embedded(uint16_t port, struct nd_server **ret_server);
void nd_server_stop_embedded(struct nd_server *server);

/* How a test reports, beyond plain text or -J (iperf3's -V, -f, --json-stream). */
struct nd_out_opts {
	bool verbose;			/* -V */
	char format;			/* -f: 0 adaptive; k m g t bits, K M G T bytes */
	FILE *json_stream;		/* --json-stream: event lines, NULL for none */
	bool iperf_done;		/* end with iperf3's "iperf Done." */
};

/* client.c: one test run the way `bench` drives it (iperf3's output
 * flags, -J), beyond nd_engine_run_client. */
struct nd_client_opts {
	bool json;
	FILE *text_out;
	struct nd_out_opts out;
	/* Several targets at once (multi.c): told when setup ended, ok or
	 * not, and returns when every target may start. */
	void (*ready)(void *arg, int rc);
	void *ready_arg;
};
int nd_client_run(const struct nd_engine_params *p, const struct nd_client_opts *o,
		  struct nd_engine_result *r, struct cJSON **ret_json);

#endif

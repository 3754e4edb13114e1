/*
 * engine_int.h - the throughput engine's internals, shared by the files in
 * src/engine/: the control-protocol helpers, the stream and test objects
 * that the client and the server both drive, UDP accounting and sampling.
 * Not for use outside src/engine/ (and its unit tests and fuzz targets):
 * what other folders need is in nicdoctor/net.h and nicdoctor/engine.h.
 */
#ifndef NICDOCTOR_ENGINE_INT_H
#define NICDOCTOR_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "nicdoctor/engine.h"
#include "nicdoctor/net.h"

/* Protocol states, one signed byte each (protocol doc §1). */
enum nd_state {
	ND_TEST_START = 1,
	ND_TEST_RUNNING = 2,
	ND_TEST_END = 4,
	ND_PARAM_EXCHANGE = 9,
	ND_CREATE_STREAMS = 10,
	ND_SERVER_TERMINATE = 11,
	ND_CLIENT_TERMINATE = 12,
	ND_EXCHANGE_RESULTS = 13,
	ND_DISPLAY_RESULTS = 14,
	ND_IPERF_DONE = 16,
	ND_ACCESS_DENIED = -1,
	ND_SERVER_ERROR = -2,
};

/* iperf3 i_errno values we send or explain. */
#define ND_IE_NUMSTREAMS   6
#define ND_IE_BLOCKSIZE    7
#define ND_IE_FILE         14
#define ND_IE_TOTALRATE    27
#define ND_IE_UDPFILE      34
#define ND_IE_MAXDURATION  37
#define ND_IE_MESSAGE      110
#define ND_IE_RECVPARAMS   114
#define ND_IE_ACCESSDENIED 121
#define ND_IE_AUTHTEST     142
#define ND_IE_NOMSG        144
#define ND_IE_DURATIONEXPIRED 160

#define ND_COOKIE_LEN        37
#define ND_PARAMS_JSON_MAX   8192
#define ND_RESULTS_JSON_MAX  (4u << 20)
#define ND_UDP_HELLO         0x39383736u	/* "9876" on the wire */
#define ND_UDP_REPLY         0x36373839u	/* "6789" on the wire */
#define ND_UDP_REPLY_LEGACY  987654321u

/* proto.c: the control connection. */
void nd_proto_make_cookie(char cookie[ND_COOKIE_LEN]);
int nd_proto_send_state(int fd, int8_t state, int timeout_ms);
int nd_proto_recv_state(int fd, int8_t *ret_state, int timeout_ms);
int nd_proto_send_json(int fd, const cJSON *obj, int timeout_ms);
int nd_proto_recv_json(int fd, uint32_t max_len, int timeout_ms, cJSON **ret_obj);
int nd_proto_send_error(int fd, int32_t code, int32_t err, int timeout_ms);
const char *nd_proto_error_text(int code);
/* Read a JSON integer that 3.12 may print unsigned: >= 2^63 means -1. */
int64_t nd_json_int(const cJSON *obj, const char *key, int64_t fallback);
double nd_json_double(const cJSON *obj, const char *key, double fallback);

/* params.c: client parameters on the wire. */
struct nd_wire_extra {
	bool udp_64bit;
	bool authtoken;
	char congestion[16];
	char title[64];
	char extra_data[256];
};
int nd_params_to_json(const struct nd_engine_params *p, cJSON **ret_obj);
int nd_params_from_json(const cJSON *obj, struct nd_engine_params *p,
			struct nd_wire_extra *extra, char *err, size_t err_size);
uint32_t nd_params_len(const struct nd_engine_params *p);

/* udp_acct.c: iperf3's loss, out-of-order and jitter accounting. */
struct nd_udp_acct {
	uint64_t highest_seq;		/* iperf3 "packet_count" */
	uint64_t lost;			/* iperf3 "cnt_error" */
	uint64_t out_of_order;
	uint64_t received;
	double jitter_sec;
	double prev_transit_sec;
	bool have_transit;
};
void nd_udp_acct_init(struct nd_udp_acct *a);
void nd_udp_acct_datagram(struct nd_udp_acct *a, uint64_t seq, double sent_sec,
			  double arrival_sec);
size_t nd_udp_hdr_len(bool counters_64bit);
void nd_udp_hdr_write(uint8_t *buf, uint64_t seq, bool counters_64bit, double sent_sec);
int nd_udp_hdr_read(const uint8_t *buf, size_t len, bool counters_64bit,
		    uint64_t *ret_seq, double *ret_sent_sec);

/* sample.c: the streams' side of what the host did (the host's side is
 * probe/host_sample.c). */
int nd_sample_tcpinfo(int fd, struct nd_engine_tcpinfo *t);
void nd_tcp_congestion(int fd, char *buf, size_t size);

/* Per-interval record kept for -J and the API. */
struct nd_iv_stream {
	uint64_t bytes, packets, lost, out_of_order;
	double jitter_sec;
	int64_t retransmits;
	uint32_t snd_cwnd, rtt_usec, rttvar_usec, pmtu;
	uint32_t snd_wnd, reorder;
};
struct nd_interval {
	double start_sec, end_sec;
	bool omitted;
	struct nd_iv_stream *streams;	/* one per stream */
	struct nd_engine_cpu_share *cpus;
	int cpus_count;
	int ticks;			/* interval ticks merged into this one */
};

struct nd_test;

/* One data connection.  Workers write only their own stream's fields. */
struct nd_stream {
	int id;
	int fd;
	bool sending;
	struct nd_test *test;
	int cpu;
	pthread_t thread;
	bool thread_started;
	_Atomic uint64_t bytes;
	_Atomic uint64_t packets;
	_Atomic uint64_t lost;		/* mirrors acct for interval reads */
	_Atomic uint64_t out_of_order;
	_Atomic uint64_t jitter_nsec;
	struct nd_udp_acct acct;	/* worker-owned until joined */
	int worker_err;			/* worker's exit status, read after join */
	int file_err;			/* -F: a failed write to the file */
	/* Main thread only. */
	uint64_t omit_bytes, omit_packets, omit_lost;
	uint64_t iv_bytes, iv_packets, iv_lost, iv_ooo;
	uint32_t iv_retrans;
	uint32_t omit_retrans;
	struct nd_engine_tcpinfo tcp;
	char local_host[64], remote_host[64];
	uint16_t local_port, remote_port;
	double end_sec;
	/* Peer's results for this stream. */
	bool have_remote;
	uint64_t remote_bytes, remote_packets, remote_lost, remote_ooo;
	double remote_jitter_sec, remote_end_sec;
	int64_t remote_retrans;
};

struct nd_test {
	struct nd_engine_params p;	/* as the client asked */
	struct nd_wire_extra extra;
	bool is_server;
	char cookie[ND_COOKIE_LEN];
	int ctrl_fd;
	int timeout_ms;
	uint32_t len_bytes;
	struct nd_stream *streams;
	int streams_count;
	_Atomic bool stop;		/* senders */
	_Atomic bool stop_rx;		/* receivers, after draining */
	_Atomic bool limit_reached;	/* client: -n/-k met in one direction */
	_Atomic bool amount_counting;	/* -n/-k: false until omit ends */
	_Atomic uint64_t amount_tx_bytes, amount_rx_bytes;	/* -n/-k progress */
	double t_start, t_omit_end, t_end, t_last_iv, t_stop;
	bool omit_done;
	bool keep_intervals;
	struct nd_interval *intervals;	/* bounded: see keep_interval() */
	int intervals_count, intervals_cap;
	int intervals_stride;		/* ticks per kept interval, 1, 2, 4 ... */
	struct nd_cpu_snap cpu0, cpu_omit, cpu1, cpu_iv;
	struct nd_if_snap if0, if1;
	char ifname[16];
	double ru_user0, ru_sys0, ru_user1, ru_sys1;
	/* Peer's results. */
	double remote_cpu_total, remote_cpu_user, remote_cpu_system;
	int64_t remote_sender_has_retrans;
	char remote_congestion[16];
	char congestion[16];
	char *server_output_text;	/* client: from the server, malloc'd */
	cJSON *server_output_json;
	FILE *text_out;			/* interval text, NULL for none */
	struct nd_out_opts out;
	bool told_peer;			/* server: SERVER_ERROR sent mid-test */
	char err[160];
};

/* test.c: the parts both roles share. */
int nd_test_init(struct nd_test *t, const struct nd_engine_params *p, bool is_server);
void nd_test_free(struct nd_test *t);
int nd_test_add_stream(struct nd_test *t, int fd);
/* The calling worker onto its stream's core (-A), when it has one. */
void nd_stream_pin(const struct nd_stream *s);
bool nd_stream_sends(const struct nd_test *t, int index);
int nd_test_start_workers(struct nd_test *t);
void nd_test_stop_senders(struct nd_test *t);
void nd_test_stop_receivers(struct nd_test *t, int drain_ms);
void nd_test_begin(struct nd_test *t);
int nd_test_tick(struct nd_test *t, double now);
void nd_test_finish(struct nd_test *t);
/* -n/-k: count bytes moved in one direction; true once it reached the count. */
bool nd_test_amount_add(struct nd_test *t, bool sent, uint64_t bytes);
uint64_t nd_test_amount_left(struct nd_test *t);
/* This side's per-CPU busy/softirq shares over the test, as a JSON array. */
cJSON *nd_test_cpu_shares_json(const struct nd_test *t);
int nd_test_results_json(const struct nd_test *t, cJSON **ret_obj);
int nd_test_apply_remote(struct nd_test *t, const cJSON *obj);
void nd_test_fill_result(const struct nd_test *t, struct nd_engine_result *r);
void nd_stream_configure(struct nd_test *t, int fd);

/* stream_tcp.c, stream_udp.c: worker bodies. */
void *nd_tcp_worker(void *arg);
void *nd_udp_worker(void *arg);

/* output.c: iperf3-like text and JSON. */
void nd_out_text_header(FILE *f, const struct nd_test *t);
void nd_out_text_interval(FILE *f, const struct nd_test *t, const struct nd_interval *iv);
void nd_out_text_summary(FILE *f, const struct nd_test *t);
cJSON *nd_out_json(const struct nd_test *t, int rc);
cJSON *nd_out_json_start(const struct nd_test *t);
cJSON *nd_out_json_interval(const struct nd_test *t, const struct nd_interval *iv);
void nd_out_fmt_unit(char *buf, size_t size, double v, bool bits, char format);

/* output_verbose.c: -V's extra lines, in iperf3's words. */
void nd_out_verbose_intro(FILE *f, const struct nd_test *t);
void nd_out_verbose_control(FILE *f, const struct nd_test *t);
void nd_out_verbose_connected(FILE *f, const struct nd_test *t);
void nd_out_verbose_start(FILE *f, const struct nd_test *t);
void nd_out_verbose_end(FILE *f, const struct nd_test *t);

/* jsonstream.c: --json-stream event lines and -d debug output. */
void nd_json_stream_event(FILE *f, const char *event, const cJSON *data);
void nd_debug_json(int debug, const char *what, const cJSON *obj);
void nd_debug_state(int debug, const char *how, int8_t st);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf_opts_table.c - the rows of the iperf3-compatible commands' option
 * table (iperf_opts.h): bench's and iperf3 -c's, serve's and iperf3 -s's,
 * then iperf3 3.21's flags that iperf_flags.c parses for both.  An alias
 * follows its primary, whose name the errors give (--bitrate for -b).
 */
#include <stddef.h>
#include <sys/socket.h>

#include "iperf_opts.h"

/*
 * getopt's values of the rows that have no short form (iperf_flags.h's
 * too): the values each command had, since an error's wording depends on
 * getopt's optopt (nd_option_problem).
 */
enum {
	OPT_BIDIR = 256, OPT_GET_SERVER_OUTPUT, OPT_SKIP_RX_COPY, OPT_NO_GSO,
	OPT_RCV_TIMEOUT, OPT_CONNECT_TIMEOUT, OPT_SAMPLE_IF, OPT_SPREAD,
	OPT_USERNAME, OPT_RSA_PUBLIC_KEY, OPT_PKCS1,
};
enum {
	OPT_MAX_TESTS = 256, OPT_IDLE_TIMEOUT, OPT_TESTS, OPT_NO_SHARE, OPT_CONFIG,
	OPT_SERVE_RCV_TIMEOUT, OPT_MAX_STREAMS, OPT_MAX_MEMORY,
	OPT_SHARE, OPT_SHARE_FROM, OPT_RSA_PRIVATE_KEY, OPT_AUTH_USERS, OPT_SKEW,
	OPT_SERVE_PKCS1, OPT_SERVE_LOGFILE, OPT_MAX_DURATION, OPT_BITRATE_LIMIT,
};

#define B	(ND_IN_BENCH | ND_IN_IPERF3_C)
#define S	(ND_IN_SERVE | ND_IN_IPERF3_S)
#define N	no_argument
#define R	required_argument
#define O	optional_argument

#define ROW(n, s, a, i, c) .name = n, .short_name = s, .has_arg = a, .id = i, .cmds = c
/* A field of a base's struct; the sizeof makes a wrong field type an error. */
#define FIELD(b, type, f, ctype) \
	.base = b, .off = offsetof(type, f) + 0 * sizeof((ctype *)0 == &((type *)0)->f)
#define PARAMS(f, t)	FIELD(ND_BASE_PARAMS, struct nd_engine_params, f, t)
#define CFG(f, t)	FIELD(ND_BASE_CFG, struct nd_server_config, f, t)
#define SRV(f, t)	FIELD(ND_BASE_SERVE, struct serve_opts, f, t)
#define TRUE_P(f)	.set = ND_SET_TRUE, PARAMS(f, bool)
#define STR_P(f)	.set = ND_SET_STR, PARAMS(f, const char *)
#define CONST_P(f, v)	.set = ND_SET_INT, .lo = v, PARAMS(f, int)
#define LONG_P(f, l, h)	.set = ND_SET_LONG, .lo = l, .hi = h, .radix = 0, PARAMS(f, int)
#define TRUE_CFG(f)	.set = ND_SET_TRUE, CFG(f, bool)
#define STR_CFG(f)	.set = ND_SET_STR, CFG(f, const char *)
#define CONST_CFG(f, v)	.set = ND_SET_INT, .lo = v, CFG(f, int)
#define LONG_CFG(f, l, h) .set = ND_SET_LONG, .lo = l, .hi = h, .radix = 10, CFG(f, int)
#define TRUE_SRV(f)	.set = ND_SET_TRUE, SRV(f, bool)
#define STR_SRV(f)	.set = ND_SET_STR, SRV(f, const char *)
#define IFLAG		.parse = nd_opt_iperf_flag
#define SFLAG		.parse = nd_opt_serve_iperf

const struct nd_opt nd_opts[] = {
	/* bench, iperf3 -c */
	{ ROW("client", 'c', R, 0, B), .set = ND_SET_STR,
	  FIELD(ND_BASE_TARGETS, struct bench_targets, hosts, const char *),
	  .metavar = "HOST[:PORT][,...]", .help = "the server(s) to test against" },
	{ ROW("port", 'p', R, 0, B), .set = ND_SET_STR,
	  FIELD(ND_BASE_TARGETS, struct bench_targets, ports, const char *),
	  .metavar = "PORT[-LAST]", .help = "the server port, or a range of them" },
	{ ROW("parallel", 'P', R, 0, B), LONG_P(streams, 1, 128), .metavar = "N",
	  .hint = ": 1 to 128", .help = "parallel streams" },
	{ ROW("time", 't', R, 0, B), .parse = nd_opt_bench_time, .metavar = "S",
	  .hint = ": seconds, 1 to 86400", .help = "seconds to transmit (10)" },
	{ ROW("bytes", 'n', R, 0, B), .parse = nd_opt_bench_bytes, .metavar = "BYTES",
	  .hint = ": bytes, at least 1 (K, M, G, T suffixes)",
	  .help = "bytes to transmit instead of -t" },
	{ ROW("blockcount", 'k', R, 0, B), .parse = nd_opt_bench_blocks, .metavar = "BLOCKS",
	  .hint = ": blocks, at least 1 (K, M, G, T suffixes)",
	  .help = "blocks (-l) to transmit instead of -t" },
	{ ROW("omit", 'O', R, 0, B), LONG_P(omit_sec, 0, 600), .metavar = "S",
	  .hint = ": whole seconds, 0 to 600", .help = "leave out the first S seconds" },
	{ ROW("interval", 'i', R, 0, B), .parse = nd_opt_bench_interval, .metavar = "S",
	  .hint = ": seconds, 0 (none) or 0.1 to 60", .help = "seconds between reports" },
	{ ROW("reverse", 'R', N, 0, B), TRUE_P(reverse), .help = "the server sends" },
	{ ROW("bidir", 0, N, OPT_BIDIR, B), TRUE_P(bidir), .help = "both directions at once" },
	{ ROW("udp", 'u', N, 0, B), TRUE_P(udp), .help = "UDP rather than TCP" },
	{ ROW("bitrate", 'b', R, 0, B), .parse = nd_opt_bench_bitrate, .metavar = "RATE[/BURST]",
	  .hint = ": bits/s, 0 (unlimited) or at least 1 (K, M, G, T suffixes)",
	  .help = "target bits/s (0: unlimited; UDP: 1M)" },
	{ ROW("bandwidth", 0, R, 'b', B), .parse = nd_opt_bench_bitrate, .metavar = "RATE",
	  .help = "as --bitrate" },
	{ ROW("length", 'l', R, 0, B), .parse = nd_opt_bench_length, .metavar = "LEN",
	  .help = "bytes per read or write" },
	{ ROW("window", 'w', R, 0, B), .parse = nd_opt_bench_window, .metavar = "SIZE",
	  .help = "socket buffer size" },
	{ ROW("set-mss", 'M', R, 0, B), LONG_P(mss_bytes, 88, 9216), .metavar = "MSS",
	  .help = "TCP maximum segment size" },
	{ ROW("no-delay", 'N', N, 0, B), TRUE_P(nodelay), .help = "TCP_NODELAY" },
	{ ROW("congestion", 'C', R, 0, B), STR_P(congestion), .metavar = "ALGO",
	  .help = "TCP congestion control" },
	{ ROW("zerocopy", 'Z', N, 0, B), TRUE_P(zerocopy), .help = "send with MSG_ZEROCOPY" },
	{ ROW("affinity", 'A', R, 0, ND_IN_BENCH), .parse = nd_opt_bench_cpus,
	  .metavar = "CPU,...", .help = "one CPU per stream (0,1 or 0-3)" },
	{ ROW("affinity", 'A', R, 0, ND_IN_IPERF3_C), .parse = nd_opt_bench_iperf3_affinity,
	  .metavar = "N[,M]", .help = "this process on core N, the server's test on M" },
	{ ROW("bind", 'B', R, 0, B), STR_P(bind_addr), .metavar = "ADDR[%DEV]",
	  .help = "the local address" },
	{ ROW("version4", '4', N, 0, B), CONST_P(family, AF_INET), .help = "IPv4 only" },
	{ ROW("version6", '6', N, 0, B), CONST_P(family, AF_INET6), .help = "IPv6 only" },
	{ ROW("title", 'T', R, 0, B), STR_P(title), .metavar = "TITLE",
	  .help = "prefix every output line" },
	{ ROW("tos", 'S', R, 0, B), LONG_P(tos, 0, 255), .metavar = "TOS",
	  .help = "IP type of service" },
	{ ROW("json", 'J', N, 0, B), .set = ND_SET_TRUE,
	  FIELD(ND_BASE_CLIENT, struct nd_client_opts, json, bool), .help = "JSON output" },
	{ ROW("get-server-output", 0, N, OPT_GET_SERVER_OUTPUT, B), TRUE_P(get_server_output),
	  .help = "print the server's report too" },
	{ ROW("skip-rx-copy", 0, N, OPT_SKIP_RX_COPY, B), TRUE_P(skip_rx_copy),
	  .help = "receive with MSG_TRUNC" },
	{ ROW("no-gso", 0, N, OPT_NO_GSO, B), TRUE_P(no_gso), .help = "UDP GSO and GRO off" },
	{ ROW("rcv-timeout", 0, R, OPT_RCV_TIMEOUT, B), LONG_P(connect_timeout_ms, 1, 3600000),
	  .metavar = "MS", .help = "give up on a silent server" },
	{ ROW("connect-timeout", 0, R, OPT_CONNECT_TIMEOUT, B),
	  LONG_P(connect_timeout_ms, 1, 3600000), .metavar = "MS",
	  .help = "give up connecting (one deadline)" },
	{ ROW("sample-if", 0, R, OPT_SAMPLE_IF, B), .parse = nd_opt_bench_sample_if,
	  .metavar = "IF", .help = "the interface whose counters are sampled" },
	{ ROW("spread", 0, O, OPT_SPREAD, B), .parse = nd_opt_bench_spread,
	  .metavar = "place|count", .help = "flows over the queues (--cport FIRST-LAST)" },
	{ ROW("username", 0, R, OPT_USERNAME, B), .set = ND_SET_STR,
	  FIELD(ND_BASE_BAUTH, struct bench_auth, client.username, const char *),
	  .metavar = "USER", .help = "authenticate as USER (IPERF3_PASSWORD)" },
	{ ROW("rsa-public-key-path", 0, R, OPT_RSA_PUBLIC_KEY, B), .set = ND_SET_STR,
	  FIELD(ND_BASE_BAUTH, struct bench_auth, public_key_path, const char *),
	  .metavar = "FILE", .help = "the server's public key" },
	{ ROW("use-pkcs1-padding", 0, N, OPT_PKCS1, B), .set = ND_SET_TRUE,
	  FIELD(ND_BASE_BAUTH, struct bench_auth, client.pkcs1, bool),
	  .help = "PKCS#1 v1.5 rather than OAEP" },
	{ ROW("verbose", 'V', N, 0, B), IFLAG, .help = "more detail" },
	{ ROW("format", 'f', R, 0, B), IFLAG, .metavar = "k|m|g|t|K|M|G|T",
	  .help = "the unit of rates" },
	{ ROW("version", 'v', N, 0, B), IFLAG, .help = "print the version" },
	{ ROW("json-stream", 0, N, ND_OPT_JSON_STREAM, B), IFLAG,
	  .help = "JSON as event lines" },
	{ ROW("json-stream-full-output", 0, N, ND_OPT_JSON_STREAM_FULL, B), IFLAG,
	  .help = "and the whole -J object at the end" },
	{ ROW("forceflush", 0, N, ND_OPT_FORCEFLUSH, B), IFLAG, .help = "flush every line" },
	{ ROW("bind-dev", 0, R, ND_OPT_BIND_DEV, B), IFLAG, .metavar = "DEV",
	  .help = "bind to the device (or HOST%DEV)" },
	{ ROW("debug", 'd', O, 0, B), IFLAG, .metavar = "LEVEL", .help = "debug output" },
	{ ROW("sctp", 0, N, ND_OPT_SCTP, B), IFLAG, .help = "refused: no SCTP" },
	{ ROW("nstreams", 0, R, ND_OPT_NSTREAMS, B), IFLAG, .metavar = "N",
	  .help = "refused: no SCTP" },
	{ ROW("xbind", 'X', R, 0, B), IFLAG, .metavar = "NAME", .help = "refused: no SCTP" },
	{ ROW("pidfile", 'I', R, 0, B), IFLAG, .metavar = "FILE",
	  .help = "write the process ID to FILE" },
	{ ROW("logfile", 0, R, ND_OPT_LOGFILE, B), IFLAG, .metavar = "FILE",
	  .help = "append the output to FILE" },
	{ ROW("dont-fragment", 0, N, ND_OPT_DONT_FRAGMENT, B), IFLAG,
	  .help = "set IPv4 Don't Fragment" },
	{ ROW("dscp", 0, R, ND_OPT_DSCP, B), IFLAG, .metavar = "DSCP",
	  .help = "DSCP value or name (ef, af41, cs1...)" },
	{ ROW("flowlabel", 'L', R, 0, B), IFLAG, .metavar = "N", .help = "IPv6 flow label" },
	{ ROW("pacing-timer", 0, R, ND_OPT_PACING_TIMER, B), IFLAG, .metavar = "USEC",
	  .help = "pacing timer" },
	{ ROW("fq-rate", 0, R, ND_OPT_FQ_RATE, B), IFLAG, .metavar = "RATE",
	  .help = "fair-queueing socket pacing, bits/s" },
	{ ROW("no-fq-socket-pacing", 0, N, ND_OPT_NO_FQ_PACING, B), IFLAG,
	  .help = "no fair-queueing pacing (deprecated)" },
	{ ROW("extra-data", 0, R, ND_OPT_EXTRA_DATA, B), IFLAG, .metavar = "TEXT",
	  .help = "TEXT in the JSON output" },
	{ ROW("repeating-payload", 0, N, ND_OPT_REPEATING_PAYLOAD, B), IFLAG,
	  .help = "a repeating pattern as payload" },
	{ ROW("udp-counters-64bit", 0, N, ND_OPT_UDP_64BIT, B), IFLAG,
	  .help = "64-bit UDP counters (always)" },
	{ ROW("gsro", 0, N, ND_OPT_GSRO, B), IFLAG, .help = "UDP GSO and GRO" },
	{ ROW("linux-congestion", 0, R, 'C', B), STR_P(congestion), .metavar = "ALGO",
	  .help = "as --congestion" },
	/* serve, iperf3 -s */
	{ ROW("port", 'p', R, 0, S), .parse = nd_opt_serve_ports, .metavar = "PORT[-LAST]",
	  .help = "listen on PORT, or on every port of a range" },
	{ ROW("one-off", '1', N, 0, S), CONST_CFG(one_off, 1), .help = "one test, then exit" },
	{ ROW("bind", 'B', R, 0, S), STR_CFG(bind_addr), .metavar = "ADDR[%DEV]",
	  .help = "the local address" },
	{ ROW("version4", '4', N, 0, S), CONST_CFG(family, AF_INET), .help = "IPv4 only" },
	{ ROW("version6", '6', N, 0, S), CONST_CFG(family, AF_INET6), .help = "IPv6 only" },
	{ ROW("max-tests", 0, R, OPT_MAX_TESTS, S), .parse = nd_opt_serve_max_tests, .metavar = "N", .help = "tests at once (1)" },
	{ ROW("idle-timeout", 0, R, OPT_IDLE_TIMEOUT, S), .parse = nd_opt_serve_idle, .metavar = "S", .help = "bound on every control read" },
	{ ROW("rcv-timeout", 0, R, OPT_SERVE_RCV_TIMEOUT, S), LONG_CFG(rcv_timeout_ms, 1, 3600000),
	  .metavar = "MS", .help = "drop a client silent this long" },
	{ ROW("max-streams", 0, R, OPT_MAX_STREAMS, S),
	  LONG_CFG(max_streams, 1, 64 * 2 * ND_ENGINE_MAX_STREAMS), .metavar = "N",
	  .help = "streams of all tests at once" },
	{ ROW("max-memory", 0, R, OPT_MAX_MEMORY, S), .parse = nd_opt_serve_memory,
	  .metavar = "SIZE", .help = "stream buffers of all tests at once" },
	{ ROW("tests", 0, R, OPT_TESTS, S), LONG_CFG(one_off, 1, 1000000), .metavar = "N",
	  .help = "N tests, then exit" },
	{ ROW("quiet", 'q', N, 0, S), TRUE_CFG(quiet), .help = "no per-test output" },
	{ ROW("no-share", 0, N, OPT_NO_SHARE, S), TRUE_SRV(no_share_flag),
	  .help = "share nothing, whatever the config says" },
	{ ROW("config", 0, R, OPT_CONFIG, S), STR_SRV(config), .metavar = "FILE",
	  .help = "the config file (/etc/nicdoctor/serve.conf)" },
	{ ROW("share", 0, N, OPT_SHARE, S), TRUE_SRV(share_flag),
	  .help = "tell diagnose clients this host's findings" },
	{ ROW("share-from", 0, R, OPT_SHARE_FROM, S), STR_SRV(share_from),
	  .metavar = "CIDR,...", .help = "only these clients" },
	{ ROW("rsa-private-key-path", 0, R, OPT_RSA_PRIVATE_KEY, S),
	  STR_SRV(private_key_path), .metavar = "FILE", .help = "authenticate clients" },
	{ ROW("authorized-users-path", 0, R, OPT_AUTH_USERS, S), .set = ND_SET_STR,
	  SRV(auth.users_path, const char *), .metavar = "FILE",
	  .help = "the users and password hashes" },
	{ ROW("time-skew-threshold", 0, R, OPT_SKEW, S), .parse = nd_opt_serve_skew, .metavar = "S", .help = "the clock skew allowed (10)" },
	{ ROW("use-pkcs1-padding", 0, N, OPT_SERVE_PKCS1, S), .set = ND_SET_TRUE,
	  SRV(auth.pkcs1, bool), .help = "PKCS#1 v1.5 rather than OAEP" },
	{ ROW("json", 'J', N, 0, S), SFLAG, .help = "each test's results as JSON" },
	{ ROW("verbose", 'V', N, 0, S), SFLAG, .help = "more detail" },
	{ ROW("format", 'f', R, 0, S), SFLAG, .metavar = "k|m|g|t|K|M|G|T",
	  .help = "the unit of rates" },
	{ ROW("interval", 'i', R, 0, S), SFLAG, .metavar = "S",
	  .help = "seconds between reports" },
	{ ROW("affinity", 'A', R, 0, S), SFLAG, .metavar = "CPU",
	  .help = "the whole server on core CPU" },
	{ ROW("bind-dev", 0, R, ND_OPT_BIND_DEV, S), SFLAG, .metavar = "DEV",
	  .help = "bind to the device" },
	{ ROW("version", 'v', N, 0, S), SFLAG, .help = "print the version" },
	{ ROW("debug", 'd', O, 0, S), SFLAG, .metavar = "LEVEL", .help = "debug output" },
	{ ROW("forceflush", 0, N, ND_OPT_FORCEFLUSH, S), SFLAG,
	  .help = "flush every line (always)" },
	{ ROW("sctp", 0, N, ND_OPT_SCTP, S), SFLAG, .help = "refused: no SCTP" },
	{ ROW("xbind", 'X', R, 0, S), SFLAG, .metavar = "NAME", .help = "refused: no SCTP" },
	{ ROW("nstreams", 0, R, ND_OPT_NSTREAMS, S), SFLAG, .metavar = "N",
	  .help = "refused: no SCTP" },
	{ ROW("json-stream", 0, N, ND_OPT_JSON_STREAM, S), SFLAG,
	  .help = "JSON as event lines" },
	{ ROW("json-stream-full-output", 0, N, ND_OPT_JSON_STREAM_FULL, S), SFLAG,
	  .help = "and each whole JSON object" },
	{ ROW("daemon", 'D', N, 0, S), TRUE_SRV(daemon), .help = "run in the background" },
	{ ROW("pidfile", 'I', R, 0, S), STR_SRV(pidfile_arg), .metavar = "FILE",
	  .help = "write the process ID to FILE" },
	{ ROW("logfile", 0, R, OPT_SERVE_LOGFILE, S), STR_SRV(logfile), .metavar = "FILE",
	  .help = "append the output to FILE" },
	{ ROW("server-max-duration", 0, R, OPT_MAX_DURATION, S),
	  LONG_CFG(max_duration_sec, 0, 86400), .metavar = "S",
	  .help = "refuse longer tests" },
	{ ROW("server-bitrate-limit", 0, R, OPT_BITRATE_LIMIT, S),
	  .parse = nd_opt_serve_bitrate_limit, .metavar = "RATE[/S]",
	  .help = "refuse or stop faster tests" },
	/* both: iperf_flags.c's parsers (serve copies what they set) */
	{ ROW("timestamps", 0, O, ND_OPT_TIMESTAMPS, B | S), IFLAG, .metavar = "FORMAT",
	  .help = "a time before every line" },
	{ ROW("file", 'F', R, 0, B | S), IFLAG, .metavar = "FILE",
	  .help = "send from or receive into FILE" },
	{ ROW("snd-timeout", 0, R, ND_OPT_SND_TIMEOUT, B | S), IFLAG, .metavar = "MS",
	  .help = "TCP_USER_TIMEOUT" },
	{ ROW("cntl-ka", 0, O, ND_OPT_CNTL_KA, B | S), IFLAG, .metavar = "IDLE/INTV/CNT",
	  .help = "TCP keepalive on the control connection" },
	{ ROW("mptcp", 'm', N, 0, B | S), IFLAG, .help = "MPTCP" },
	{ ROW("cport", 0, R, ND_OPT_CPORT, B | S), IFLAG, .metavar = "PORT[-LAST]",
	  .help = "the client's data port(s)" },
	{ ROW("help", 'h', N, 0, B | S), .parse = nd_opt_help, .help = "this help" },
};

const size_t nd_opts_count = sizeof(nd_opts) / sizeof(nd_opts[0]);

/*
 * iperf_flags.h - the iperf3 3.21 flags that `bench` and `serve` take beyond
 * their own core sets (src/iperf_flags.c): option-table entries to splice
 * into their getopt_long tables, one parser for them, and the output they
 * shape: -V, -f, -T and --timestamps line prefixes, --logfile,
 * --json-stream, --forceflush, -I pidfile.
 */
#ifndef NICDOCTOR_IPERF_FLAGS_H
#define NICDOCTOR_IPERF_FLAGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "nicdoctor/engine_int.h"

enum {
	ND_OPT_JSON_STREAM = 600, ND_OPT_JSON_STREAM_FULL, ND_OPT_LOGFILE, ND_OPT_FORCEFLUSH,
	ND_OPT_TIMESTAMPS, ND_OPT_CPORT, ND_OPT_BIND_DEV, ND_OPT_DONT_FRAGMENT, ND_OPT_DSCP,
	ND_OPT_PACING_TIMER, ND_OPT_FQ_RATE, ND_OPT_NO_FQ_PACING, ND_OPT_EXTRA_DATA,
	ND_OPT_REPEATING_PAYLOAD, ND_OPT_UDP_64BIT, ND_OPT_GSRO, ND_OPT_CNTL_KA,
	ND_OPT_SND_TIMEOUT, ND_OPT_SCTP, ND_OPT_NSTREAMS,
};

/* Both roles (iperf3's "Server or Client" list, less what serve owns elsewhere). */
#define ND_IPERF_COMMON_OPTIONS \
	{ "verbose", no_argument, NULL, 'V' }, \
	{ "format", required_argument, NULL, 'f' }, \
	{ "version", no_argument, NULL, 'v' }, \
	{ "json-stream", no_argument, NULL, ND_OPT_JSON_STREAM }, \
	{ "json-stream-full-output", no_argument, NULL, ND_OPT_JSON_STREAM_FULL }, \
	{ "forceflush", no_argument, NULL, ND_OPT_FORCEFLUSH }, \
	{ "timestamps", optional_argument, NULL, ND_OPT_TIMESTAMPS }, \
	{ "bind-dev", required_argument, NULL, ND_OPT_BIND_DEV }, \
	{ "debug", optional_argument, NULL, 'd' }, \
	{ "sctp", no_argument, NULL, ND_OPT_SCTP }, \
	{ "nstreams", required_argument, NULL, ND_OPT_NSTREAMS }, \
	{ "xbind", required_argument, NULL, 'X' }
#define ND_IPERF_COMMON_SHORT "Vf:vdX:"

/* Client only. */
#define ND_IPERF_CLIENT_OPTIONS \
	ND_IPERF_COMMON_OPTIONS, \
	{ "file", required_argument, NULL, 'F' }, \
	{ "pidfile", required_argument, NULL, 'I' }, \
	{ "logfile", required_argument, NULL, ND_OPT_LOGFILE }, \
	{ "cport", required_argument, NULL, ND_OPT_CPORT }, \
	{ "mptcp", no_argument, NULL, 'm' }, \
	{ "dont-fragment", no_argument, NULL, ND_OPT_DONT_FRAGMENT }, \
	{ "dscp", required_argument, NULL, ND_OPT_DSCP }, \
	{ "flowlabel", required_argument, NULL, 'L' }, \
	{ "pacing-timer", required_argument, NULL, ND_OPT_PACING_TIMER }, \
	{ "fq-rate", required_argument, NULL, ND_OPT_FQ_RATE }, \
	{ "no-fq-socket-pacing", no_argument, NULL, ND_OPT_NO_FQ_PACING }, \
	{ "extra-data", required_argument, NULL, ND_OPT_EXTRA_DATA }, \
	{ "repeating-payload", no_argument, NULL, ND_OPT_REPEATING_PAYLOAD }, \
	{ "udp-counters-64bit", no_argument, NULL, ND_OPT_UDP_64BIT }, \
	{ "gsro", no_argument, NULL, ND_OPT_GSRO }, \
	{ "cntl-ka", optional_argument, NULL, ND_OPT_CNTL_KA }, \
	{ "snd-timeout", required_argument, NULL, ND_OPT_SND_TIMEOUT }, \
	{ "linux-congestion", required_argument, NULL, 'C' }
#define ND_IPERF_CLIENT_SHORT ND_IPERF_COMMON_SHORT "F:I:mL:"

/* What the flags ask of the output, and the streams that carry it. */
struct nd_iperf_out {
	struct nd_out_opts out;		/* -V, -f, the --json-stream file */
	bool json_stream, json_stream_full, forceflush, timestamps, version;
	const char *title;		/* -T: "TITLE:  " before every text line */
	const char *ts_format;		/* --timestamps[=FORMAT], strftime */
	const char *logfile;		/* --logfile: append all output here */
	const char *pidfile;		/* -I */
	FILE *raw;			/* stdout or the logfile: JSON goes here */
	FILE *text;			/* raw, through the -T/--timestamps prefix */
	bool pidfile_written;
	char host_buf[256], bind_buf[256];	/* HOST%DEV split */
};

/*
 * One flag from the tables above: 0 taken, -EINVAL a bad value (the caller
 * says which), -ENOTSUP refused here with *why saying so (one line), or
 * -ENOPROTOOPT when this host lacks what it needs (-m without MPTCP).
 */
int nd_iperf_flag(int c, const char *arg, struct nd_engine_params *p, struct nd_iperf_out *o,
		  char *why, size_t why_size);
/* -d or --debug[=LEVEL] as 3.21 takes them (its -d takes no value): 1-4,
 * 4 when absent or 0; -EINVAL for anything else.  Every level prints the
 * same lines (3.21's levels filter messages we do not have). */
int nd_iperf_debug_level(const char *arg);
/* -c HOST%DEV and -B ADDR%DEV: the part after % is --bind-dev, as in iperf3
 * (an IPv6 link-local literal keeps its scope). */
void nd_iperf_split_dev(struct nd_engine_params *p, struct nd_iperf_out *o);
/* After parsing: -F without -t/-n/-k sends the file's size; checks that need
 * the whole command line.  0 or -EINVAL/-ENOTSUP with *why. */
int nd_iperf_finish(struct nd_engine_params *p, bool duration_set, struct nd_iperf_out *o,
		    char *why, size_t why_size);
/* Open --logfile and the prefix stream, write -I; 0 or -errno with *why. */
int nd_iperf_out_open(struct nd_iperf_out *o, char *why, size_t why_size);
void nd_iperf_out_close(struct nd_iperf_out *o);

#endif

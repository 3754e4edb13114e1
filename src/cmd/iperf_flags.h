/*
 * iperf_flags.h - the iperf3 3.21 flags that `bench` and `serve` take beyond
 * their own core sets (src/cmd/iperf_flags.c; their rows are in
 * src/cmd/iperf_opts_table.c): one parser for them, and the output they
 * shape: -V, -f, -T and --timestamps line prefixes, --logfile,
 * --json-stream, --forceflush, -I pidfile.
 */
#ifndef NICDOCTOR_IPERF_FLAGS_H
#define NICDOCTOR_IPERF_FLAGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "nicdoctor/engine.h"
#include "nicdoctor/net.h"

enum {
	ND_OPT_JSON_STREAM = 600, ND_OPT_JSON_STREAM_FULL, ND_OPT_LOGFILE, ND_OPT_FORCEFLUSH,
	ND_OPT_TIMESTAMPS, ND_OPT_CPORT, ND_OPT_BIND_DEV, ND_OPT_DONT_FRAGMENT, ND_OPT_DSCP,
	ND_OPT_PACING_TIMER, ND_OPT_FQ_RATE, ND_OPT_NO_FQ_PACING, ND_OPT_EXTRA_DATA,
	ND_OPT_REPEATING_PAYLOAD, ND_OPT_UDP_64BIT, ND_OPT_GSRO, ND_OPT_CNTL_KA,
	ND_OPT_SND_TIMEOUT, ND_OPT_SCTP, ND_OPT_NSTREAMS,
};

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

/*
 * cmd_bench.c - `nicdoctor bench -c HOST ...`: an iperf3-compatible client
 * with iperf3's flag names, printing iperf3-like text or -J JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/engine_int.h"
#include "nicdoctor/iperf_flags.h"
#include "nicdoctor/multi.h"
#include "nicdoctor/spread.h"

enum {
	OPT_BIDIR = 256, OPT_GET_SERVER_OUTPUT, OPT_SKIP_RX_COPY, OPT_NO_GSO, OPT_RCV_TIMEOUT,
	OPT_CONNECT_TIMEOUT, OPT_SAMPLE_IF, OPT_SPREAD,
	/* Authentication (issue 17), kept together. */
	OPT_USERNAME, OPT_RSA_PUBLIC_KEY, OPT_PKCS1,
};

static const struct option bench_options[] = {
	{ "client", required_argument, NULL, 'c' },
	{ "port", required_argument, NULL, 'p' },
	{ "parallel", required_argument, NULL, 'P' },
	{ "time", required_argument, NULL, 't' },
	{ "bytes", required_argument, NULL, 'n' },
	{ "blockcount", required_argument, NULL, 'k' },
	{ "omit", required_argument, NULL, 'O' },
	{ "interval", required_argument, NULL, 'i' },
	{ "reverse", no_argument, NULL, 'R' },
	{ "bidir", no_argument, NULL, OPT_BIDIR },
	{ "udp", no_argument, NULL, 'u' },
	{ "bitrate", required_argument, NULL, 'b' },
	{ "bandwidth", required_argument, NULL, 'b' },
	{ "length", required_argument, NULL, 'l' },
	{ "window", required_argument, NULL, 'w' },
	{ "set-mss", required_argument, NULL, 'M' },
	{ "no-delay", no_argument, NULL, 'N' },
	{ "congestion", required_argument, NULL, 'C' },
	{ "zerocopy", no_argument, NULL, 'Z' },
	{ "affinity", required_argument, NULL, 'A' },
	{ "bind", required_argument, NULL, 'B' },
	{ "version4", no_argument, NULL, '4' },
	{ "version6", no_argument, NULL, '6' },
	{ "title", required_argument, NULL, 'T' },
	{ "tos", required_argument, NULL, 'S' },
	{ "json", no_argument, NULL, 'J' },
	{ "get-server-output", no_argument, NULL, OPT_GET_SERVER_OUTPUT },
	{ "skip-rx-copy", no_argument, NULL, OPT_SKIP_RX_COPY },
	{ "no-gso", no_argument, NULL, OPT_NO_GSO },
	{ "rcv-timeout", required_argument, NULL, OPT_RCV_TIMEOUT },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "sample-if", required_argument, NULL, OPT_SAMPLE_IF },
	{ "spread", optional_argument, NULL, OPT_SPREAD },
	{ "username", required_argument, NULL, OPT_USERNAME },
	{ "rsa-public-key-path", required_argument, NULL, OPT_RSA_PUBLIC_KEY },
	{ "use-pkcs1-padding", no_argument, NULL, OPT_PKCS1 },
	ND_IPERF_CLIENT_OPTIONS,	/* the rest of iperf3 3.21's (iperf_flags.h) */
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nicdoctor bench -c HOST[:PORT][,HOST...] [-p PORT[-LAST]] [-P N]\n"
		"         [-t S | -n BYTES | -k BLOCKS]\n"
		"         [-O S] [-i S] [-R | --bidir] [-u] [-b RATE] [-l LEN] [-w SIZE] [-M MSS]\n"
		"         [-N] [-C ALGO] [-Z] [-A CPU,...] [-B ADDR] [-4|-6] [-S TOS] [-T TITLE]\n"
		"         [-J] [--get-server-output] [--skip-rx-copy] [--no-gso]\n"
		"         [--rcv-timeout MS] [--connect-timeout MS] [--sample-if IF]\n"
		"         [--spread[=place|count] [--cport FIRST-LAST]]\n"
		"       and iperf3 3.21's other client flags: -V -f -F -I -L -m -d\n"
		"         --json-stream[-full-output] --logfile --forceflush --timestamps[=FMT]\n"
		"         --cport --bind-dev (or HOST%%DEV) --dont-fragment --dscp --pacing-timer\n"
		"         --fq-rate --extra-data --repeating-payload --udp-counters-64bit --gsro\n"
		"         --cntl-ka[=I/I/C] --snd-timeout (see nicdoctor(8))\n"
		"       authentication: --username USER --rsa-public-key-path FILE\n"
		"         [--use-pkcs1-padding]\n");
}

/* What the authentication options name; the key is read once all are. */
struct bench_auth {
	const char *public_key_path;
	struct nd_auth_client client;
};

static int parse_auth_option(int c, const char *arg, struct bench_auth *a)
{
	switch (c) {
	case OPT_USERNAME: a->client.username = arg; return 0;
	case OPT_RSA_PUBLIC_KEY: a->public_key_path = arg; return 0;
	case OPT_PKCS1: a->client.pkcs1 = true; return 0;
	default: return -EINVAL;
	}
}

/* The credentials, before connecting: 0, or the exit code. */
static int setup_auth(struct bench_auth *a)
{
	char err[300];
	int rc = nd_auth_client_setup(&a->client, a->client.username, a->public_key_path, err,
				      sizeof(err));

	if (rc < 0)
		nd_err("bench: %s", err);
	return rc == 0 ? 0 : rc == -EINVAL ? ND_EXIT_USAGE : ND_EXIT_ENV;
}

/* Limits shared with the server's checks (params.c) and iperf3's. */
#define BENCH_TIME_MAX_SEC     86400.0
#define BENCH_INTERVAL_MIN_SEC 0.1
#define BENCH_INTERVAL_MAX_SEC 60.0
#define BENCH_AMOUNT_MAX       4.6e18	/* the server takes up to INT64_MAX / 2 */

/*
 * "128K", "1.5M", "2G": 1024-based for sizes, 1000-based for rates.  A size
 * is at least one byte or block; a rate is 0 (unlimited) or at least 1 bit/s,
 * so "0.5" is refused rather than truncated to a different meaning.
 */
static int parse_amount(const char *text, bool rate, uint64_t *ret)
{
	const char *end;
	double v, k = rate ? 1000.0 : 1024.0;

	if (nd_parse_decimal(text, &v, &end) < 0 || v < 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v *= k; end++; break;
	case 'm': case 'M': v *= k * k; end++; break;
	case 'g': case 'G': v *= k * k * k; end++; break;
	case 't': case 'T': v *= k * k * k * k; end++; break;
	default: break;
	}
	/* iperf3's "-b RATE/BURST": the burst is accepted and ignored. */
	if (*end != '\0' && !(rate && *end == '/'))
		return -EINVAL;
	if (v > BENCH_AMOUNT_MAX || (v < 1 && !(rate && v == 0)))
		return -ERANGE;
	*ret = (uint64_t)v;
	return 0;
}

/* Seconds for -t (1 to 86400: the wire carries whole seconds, and 0.4 would
 * reach the server as 0) and -i (0, or 0.1 to 60 as in iperf3). */
static int parse_seconds(const char *text, bool interval, double *ret)
{
	const char *end;
	double v;

	if (nd_parse_decimal(text, &v, &end) < 0 || *end)
		return -EINVAL;
	if (interval ? v != 0 && (v < BENCH_INTERVAL_MIN_SEC || v > BENCH_INTERVAL_MAX_SEC) :
		       v < 1 || v > BENCH_TIME_MAX_SEC)
		return -ERANGE;
	*ret = v;
	return 0;
}

static int parse_int(const char *text, long lo, long hi, long *ret)
{
	return nd_parse_long(text, 0, lo, hi, ret);
}

/* "0,1,2" or "0-3": one CPU per stream, in order, repeats allowed. */
static int parse_cpus(const char *text, struct nd_engine_params *p)
{
	const char *s = text;

	p->cpus_count = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= 4096)
			return -EINVAL;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= 4096)
				return -EINVAL;
		}
		for (long c = a; c <= b; c++) {
			if (p->cpus_count >= ND_ENGINE_MAX_STREAMS)
				return -EINVAL;
			p->cpus[p->cpus_count++] = (int)c;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return p->cpus_count > 0 ? 0 : -EINVAL;
}

static int parse_option(int c, const char *arg, struct nd_engine_params *p, bool *json)
{
	uint64_t amount;
	long v;

	switch (c) {
	case 'c': p->host = arg; return 0;
	case 'p': if (parse_int(arg, 1, 65535, &v)) return -EINVAL; p->port = (uint16_t)v; return 0;
	case 'P': if (parse_int(arg, 1, 128, &v)) return -EINVAL; p->streams = (int)v; return 0;
	case 't': return parse_seconds(arg, false, &p->duration_sec);
	case 'i': return parse_seconds(arg, true, &p->interval_sec);
	case 'n': if (parse_amount(arg, false, &amount)) return -EINVAL;
		p->bytes_total = amount; return 0;
	case 'k': if (parse_amount(arg, false, &amount)) return -EINVAL;
		p->blocks_total = amount; return 0;
	case 'O': if (parse_int(arg, 0, 600, &v)) return -EINVAL; p->omit_sec = (int)v; return 0;
	case 'R': p->reverse = true; return 0;
	case OPT_BIDIR: p->bidir = true; return 0;
	case 'u': p->udp = true; return 0;
	case 'b': if (parse_amount(arg, true, &amount)) return -EINVAL;
		p->rate_bps = amount; p->rate_set = true; return 0;
	case 'l': if (parse_amount(arg, false, &amount) || !amount || amount > ND_TCP_LEN_MAX)
			return -EINVAL;
		p->len_bytes = (uint32_t)amount; return 0;
	case 'w': if (parse_amount(arg, false, &amount) || !amount || amount > (1u << 30))
			return -EINVAL;
		p->window_bytes = (uint32_t)amount; return 0;
	case 'M': if (parse_int(arg, 88, 9216, &v)) return -EINVAL; p->mss_bytes = (int)v; return 0;
	case 'N': p->nodelay = true; return 0;
	case 'C': p->congestion = arg; return 0;
	case 'Z': p->zerocopy = true; return 0;
	case 'A': return parse_cpus(arg, p);
	case 'B': p->bind_addr = arg; return 0;
	case '4': p->family = AF_INET; return 0;
	case '6': p->family = AF_INET6; return 0;
	case 'T': p->title = arg; return 0;
	case 'S': if (parse_int(arg, 0, 255, &v)) return -EINVAL; p->tos = (int)v; return 0;
	case 'J': *json = true; return 0;
	case OPT_GET_SERVER_OUTPUT: p->get_server_output = true; return 0;
	case OPT_SKIP_RX_COPY: p->skip_rx_copy = true; return 0;
	case OPT_NO_GSO: p->no_gso = true; return 0;
	case OPT_RCV_TIMEOUT: case OPT_CONNECT_TIMEOUT:
		if (parse_int(arg, 1, 3600000, &v))
			return -EINVAL;
		p->connect_timeout_ms = (int)v;	/* one knob for both deadlines */
		return 0;
	case OPT_SAMPLE_IF:
		if (nd_ifname_valid(arg) < 0)
			return -EINVAL;
		p->ifname = arg;
		return 0;
	default: return 1;	/* not a core flag: iperf_flags.c's */
	}
}

/*
 * iperf3's -A N[,M]: this process on core N (as iperf3, the number is read
 * up to the first non-digit), the server's test on core M.
 */
static int parse_iperf3_affinity(const char *text, struct nd_engine_params *p, int *ret_cpu)
{
	const char *comma = strchr(text, ',');
	char *end;
	long n = strtol(text, &end, 0), m;

	if (end == text || n < 0 || n > 1024)
		return -EINVAL;
	if (comma) {
		m = strtol(comma + 1, &end, 0);
		if (end == comma + 1 || m < 0 || m > 1024)
			return -EINVAL;
		p->server_affinity = (int)m;
	}
	*ret_cpu = (int)n;
	return 0;
}

static int pin_process(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	if (cpu < CPU_SETSIZE)
		CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		nd_err("unable to set CPU affinity to core %d: %s", cpu, strerror(errno));
		return ND_EXIT_ENV;
	}
	return 0;
}

static int exit_code(int rc)
{
	if (rc == 0)
		return ND_EXIT_OK;
	if (rc == -EINVAL)
		return ND_EXIT_USAGE;
	return ND_EXIT_ENV;
}

/* The long name of an option, for error messages ("parallel" for -P). */
static const char *option_name(int c)
{
	for (const struct option *o = bench_options; o->name; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

/* What a valid value looks like, for the options whose range is not obvious. */
static const char *option_hint(int c)
{
	switch (c) {
	case 't': return ": seconds, 1 to 86400";
	case 'i': return ": seconds, 0 (none) or 0.1 to 60";
	case 'O': return ": whole seconds, 0 to 600";
	case 'n': return ": bytes, at least 1 (K, M, G, T suffixes)";
	case 'k': return ": blocks, at least 1 (K, M, G, T suffixes)";
	case 'b': return ": bits/s, 0 (unlimited) or at least 1 (K, M, G, T suffixes)";
	case 'P': return ": 1 to 128";
	default: return "";
	}
}

/* -c and -p as given; several targets run at once (multi.c). */
struct bench_targets {
	const char *hosts, *ports;
	const char *spread;		/* --spread[=MODE] (src/spread/run.c), NULL off */
	struct nd_targets list;
};

/* One target is today's single test; 0 or the exit code. */
static int bench_targets_resolve(struct bench_targets *tg, struct nd_engine_params *p)
{
	char err[200];

	if (!tg->hosts)		/* "no server given" follows; the ports are still checked */
		tg->hosts = "";
	if (nd_targets_parse(tg->hosts[0] ? tg->hosts : "-", tg->ports, &tg->list, err,
			     sizeof(err)) < 0) {
		nd_err("bench: %s", err);
		return ND_EXIT_USAGE;
	}
	if (!tg->hosts[0])
		return 0;
	if (nd_targets_set_binds(&tg->list, p->bind_addr, err, sizeof(err)) < 0) {
		nd_err("bench: %s", err);
		return ND_EXIT_USAGE;
	}
	/* With several, multi.c sets each target's own. */
	p->host = tg->list.t[0].host;
	p->port = tg->list.t[0].port;
	return 0;
}

/* One flag: the core set here, then iperf3 3.21's others.  0 or an exit code. */
static int take_flag(int c, int argc, char **argv, struct nd_engine_params *p,
		     struct nd_client_opts *o, struct nd_iperf_out *io, bool iperf3_mode,
		     int *process_cpu)
{
	char why[200] = "";
	int rc;

	if (c == '?' || c == ':') {
		nd_err_option(iperf3_mode ? "iperf3" : "bench", argc, argv);
		return ND_EXIT_USAGE;
	}
	if (c == 'A' && iperf3_mode)
		rc = parse_iperf3_affinity(optarg, p, process_cpu);
	else
		rc = parse_option(c, optarg, p, &o->json);
	if (rc > 0)
		rc = nd_iperf_flag(c, optarg, p, io, why, sizeof(why));
	if (rc == 0)
		return 0;
	if (why[0]) {
		nd_err("%s", why);
		return rc == -ENOPROTOOPT ? ND_EXIT_ENV : ND_EXIT_USAGE;
	}
	nd_err("bench: invalid value '%s' for --%s%s", optarg ? optarg : "", option_name(c),
	       option_hint(c));
	return ND_EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct nd_engine_params *p,
		      struct nd_client_opts *o, struct nd_iperf_out *io, bool iperf3_mode,
		      int *process_cpu, struct bench_auth *auth, struct bench_targets *tg)
{
	bool duration_set = false;
	char why[200] = "";
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:p:P:t:n:k:O:i:Rub:l:w:M:NC:ZA:B:46T:S:Jh"
				ND_IPERF_CLIENT_SHORT, bench_options, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		duration_set |= c == 't';
		if (c == 'c' || c == 'p') {	/* targets: several hosts and ports (issue 15) */
			*(c == 'c' ? &tg->hosts : &tg->ports) = optarg;
			continue;
		}
		if (c == OPT_SPREAD) {
			tg->spread = optarg ? optarg : "place";
			if (strcmp(tg->spread, "place") && strcmp(tg->spread, "count")) {
				nd_err("bench: invalid value '%s' for --spread: place or count",
				       optarg);
				return ND_EXIT_USAGE;
			}
			continue;
		}
		if (c >= OPT_USERNAME && c <= OPT_PKCS1) {
			parse_auth_option(c, optarg, auth);
			continue;
		}
		rc = take_flag(c, argc, argv, p, o, io, iperf3_mode, process_cpu);
		if (rc)
			return rc;
	}
	if (io->version) {
		printf("nicdoctor %s (iperf 3.21 compatible)\n", ND_VERSION);
		return -1;
	}
	rc = bench_targets_resolve(tg, p);
	if (rc != 0)
		return rc;
	if (optind < argc || !p->host) {
		nd_err(optind < argc ? "bench: unexpected argument '%s'" :
		       "bench: no server given (-c HOST)%s", optind < argc ? argv[optind] : "");
		return ND_EXIT_USAGE;
	}
	if (p->reverse && p->bidir) {
		nd_err("-R and --bidir cannot be used together");
		return ND_EXIT_USAGE;
	}
	if ((duration_set && (p->bytes_total || p->blocks_total)) ||
	    (p->bytes_total && p->blocks_total)) {
		nd_err("only one test end condition (-t, -n, -k) may be given, as in iperf3");
		return ND_EXIT_USAGE;
	}
	nd_iperf_split_dev(p, io);
	io->title = p->title;
	io->out.iperf_done = iperf3_mode;
	rc = nd_iperf_finish(p, duration_set, io, why, sizeof(why));
	if (rc < 0) {
		nd_err("%s", why);
		return ND_EXIT_USAGE;
	}
	return 0;
}

/* --spread: the engine hooks; 0 or the exit code. */
static int setup_spread(struct nd_engine_params *p, const struct bench_targets *tg,
			struct nd_spread_run **ret)
{
	char err[200] = "";
	int rc;

	if (tg->list.count > 1) {
		nd_err("bench: --spread takes one target");
		return ND_EXIT_USAGE;
	}
	rc = nd_spread_run_new(p, strcmp(tg->spread, "count") != 0, ret, err, sizeof(err));
	if (rc < 0)
		nd_err("bench: %s", err[0] ? err : strerror(-rc));
	return rc == 0 ? 0 : rc == -EINVAL ? ND_EXIT_USAGE : ND_EXIT_ENV;
}

static void print_json(cJSON *json, FILE *to)
{
	char *text = cJSON_Print(json);

	if (text)
		fprintf(to, "%s\n", text);
	cJSON_free(text);
	cJSON_Delete(json);
}

int nd_bench_main(int argc, char **argv, bool iperf3_mode)
{
	struct nd_engine_params p;
	struct nd_client_opts o = { .text_out = stdout };
	struct nd_iperf_out io = { 0 };
	struct nd_engine_result *r;
	struct bench_auth auth = { 0 };
	struct bench_targets tg = { 0 };
	struct nd_spread_run *spread = NULL;
	cJSON *json = NULL;
	char why[300] = "";
	int rc, process_cpu = -1;

	nd_engine_params_init(&p);
	rc = parse_args(argc, argv, &p, &o, &io, iperf3_mode, &process_cpu, &auth, &tg);
	if (rc == 0)
		rc = pin_process(process_cpu);
	if (rc == 0)
		rc = setup_auth(&auth);
	if (rc == 0 && tg.spread)
		rc = setup_spread(&p, &tg, &spread);
	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	if (auth.client.public_key)
		p.auth = &auth.client;
	r = calloc(1, sizeof(*r));
	if (!r) {
		nd_auth_client_clear(&auth.client);
		return ND_EXIT_ENV;
	}
	if (nd_iperf_out_open(&io, why, sizeof(why)) < 0) {
		nd_err("%s", why[0] ? why : "cannot set up the output");
		nd_iperf_out_close(&io);
		nd_auth_client_clear(&auth.client);
		free(r);
		return ND_EXIT_ENV;
	}
	o.text_out = io.text;
	o.out = io.out;
	/* --json-stream is -J's content as event lines; the full object too
	 * only with --json-stream-full-output, which alone changes nothing
	 * (as 3.21). */
	io.json_stream_full = io.json_stream && io.json_stream_full;
	o.json = o.json || io.json_stream_full;
	rc = tg.list.count > 1 ? nd_multi_run(&p, &tg.list, o.json, io.text, &json)
			       : nd_client_run(&p, &o, r, &json);
	nd_auth_client_clear(&auth.client);
	if (json && (!io.json_stream || io.json_stream_full))
		print_json(json, io.raw);
	else
		cJSON_Delete(json);
	if (rc < 0 && tg.list.count <= 1)	/* several: multi.c said which failed */
		nd_err("%s", r->error[0] ? r->error : strerror(-rc));
	nd_iperf_out_close(&io);
	nd_spread_run_free(spread);
	free(r);
	return exit_code(rc);
}

int cmd_bench(int argc, char **argv)
{
	return nd_bench_main(argc, argv, false);
}

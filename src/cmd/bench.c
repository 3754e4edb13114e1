/*
 * cmd_bench.c - `nicdoctor bench -c HOST ...`: an iperf3-compatible client
 * with iperf3's flag names, printing iperf3-like text or -J JSON.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "iperf_flags.h"
#include "nicdoctor/multi.h"
#include "nicdoctor/spread.h"
#include "iperf_opts.h"

static void usage_synopsis(FILE *f)
{
	fprintf(f,
		"usage: nicdoctor bench -c HOST[:PORT][,HOST...] [-p PORT[-LAST]] [-P N]\n"
		"         [-t S | -n BYTES | -k BLOCKS]\n"
		"         [-O S] [-i S] [-R | --bidir] [-u] [-b RATE] [-l LEN] [-w SIZE] [-M MSS]\n"
		"         [-N] [-C ALGO] [-Z] [-A CPU,...] [-B ADDR] [-4|-6] [-S TOS] [-T TITLE]\n"
		"         [-J] [--get-server-output] [--skip-rx-copy] [--no-gso]\n"
		"         [--rcv-timeout MS] [--connect-timeout MS] [--sample-if IF]\n"
		"         [--spread[=place|count] [--cport FIRST-LAST]]\n"
		"       and iperf3 3.21's other client flags (see nicdoctor(8))\n"
		"       authentication: --username USER --rsa-public-key-path FILE\n"
		"         [--use-pkcs1-padding]\n\noptions:\n");
}

static void usage(FILE *f)
{
	usage_synopsis(f);
	nd_opts_help(f, ND_IN_BENCH);
}

/* iperf3 -c -h: the same, with iperf3's -A. */
static void usage_iperf3(FILE *f)
{
	usage_synopsis(f);
	nd_opts_help(f, ND_IN_IPERF3_C);
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

/*
 * The option table's rows for bench (or iperf3 -c) over argv, then what
 * needs the whole command line.  0, -1 (done: -h, -v), or the exit code.
 */
static int parse_args(int argc, char **argv, struct nd_engine_params *p,
		      struct nd_client_opts *o, struct nd_iperf_out *io, bool iperf3_mode,
		      int *process_cpu, struct bench_auth *auth, struct bench_targets *tg)
{
	struct nd_opt_ctx ctx = {
		.cmd = iperf3_mode ? ND_IN_IPERF3_C : ND_IN_BENCH,
		.name = iperf3_mode ? "iperf3" : "bench",
		.base = { [ND_BASE_PARAMS] = p, [ND_BASE_IOUT] = io, [ND_BASE_CLIENT] = o,
			  [ND_BASE_BAUTH] = auth, [ND_BASE_TARGETS] = tg },
		.usage = iperf3_mode ? usage_iperf3 : usage,
		.process_cpu = -1,
	};
	bool duration_set;
	char why[200] = "";
	int rc = nd_opts_parse(argc, argv, &ctx);

	*process_cpu = ctx.process_cpu;
	duration_set = ctx.duration_set;
	if (rc == ND_OPT_STOP)
		return -1;
	if (rc < 0)	/* -m without MPTCP here: the host's lack, not a usage error */
		return rc == -ENOPROTOOPT ? ND_EXIT_ENV : ND_EXIT_USAGE;
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
	static const struct nd_spread_render render = { nd_spread_view_text, nd_spread_view_json };
	char err[200] = "";
	int rc;

	if (tg->list.count > 1) {
		nd_err("bench: --spread takes one target");
		return ND_EXIT_USAGE;
	}
	rc = nd_spread_run_new(p, strcmp(tg->spread, "count") != 0, &render, ret, err, sizeof(err));
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

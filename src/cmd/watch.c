/*
 * watch.c - `nicdoctor watch [IF] [-i S] [-n COUNT] [--json]`: a live
 * per-queue, per-CPU view while any traffic runs.  Probes once (the queue
 * chain, the IRQs, RPS), then samples only counters every interval on an
 * absolute clock; SIGINT/SIGTERM or COUNT intervals end it with a summary
 * of the whole watch.  An interface that disappears ends it with one line
 * and exit 4.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/source.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/watch.h"

#define WATCH_MIN_INTERVAL_SEC 0.1
#define WATCH_MAX_INTERVAL_SEC 3600.0
#define WATCH_MAX_DIAGNOSES 16

struct watch_opts {
	const char *ifname;
	double interval_sec;
	long count;			/* 0: until interrupted */
	bool json;
};

struct seen {
	unsigned n;
	struct { char line[256]; unsigned intervals; } d[WATCH_MAX_DIAGNOSES];
};

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void watch_usage(FILE *out)
{
	fprintf(out, "usage: nicdoctor watch [IF] [-i SECONDS] [-n COUNT] [--json]\n"
		"  -i S     interval (default 1)\n"
		"  -n N     stop after N intervals (default: until Ctrl-C)\n"
		"  --json   one JSON object per interval, then the summary (JSON lines)\n");
}

static int parse_opts(int argc, char **argv, struct watch_opts *o)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*o = (struct watch_opts){ .interval_sec = 1.0 };
	while ((c = getopt_long(argc, argv, "i:n:Jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->interval_sec = strtod(optarg, &end);
			if (*end || end == optarg || !(o->interval_sec >= WATCH_MIN_INTERVAL_SEC) ||
			    o->interval_sec > WATCH_MAX_INTERVAL_SEC) {
				nd_err("invalid interval '%s' (0.1 to 3600 seconds)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case 'n':
			o->count = strtol(optarg, &end, 10);
			if (*end || end == optarg || o->count < 1 || o->count > 100000000) {
				nd_err("invalid count '%s'", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case 'J': o->json = true; break;
		case 'h': watch_usage(stdout); return -1;
		default: watch_usage(stderr); return ND_EXIT_USAGE;
		}
	}
	if (optind < argc)
		o->ifname = argv[optind++];
	if (optind < argc) {
		nd_err("unexpected argument '%s'", argv[optind]);
		return ND_EXIT_USAGE;
	}
	return 0;
}

static void note_diagnosis(struct seen *seen, const cJSON *view)
{
	const cJSON *d = cJSON_GetObjectItem(view, "diagnosis");

	if (!cJSON_IsString(d))
		return;
	for (unsigned i = 0; i < seen->n; i++)
		if (!strcmp(seen->d[i].line, d->valuestring)) {
			seen->d[i].intervals++;
			return;
		}
	if (seen->n < WATCH_MAX_DIAGNOSES) {
		nd_strlcpy(seen->d[seen->n].line, d->valuestring, sizeof(seen->d[0].line));
		seen->d[seen->n++].intervals = 1;
	}
}

static void emit(const struct watch_opts *o, const cJSON *view, bool tty)
{
	if (o->json)
		nd_watch_render_json(stdout, view);
	else
		nd_watch_render_text(stdout, view, tty);
}

static void emit_summary(const struct watch_opts *o, const struct nd_watch_ctx *ctx,
			 const struct nd_watch_sample *first, const struct nd_watch_sample *last,
			 unsigned intervals, const struct seen *seen)
{
	cJSON *view = nd_watch_view(ctx, first, last, intervals, true), *arr;

	if (!view)
		return;
	arr = cJSON_AddArrayToObject(view, "diagnoses");
	for (unsigned i = 0; arr && i < seen->n; i++) {
		cJSON *d = cJSON_CreateObject();

		cJSON_AddStringToObject(d, "diagnosis", seen->d[i].line);
		cJSON_AddNumberToObject(d, "intervals", seen->d[i].intervals);
		cJSON_AddItemToArray(arr, d);
	}
	emit(o, view, false);
	cJSON_Delete(view);
}

/* Sleep until deadline (CLOCK_MONOTONIC); false when a signal asked to stop. */
static bool sleep_until(struct timespec *deadline, double interval_sec)
{
	long nsec = (long)llround(fmod(interval_sec, 1.0) * 1e9);

	deadline->tv_sec += (time_t)interval_sec + (deadline->tv_nsec + nsec) / 1000000000L;
	deadline->tv_nsec = (deadline->tv_nsec + nsec) % 1000000000L;
	while (!stop_requested &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		;
	return !stop_requested;
}

static int watch_loop(const struct watch_opts *o, const struct nd_watch_ctx *ctx,
		      struct nd_watch_sample *s /* [3]: first, previous, current */)
{
	bool tty = !o->json && isatty(STDOUT_FILENO);
	struct seen *seen = calloc(1, sizeof(*seen));
	struct nd_watch_sample *prev = &s[1], *cur = &s[2], *tmp;
	struct timespec deadline;
	unsigned intervals = 0;
	int rc = ND_EXIT_OK;

	if (!seen)
		return ND_EXIT_ENV;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	if (nd_watch_sample_read(&nd_root_live, ctx, &s[0]) == -ENODEV)
		goto gone;
	*prev = s[0];
	while ((!o->count || intervals < (unsigned long)o->count) &&
	       sleep_until(&deadline, o->interval_sec)) {
		cJSON *view;

		if (nd_watch_sample_read(&nd_root_live, ctx, cur) == -ENODEV)
			goto gone;
		view = nd_watch_view(ctx, prev, cur, ++intervals, false);
		if (view) {
			note_diagnosis(seen, view);
			emit(o, view, tty);
			cJSON_Delete(view);
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	if (intervals)
		emit_summary(o, ctx, &s[0], prev, intervals, seen);
	free(seen);
	return rc;
gone:
	nd_err("interface '%s' disappeared", ctx->ifname);
	free(seen);
	return ND_EXIT_ENV;
}

int cmd_watch(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct nd_watch_sample *samples = NULL;
	struct nd_facts *facts = NULL;
	struct nd_source *src = NULL;
	struct nd_watch_ctx ctx;
	struct watch_opts o;
	char buf[ND_IFNAMSIZ];
	int rc = parse_opts(argc, argv, &o);

	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	if ((rc = nd_cmd_open_source(NULL, &src)) != 0)
		return rc;
	if ((rc = nd_resolve_iface(src, &o.ifname, buf, sizeof(buf))) != 0) {
		nd_source_close(src);
		return rc;
	}
	rc = nd_probe(src, o.ifname, &facts);
	nd_source_close(src);
	if (rc == -ENODEV) {
		nd_err("no such interface '%s'", o.ifname);
		return ND_EXIT_USAGE;
	}
	if (rc < 0 || nd_watch_ctx_init(&ctx, o.ifname, facts) < 0 ||
	    !(samples = calloc(3, sizeof(*samples)))) {
		nd_err("out of memory");
		nd_facts_free(facts);
		return ND_EXIT_ENV;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = watch_loop(&o, &ctx, samples);
	free(samples);
	nd_watch_ctx_release(&ctx);
	nd_facts_free(facts);
	return rc;
}

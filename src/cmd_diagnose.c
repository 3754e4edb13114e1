/*
 * cmd_diagnose.c - `nicdoctor diagnose [IF]`: probe, check, report.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/report.h"
#include "nicdoctor/sysroot.h"

struct diagnose_opts {
	const char *ifname;
	const char *sysroot;
	const char *skip, *only;
	enum nd_format format;
	bool redact;
	bool no_traffic;
};

static const struct {
	const char *name;
	enum nd_format format;
} formats[] = {
	{ "text", ND_FORMAT_TEXT },
	{ "markdown", ND_FORMAT_MARKDOWN },
	{ "json", ND_FORMAT_JSON },
	{ "prometheus", ND_FORMAT_PROMETHEUS },
};

static int parse_format(const char *name, enum nd_format *ret)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(formats); i++)
		if (!strcmp(name, formats[i].name)) {
			*ret = formats[i].format;
			return 0;
		}
	return -EINVAL;
}

static void diagnose_usage(FILE *out)
{
	fprintf(out,
		"usage: nicdoctor diagnose [IF] [--sysroot DIR] [--format text|markdown|json|prometheus]\n"
		"                          [--json] [--redact] [--skip ID,...] [--only ID,...]\n"
		"                          [--no-traffic]\n");
}

/* 0, or an exit code (>0) after printing the error. */
static int parse_args(int argc, char **argv, struct diagnose_opts *o)
{
	enum { OPT_SYSROOT = 256, OPT_FORMAT, OPT_JSON, OPT_REDACT, OPT_SKIP, OPT_ONLY,
	       OPT_NO_TRAFFIC };
	static const struct option longopts[] = {
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "redact", no_argument, NULL, OPT_REDACT },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "no-traffic", no_argument, NULL, OPT_NO_TRAFFIC },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SYSROOT: o->sysroot = optarg; break;
		case OPT_FORMAT:
			if (parse_format(optarg, &o->format) < 0) {
				nd_err("unknown format '%s' (text, markdown, json, prometheus)", optarg);
				return ND_EXIT_USAGE;
			}
			break;
		case OPT_JSON: o->format = ND_FORMAT_JSON; break;
		case OPT_REDACT: o->redact = true; break;
		case OPT_SKIP: o->skip = optarg; break;
		case OPT_ONLY: o->only = optarg; break;
		case OPT_NO_TRAFFIC: o->no_traffic = true; break;
		case 'h': diagnose_usage(stdout); return -1;
		default:
			nd_err("diagnose: unknown or incomplete option '%s'", argv[optind - 1]);
			return ND_EXIT_USAGE;
		}
	}
	if (optind < argc)
		o->ifname = argv[optind++];
	if (optind < argc) {
		nd_err("diagnose: unexpected argument '%s'", argv[optind]);
		return ND_EXIT_USAGE;
	}
	return 0;
}

/* Pick and validate the interface; 0 or an exit code after the error. */
static int resolve_iface(struct diagnose_opts *o, char *buf, size_t size)
{
	if (!o->ifname) {
		if (nd_probe_default_iface(buf, size) < 0) {
			nd_err("no interface given and no default route to take one from");
			return ND_EXIT_USAGE;
		}
		o->ifname = buf;
	}
	if (nd_ifname_valid(o->ifname) < 0) {
		nd_err("invalid interface name '%s'", o->ifname);
		return ND_EXIT_USAGE;
	}
	return 0;
}

int nd_use_sysroot(const char *dir)
{
	int r = dir ? nd_sysroot_set(dir) : 0;

	if (r < 0)
		nd_err("cannot use sysroot '%s': %s", dir, strerror(-r));
	return r < 0 ? ND_EXIT_USAGE : 0;
}

int cmd_diagnose(int argc, char **argv)
{
	struct diagnose_opts o = { .format = ND_FORMAT_TEXT };
	struct nd_report report;
	struct nd_facts *facts;
	const char *bad_id = NULL;
	char default_if[ND_IFNAMSIZ];
	int r, rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	rc = nd_use_sysroot(o.sysroot);
	if (!rc)
		rc = resolve_iface(&o, default_if, sizeof(default_if));
	if (rc)
		return rc;
	r = nd_probe(o.ifname, &facts);
	if (r == -ENODEV) {
		nd_err("no such interface '%s'", o.ifname);
		return ND_EXIT_USAGE;
	}
	if (r < 0) {
		nd_err("cannot probe '%s': %s", o.ifname, strerror(-r));
		return ND_EXIT_ENV;
	}
	r = nd_report_build(&report, facts, o.skip, o.only, &bad_id);
	if (r < 0) {
		nd_err("unknown check ID '%s' (see 'nicdoctor checks')", bad_id ? bad_id : "?");
		nd_facts_free(facts);
		return ND_EXIT_USAGE;
	}
	report.redact = o.redact;
	report.color = o.format == ND_FORMAT_TEXT && isatty(STDOUT_FILENO) &&
		       !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
	r = nd_report_render(&report, o.format, stdout);
	rc = r < 0 ? ND_EXIT_ENV : nd_report_exit_code(&report);
	if (r < 0)
		nd_err("cannot render the report: %s", strerror(-r));
	nd_report_free(&report);
	nd_facts_free(facts);
	return rc;
}

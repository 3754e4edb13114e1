/*
 * diagnose_cli.h - private to `nicdoctor diagnose`: the options, and the
 * pipeline's steps as diagnose.c calls them for one port and
 * diagnose_ports.c for each port of `diagnose IF1,IF2 --peer H1,H2`.
 */
#ifndef NICDOCTOR_DIAGNOSE_CLI_H
#define NICDOCTOR_DIAGNOSE_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/route.h"
#include "nicdoctor/source.h"

enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct diagnose_opts {
	const char *ifname;
	const char *sysroot;
	const char *skip, *only;
	enum nd_format format;
	bool redact;
	bool no_traffic;
	bool trial_fixes;
	const char *peer;		/* as given */
	char peer_host[256];
	uint16_t peer_port;
	/* --peer's route (route.h), looked up before any traffic; traffic that
	 * would not leave through the interface is refused unless allow_route. */
	bool allow_route;
	bool route_known;
	struct nd_route route;
	double duration_sec;		/* 0: the default of the mode */
	double sample_sec;		/* counter window without traffic; 0 none */
	bool verbose;
	int color;			/* COLOR_* */
	/* --username, --rsa-public-key-path: for a peer that authenticates. */
	const char *username, *public_key_path;
	struct nd_auth_client auth;
	struct nd_source *src;		/* where facts come from: live or --sysroot */
};

/* Probe and check one port; 0 or an exit code after the error. */
int diagnose_build_report(struct diagnose_opts *o, struct nd_diagnosis *d);
/* The plan against o's peer (or the loopback baseline) and the verdicts. */
void diagnose_run_experiments(const struct diagnose_opts *o, struct nd_diagnosis *d);
bool diagnose_want_color(int when);
/* The peer's credentials, read before any traffic: 0 or an exit code. */
int diagnose_setup_auth(struct diagnose_opts *o);
/* --peer's route leaves through o->ifname, or --allow-route: 0, or an
 * exit code after one line (3 another path, 4 no route). */
int diagnose_check_route(struct diagnose_opts *o);

/* cmd_diagnose_ports.c: several interfaces or peers given. */
bool diagnose_is_ports(const struct diagnose_opts *o);
int diagnose_ports(struct diagnose_opts *o);

#endif

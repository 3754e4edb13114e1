/*
 * diagnose_ports.c - `nicdoctor diagnose IF1,IF2 --peer HOST1,HOST2`
 * (issue 15): each port probed, checked and run through its own plan
 * against its own peer (alone), then every port at once (together, one
 * clock), and pcie.slot_too_slow judged by the together run against the
 * slot the ports share (experiment/group.c).
 *
 * The ports are named, never guessed: `diagnose eth0 --peer H1,H2` is a
 * usage error rather than a run that also sends traffic out of eth0's
 * sibling port, since which peer a sibling reaches (and whether it may
 * carry test traffic at all) is the operator's to say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/group.h"
#include "nicdoctor/probe.h"
#include "diagnose_cli.h"

struct port_run {
	struct diagnose_opts o;
	char ifname[ND_IFNAMSIZ];
	struct nd_diagnosis d;
};

bool diagnose_is_ports(const struct diagnose_opts *o)
{
	return (o->ifname && strchr(o->ifname, ',')) || (o->peer && strchr(o->peer, ','));
}

/* "a,b,c" into at most max items of item_size; -EINVAL on an empty item,
 * -E2BIG past max. */
static int split_list(const char *list, char *items, size_t item_size, unsigned max,
		      unsigned *ret_count)
{
	unsigned count = 0;

	for (const char *p = list; p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!len || len >= item_size)
			return -EINVAL;
		if (count == max)
			return -E2BIG;
		memcpy(items + count * item_size, p, len);
		items[count * item_size + len] = '\0';
		count++;
		p = comma ? comma + 1 : NULL;
	}
	*ret_count = count;
	return 0;
}

/* The lists, one peer per port; 0 or ND_EXIT_USAGE after the error. */
static int parse_ports(const struct diagnose_opts *o, struct port_run *runs, unsigned *ret_n)
{
	char names[ND_GROUP_MAX_PORTS][ND_IFNAMSIZ], peers[ND_GROUP_MAX_PORTS][300];
	unsigned n_if = 0, n_peer = 0;

	/* no IF: the default route's one interface, never several */
	if (o->ifname && split_list(o->ifname, names[0], sizeof(names[0]),
				    ND_GROUP_MAX_PORTS, &n_if) < 0) {
		nd_err("diagnose: invalid interface list '%s' (IF1,IF2,... at most %d)",
		       o->ifname ? o->ifname : "", ND_GROUP_MAX_PORTS);
		return ND_EXIT_USAGE;
	}
	if (o->trial_fixes || o->sysroot || o->no_traffic || !o->peer) {
		nd_err("diagnose: several ports need one --peer each and take no --trial-fixes, "
		       "--sysroot or --no-traffic");
		return ND_EXIT_USAGE;
	}
	if (split_list(o->peer, peers[0], sizeof(peers[0]), ND_GROUP_MAX_PORTS, &n_peer) < 0) {
		nd_err("diagnose: invalid peer list '%s' (HOST1[:PORT],HOST2[:PORT],...)", o->peer);
		return ND_EXIT_USAGE;
	}
	if (n_if != n_peer) {
		nd_err("diagnose: %u interface%s and %u peer%s: give one peer per interface, in "
		       "order (IF1,IF2 --peer HOST1,HOST2)", n_if, n_if == 1 ? "" : "s", n_peer,
		       n_peer == 1 ? "" : "s");
		return ND_EXIT_USAGE;
	}
	for (unsigned i = 0; i < n_if; i++) {
		struct port_run *run = &runs[i];

		for (unsigned j = 0; j < i; j++)
			if (!strcmp(names[i], names[j])) {
				nd_err("diagnose: interface '%s' named twice", names[i]);
				return ND_EXIT_USAGE;
			}
		run->o = *o;
		nd_strlcpy(run->ifname, names[i], sizeof(run->ifname));
		run->o.ifname = run->ifname;
		run->o.peer = peers[i];
		if (nd_peer_parse(peers[i], run->o.peer_host, sizeof(run->o.peer_host),
				  &run->o.peer_port) < 0) {
			nd_err("diagnose: invalid peer '%s' (HOST or HOST:PORT)", peers[i]);
			return ND_EXIT_USAGE;
		}
	}
	*ret_n = n_if;
	return 0;
}

/* ND_TEST_PCIE_SCALE=F (a test seam, README's testing section): the
 * shared slot's ceiling times F, so a fixture's real card can cap links
 * a test shapes to tens of Mbit/s.  The verdict's sentence says so. */
static double test_pcie_scale(void)
{
	const char *text = getenv("ND_TEST_PCIE_SCALE");
	char *end;
	double scale;

	if (!text || !*text)
		return 1;
	scale = strtod(text, &end);
	return *end || !(scale > 0 && scale <= 1) ? 1 : scale;
}

static void fill_group(struct port_run *runs, unsigned n, struct nd_group *g)
{
	const struct nd_facts *facts[ND_GROUP_MAX_PORTS];

	memset(g, 0, sizeof(*g));
	g->n_ports = n;
	for (unsigned i = 0; i < n; i++) {
		struct nd_group_port *p = &g->ports[i];
		const struct nd_exp_run *alone = &runs[i].d.set.runs[ND_RUN_FORWARD_MANY];
		const struct nd_report *report = &runs[i].d.report;

		facts[i] = runs[i].d.facts;
		nd_strlcpy(p->ifname, runs[i].ifname, sizeof(p->ifname));
		nd_strlcpy(p->host, runs[i].o.peer_host, sizeof(p->host));
		p->port = runs[i].o.peer_port;
		if (facts[i]->pci.st.known)
			nd_strlcpy(p->pci_address, facts[i]->pci.dev.address,
				   sizeof(p->pci_address));
		nd_group_port_ceiling(report->findings, report->n_findings, p);
		p->streams = nd_exp_streams_for(facts[i]);
		/* --allow-route over another path: not this port's alone figure
		 * (the together run is bound to the port) */
		p->alone_mbps = alone->done && (!runs[i].o.route_known ||
						nd_route_matches(&runs[i].o.route, runs[i].ifname))
				? alone->mbps : -1;
		p->together_mbps = -1;
	}
	nd_group_slot_of(facts, n, test_pcie_scale(), &g->slot);
}

/* Every port probed and checked first (a bad name fails before any
 * traffic), then each alone; 0 or an exit code (nothing rendered). */
static int run_alone(struct port_run *runs, unsigned n, unsigned *ret_built,
		     int *ret_traffic_rc)
{
	for (unsigned i = 0; i < n; i++) {
		int rc = diagnose_build_report(&runs[i].o, &runs[i].d);

		if (rc)
			return rc;
		*ret_built = i + 1;
	}
	for (unsigned i = 0; i < n && !*ret_traffic_rc; i++) {
		/* a peer failed or a signal came: no more traffic */
		diagnose_run_experiments(&runs[i].o, &runs[i].d);
		*ret_traffic_rc = runs[i].d.traffic_rc;
	}
	return 0;
}

/* Then together, the verdict onto every port's finding; the "together"
 * object, or NULL. */
static cJSON *run_together(const struct diagnose_opts *o, struct port_run *runs, unsigned n,
			   int *traffic_rc)
{
	struct nd_group *g = calloc(1, sizeof(*g));
	double sec = nd_exp_run_sec(o->duration_sec ? o->duration_sec : ND_EXP_PLAN_SEC_DEFAULT,
				    ND_RUN_KINDS);
	cJSON *doc;

	if (!g)
		return NULL;
	fill_group(runs, n, g);
	if (*traffic_rc) {
		nd_strlcpy(g->error, "a port's own plan did not complete", sizeof(g->error));
	} else if (nd_group_run_together(g, sec, o->auth.public_key ? &o->auth : NULL) < 0) {
		nd_err("diagnose: %s", g->error);
		*traffic_rc = ND_EXIT_ENV;
	}
	nd_group_judge(g);
	for (unsigned i = 0; i < n; i++)
		nd_group_apply(g, runs[i].d.report.findings, runs[i].d.report.n_findings);
	doc = nd_group_json(g);
	free(g);
	return doc;
}

/* reports: room for n, shallow views of the ports' reports. */
static int render_all(const struct diagnose_opts *o, struct port_run *runs,
		      struct nd_report *reports, unsigned n, const cJSON *together, int traffic_rc)
{
	int rc = 0, r;

	for (unsigned i = 0; i < n; i++) {
		reports[i] = runs[i].d.report;
		int port_rc = nd_report_exit_code(&reports[i]);

		reports[i].redact = o->redact;
		reports[i].verbose = o->verbose;
		reports[i].color = o->format == ND_FORMAT_TEXT && diagnose_want_color(o->color);
		if (port_rc > rc)
			rc = port_rc;
	}
	r = nd_render_ports(reports, n, together, o->format, stdout);
	if (r < 0) {
		nd_err("cannot render the report: %s", strerror(-r));
		return ND_EXIT_ENV;
	}
	return traffic_rc ? traffic_rc : rc;
}

int diagnose_ports(struct diagnose_opts *o)
{
	struct port_run *runs = calloc(ND_GROUP_MAX_PORTS, sizeof(*runs));
	struct nd_report *reports = calloc(ND_GROUP_MAX_PORTS, sizeof(*reports));
	unsigned n = 0, built = 0;
	int rc = runs && reports ? 0 : ND_EXIT_ENV, traffic_rc = 0;
	cJSON *together = NULL;

	if (!rc)
		rc = parse_ports(o, runs, &n);
	if (!rc)
		rc = diagnose_setup_auth(o);
	if (!rc)
		rc = nd_cmd_open_source(NULL, &o->src);
	for (unsigned i = 0; !rc && i < n; i++) {
		runs[i].o.auth = o->auth;
		runs[i].o.src = o->src;
		/* each peer's route through its own port, before any traffic */
		rc = diagnose_check_route(&runs[i].o);
	}
	if (!rc)
		rc = run_alone(runs, n, &built, &traffic_rc);
	if (!rc) {
		together = run_together(o, runs, n, &traffic_rc);
		rc = render_all(o, runs, reports, n, together, traffic_rc);
	}
	cJSON_Delete(together);
	for (unsigned i = 0; runs && i < built; i++)
		nd_diagnosis_free(&runs[i].d);
	free(runs);
	free(reports);
	nd_source_close(o->src);
	nd_auth_client_clear(&o->auth);
	return rc;
}

/*
 * cloud_ena_allowance.c - an AWS instance hit one of its network
 * allowances: the ENA driver's *_allowance_exceeded counters (ethtool -S)
 * count the packets the Nitro card queued or dropped because the
 * instance's aggregate bandwidth in or out, its packets per second, its
 * connection-tracking table or its rate to link-local services
 * (169.254.169.254, DNS, NTP) went over what the instance type allows
 * (AWS EC2 User Guide, "Monitor network performance for ENA settings on
 * your EC2 instance"; the counters exist since ENA driver 2.2.10).  That
 * is shaping by the platform: no guest setting lifts it.  Judged by what
 * grew in the observation window; since-boot totals are history.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "counter_window.h"

static const struct {
	const char *counter;
	const char *what;		/* for the title */
	const char *fix;		/* a comment */
} allowances[] = {
	{ "bw_in_allowance_exceeded", "inbound bandwidth",
	  "# inbound bandwidth: a larger or network-optimized instance type, or spread the "
	  "traffic over more instances" },
	{ "bw_out_allowance_exceeded", "outbound bandwidth",
	  "# outbound bandwidth: a larger or network-optimized instance type; a single flow "
	  "outside a placement group is limited further (5 Gbit/s)" },
	{ "pps_allowance_exceeded", "packets per second",
	  "# packets per second: larger packets (MTU 9001 inside the VPC) or a larger "
	  "instance type" },
	{ "conntrack_allowance_exceeded", "connection tracking",
	  "# connection tracking: fewer tracked connections (security group rules open to "
	  "all traffic both ways are untracked) or a larger instance type" },
	{ "linklocal_allowance_exceeded", "link-local services",
	  "# link-local (DNS, NTP, instance metadata: 1024 packets/s per ENI): cache DNS in "
	  "the instance" },
};
#define N_ALLOWANCES (sizeof(allowances) / sizeof(allowances[0]))

static bool has_counters(const struct nd_facts *facts)
{
	uint64_t value;

	for (size_t i = 0; i < N_ALLOWANCES; i++)
		if (nd_nicstat_value(&facts->nicstats, allowances[i].counter, 0, &value))
			return true;
	return false;
}

/* Each counter's growth in the window into deltas (and evidence); the
 * index of the one that grew most, -1 when none grew or there is none. */
static int window_growth(const struct nd_facts *facts, cJSON *win, uint64_t *deltas)
{
	const struct nd_counter_window *w = &facts->window;
	cJSON *grew = cJSON_AddObjectToObject(win, "exceeded");
	cJSON *rate = cJSON_AddObjectToObject(win, "rate_per_sec");
	int worst = -1;

	for (size_t i = 0; i < N_ALLOWANCES; i++) {
		uint64_t before, after;

		deltas[i] = 0;
		if (!nd_nicstat_value(&w->before.nicstats, allowances[i].counter, 0, &before) ||
		    !nd_nicstat_value(&w->after.nicstats, allowances[i].counter, 0, &after))
			continue;
		deltas[i] = nd_counter_delta(before, after);
		cJSON_AddNumberToObject(grew, allowances[i].counter, (double)deltas[i]);
		cJSON_AddNumberToObject(rate, allowances[i].counter,
					round(nd_window_rate(w, deltas[i]) * 10) / 10);
		if (deltas[i] && (worst < 0 || deltas[i] > deltas[worst]))
			worst = (int)i;
	}
	return worst;
}

static void judge_window(const struct nd_facts *facts, struct nd_finding *f,
			 const uint64_t *deltas, int worst)
{
	const struct nd_counter_window *w = &facts->window;

	nd_finding_set(f, deltas[worst] >= ND_WINDOW_MIN_COUNT ? ND_SEV_WARNING : ND_SEV_INFO,
		       "the instance's %s allowance was exceeded %" PRIu64 " times during %s "
		       "(%.1f/s, %s): AWS shapes the traffic, not the guest", allowances[worst].what,
		       deltas[worst], w->label, nd_window_rate(w, deltas[worst]),
		       allowances[worst].counter);
	if (f->severity < ND_SEV_WARNING)
		return;
	for (size_t i = 0; i < N_ALLOWANCES; i++)
		if (deltas[i])
			nd_finding_fix(f, "cloud_allowance", "%s", allowances[i].fix);
	nd_finding_fix(f, "cloud_allowance", "ethtool -S %s | grep allowance_exceeded",
		       facts->ifname);
}

void nd_check_cloud_ena_allowance(const struct nd_facts *facts, struct nd_finding *f)
{
	cJSON *totals, *win;
	uint64_t deltas[N_ALLOWANCES], total, worst_total = 0;
	const char *worst_name = NULL;
	char none[96];
	int worst;

	if (!facts->nicstats.st.known) {
		if (facts->drvinfo.st.known && !strcmp(facts->drvinfo.driver, "ena"))
			return nd_finding_unknown(f, "NIC counters (ethtool -S)",
						  facts->nicstats.st.reason);
		nd_finding_not_applicable(f, "not an AWS ENA device");
		return;
	}
	if (!has_counters(facts)) {
		if (facts->drvinfo.st.known && !strcmp(facts->drvinfo.driver, "ena"))
			return nd_finding_unknown(f, "allowance counters", "this ENA driver has no "
						  "*_allowance_exceeded counters (before 2.2.10)");
		nd_finding_not_applicable(f, "not an AWS ENA device");
		return;
	}
	totals = cJSON_AddObjectToObject(f->evidence, "since_boot");
	for (size_t i = 0; i < N_ALLOWANCES; i++)
		if (nd_nicstat_value(&facts->nicstats, allowances[i].counter, 0, &total)) {
			cJSON_AddNumberToObject(totals, allowances[i].counter, (double)total);
			if (total > worst_total) {
				worst_total = total;
				worst_name = allowances[i].counter;
			}
		}
	win = nd_window_evidence(facts, f->evidence);
	if (win && (worst = window_growth(facts, win, deltas)) >= 0)
		return judge_window(facts, f, deltas, worst);
	if (!worst_name) {
		nd_finding_set(f, ND_SEV_OK, "no network allowance of the instance exceeded");
		return;
	}
	nd_finding_set(f, ND_SEV_INFO, "history: %s %" PRIu64 " since the driver loaded, %s",
		       worst_name, worst_total, nd_window_none_text(facts, none, sizeof(none)));
}

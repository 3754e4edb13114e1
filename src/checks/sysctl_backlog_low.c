/*
 * sysctl_backlog_low.c - sysctl.backlog_low: CPUs' input backlogs overflow
 * (softnet_stat dropped > 0) while net.core.netdev_max_backlog is still at
 * the kernel's small default of 1000 packets per CPU.  At 10GbE with
 * 1500-byte frames 1000 packets are 1.2 ms of traffic: one scheduling delay
 * of the softirq overflows it.  A warning needs drops in the observation
 * window; drops only since boot are history (info).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "counter_window.h"
#include "softnet_tally.h"
#include "checks.h"

static int parse_backlog(const char *text, uint64_t *ret)
{
	char *end;

	if (*text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	*ret = strtoull(text, &end, 10);
	return errno || (*end && *end != '\n' && *end != ' ') ? -EINVAL : 0;
}

void nd_check_sysctl_backlog_low(const struct nd_facts *facts, struct nd_finding *f)
{
	const struct nd_sysctl *ctl = &facts->sysctl.netdev_max_backlog;
	struct nd_softnet_view v;
	uint64_t backlog;

	if (!ctl->known)
		return nd_finding_unknown(f, "net.core.netdev_max_backlog", ctl->reason);
	if (parse_backlog(ctl->text, &backlog) < 0)
		return nd_finding_unknown(f, "net.core.netdev_max_backlog", "not a number");
	if (!facts->softnet.st.known)
		return nd_finding_unknown(f, "softnet_stat", facts->softnet.st.reason);
	cJSON_AddNumberToObject(f->evidence, "netdev_max_backlog", (double)backlog);
	cJSON_AddNumberToObject(f->evidence, "kernel_default", ND_BACKLOG_DEFAULT);
	/* min_count 1: every CPU with a drop is a CPU whose backlog overflowed. */
	nd_softnet_view(facts, offsetof(struct nd_softnet_cpu, dropped), "dropped", 1, 1,
			f->evidence, &v);
	if (!v.boot.total) {
		nd_finding_set(f, ND_SEV_OK, "no backlog drops with netdev_max_backlog %" PRIu64,
			       backlog);
		return;
	}
	if (backlog > ND_BACKLOG_DEFAULT) {
		nd_finding_set(f, ND_SEV_OK, "netdev_max_backlog already raised to %" PRIu64
			       "; its %" PRIu64 " drops since boot are judged by softnet.dropped",
			       backlog, v.boot.total);
		return;
	}
	cJSON_AddNumberToObject(f->evidence, "warn_min_count", ND_WINDOW_MIN_COUNT);
	/* Drops too few in the window, or only in the past: softnet.dropped
	 * names them (counts, uptime, window); this finding is the setting
	 * and refers there, so one drop history is not reported twice. */
	if ((v.window && v.win.total && v.win.total < ND_WINDOW_MIN_COUNT) ||
	    !v.window || !v.win.total) {
		nd_finding_set(f, ND_SEV_INFO, "netdev_max_backlog at the default %" PRIu64
			       "; its drops: see softnet.dropped", backlog);
		return;
	}
	nd_finding_set(f, ND_SEV_WARNING,
		       "%.1f drops/s on %u CPU%s during %s with netdev_max_backlog at %" PRIu64
		       " (kernel default %d); %" PRIu64 " since boot", v.rate_per_sec,
		       v.win.cpus_counted, v.win.cpus_counted == 1 ? "" : "s", facts->window.label,
		       backlog, ND_BACKLOG_DEFAULT, v.boot.total);
	nd_finding_fix(f, "sysctl", "sysctl -w net.core.netdev_max_backlog=%" PRIu64,
		       nd_softnet_backlog_suggest(facts, backlog));
}

/*
 * counters.c - a second read of the cumulative counters (softnet_stat,
 * the link's rtnetlink stats, ethtool -S, the queue IRQs' counts in
 * /proc/interrupts) and the observation window the
 * counter checks judge: what grew between two reads is what the host does
 * now; the facts' since-boot totals are only its history.  Also the
 * uptime those totals count over.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

#define UPTIME_PATH "/proc/uptime"

void nd_probe_uptime(const struct nd_root *root, struct nd_uptime *ret)
{
	char line[128];
	double seconds;
	int r = nd_sysroot_read_line(root, UPTIME_PATH, line, sizeof(line));

	memset(ret, 0, sizeof(*ret));
	if (r < 0) {
		nd_status_set_unknown(&ret->st, "cannot read '%s': %s", UPTIME_PATH, strerror(-r));
		return;
	}
	/* "4711.32 9123.45": seconds up, then idle seconds summed over CPUs */
	if (sscanf(line, "%lf", &seconds) != 1 || !(seconds >= 0)) {
		nd_status_set_unknown(&ret->st, "cannot parse '%s': unexpected format", UPTIME_PATH);
		return;
	}
	ret->seconds = seconds;
	nd_status_set_known(&ret->st);
}

double nd_probe_clock_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void nd_counter_sample_from_facts(const struct nd_facts *facts, struct nd_counter_sample *ret)
{
	ret->link_known = facts->link.st.known && facts->link.stats_st.known;
	ret->link = facts->link.stats;
	ret->softnet = facts->softnet;
	ret->nicstats = facts->nicstats;
}

int nd_probe_counter_sample(const struct nd_root *root, const struct nd_counter_source *src,
			    struct nd_counter_sample *ret)
{
	/* The sources fill a whole facts value; only the counters are kept. */
	struct nd_facts *scratch = calloc(1, sizeof(*scratch));
	const char *ifname = src->ifname;

	if (!scratch)
		return -ENOMEM;
	nd_strlcpy(scratch->ifname, ifname, sizeof(scratch->ifname));
	nd_probe_rtnl(root, ifname, scratch);
	nd_probe_drvinfo(root, ifname, scratch);
	nd_probe_softnet(root, ifname, scratch);
	nd_counter_sample_from_facts(scratch, ret);
	nd_probe_irq_sums(root, src->queue_irqs, src->n_queue_irqs, &scratch->irqs,
			  &ret->queue_irqs);
	free(scratch);
	return 0;
}

void nd_counter_window_unknown(struct nd_counter_window *w, const char *reason)
{
	memset(w, 0, sizeof(*w));
	nd_strlcpy(w->reason, reason, sizeof(w->reason));
}

void nd_counter_window_set(struct nd_counter_window *w, const char *what, const char *label,
			   double seconds)
{
	w->known = seconds > 0;
	w->seconds = seconds;
	nd_strlcpy(w->what, what, sizeof(w->what));
	nd_strlcpy(w->label, label, sizeof(w->label));
	if (!w->known)
		nd_strlcpy(w->reason, "the window had no length", sizeof(w->reason));
}

int nd_probe_counter_window(const struct nd_root *root, const struct nd_counter_source *src,
			    double seconds,
			    struct nd_counter_window *ret)
{
	struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
	char label[64];
	double start;
	int r;

	memset(ret, 0, sizeof(*ret));
	r = nd_probe_counter_sample(root, src, &ret->before);
	start = nd_probe_clock_sec();
	while (r == 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	if (r == 0)
		r = nd_probe_counter_sample(root, src, &ret->after);
	if (r < 0) {
		nd_counter_window_unknown(ret, "the counters could not be read again");
		return r;
	}
	snprintf(label, sizeof(label), "the last %g s", seconds);
	nd_counter_window_set(ret, "sample", label, nd_probe_clock_sec() - start);
	return 0;
}

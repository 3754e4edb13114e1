/*
 * output_verbose.c - the lines iperf3's -V adds to its text output (version
 * and system, time, cookie, MSS, "Starting Test", CPU utilization and the
 * congestion algorithms), in its words and order, so scripts that read
 * iperf3 -V text read ours.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>

#include "nicdoctor/common.h"
#include "engine_int.h"

/* Before "Connecting to host": who we are and when. */
void nd_out_verbose_intro(FILE *f, const struct nd_test *t)
{
	struct utsname u;

	(void)t;
	fprintf(f, "nicdoctor %s (iperf 3.21 compatible)\n", ND_VERSION);
	if (uname(&u) == 0)
		fprintf(f, "%s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version,
			u.machine);
}

/* Once the control connection is up: its MSS and the time. */
void nd_out_verbose_control(FILE *f, const struct nd_test *t)
{
	time_t now = time(NULL);
	struct tm tm;
	char when[64];
	int mss = 0;
	socklen_t len = sizeof(mss);

	if (getsockopt(t->ctrl_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) == 0)
		fprintf(f, "Control connection MSS %d\n", mss);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	fprintf(f, "Time: %s\n", when);
}

/* After the parameters went out: the cookie and the control MSS. */
void nd_out_verbose_connected(FILE *f, const struct nd_test *t)
{
	int mss = 0;
	socklen_t len = sizeof(mss);

	fprintf(f, "      Cookie: %.*s\n", ND_COOKIE_LEN - 1, t->cookie);
	if (t->p.udp) {
		fprintf(f, "      Target Bitrate: %llu\n", (unsigned long long)(t->p.rate_set ?
			t->p.rate_bps : ND_ENGINE_UDP_RATE_DEFAULT));
		return;
	}
	if (t->p.mss_bytes)
		fprintf(f, "      TCP MSS: %d\n", t->p.mss_bytes);
	else if (t->ctrl_fd >= 0 &&
		 getsockopt(t->ctrl_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) == 0)
		fprintf(f, "      TCP MSS: %d (default)\n", mss);
}

void nd_out_verbose_start(FILE *f, const struct nd_test *t)
{
	char what[64];

	if (t->p.bytes_total)
		snprintf(what, sizeof(what), "%llu bytes to send",
			 (unsigned long long)t->p.bytes_total);
	else if (t->p.blocks_total)
		snprintf(what, sizeof(what), "%llu blocks to send",
			 (unsigned long long)t->p.blocks_total);
	else
		snprintf(what, sizeof(what), "%.0f second test", t->p.duration_sec);
	fprintf(f, "Starting Test: protocol: %s, %d streams, %u byte blocks, omitting %d seconds, "
		"%s, tos %d\n", t->p.udp ? "UDP" : "TCP", t->p.streams, t->len_bytes,
		t->p.omit_sec, what, t->p.tos);
}

static void cpu_line(FILE *f, const struct nd_test *t, const struct nd_engine_result *r,
		     bool local_sends)
{
	fprintf(f, "CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), "
		"remote/%s %.1f%% (%.1f%%u/%.1f%%s)\n", local_sends ? "sender" : "receiver",
		r->cpu_local_total_pct, r->cpu_local_user_pct, r->cpu_local_system_pct,
		local_sends ? "receiver" : "sender", t->remote_cpu_total, t->remote_cpu_user,
		t->remote_cpu_system);
}

/* After the summary: CPU utilization, then the TCP congestion algorithms. */
void nd_out_verbose_end(FILE *f, const struct nd_test *t)
{
	struct nd_engine_result *r = calloc(1, sizeof(*r));
	bool fwd_local = !t->p.reverse || t->p.bidir;

	if (!r)
		return;
	nd_test_fill_result(t, r);
	/* iperf3 prints the CPU line only on the sending side (both in bidir). */
	if (t->p.bidir) {
		cpu_line(f, t, r, true);
		cpu_line(f, t, r, false);
	} else if (t->is_server == t->p.reverse) {
		cpu_line(f, t, r, true);
	}
	free(r);
	if (t->p.udp)
		return;
	if (t->is_server)
		fwd_local = !fwd_local || t->p.bidir;
	fprintf(f, "snd_tcp_congestion %s\n", fwd_local ? t->congestion : t->remote_congestion);
	fprintf(f, "rcv_tcp_congestion %s\n", fwd_local ? t->remote_congestion : t->congestion);
}

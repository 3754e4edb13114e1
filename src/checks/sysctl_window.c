/*
 * sysctl_window.c - how much TCP window the socket-buffer sysctls allow, and
 * whether that window carries line rate at a LAN round trip.  Shared by
 * sysctl.rmem_max_low (receiver) and sysctl.wmem_max_low (sender).
 *
 * Two limits apply to a connection, and they apply to different programs:
 *
 * - Autotuned sockets (every program that does not set a buffer size, and
 *   iperf3 without -w) grow their buffer up to tcp_rmem[2] / tcp_wmem[2].
 *   The core *_max sysctls do not cap them at all.
 * - A program that calls setsockopt(SO_RCVBUF/SO_SNDBUF) (iperf3 -w, many
 *   storage and database daemons) turns autotuning off for that socket and
 *   is capped at net.core.rmem_max / wmem_max.  The kernel doubles the value
 *   it is given "to allow space for bookkeeping overhead" (socket(7)), so the
 *   buffer becomes 2 x min(request, *_max).
 *
 * A buffer is not all window.  The buffer is charged with each packet's
 * truesize (payload plus sk_buff and page overhead), so the receiver
 * advertises only part of it: before Linux 6.6 space - space >>
 * tcp_adv_win_scale, i.e. half with the default tcp_adv_win_scale = 1
 * (3/4 with the old default 2); since 6.6 space x scaling_ratio, a
 * per-connection payload/truesize ratio measured from received packets
 * (about 2/3 with 1500-byte frames), starting from a guess
 * (TCP_DEFAULT_SCALING_RATIO: 1/2 now, 1/4 in the first 6.6 releases).
 * On the sender the kernel sizes its own buffer at twice the congestion
 * window (tcp_sndbuf_expand: "2 * nr_segs * per_mss", for fast recovery),
 * so half of the send buffer is what it expects to keep in flight.  We take
 * one half on both sides: the long-standing default and today's starting
 * guess, a little below what a running connection measures.  So:
 *   autotuned window    = tcp_*mem[2] / 2
 *   SO_*BUF window      = 2 x *_max / 2 = *_max
 * The facts carry no tcp_adv_win_scale and no kernel-measured ratio, so the
 * half is a named constant here rather than a fact.
 *
 * Debian 12 defaults (rmem_max = wmem_max = 212992, tcp_rmem max 6291456,
 * tcp_wmem max 4194304) on 10GbE at 0.5 ms: autotuned windows of 3 MiB and
 * 2 MiB allow 50331 and 33554 Mbit/s, far above the 9415 Mbit/s goodput.
 * Only iperf3 -w style programs are held to 212992 bytes, 3408 Mbit/s:
 * that is reported as info, never as a warning, because the default
 * (autotuned) path is not affected.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/ceiling.h"
#include "nicdoctor/parse.h"
#include "sysctl_window.h"
#include "virt_common.h"

/* The share of a socket buffer that becomes window: see the header comment
 * (tcp_adv_win_scale = 1, scaling_ratio, tcp_sndbuf_expand). */
#define WINDOW_SHARE_OF_BUFFER 0.5
/* A recommended buffer is 2 x bandwidth x RTT (twice the bandwidth-delay
 * product, undoing the half above), rounded up to whole MiB as tuning
 * guides write it. */
#define RECOMMEND_BDP_FACTOR 2.0
#define RECOMMEND_ROUND_BYTES (1024.0 * 1024.0)

struct window_values {
	uint64_t core_max;		/* net.core.rmem_max */
	uint64_t tcp[3];		/* tcp_rmem: min default max */
	double wire_mbps;
	double autotune_window_bytes, autotune_mbps;
	double sockopt_window_bytes, sockopt_mbps;
};

static const struct nd_sysctl *sysctl_at(const struct nd_facts *facts, size_t offset)
{
	return (const struct nd_sysctl *)((const char *)&facts->sysctl + offset);
}

static const char *speed_reason(const struct nd_facts *facts)
{
	if (nd_nic_speed_is_label(facts, NULL, 0))
		return "an emulated NIC's speed is a label (see virt.emulated_nic): no wire "
		       "goodput to compare the window with";
	if (!facts->linkmodes.st.known)
		return facts->linkmodes.st.reason;
	if (!facts->link.st.known)
		return facts->link.st.reason;
	/* the header says "up": the link is not the unknown, its speed is */
	if (facts->link.carrier && strcmp(facts->link.operstate, "down"))
		return "the driver reports no link speed (virtual NICs often do not): no wire "
		       "goodput to compare the window with";
	return "no speed negotiated: the link is down";
}

/* Read the two sysctls and the wire ceiling; on failure mark f unknown. */
static int read_inputs(const struct nd_facts *facts, const struct nd_window_side *side,
		       struct nd_finding *f, struct window_values *v)
{
	const struct nd_sysctl *core = sysctl_at(facts, side->core_offset);
	const struct nd_sysctl *tcp = sysctl_at(facts, side->tcp_offset);
	char reason[ND_REASON_LEN];

	if (!core->known) {
		nd_finding_unknown(f, side->core_sysctl, core->reason);
		return -ENODATA;
	}
	if (!tcp->known) {
		nd_finding_unknown(f, side->tcp_sysctl, tcp->reason);
		return -ENODATA;
	}
	if (nd_parse_numbers(core->text, &v->core_max, 1) < 0) {
		snprintf(reason, sizeof(reason), "cannot parse '%s'", core->text);
		nd_finding_unknown(f, side->core_sysctl, reason);
		return -EINVAL;
	}
	if (nd_parse_numbers(tcp->text, v->tcp, 3) < 0) {
		snprintf(reason, sizeof(reason), "cannot parse '%s': want \"min default max\"",
			 tcp->text);
		nd_finding_unknown(f, side->tcp_sysctl, reason);
		return -EINVAL;
	}
	v->wire_mbps = nd_facts_wire_ceiling_mbps(facts);
	if (v->wire_mbps < 0) {
		nd_finding_unknown(f, "link speed", speed_reason(facts));
		return -ENODATA;
	}
	return 0;
}

static void add_evidence(cJSON *ev, const struct nd_window_side *side,
			 const struct nd_facts *facts, const struct window_values *v)
{
	cJSON_AddNumberToObject(ev, side->core_key, (double)v->core_max);
	cJSON_AddStringToObject(ev, side->tcp_key, sysctl_at(facts, side->tcp_offset)->text);
	cJSON_AddNumberToObject(ev, "autotune_window_bytes", v->autotune_window_bytes);
	cJSON_AddNumberToObject(ev, "autotune_ceiling_mbps", round(v->autotune_mbps));
	cJSON_AddNumberToObject(ev, "sockopt_window_bytes", v->sockopt_window_bytes);
	cJSON_AddNumberToObject(ev, "sockopt_ceiling_mbps", round(v->sockopt_mbps));
	cJSON_AddStringToObject(ev, "window_rule",
				"autotuned: tcp_*mem[2] / 2; SO_*BUF set by the program: "
				"*_max (doubled by the kernel, then half is window)");
	cJSON_AddNumberToObject(ev, "rtt_assumed_usec", ND_WINDOW_LAN_RTT_USEC);
	cJSON_AddStringToObject(ev, "rtt_source", "assumed LAN round trip: none measured "
				"without traffic; the ceiling is per TCP connection");
	cJSON_AddNumberToObject(ev, "wire_ceiling_mbps", round(v->wire_mbps));
	/* The longest round trip at which the autotuned window still fills the wire. */
	cJSON_AddNumberToObject(ev, "line_rate_up_to_rtt_usec",
				round(v->autotune_window_bytes * 8.0 / v->wire_mbps));
}

static uint64_t recommended_bytes(const struct nd_facts *facts)
{
	/* Mbit/s x usec = bits. */
	double bdp_bytes = (double)facts->linkmodes.speed_mbps * ND_WINDOW_LAN_RTT_USEC / 8.0;

	return (uint64_t)(ceil(RECOMMEND_BDP_FACTOR * bdp_bytes / RECOMMEND_ROUND_BYTES) *
			  RECOMMEND_ROUND_BYTES);
}

static void add_fix(struct nd_finding *f, const struct nd_window_side *side,
		    const struct window_values *v, uint64_t want, bool tcp_too)
{
	cJSON_AddNumberToObject(f->evidence, "recommended_bytes", (double)want);
	if (v->core_max < want)
		nd_finding_fix(f, "sysctl", "sysctl -w %s=%" PRIu64, side->core_sysctl, want);
	if (tcp_too && v->tcp[2] < want)
		nd_finding_fix(f, "sysctl", "sysctl -w %s=\"%" PRIu64 " %" PRIu64 " %" PRIu64 "\"",
			       side->tcp_sysctl, v->tcp[0], v->tcp[1], want);
}

void nd_check_window(const struct nd_facts *facts, struct nd_finding *f,
		     const struct nd_window_side *side)
{
	struct window_values v;

	memset(&v, 0, sizeof(v));
	if (read_inputs(facts, side, f, &v) < 0)
		return;
	v.autotune_window_bytes = (double)v.tcp[2] * WINDOW_SHARE_OF_BUFFER;
	/* A zero buffer gives no window: ceiling_window says -1, we say 0. */
	v.autotune_mbps = fmax(0, nd_ceiling_window_mbps(v.autotune_window_bytes,
							 ND_WINDOW_LAN_RTT_USEC));
	v.sockopt_window_bytes = (double)v.core_max;
	v.sockopt_mbps = fmax(0, nd_ceiling_window_mbps(v.sockopt_window_bytes,
							ND_WINDOW_LAN_RTT_USEC));
	add_evidence(f->evidence, side, facts, &v);
	nd_finding_ceiling(f, "window", v.autotune_mbps);
	if (v.autotune_mbps < v.wire_mbps) {
		nd_finding_set(f, ND_SEV_WARNING,
			       "%s window %.0f bytes (%s max / 2) caps a TCP connection at %.0f "
			       "Mbit/s even at a %.1f ms LAN RTT, below the %.0f Mbit/s wire goodput",
			       side->role, v.autotune_window_bytes, side->tcp_sysctl,
			       f->ceiling_mbps, ND_WINDOW_LAN_RTT_USEC / 1000.0, v.wire_mbps);
		add_fix(f, side, &v, recommended_bytes(facts), true);
		return;
	}
	if (v.sockopt_mbps < v.wire_mbps) {
		nd_finding_set(f, ND_SEV_INFO,
			       "autotuned %s window reaches line rate; programs setting %s "
			       "(iperf3 -w) are capped by %s = %" PRIu64 " at %.0f Mbit/s at %.1f ms",
			       side->role, side->sockopt, side->core_sysctl, v.core_max,
			       round(v.sockopt_mbps), ND_WINDOW_LAN_RTT_USEC / 1000.0);
		add_fix(f, side, &v, recommended_bytes(facts), false);
		return;
	}
	nd_finding_set(f, ND_SEV_OK,
		       "%s window allows %.0f Mbit/s per connection at a %.1f ms LAN RTT, "
		       "above the %.0f Mbit/s wire goodput", side->role, f->ceiling_mbps,
		       ND_WINDOW_LAN_RTT_USEC / 1000.0, v.wire_mbps);
}

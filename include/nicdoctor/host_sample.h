/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host_sample.h - what the host does while something runs: per-CPU busy
 * and softirq shares from /proc/stat and an interface's statistics/
 * counters, read through the sysroot seam (src/probe/host_sample.c).  The
 * engine takes them around a test, watch every interval, diagnose around
 * its runs: one sampler, below all three.
 */
#ifndef NICDOCTOR_HOST_SAMPLE_H
#define NICDOCTOR_HOST_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

#define ND_ENGINE_MAX_CPUS       256		/* /proc/stat lines kept */

struct nd_engine_cpu_share {
	int cpu;
	double busy_pct;		/* everything but idle and iowait */
	double softirq_pct;
};

struct nd_engine_if_delta {
	bool valid;
	char ifname[16];
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets;
	uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
};

struct nd_cpu_snap {
	int count;
	struct { int cpu; uint64_t total, idle, softirq; } c[ND_ENGINE_MAX_CPUS];
};
int nd_parse_proc_stat(const char *text, struct nd_cpu_snap *snap);
int nd_sample_cpus(const struct nd_root *root, struct nd_cpu_snap *snap);
int nd_cpu_shares(const struct nd_cpu_snap *a, const struct nd_cpu_snap *b,
		  struct nd_engine_cpu_share *out, int out_max);
struct nd_if_snap { bool valid; uint64_t v[8]; };
int nd_sample_iface(const struct nd_root *root, const char *ifname, struct nd_if_snap *snap);
void nd_iface_delta(const char *ifname, const struct nd_if_snap *a, const struct nd_if_snap *b,
		    struct nd_engine_if_delta *out);

#endif

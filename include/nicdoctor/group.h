/*
 * group.h - `diagnose IF1,IF2 --peer HOST1,HOST2` (issue 15): the ports
 * of one card tested alone and together, and pcie.slot_too_slow judged by
 * the together run against the shared slot's ceiling.
 *
 * The group is plain data: each port's own ceiling and what it moved
 * alone (its own plan) and together (one run of every port at once, one
 * clock), and the slot the ports share.  The judgment (experiment/group.c)
 * is pure and unit tested; the together run (experiment/together.c) goes
 * through the multi-target engine.
 */
#ifndef NICDOCTOR_GROUP_H
#define NICDOCTOR_GROUP_H

#include <signal.h>
#include <stdbool.h>
#include <cjson/cJSON.h>

#include "nicdoctor/check.h"
#include "nicdoctor/experiment.h"
#include "nicdoctor/facts.h"

#define ND_GROUP_MAX_PORTS 8

struct nd_group_port {
	char ifname[ND_IFNAMSIZ];
	char host[256];
	uint16_t port;			/* 0: 5201 */
	char pci_address[16];		/* "" no PCI function */
	double link_ceiling_mbps;	/* the port's own lowest: wire or shaping; < 0 unknown */
	char link_ceiling_source[24];
	int streams;			/* of the together run, as its plan's many run */
	double alone_mbps;		/* its plan's forward many-stream run; < 0 none */
	double together_mbps;		/* its part of the together run; < 0 none */
	char error[200];		/* its together run failed: why */
};

/* The PCIe link every port goes through: the card's own (one device, its
 * functions the ports) and the bridges above it. */
struct nd_group_slot {
	bool shared;			/* every port a function of one device */
	char device[16];		/* "0000:01:00" */
	char why_not[160];		/* !shared: why not */
	double ceiling_mbps;		/* < 0 unknown */
	char link[96];			/* "x4 5GT/s slot", "x2 2.5GT/s link (trained down ...)" */
	double scale;			/* the test seam's factor (1: none) */
};

struct nd_group {
	unsigned n_ports;
	struct nd_group_port ports[ND_GROUP_MAX_PORTS];
	struct nd_group_slot slot;
	bool together_done;		/* every port's part measured */
	double together_sec;
	char error[200];		/* the together run's trouble, "" none */
	enum nd_verdict verdict;	/* of pcie.slot_too_slow for the group */
	char reason[400];
};

/* --- group.c (pure) --- */

/* The slot the ports share, from each port's PCI facts; scale multiplies
 * the ceiling (ND_TEST_PCIE_SCALE, 1 otherwise). */
void nd_group_slot_of(const struct nd_facts *const *facts, unsigned n, double scale,
		      struct nd_group_slot *ret);

/* A port's own ceiling: the lowest "wire" or "shaping" one of its
 * findings (the link it has alone; pcie is the shared slot's). */
void nd_group_port_ceiling(const struct nd_finding *findings, unsigned n,
			   struct nd_group_port *port);

/* The judgment: g->verdict and g->reason, the ceiling math against the
 * together run. */
void nd_group_judge(struct nd_group *g);

/* g's verdict onto one port's pcie.slot_too_slow finding, when it is a
 * suspect: the per-port plan cannot see a slot the ports share. */
void nd_group_apply(const struct nd_group *g, struct nd_finding *findings, unsigned n);

/* The report's "together" object. */
cJSON *nd_group_json(const struct nd_group *g);

/* --- together.c (engine I/O) --- */

/* Every port's forward many-stream test at once, one clock, bound to its
 * interface: fills each port's together_mbps, g->together_done.  0 or the
 * first failure's negative errno (g->error says why). */
int nd_group_run_together(struct nd_group *g, double duration_sec,
			  const struct nd_auth_client *auth);

#endif

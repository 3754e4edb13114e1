/*
 * checks_host_fixture.h - hand-made facts for the host-side check tests
 * (sysctls, softnet, NIC counters, shaping, governor, iperf3), and the
 * helpers to run one check and read its evidence.  The helpers are static
 * inline so that a test file may leave some unused.
 */
#ifndef NICDOCTOR_TEST_CHECKS_HOST_FIXTURE_H
#define NICDOCTOR_TEST_CHECKS_HOST_FIXTURE_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/check.h"
#include "nicdoctor/common.h"


static struct nd_finding finding;

static const char *const host_checks[] = {
	"sysctl.rmem_max_low", "sysctl.wmem_max_low", "sysctl.backlog_low", "softnet.dropped",
	"softnet.squeezed", "nic.rx_dropped", "qdisc.rate_limit", "cpu.governor_powersave",
	"tool.iperf3_single_threaded",
};

static inline void set_sysctl(struct nd_sysctl *ctl, const char *text)
{
	ctl->known = true;
	nd_strlcpy(ctl->text, text, sizeof(ctl->text));
	ctl->reason[0] = '\0';
}

static inline void unset_sysctl(struct nd_sysctl *ctl, const char *reason)
{
	ctl->known = false;
	ctl->text[0] = '\0';
	nd_strlcpy(ctl->reason, reason, sizeof(ctl->reason));
}

/* Debian 12's defaults (linux 6.1, from /proc/sys on a fresh install). */
static inline void set_debian_sysctls(struct nd_facts *facts)
{
	set_sysctl(&facts->sysctl.rmem_max, "212992");
	set_sysctl(&facts->sysctl.wmem_max, "212992");
	set_sysctl(&facts->sysctl.tcp_rmem, "4096 131072 6291456");
	set_sysctl(&facts->sysctl.tcp_wmem, "4096 16384 4194304");
	set_sysctl(&facts->sysctl.netdev_max_backlog, "1000");
	set_sysctl(&facts->sysctl.netdev_budget, "300");
}

static inline void add_softnet(struct nd_facts *facts, unsigned cpu, uint64_t processed,
			uint64_t dropped, uint64_t time_squeeze)
{
	struct nd_softnet_cpu *row = &facts->softnet.cpu[facts->softnet.count++];

	nd_status_set_known(&facts->softnet.st);
	row->cpu = cpu;
	row->processed = processed;
	row->dropped = dropped;
	row->time_squeeze = time_squeeze;
	row->columns = 13;
}

/* A 10GbE port at MTU 1500 on a 4-CPU host, Debian sysctls, quiet softnet,
 * performance governor, no shaper, iperf3 3.16. */
static inline struct nd_facts *facts_new(void)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	assert_non_null(facts);
	nd_strlcpy(facts->ifname, "enp9s0f0", sizeof(facts->ifname));
	nd_status_set_known(&facts->cpus.st);
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		nd_cpuset_add(&facts->cpus.online, cpu);
		nd_strlcpy(facts->cpus.governor[cpu], "performance", sizeof(facts->cpus.governor[0]));
		add_softnet(facts, cpu, 5000000, 0, 0);
	}
	facts->cpus.n_online = 4;
	facts->cpus.governor_known = true;
	nd_status_set_known(&facts->link.st);
	nd_status_set_known(&facts->link.stats_st);
	facts->link.mtu = 1500;
	facts->link.stats.rx_packets = 1000000000;
	nd_strlcpy(facts->link.qdisc, "mq", sizeof(facts->link.qdisc));
	nd_status_set_known(&facts->linkmodes.st);
	nd_status_set_known(&facts->linkmodes.modes_st);
	facts->linkmodes.speed_mbps = 10000;
	nd_status_set_known(&facts->qdisc.st);
	nd_status_set_known(&facts->nicstats.st);
	nd_status_set_known(&facts->rings.st);
	facts->rings.rx = 512;
	facts->rings.rx_max = 4096;
	set_debian_sysctls(facts);
	nd_status_set_known(&facts->tools.iperf3);
	nd_strlcpy(facts->tools.iperf3_version, "3.16", sizeof(facts->tools.iperf3_version));
	facts->tools.iperf3_major = 3;
	facts->tools.iperf3_minor = 16;
	return facts;
}

static inline void run(const char *id, const struct nd_facts *facts)
{
	const struct nd_check *check = nd_check_find(id);

	assert_non_null(check);
	nd_finding_free(&finding);
	nd_check_run(check, facts, &finding);
}

static inline const cJSON *evidence_item(const char *path)
{
	char key[128], *dot;
	const cJSON *item = finding.evidence;

	/* "a.b" looks up b inside object a. */
	nd_strlcpy(key, path, sizeof(key));
	dot = strchr(key, '.');
	if (dot) {
		*dot = '\0';
		item = cJSON_GetObjectItemCaseSensitive(item, key);
		return cJSON_GetObjectItemCaseSensitive(item, dot + 1);
	}
	return cJSON_GetObjectItemCaseSensitive(item, key);
}

static inline const char *evidence_string(const char *path)
{
	const cJSON *item = evidence_item(path);

	return cJSON_IsString(item) ? item->valuestring : "";
}

static inline double evidence_number(const char *path)
{
	const cJSON *item = evidence_item(path);

	assert_true(cJSON_IsNumber(item));
	return item->valuedouble;
}

static inline void assert_fix(unsigned index, const char *command)
{
	assert_true(index < finding.fix.n_commands);
	assert_string_equal(finding.fix.commands[index], command);
}


static inline int teardown(void **state)
{
	(void)state;
	nd_finding_free(&finding);
	return 0;
}

#endif

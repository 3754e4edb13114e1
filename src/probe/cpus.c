/*
 * cpus.c - the "cpus" probe source: online CPUs, each CPU's cpufreq
 * governor, and the CPUs of each NUMA node.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

#define CPU_ONLINE_PATH "/sys/devices/system/cpu/online"
#define MAX_NODES (sizeof(((struct nd_cpus *)0)->node_cpus) / sizeof(struct nd_cpuset))

void nd_probe_cpu_governors(const struct nd_root *root, struct nd_cpus *cpus)
{
	cpus->governor_known = false;
	for (unsigned cpu = 0; cpu < ND_MAX_CPUS; cpu++) {
		char path[96];

		cpus->governor[cpu][0] = '\0';
		if (!nd_cpuset_has(&cpus->online, cpu))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_governor", cpu);
		if (nd_sysroot_read_line(root, path, cpus->governor[cpu],
					 sizeof(cpus->governor[cpu])) == 0)
			cpus->governor_known = true;
		else
			cpus->governor[cpu][0] = '\0';
		/* One driver serves every CPU; what "powersave" means depends on it. */
		if (!cpus->scaling_driver[0]) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_driver", cpu);
			if (nd_sysroot_read_line(root, path, cpus->scaling_driver,
						 sizeof(cpus->scaling_driver)) < 0)
				cpus->scaling_driver[0] = '\0';
		}
	}
}

static void probe_nodes(const struct nd_root *root, struct nd_cpus *cpus)
{
	unsigned nodes[MAX_NODES];
	int found = nd_probe_list_numbered(root, "/sys/devices/system/node", "node", nodes,
					   MAX_NODES);

	cpus->n_nodes = 0;
	for (int i = 0; i < found; i++) {
		char path[96], text[4096];

		if (nodes[i] >= MAX_NODES)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", nodes[i]);
		if (nd_sysroot_read_line(root, path, text, sizeof(text)) < 0 ||
		    nd_cpuset_parse_list(text, &cpus->node_cpus[nodes[i]]) < 0)
			continue;
		if (nodes[i] + 1 > cpus->n_nodes)
			cpus->n_nodes = nodes[i] + 1;
	}
}

void nd_probe_cpus(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_cpus *cpus = &facts->cpus;
	char text[4096];
	int r;

	(void)ifname;
	memset(cpus, 0, sizeof(*cpus));
	r = nd_sysroot_read_line(root, CPU_ONLINE_PATH, text, sizeof(text));
	if (r < 0) {
		nd_probe_read_reason(cpus->st.reason, sizeof(cpus->st.reason), CPU_ONLINE_PATH, r);
		return;
	}
	if (nd_cpuset_parse_list(text, &cpus->online) < 0) {
		nd_status_set_unknown(&cpus->st, "cannot parse '%s': '%s'", CPU_ONLINE_PATH, text);
		return;
	}
	cpus->n_online = nd_cpuset_count(&cpus->online);
	nd_probe_cpu_governors(root, cpus);
	probe_nodes(root, cpus);
	nd_status_set_known(&cpus->st);
}

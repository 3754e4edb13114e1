/*
 * cpu_governor_powersave.c - cpu.governor_powersave: a power-saving cpufreq
 * governor on the CPUs that take the NIC's interrupts (all online CPUs when
 * the interrupts are unknown).  Receive processing at 10G and up is bound
 * by one core's speed; acpi-cpufreq's "powersave" pins the lowest
 * frequency, "conservative" ramps up slowly after each burst.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* Governors that hold a CPU below its speed under load. */
static const char *const slow_governors[] = { "powersave", "conservative" };

/*
 * intel_pstate and amd-pstate-epp in active mode implement "powersave"
 * with hardware P-states (HWP/CPPC): the CPU still clocks up under load,
 * so it is the default on most servers and no cause to alarm.  Their
 * passive modes ("intel_cpufreq", "amd-pstate") behave like acpi-cpufreq.
 */
static bool hwp_driver(const char *driver)
{
	return !strcmp(driver, "intel_pstate") || !strcmp(driver, "amd-pstate-epp");
}

/* Index in slow_governors, -1 for a governor that follows the load. */
static int slow_index(const char *governor)
{
	for (size_t i = 0; i < sizeof(slow_governors) / sizeof(slow_governors[0]); i++)
		if (!strcmp(governor, slow_governors[i]))
			return (int)i;
	return -1;
}

/* The CPUs the NIC's interrupts are routed to, limited to online ones;
 * empty when that is not known. */
static struct nd_cpuset nic_cpus(const struct nd_facts *facts)
{
	const struct nd_irqs *irqs = &facts->irqs;
	struct nd_cpuset set;

	nd_cpuset_zero(&set);
	if (!irqs->st.known)
		return set;
	for (unsigned i = 0; i < irqs->count && i < ND_MAX_IRQS; i++) {
		const struct nd_irq *irq = &irqs->irq[i];
		const struct nd_cpuset *route = irq->effective_known ? &irq->effective :
						irq->affinity_known ? &irq->affinity : NULL;

		for (unsigned cpu = 0; route && cpu < ND_MAX_CPUS; cpu++)
			if (nd_cpuset_has(route, cpu) && nd_cpuset_has(&facts->cpus.online, cpu))
				nd_cpuset_add(&set, cpu);
	}
	return set;
}

struct governor_tally {
	struct nd_cpuset slow, unknown;
	unsigned checked;
	bool seen[sizeof(slow_governors) / sizeof(slow_governors[0])];
};

static void tally(const struct nd_facts *facts, const struct nd_cpuset *cpus,
		  struct governor_tally *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned cpu = 0; cpu < ND_MAX_CPUS; cpu++) {
		const char *governor = facts->cpus.governor[cpu];
		int slow;

		if (!nd_cpuset_has(cpus, cpu))
			continue;
		t->checked++;
		slow = slow_index(governor);
		if (!governor[0])
			nd_cpuset_add(&t->unknown, cpu);
		else if (slow >= 0) {
			nd_cpuset_add(&t->slow, cpu);
			t->seen[slow] = true;
		}
	}
}

/* evidence.governors: {"powersave": "0-3", "performance": "4-7"}. */
static void add_governors(const struct nd_facts *facts, const struct nd_cpuset *cpus,
			  cJSON *evidence)
{
	cJSON *obj = cJSON_AddObjectToObject(evidence, "governors");
	bool done[ND_MAX_CPUS] = { false };
	char list[512];

	for (unsigned cpu = 0; cpu < ND_MAX_CPUS; cpu++) {
		const char *governor = facts->cpus.governor[cpu];
		struct nd_cpuset same;

		if (!nd_cpuset_has(cpus, cpu) || done[cpu] || !governor[0])
			continue;
		nd_cpuset_zero(&same);
		for (unsigned other = cpu; other < ND_MAX_CPUS; other++)
			if (nd_cpuset_has(cpus, other) &&
			    !strcmp(facts->cpus.governor[other], governor)) {
				nd_cpuset_add(&same, other);
				done[other] = true;
			}
		cJSON_AddStringToObject(obj, governor, nd_cpuset_format_list(&same, list,
									    sizeof(list)));
	}
}

void nd_check_cpu_governor_powersave(const struct nd_facts *facts, struct nd_finding *f)
{
	struct nd_cpuset cpus;
	struct governor_tally t;
	char list[512], names[64] = "";

	if (!facts->cpus.st.known)
		return nd_finding_unknown(f, "online CPUs", facts->cpus.st.reason);
	if (!facts->cpus.governor_known)
		return nd_finding_unknown(f, "cpufreq governor", "no cpufreq scaling_governor "
					  "readable: virtual machines and some servers leave "
					  "frequency to the firmware or hypervisor");
	cpus = nic_cpus(facts);
	cJSON_AddStringToObject(f->evidence, "cpus_source", nd_cpuset_empty(&cpus) ?
				"all online CPUs (NIC interrupt CPUs unknown)" :
				"CPUs the NIC's interrupts are routed to");
	if (nd_cpuset_empty(&cpus))
		cpus = facts->cpus.online;
	cJSON_AddStringToObject(f->evidence, "cpus_checked",
				nd_cpuset_format_list(&cpus, list, sizeof(list)));
	tally(facts, &cpus, &t);
	add_governors(facts, &cpus, f->evidence);
	if (!nd_cpuset_empty(&t.unknown))
		cJSON_AddStringToObject(f->evidence, "governor_unknown_cpus",
					nd_cpuset_format_list(&t.unknown, list, sizeof(list)));
	if (nd_cpuset_empty(&t.slow)) {
		nd_finding_set(f, ND_SEV_OK, "no power-saving governor on the %u CPU%s checked",
			       t.checked, t.checked == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < sizeof(slow_governors) / sizeof(slow_governors[0]); i++)
		if (t.seen[i])
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", slow_governors[i]);
	if (facts->cpus.scaling_driver[0])
		cJSON_AddStringToObject(f->evidence, "scaling_driver", facts->cpus.scaling_driver);
	if (t.seen[0] && !t.seen[1] && hwp_driver(facts->cpus.scaling_driver)) {
		nd_finding_set(f, ND_SEV_INFO, "governor powersave under %s on CPU%s %s: the "
			       "hardware still raises the clock under load",
			       facts->cpus.scaling_driver, nd_cpuset_count(&t.slow) == 1 ? "" : "s",
			       nd_cpuset_format_list(&t.slow, list, sizeof(list)));
		nd_finding_fix(f, "cpu_governor", "cpupower frequency-set -g performance");
		return;
	}
	if (t.seen[0])
		cJSON_AddStringToObject(f->evidence, "note",
					"with the intel_pstate driver (active mode) \"powersave\" "
					"still raises the frequency under load (HWP) and costs much "
					"less than acpi-cpufreq's powersave, which pins the lowest "
					"frequency: check /sys/devices/system/cpu/cpu0/cpufreq/"
					"scaling_driver");
	nd_finding_set(f, ND_SEV_WARNING, "power-saving governor (%s) on CPU%s %s of %u checked",
		       names, nd_cpuset_count(&t.slow) == 1 ? "" : "s",
		       nd_cpuset_format_list(&t.slow, list, sizeof(list)), t.checked);
	nd_finding_fix(f, "cpu_governor", "cpupower frequency-set -g performance");
}

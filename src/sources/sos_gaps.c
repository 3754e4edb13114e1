/*
 * sos_gaps.c - after the common sysfs/procfs sources have read a
 * sosreport's proc/ and sys/ copies, fill what they could not from the
 * command output sos keeps instead (sysctl -a, lscpu, ps, systemctl), and
 * turn "No such file" into what is true: a sosreport does not record RPS
 * or XPS masks, nor a function's msi_irqs.  The iperf3 version comes from
 * the package lists sos always keeps (dpkg -l, rpm -qa).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "sos.h"
#include "source_ops.h"
#include "nicdoctor/sysfs_util.h"

static void fill_queues(const char *ifname, struct nd_facts *facts)
{
	if (facts->queues.st.known)
		return;
	nd_status_set_unknown(&facts->queues.st,
			      "a sosreport does not record RPS masks (nor XPS: no "
			      "sys/class/net/%s/queues)", ifname);
}

/* "virtio0" when the netdev hangs below a virtio device, else "". */
static void virtio_device(const struct nd_root *root, const char *ifname, char *buf, size_t size)
{
	char link[64], canon[PATH_MAX], comp[NAME_MAX + 1];
	const char *rest = canon;

	buf[0] = '\0';
	snprintf(link, sizeof(link), "/sys/class/net/%s", ifname);
	if (nd_probe_resolve(root, link, canon, sizeof(canon)) < 0)
		return;
	while (nd_path_next_component(&rest, comp, sizeof(comp)) == 1)
		if (!strncmp(comp, "virtio", 6) && comp[6] >= '0' && comp[6] <= '9' &&
		    strspn(comp + 6, "0123456789") == strlen(comp + 6))
			nd_strlcpy(buf, comp, size);
}

/* Without msi_irqs the interrupts are found by name only: after the
 * interface's own name (irqs.c tried that), virtio-net's receive queues
 * are "virtioN-input.M" of the virtio device the sys/class/net link names. */
static void fill_irqs(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_irqs *irqs = &facts->irqs;
	char virtio[24], match[32];

	if (irqs->st.known || !strstr(irqs->st.reason, "msi_irqs"))
		return;
	virtio_device(root, ifname, virtio, sizeof(virtio));
	if (virtio[0]) {
		/* irqs.c matches action names containing its name argument and
		 * reads each IRQ's proc/irq/N affinities: the same reader. */
		snprintf(match, sizeof(match), "%s-input.", virtio);
		nd_probe_irqs(root, match, facts);
		if (irqs->st.known)
			return;
	}
	nd_status_set_unknown(&irqs->st,
			      "no IRQ named after '%s' in proc/interrupts, and a sosreport "
			      "does not record the function's msi_irqs", ifname);
}

/* sysctl -a where proc/sys lacked a key (sos copies both, older ones not). */
static void fill_sysctls(const struct nd_root *root, struct nd_facts *facts)
{
	static const char rel[] = "sos_commands/kernel/sysctl_-a";
	struct nd_sysctl *have = (struct nd_sysctl *)&facts->sysctl;
	struct nd_sysctls *text_ctls = calloc(1, sizeof(*text_ctls));
	size_t n = sizeof(facts->sysctl) / sizeof(struct nd_sysctl);
	char *text = NULL;
	size_t len = 0;

	if (!text_ctls)
		return;
	if (nd_sos_read(root, rel, &text, &len) == 0 &&
	    nd_parse_sysctl_text(text, len, text_ctls) == 0) {
		struct nd_sysctl *got = (struct nd_sysctl *)text_ctls;

		for (size_t i = 0; i < n; i++)
			if (!have[i].known && got[i].known) {
				have[i] = got[i];
				nd_strlcpy(have[i].source, rel, sizeof(have[i].source));
			}
	}
	free(text);
	free(text_ctls);
}

/* lscpu when sys/devices/system/cpu/online is not in the bundle; its NUMA
 * nodes when sys/devices/system/node is not. */
static void fill_cpus(const struct nd_root *root, struct nd_facts *facts)
{
	static const char rel[] = "sos_commands/processor/lscpu";
	struct nd_cpus *cpus = &facts->cpus, *parsed;
	char *text = NULL;
	size_t len = 0;
	int r;

	if (cpus->st.known && cpus->n_nodes)
		return;
	parsed = calloc(1, sizeof(*parsed));
	if (!parsed)
		return;
	r = nd_sos_read(root, rel, &text, &len);
	if (r == 0)
		r = nd_parse_lscpu(text, len, parsed);
	free(text);
	if (r == 0 && !cpus->st.known) {
		*cpus = *parsed;
		nd_probe_cpu_governors(root, cpus);
		nd_strlcpy(cpus->st.source, rel, sizeof(cpus->st.source));
	} else if (r == 0 && !cpus->n_nodes) {
		cpus->n_nodes = parsed->n_nodes;
		memcpy(cpus->node_cpus, parsed->node_cpus, sizeof(cpus->node_cpus));
	} else if (!cpus->st.known) {
		nd_status_set_unknown(&cpus->st, "the sosreport has neither "
				      "sys/devices/system/cpu/online nor a readable '%s'", rel);
	}
	free(parsed);
}

/* A `ps aux`-style line runs irqbalance: some word is it or ends in
 * "/irqbalance" (not "grep irqbalance": that word is not the command). */
static bool ps_runs_irqbalance(const char *line, size_t len)
{
	static const char name[] = "irqbalance";
	const size_t n = sizeof(name) - 1;

	for (size_t i = 0; i + n <= len; i++) {
		bool starts = i == 0 || line[i - 1] == ' ' || line[i - 1] == '/';
		bool ends = i + n == len || line[i + n] == ' ';

		if (starts && ends && !memcmp(line + i, name, n))
			return !memmem(line, i, "grep", 4);
	}
	return false;
}

static int scan_listing(const struct nd_root *root, const char *rel, bool units, bool *ret_running)
{
	char *text = NULL, *line, *end;
	size_t len = 0;
	int r = nd_sos_read(root, rel, &text, &len);

	if (r < 0)
		return r;
	*ret_running = false;
	for (line = text; line < text + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len;
		if (units ? memmem(line, (size_t)(end - line), "irqbalance.service", 18) &&
			    memmem(line, (size_t)(end - line), " running", 8)
			  : ps_runs_irqbalance(line, (size_t)(end - line)))
			*ret_running = true;
	}
	free(text);
	return 0;
}

/* sos has no irqbalance plugin: its process and unit listings say. */
static void fill_irqbalance(const struct nd_root *root, struct nd_facts *facts)
{
	static const struct {
		const char *rel;
		bool units;
	} files[] = {
		{ "sos_commands/process/ps_auxwww", false },
		{ "sos_commands/process/ps_auxwwwm", false },
		{ "sos_commands/process/ps_auxfwww", false },
		{ "sos_commands/process/ps_-elfL", false },
		{ "sos_commands/systemd/systemctl_list-units", true },
		{ "sos_commands/systemd/systemctl_list-units_--all", true },
	};

	for (size_t i = 0; i < ND_ARRAY_SIZE(files); i++) {
		bool running;

		if (scan_listing(root, files[i].rel, files[i].units, &running) < 0)
			continue;
		facts->irqs.irqbalance_known = true;
		facts->irqs.irqbalance_running = running;
		return;
	}
}

/* The installed iperf3 package's version, from the first package list the
 * bundle has: a list without it says iperf3 is not installed. */
static void fill_iperf3(const struct nd_root *root, struct nd_tools *tools)
{
	static const char *const lists[] = {
		"installed-debs", "sos_commands/dpkg/dpkg_-l", "installed-rpms",
		"sos_commands/rpm/package-data", "rpm.txt",
	};
	const char *name = lists[0];
	char *text = NULL, version[sizeof(tools->iperf3_version)];
	size_t len = 0;
	unsigned line = 0;
	int major, minor, r;

	if (tools->iperf3.known)
		return;
	r = nd_sos_read_first(root, lists, ND_ARRAY_SIZE(lists), &text, &len, &name);
	if (r < 0) {
		nd_status_set_unknown(&tools->iperf3, "the bundle has no package list "
				      "(installed-debs, installed-rpms, sos_commands/dpkg/dpkg_-l)");
		return;
	}
	r = nd_parse_package_version(text, len, "iperf3", version, sizeof(version), &line);
	free(text);
	if (r < 0) {
		nd_status_set_unknown(&tools->iperf3, "iperf3 not found in the package list '%s'",
				      name);
		return;
	}
	if (sscanf(version, "%d.%d", &major, &minor) != 2 || major < 0 || minor < 0) {
		nd_status_set_unknown(&tools->iperf3, "unrecognised iperf3 package version "
				      "'%s' in '%s' line %u", version, name, line);
		return;
	}
	tools->iperf3_major = major;
	tools->iperf3_minor = minor;
	snprintf(tools->iperf3_version, sizeof(tools->iperf3_version), "%d.%d", major, minor);
	nd_status_set_known(&tools->iperf3);
	snprintf(tools->iperf3.source, sizeof(tools->iperf3.source), "%s line %u", name, line);
}

void nd_sos_fill_gaps(struct nd_source *src, const char *ifname, struct nd_facts *facts)
{
	const struct nd_root *root = src->root;

	fill_iperf3(root, &facts->tools);
	fill_queues(ifname, facts);
	fill_irqs(root, ifname, facts);
	fill_sysctls(root, facts);
	fill_cpus(root, facts);
	fill_irqbalance(root, facts);
}

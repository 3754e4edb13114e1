/*
 * irqs.c - the "irqs" probe source: which IRQs belong to the interface,
 * how often each fired on each CPU, where each may and does run, and
 * whether irqbalance is running.
 *
 * IRQ numbers come from the PCI function's msi_irqs/ directory; without
 * it (legacy INTx, a snapshot without it) from the IRQs the kernel's netdev
 * family linked to the queues (napi-get, in the queue table), and only
 * without those from action names in /proc/interrupts that contain the
 * interface name or PCI address.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/parse.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/common.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

#define INTERRUPTS_PATH "/proc/interrupts"
/* A list naming every other CPU of ND_MAX_CPUS ("0,2,...,1022") or pairs
 * ("0-1,3-4,...") takes up to 5 characters a CPU. */
#define CPU_LIST_MAX (ND_MAX_CPUS * 6)

static bool read_cpu_list(const struct nd_root *root, const char *path, struct nd_cpuset *set)
{
	char text[CPU_LIST_MAX];

	return nd_sysroot_read_line(root, path, text, sizeof(text)) == 0 &&
	       nd_cpuset_parse_list(text, set) == 0;
}

static bool read_cpu_mask(const struct nd_root *root, const char *path, struct nd_cpuset *set)
{
	char text[CPU_LIST_MAX];

	return nd_sysroot_read_line(root, path, text, sizeof(text)) == 0 &&
	       nd_cpuset_parse_mask(text, set) == 0;
}

static void read_affinities(const struct nd_root *root, struct nd_irq *irq)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq->irq);
	irq->affinity_known = read_cpu_list(root, path, &irq->affinity);
	snprintf(path, sizeof(path), "/proc/irq/%u/effective_affinity_list", irq->irq);
	irq->effective_known = read_cpu_list(root, path, &irq->effective);
	snprintf(path, sizeof(path), "/proc/irq/%u/affinity_hint", irq->irq);
	irq->hint_known = read_cpu_mask(root, path, &irq->hint);
}

/* irqbalance runs when some /proc/[pid]/comm says so.  A snapshot records
 * /proc/1/comm to show that the process list was looked at. */
static void probe_irqbalance(const struct nd_root *root, struct nd_irqs *irqs)
{
	bool saw_process = false;
	struct dirent *ent;
	DIR *proc = nd_sysroot_opendir(root, "/proc");

	irqs->irqbalance_known = false;
	irqs->irqbalance_running = false;
	if (!proc)
		return;
	while ((ent = readdir(proc)) != NULL) {
		char path[300], comm[32];

		if (!isdigit((unsigned char)ent->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", ent->d_name);
		if (nd_sysroot_read_line(root, path, comm, sizeof(comm)) < 0)
			continue;
		saw_process = true;
		if (!strcmp(comm, "irqbalance")) {
			irqs->irqbalance_running = true;
			break;
		}
	}
	closedir(proc);
	irqs->irqbalance_known = saw_process;
}

/* IRQ numbers of the PCI function from msi_irqs/; 0 when there are none. */
static unsigned msi_irqs_of(const struct nd_root *root, const char *ifname, unsigned *numbers,
			    char *pci_address, size_t size)
{
	char fn_dir[PATH_MAX], dir[PATH_MAX + 16];
	int found;

	pci_address[0] = '\0';
	if (nd_probe_pci_function_dir(root, ifname, fn_dir, sizeof(fn_dir)) < 0)
		return 0;
	snprintf(pci_address, size, "%s", strrchr(fn_dir, '/') + 1);
	snprintf(dir, sizeof(dir), "%s/msi_irqs", fn_dir);
	found = nd_probe_list_numbered(root, dir, "", numbers, ND_MAX_IRQS);
	return found > 0 ? (unsigned)found : 0;
}

/* The distinct IRQs napi-get gave the queues; 0 when it gave none. */
static unsigned netdev_irqs_of(const struct nd_queue_table *qt, unsigned *numbers)
{
	unsigned n = 0;

	for (unsigned i = 0; qt->st.known && i < qt->count && i < ND_MAX_QUEUE_ROWS; i++) {
		bool seen = false;

		if (qt->q[i].irq < 0)
			continue;
		for (unsigned j = 0; j < n; j++)
			seen |= numbers[j] == (unsigned)qt->q[i].irq;
		if (!seen && n < ND_MAX_IRQS)
			numbers[n++] = (unsigned)qt->q[i].irq;
	}
	return n;
}

static void parse_irqs(const struct nd_root *root, const char *ifname, const char *text,
		       const struct nd_queue_table *qt,
		       struct nd_irqs *irqs)
{
	unsigned numbers[ND_MAX_IRQS];
	char pci_address[16];
	unsigned n = msi_irqs_of(root, ifname, numbers, pci_address, sizeof(pci_address));

	if (n) {
		nd_strlcpy(irqs->list_source, "msi_irqs", sizeof(irqs->list_source));
		nd_parse_interrupts(text, numbers, n, NULL, irqs);
		return;
	}
	if ((n = netdev_irqs_of(qt, numbers)) != 0) {
		nd_strlcpy(irqs->list_source, "netdev", sizeof(irqs->list_source));
		nd_parse_interrupts(text, numbers, n, NULL, irqs);
		return;
	}
	/* Action names: "eth0-TxRx-3", "iavf-net1-TxRx-0", "mlx5_comp0@pci:0000:01:00.0". */
	nd_strlcpy(irqs->list_source, "irq names", sizeof(irqs->list_source));
	nd_parse_interrupts(text, NULL, 0, ifname, irqs);
	if (irqs->count == 0 && pci_address[0])
		nd_parse_interrupts(text, NULL, 0, pci_address, irqs);
}

void nd_probe_irqs(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_irqs *irqs = &facts->irqs;
	char *text = NULL;
	int r;

	irqs->count = 0;
	irqs->list_source[0] = '\0';
	irqs->n_cpu_columns = 0;
	r = nd_sysroot_read_alloc(root, INTERRUPTS_PATH, &text, NULL);
	if (r < 0) {
		nd_probe_read_reason(irqs->st.reason, sizeof(irqs->st.reason), INTERRUPTS_PATH, r);
		irqs->st.known = false;
	} else {
		parse_irqs(root, ifname, text, &facts->queue_table, irqs);
		free(text);
		for (unsigned i = 0; i < irqs->count; i++)
			read_affinities(root, &irqs->irq[i]);
		if (irqs->count)
			nd_status_set_known(&irqs->st);
		else
			nd_status_set_unknown(&irqs->st, "no IRQ of '%s' found in msi_irqs or '%s'",
					      ifname, INTERRUPTS_PATH);
	}
	probe_irqbalance(root, irqs);
}

void nd_probe_irq_sums(const struct nd_root *root, const unsigned *wanted, unsigned n_wanted,
		       struct nd_irqs *scratch,
		       struct nd_irq_sums *ret)
{
	char *text = NULL;

	ret->known = false;
	ret->irqs = ret->n_columns = 0;
	if (!n_wanted || nd_sysroot_read_alloc(root, "/proc/interrupts", &text, NULL) < 0)
		return;
	scratch->count = 0;
	scratch->n_cpu_columns = 0;
	if (nd_parse_interrupts(text, wanted, n_wanted, NULL, scratch) == 0 && scratch->count) {
		ret->irqs = scratch->count;
		ret->n_columns = scratch->n_cpu_columns < ND_IRQ_MAX_CPUS ? scratch->n_cpu_columns
									 : ND_IRQ_MAX_CPUS;
		for (unsigned c = 0; c < ret->n_columns; c++) {
			ret->column_cpu[c] = scratch->column_cpu_known ? scratch->column_cpu[c] : c;
			ret->per_column[c] = 0;
			for (unsigned i = 0; i < scratch->count; i++)
				ret->per_column[c] += scratch->irq[i].per_cpu[c];
		}
		for (unsigned i = 0; i < scratch->count && i < ND_MAX_IRQS; i++) {
			ret->irq_number[i] = scratch->irq[i].irq;
			ret->per_irq[i] = 0;
			for (unsigned c = 0; c < ret->n_columns; c++)
				ret->per_irq[i] += scratch->irq[i].per_cpu[c];
		}
		ret->known = true;
	}
	free(text);
}

/*
 * pci_access.h - the one PCI config-space decoder (pci.c), shared by the
 * live/snapshot pci source (libpci's sysfs method) and the sosreport's
 * (libpci's linux-proc method on the bundle's proc/bus/pci).  Private to
 * src/probe/.
 */
#ifndef NICDOCTOR_PROBE_PCI_ACCESS_H
#define NICDOCTOR_PROBE_PCI_ACCESS_H

#include <stddef.h>

#include <pci/pci.h>

#include "nicdoctor/facts.h"

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

/*
 * Run fn with a libpci handle of `method` whose parameter `param` is
 * `value` (a path that must already be known to stay inside the root).
 * libpci's fatal errors end fn early: -EIO with "libpci: ..." in why.
 */
int nd_pci_run(int method, const char *param, const char *value,
	       void (*fn)(struct pci_access *pacc, void *arg), void *arg,
	       char *why, size_t why_size);

/* Decode one function: IDs, name, PCI Express capability.  dir is its
 * sysfs directory for the current_link_* fallback, NULL for a record. */
void nd_pci_fill_function(const struct nd_root *root, struct pci_access *pacc, struct pci_dev *d,
			  const char *dir,
			  struct nd_pcie_link *link);

#endif

/*
 * snapshot.h - copying the live /sys and /proc files the probe reads into
 * a snapshot directory, so that `--sysroot DIR` reproduces the same facts.
 */
#ifndef NICDOCTOR_SNAPSHOT_H
#define NICDOCTOR_SNAPSHOT_H

#include "nicdoctor/facts.h"

/*
 * Copy into dest_dir every sysfs/procfs file the probe sources read for
 * ifname: the paths recorded by nd_sysroot_record() during the probe, the
 * PCI functions of facts->pci (libpci reads them itself: config, vendor,
 * device, class, numa_node, current_link_*, max_link_*, irq, resource ...),
 * with every symlink on the way recreated with its own relative target, as
 * in /sys.  Also writes tools/iperf3-version.  0 or negative errno.
 */
int nd_snapshot_copy_sysfs(const char *ifname, const char *dest_dir, const struct nd_facts *facts);

#endif

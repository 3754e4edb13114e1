/*
 * snapshot.h - copying the live /sys and /proc files the probe reads into
 * a snapshot directory, so that `--sysroot DIR` reproduces the same facts,
 * and writing below that directory without following planted links.
 */
#ifndef NICDOCTOR_SNAPSHOT_H
#define NICDOCTOR_SNAPSHOT_H

#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_root;

/*
 * Open (creating it 0700 when missing) the output directory of collect.
 * An existing one is used only when it is a directory, not a symbolic
 * link, owned by the effective uid, not writable by group or others and
 * empty; otherwise -EEXIST, with the rule it broke in why.  Other
 * failures: negative errno, why "".  The directory holding path is
 * reached as the caller names it.
 */
int nd_snapshot_open_output(const char *path, int *ret_fd, char *why, size_t why_size);

/*
 * Below root_fd, paths are "/a/b/c" and every component but the last must
 * be a directory: each is opened O_NOFOLLOW, so no link is ever followed,
 * not even one collect made.  All return 0 or a negative errno.
 */
int nd_snapshot_open_dir(int root_fd, const char *path, int *ret_fd);
int nd_snapshot_mkdir(int root_fd, const char *path);	/* 0755; existing is fine */
int nd_snapshot_symlink(int root_fd, const char *path, const char *target);
/* A new file, O_EXCL|O_NOFOLLOW; one already there (copied earlier) is kept. */
int nd_snapshot_write(int root_fd, const char *path, const char *data, size_t len);
/* Through "<path>.tmp" (O_EXCL|O_NOFOLLOW) renamed over path. */
int nd_snapshot_write_replace(int root_fd, const char *path, const char *data, size_t len);

/*
 * Copy below dest_fd (from nd_snapshot_open_output) every sysfs/procfs
 * file the probe sources read for ifname: the paths root (a live root)
 * recorded during the probe (nd_sysroot_record), the
 * PCI functions of facts->pci (libpci reads them itself: config, vendor,
 * device, class, numa_node, current_link_*, max_link_*, irq, resource ...),
 * with every symlink on the way recreated with its own relative target, as
 * in /sys.  Also writes tools/iperf3-version.  0 or negative errno.
 */
int nd_snapshot_copy_sysfs(const struct nd_root *root, const char *ifname, int dest_fd,
			   const struct nd_facts *facts);

#endif

/*
 * sysfs_util.h - helpers shared by the sysfs/procfs probe sources (private
 * to src/probe/): symlink resolution inside the sysroot, the PCI function
 * behind an interface, numbered directory listings, reason strings.
 */
#ifndef NICDOCTOR_PROBE_SYSFS_UTIL_H
#define NICDOCTOR_PROBE_SYSFS_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_root;	/* sysroot.h: where /sys and /proc are read */

/* "0000:01:00.0" (domain:bus:dev.fn, hex). */
bool nd_probe_is_pci_address(const char *name);

/*
 * Resolve every symlink in a root-relative path ("/sys/class/net/eth0")
 * the way the kernel would, but inside the sysroot, into a root-relative
 * canonical path ("/sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth0").
 * 0, -ENOENT, -ELOOP, -ENAMETOOLONG.
 */
int nd_probe_resolve(const struct nd_root *root, const char *path, char *buf, size_t size);

/*
 * Canonical sysfs directory of the PCI function behind an interface: the
 * nearest ancestor of /sys/class/net/IF/device whose name is a PCI address
 * (virtio-net's device link points at "virtio2" below the function).
 * 0; -ENODEV when there is no device link (virtual interface); -ENOENT
 * when the device is not on PCI.
 */
int nd_probe_pci_function_dir(const struct nd_root *root, const char *ifname, char *buf,
			      size_t size);

/*
 * List the numeric suffixes of entries of a directory below the root whose
 * names are `prefix` followed by a decimal number ("rx-" -> rx-0, rx-1;
 * "" -> 37, 38).  Sorted ascending; at most max_count.  Returns the
 * number found or a negative errno from opening the directory.
 */
int nd_probe_list_numbered(const struct nd_root *root, const char *dir, const char *prefix,
			   unsigned *ret_numbers, unsigned max_count);

/*
 * For code that opens snapshot files itself, outside the sysroot seam
 * (libpci): check that root-relative `path` and, when it is a directory,
 * every entry in it resolve on the host to a regular file or directory
 * inside the root; a dangling link is harmless and allowed.  Live, always
 * 0.  0, or -EXDEV naming the escaping path in why; -E2BIG for more than
 * 4096 entries; other negative errno when the root cannot be resolved.
 */
int nd_probe_host_path_confined(const struct nd_root *root, const char *path, bool entries,
				char *why, size_t why_size);

/* "cannot read '<path>': <strerror>" into a status/reason buffer. */
void nd_probe_read_reason(char *buf, size_t size, const char *path, int negative_errno);

/* Read a decimal unsigned from a sysfs file.  0 or negative errno. */
int nd_probe_read_unsigned(const struct nd_root *root, const char *path,
			   unsigned long long *ret_value);

/* Each online CPU's cpufreq governor and the scaling driver (cpus.c). */
void nd_probe_cpu_governors(const struct nd_root *root, struct nd_cpus *cpus);

/*
 * Run argv[0] from PATH (no shell) and take its stdout, at most max bytes,
 * NUL-terminated in a malloc'd *ret_text; stderr is discarded.  0;
 * -ENOENT not installed; -EIO it failed; -ETIMEDOUT or -E2BIG, the child
 * killed (run_cmd.c).
 */
int nd_run_capture(char *const argv[], int timeout_ms, size_t max, char **ret_text,
		   size_t *ret_len);

#endif

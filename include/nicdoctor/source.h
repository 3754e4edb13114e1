/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h - where facts are read from, chosen once and passed down as a
 * handle (DESIGN.md, "Sources").
 *
 * A command opens one source: the live host (path NULL) or what
 * `--sysroot PATH` names (a nicdoctor snapshot or plain tree, a
 * sosreport, a supportconfig, collect --script's tarball; bundle.c finds
 * which by content).  Everything that depends on the kind goes through
 * the handle: probing an interface, listing the interfaces, the default
 * route, and closing.  The handle holds the root (sysroot.h) its sysfs
 * and procfs readers read; several sources may be open at once.
 *
 *	struct nd_source *src;
 *	char err[512];
 *
 *	if (nd_source_open(sysroot_or_NULL, &src, err, sizeof(err)) < 0) ...
 *	nd_probe(src, "eth0", &facts);
 *	...
 *	nd_facts_free(facts);
 *	nd_source_close(src);
 */
#ifndef NICDOCTOR_SOURCE_H
#define NICDOCTOR_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_bundle;
struct nd_source;

/*
 * Open the live host (path NULL) or the bundle at path.  0, or a negative
 * errno with one line in ret_error (may be NULL): -EINVAL not a bundle,
 * -EFBIG over a cap, -ENOENT, -EACCES, -EIO, -ENOMEM.
 */
int nd_source_open(const char *path, struct nd_source **ret_src, char *ret_error,
		   size_t error_size);
/* Undo the open (the private extraction is removed).  NULL is fine. */
void nd_source_close(struct nd_source *src);

/* Allocate and fill facts for ifname from src; nd_facts_free them.
 * -ENODEV: no such interface (the only fatal outcome); -ENOMEM. */
int nd_probe(struct nd_source *src, const char *ifname, struct nd_facts **ret_facts);

/* Interfaces the source has (sys/class/net plus what a bundle's command
 * output names), sorted, deduplicated.  0 or negative errno. */
int nd_source_list_ifaces(struct nd_source *src, char (*names)[ND_IFNAMSIZ], unsigned max,
			  unsigned *ret_count);
/* Whether the interface exists in the source. */
bool nd_source_iface_exists(struct nd_source *src, const char *ifname);
/* Interface of the default route.  0, -ENOENT none, -EINVAL; buf is left
 * untouched on failure. */
int nd_source_default_iface(struct nd_source *src, char *buf, size_t size);

bool nd_source_is_live(const struct nd_source *src);
/* How messages name it: "the sosreport", "the snapshot", "the live host". */
const char *nd_source_noun(const struct nd_source *src);
/* The report header's line: "a sosreport (sos 4.2) of HOST taken DATE". */
const char *nd_source_description(const struct nd_source *src);
/* The bundle it was opened from (what was skipped ...), NULL live. */
const struct nd_bundle *nd_source_bundle(const struct nd_source *src);
/* The root its sysfs and procfs readers read (sysroot.h): for a caller
 * that reads what the source reads. */
struct nd_root;
const struct nd_root *nd_source_root(const struct nd_source *src);
/* The same root, to record on (collect: nd_sysroot_record). */
struct nd_root *nd_source_recording_root(struct nd_source *src);

#endif

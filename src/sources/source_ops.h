/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source_ops.h - the table each kind of source fills in (private to
 * src/sources/), in the shape of pciutils' struct pci_methods: one
 * implementation per file (live.c, snapshot.c, sos.c, supportconfig.c,
 * script.c), listed in source.c's registry.
 *
 * nd_probe (probe.c) runs, for every kind: the host names, fill_netlink,
 * fill_pci, the sysfs/procfs readers of src/probe/ on the source's root
 * (sysroot.h), the link group's sysfs fallback, then fill_gaps.  A fill leaves
 * what it cannot fill unknown with its own reason.
 */
#ifndef NICDOCTOR_SOURCES_SOURCE_OPS_H
#define NICDOCTOR_SOURCES_SOURCE_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/facts.h"
#include "nicdoctor/source.h"

struct nd_source_ops {
	const char *name;		/* "live", "snapshot", "sosreport", ... */
	const char *noun;		/* "the sosreport", for messages */
	/* Whether this kind reads the bundle nd_bundle_open found at the
	 * path; NULL: never picked for a path (live). */
	bool (*detect)(const struct nd_bundle *bundle);
	/* Open the source's root; 0 or a negative errno. */
	int (*open)(struct nd_source *src);
	/* Interfaces the record names besides sys/class/net (NULL: none). */
	int (*list_ifaces)(struct nd_source *src, char (*names)[ND_IFNAMSIZ], unsigned max,
			   unsigned *ret_count);
	/* The default route's interface where /proc/net/route has none
	 * (NULL: none); 0 or -ENOENT. */
	int (*default_iface)(struct nd_source *src, char *buf, size_t size);
	/* What netlink and the ethtool ioctls give live. */
	void (*fill_netlink)(struct nd_source *src, const char *ifname, struct nd_facts *facts);
	void (*fill_pci)(struct nd_source *src, const char *ifname, struct nd_facts *facts);
	/* After the sysfs/procfs readers: fill or re-word what they left
	 * unknown (NULL: nothing). */
	void (*fill_gaps)(struct nd_source *src, const char *ifname, struct nd_facts *facts);
	/* The header's line into buf. */
	void (*describe)(const struct nd_source *src, char *buf, size_t size);
	void (*close)(struct nd_source *src);
	/* Evidence names files as the bundle does ("proc/interrupts"). */
	bool bundle_paths;
};

struct nd_source {
	const struct nd_source_ops *ops;
	struct nd_bundle bundle;	/* kind, root, private extraction; zero live */
	struct nd_root *root;		/* what the sysfs/procfs readers read */
	char description[sizeof(((struct nd_facts *)0)->origin)];
};

extern const struct nd_source_ops nd_source_live;
extern const struct nd_source_ops nd_source_snapshot;
extern const struct nd_source_ops nd_source_sos;
extern const struct nd_source_ops nd_source_supportconfig;
extern const struct nd_source_ops nd_source_script;

/* source.c: open, describe and close for every kind read from a bundle's
 * tree (a root opened on bundle.root). */
int nd_source_tree_open(struct nd_source *src);
void nd_source_tree_describe(const struct nd_source *src, char *buf, size_t size);
void nd_source_tree_close(struct nd_source *src);

#endif

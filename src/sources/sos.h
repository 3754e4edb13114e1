/*
 * sos.h - what the sosreport source's files share (private to src/sources/):
 * reading a bundle file by its sos name, the reason for one it lacks, and
 * the operations that every sos-shaped source's table (sos.c,
 * supportconfig.c, script.c) points at.
 */
#ifndef NICDOCTOR_PROBE_SOS_H
#define NICDOCTOR_PROBE_SOS_H

#include <stddef.h>

#include "nicdoctor/facts.h"

struct nd_root;

/* Read "<root>/<rel>" (rel as sos names it: "sos_commands/pci/lspci_-nnvv"). */
int nd_sos_read(const struct nd_root *root, const char *rel, char **ret_text, size_t *ret_len);
/* The first of names that exists; its name in *ret_name.  -ENOENT none. */
int nd_sos_read_first(const struct nd_root *root, const char *const *names, size_t n,
		      char **ret_text, size_t *ret_len,
		      const char **ret_name);
/* st unknown: "the sosreport has no 'REL': WHY" or the read error. */
void nd_sos_missing(struct nd_status *st, const char *rel, int r, const char *why);

struct nd_source;

/* struct nd_source_ops' operations on a sos-shaped tree (source_ops.h). */
void nd_sos_fill_netlink(struct nd_source *src, const char *ifname, struct nd_facts *facts);
void nd_sos_fill_pci(struct nd_source *src, const char *ifname,
		     struct nd_facts *facts);	/* sos_pci.c */
void nd_sos_fill_gaps(struct nd_source *src, const char *ifname,
		      struct nd_facts *facts);	/* sos_gaps.c */
int nd_sos_list_ifaces(struct nd_source *src, char (*names)[ND_IFNAMSIZ], unsigned max,
		       unsigned *ret_count);
int nd_sos_default_iface(struct nd_source *src, char *buf, size_t size);

/* The operations of every kind read as a sosreport's tree (sosreport,
 * supportconfig converted into one, collect --script's tarball): each
 * table adds its own name, noun and detect. */
#define ND_SOS_SHAPED_OPS \
	.open = nd_source_tree_open, \
	.list_ifaces = nd_sos_list_ifaces, \
	.default_iface = nd_sos_default_iface, \
	.fill_netlink = nd_sos_fill_netlink, \
	.fill_pci = nd_sos_fill_pci, \
	.fill_gaps = nd_sos_fill_gaps, \
	.describe = nd_source_tree_describe, \
	.close = nd_source_tree_close, \
	.bundle_paths = true

#endif

/*
 * sos.h - what the sosreport source's files share (private to src/probe/):
 * reading a bundle file by its sos name, and the reason for one it lacks.
 */
#ifndef NICDOCTOR_PROBE_SOS_H
#define NICDOCTOR_PROBE_SOS_H

#include <stddef.h>

#include "nicdoctor/facts.h"

/* Read "<root>/<rel>" (rel as sos names it: "sos_commands/pci/lspci_-nnvv"). */
int nd_sos_read(const char *rel, char **ret_text, size_t *ret_len);
/* The first of names that exists; its name in *ret_name.  -ENOENT none. */
int nd_sos_read_first(const char *const *names, size_t n, char **ret_text, size_t *ret_len,
		      const char **ret_name);
/* st unknown: "the sosreport has no 'REL': WHY" or the read error. */
void nd_sos_missing(struct nd_status *st, const char *rel, int r, const char *why);

void nd_sos_fill_pci(const char *ifname, struct nd_facts *facts);	/* sos_pci.c */
void nd_sos_fill_gaps(const char *ifname, struct nd_facts *facts);	/* sos_gaps.c */

#endif

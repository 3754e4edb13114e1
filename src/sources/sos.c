/*
 * sos.c - the sosreport source (DESIGN.md, "Sources").
 *
 * A sosreport holds /proc and /sys at their own paths (read by the common
 * sources through the sysroot seam) and command output under
 * sos_commands/.  This source fills what netlink gives live from that
 * text: the link and qdisc (ip -s -d link, tc -s qdisc show), link modes,
 * driver, channels, rings, features, coalescing, pause and NIC counters
 * (ethtool IF and ethtool -i/-l/-g/-k/-c/-a/-S IF).  After the common
 * sources it fills their gaps from sysctl -a, lscpu and the process and
 * unit listings, and says what a sosreport never records (RPS/XPS masks,
 * msi_irqs, the RSS table).  PCI is sos_pci.c.  Every group names the
 * file it came from in st.source.  The sosreport's source table is at the
 * end; supportconfig.c and script.c read their sos-shaped trees with the
 * same functions.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "sos.h"
#include "source_ops.h"
#include "nicdoctor/sysfs_util.h"

#define NET_DIR "sos_commands/networking"

int nd_sos_read(const struct nd_root *root, const char *rel, char **ret_text, size_t *ret_len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "/%s", rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return nd_sysroot_read_alloc(root, path, ret_text, ret_len);
}

int nd_sos_read_first(const struct nd_root *root, const char *const *names, size_t n,
		      char **ret_text, size_t *ret_len,
		      const char **ret_name)
{
	int r = -ENOENT;

	for (size_t i = 0; i < n; i++) {
		r = nd_sos_read(root, names[i], ret_text, ret_len);
		if (r == 0) {
			*ret_name = names[i];
			return 0;
		}
		if (r != -ENOENT)
			return r;
	}
	return r;
}

void nd_sos_missing(struct nd_status *st, const char *rel, int r, const char *why)
{
	if (r == -ENOENT)
		nd_status_set_unknown(st, "the sosreport has no '%s'%s%s", rel, why ? ": " : "",
				      why ? why : "");
	else
		nd_status_set_unknown(st, "cannot read '%s' in the sosreport: %s", rel, strerror(-r));
}

/* ---- ethtool, one file per option ---- */

static int parse_settings(const char *t, size_t n, void *g)
{
	return nd_parse_ethtool_settings(t, n, g, NULL);
}
static int parse_drvinfo(const char *t, size_t n, void *g) { return nd_parse_ethtool_drvinfo(t, n, g); }
static int parse_channels(const char *t, size_t n, void *g) { return nd_parse_ethtool_channels(t, n, g); }
static int parse_rings(const char *t, size_t n, void *g) { return nd_parse_ethtool_rings(t, n, g); }
static int parse_features(const char *t, size_t n, void *g) { return nd_parse_ethtool_features(t, n, g); }
static int parse_coalesce(const char *t, size_t n, void *g) { return nd_parse_ethtool_coalesce(t, n, g); }
static int parse_pause(const char *t, size_t n, void *g) { return nd_parse_ethtool_pause(t, n, g); }
static int parse_stats(const char *t, size_t n, void *g) { return nd_parse_ethtool_stats(t, n, g); }

static const struct {
	const char *prefix;		/* file name before the interface */
	size_t offset, size;		/* the group in struct nd_facts */
	int (*parse)(const char *text, size_t len, void *group);
	const char *absent;		/* why a sosreport may lack the file */
} ethtool_files[] = {
	{ "ethtool_", offsetof(struct nd_facts, linkmodes), sizeof(struct nd_linkmodes),
	  parse_settings, "ethtool was not run on it" },
	{ "ethtool_-i_", offsetof(struct nd_facts, drvinfo), sizeof(struct nd_drvinfo),
	  parse_drvinfo, "ethtool -i was not run on it" },
	{ "ethtool_-l_", offsetof(struct nd_facts, channels), sizeof(struct nd_channels),
	  parse_channels, "sos before 3.7 did not run ethtool -l" },
	{ "ethtool_-g_", offsetof(struct nd_facts, rings), sizeof(struct nd_rings),
	  parse_rings, "ethtool -g was not run on it" },
	{ "ethtool_-k_", offsetof(struct nd_facts, features), sizeof(struct nd_features),
	  parse_features, "ethtool -k was not run on it" },
	{ "ethtool_-c_", offsetof(struct nd_facts, coalesce), sizeof(struct nd_coalesce),
	  parse_coalesce, "ethtool -c was not run on it" },
	{ "ethtool_-a_", offsetof(struct nd_facts, pause), sizeof(struct nd_pause),
	  parse_pause, "ethtool -a was not run on it" },
	{ "ethtool_-S_", offsetof(struct nd_facts, nicstats), sizeof(struct nd_nicstats),
	  parse_stats, "ethtool -S was not run on it" },
};

static void fill_ethtool(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(ethtool_files); i++) {
		void *group = (char *)facts + ethtool_files[i].offset;
		struct nd_status *st = group;	/* st is every group's first member */
		char rel[128];
		char *text = NULL;
		size_t len = 0;
		int r;

		snprintf(rel, sizeof(rel), NET_DIR "/%s%s", ethtool_files[i].prefix, ifname);
		r = nd_sos_read(root, rel, &text, &len);
		if (r < 0) {
			memset(group, 0, ethtool_files[i].size);
			nd_sos_missing(st, rel, r, ethtool_files[i].absent);
		} else {
			/* The parser resets the group and says "not supported" for
			 * ethtool's stderr; either way the file is the source. */
			ethtool_files[i].parse(text, len, group);
			free(text);
			nd_strlcpy(st->source, rel, sizeof(st->source));
		}
	}
}

/* ---- ip link and tc ---- */

static const char *const iplink_files[] = {
	NET_DIR "/ip_-s_-d_link", NET_DIR "/ip_-s_link", NET_DIR "/ip_link",
};

static void fill_link(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	const char *name = iplink_files[0];
	char *text = NULL;
	size_t len = 0;
	bool stats = false;
	int r = nd_sos_read_first(root, iplink_files, ND_ARRAY_SIZE(iplink_files), &text, &len,
				  &name);

	memset(&facts->link, 0, sizeof(facts->link));
	if (r < 0) {
		nd_sos_missing(&facts->link.st, name, r, NULL);
		return;
	}
	r = nd_parse_iplink(text, len, ifname, &facts->link, &stats);
	/* The stack from the same text (nd_probe_stack then keeps it). */
	if (r == 0 && nd_parse_iplink_stack(text, len, ifname, &facts->stack) == 0)
		nd_strlcpy(facts->stack.st.source, name, sizeof(facts->stack.st.source));
	free(text);
	if (r < 0)
		return;
	nd_strlcpy(facts->link.st.source, name, sizeof(facts->link.st.source));
	if (stats) {
		nd_status_set_known(&facts->link.stats_st);
		nd_strlcpy(facts->link.stats_st.source, name, sizeof(facts->link.stats_st.source));
	} else {
		nd_status_set_unknown(&facts->link.stats_st, "'%s' has no RX/TX counters", name);
	}
}

static void fill_qdisc(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	static const char rel[] = NET_DIR "/tc_-s_qdisc_show";
	char *text = NULL, root_kind[16] = "";
	size_t len = 0;
	int r = nd_sos_read(root, rel, &text, &len);

	memset(&facts->qdisc, 0, sizeof(facts->qdisc));
	if (r < 0) {
		nd_sos_missing(&facts->qdisc.st, rel, r, NULL);
	} else {
		nd_parse_tc_qdisc(text, len, ifname, &facts->qdisc, root_kind);
		free(text);
		if (facts->link.st.known && !facts->link.qdisc[0])
			nd_strlcpy(facts->link.qdisc, root_kind, sizeof(facts->link.qdisc));
		nd_strlcpy(facts->qdisc.st.source, rel, sizeof(facts->qdisc.st.source));
	}
}

/* The host and kernel when the bundle has no proc/sys/kernel copy. */
static void fill_host(const struct nd_root *root, struct nd_facts *facts)
{
	char *text = NULL, release[sizeof(facts->kernel)];
	size_t len = 0;

	if (!strcmp(facts->hostname, "unknown") &&
	    nd_sysroot_read_line(root, "/sos_commands/host/hostname", facts->hostname,
				 sizeof(facts->hostname)) < 0)
		nd_strlcpy(facts->hostname, "unknown", sizeof(facts->hostname));
	/* "Linux web1 5.15.0-91-generic #101-Ubuntu SMP ...": the third word. */
	if (!strcmp(facts->kernel, "unknown") &&
	    nd_sos_read(root, "sos_commands/kernel/uname_-a", &text, &len) == 0) {
		if (sscanf(text, "%*s %*s %63s", release) == 1)
			nd_strlcpy(facts->kernel, release, sizeof(facts->kernel));
		free(text);
	}
}

void nd_sos_fill_netlink(struct nd_source *src, const char *ifname, struct nd_facts *facts)
{
	const struct nd_root *root = src->root;

	if (nd_ifname_valid(ifname) < 0)
		return;
	fill_host(root, facts);
	fill_link(root, ifname, facts);
	fill_qdisc(root, ifname, facts);
	fill_ethtool(root, ifname, facts);
	memset(&facts->rss, 0, sizeof(facts->rss));
	nd_status_set_unknown(&facts->rss.st,
			      "a sosreport does not record the RSS indirection table (no ethtool -x)");
}

/* ---- interfaces ---- */

int nd_sos_list_ifaces(struct nd_source *src, char (*names)[ND_IFNAMSIZ], unsigned max,
		       unsigned *ret_count)
{
	static const char prefix[] = "ethtool_-i_";
	const struct nd_root *root = src->root;
	unsigned count = 0, more = 0;
	const char *name = iplink_files[0];
	struct dirent *ent;
	char *text = NULL;
	size_t len = 0;
	DIR *dir = nd_sysroot_opendir(root, "/" NET_DIR);

	while (dir && count < max && (ent = readdir(dir)) != NULL)
		if (!strncmp(ent->d_name, prefix, sizeof(prefix) - 1) &&
		    nd_ifname_valid(ent->d_name + sizeof(prefix) - 1) == 0)
			nd_strlcpy(names[count++], ent->d_name + sizeof(prefix) - 1, ND_IFNAMSIZ);
	if (dir)
		closedir(dir);
	if (nd_sos_read_first(root, iplink_files, ND_ARRAY_SIZE(iplink_files), &text, &len,
			      &name) == 0) {
		if (nd_parse_iplink_names(text, len, names + count, max - count, &more) == 0)
			count += more;
		free(text);
	}
	*ret_count = count;
	return 0;
}

/* No default route recorded: the bundle's one interface besides lo, if it
 * has only one; the header says why it was taken (the description). */
static int only_iface(struct nd_source *src, char *buf, size_t size)
{
	char names[64][ND_IFNAMSIZ];
	const char *only = NULL;
	unsigned count = 0;
	size_t used;

	if (nd_sos_list_ifaces(src, names, ND_ARRAY_SIZE(names), &count) < 0)
		return -ENOENT;
	for (unsigned i = 0; i < count; i++) {
		if (!strcmp(names[i], "lo") || (only && !strcmp(only, names[i])))
			continue;
		if (only)
			return -ENOENT;	/* several: the user must choose */
		only = names[i];
	}
	if (!only || strlen(only) >= size)
		return -ENOENT;
	nd_strlcpy(buf, only, size);
	used = strlen(src->description);
	snprintf(src->description + used, sizeof(src->description) - used,
		 "%s%s: its only interface, no default route recorded", used ? "; " : "", only);
	return 0;
}

int nd_sos_default_iface(struct nd_source *src, char *buf, size_t size)
{
	/* `ip_route` at the top is sos's link to ip_route_show_table_all. */
	static const char *const files[] = {
		"ip_route", NET_DIR "/ip_route_show_table_all", NET_DIR "/ip_-4_route",
		NET_DIR "/ip_route", NET_DIR "/ip_-6_route_show_table_all",
	};
	const struct nd_root *root = src->root;

	for (size_t i = 0; i < ND_ARRAY_SIZE(files); i++) {
		char *text = NULL;
		size_t len = 0;
		int r = nd_sos_read(root, files[i], &text, &len);

		if (r < 0)
			continue;
		r = nd_parse_ip_route_default(text, len, buf, size);
		free(text);
		if (r == 0)
			return 0;
	}
	return only_iface(src, buf, size);
}

static bool sos_detect(const struct nd_bundle *bundle)
{
	return bundle->kind == ND_BUNDLE_SOS && !bundle->from_script &&
	       !bundle->from_supportconfig;
}

const struct nd_source_ops nd_source_sos = {
	.name = "sosreport",
	.noun = "the sosreport",
	.detect = sos_detect,
	ND_SOS_SHAPED_OPS,
};

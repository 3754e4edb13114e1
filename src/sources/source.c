/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.c - the registry of source kinds and the handle's life: open
 * the live host or a bundle (bundle.c finds what the path holds, then
 * each kind's detect says whether it reads it), the questions about
 * interfaces that any kind answers, and close.  The probe itself is
 * probe.c.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "source_ops.h"

/* Live first; a path is read by the first kind whose detect takes it. */
static const struct nd_source_ops *const registry[] = {
	&nd_source_live,
	&nd_source_snapshot,
	&nd_source_sos,
	&nd_source_supportconfig,
	&nd_source_script,
};

static const struct nd_source_ops *detect(const struct nd_bundle *bundle)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(registry); i++)
		if (registry[i]->detect && registry[i]->detect(bundle))
			return registry[i];
	return NULL;
}

int nd_source_open(const char *path, struct nd_source **ret_src, char *ret_error,
		   size_t error_size)
{
	char scratch[512];
	struct nd_source *src;
	int r;

	if (!ret_error || !error_size) {
		ret_error = scratch;
		error_size = sizeof(scratch);
	}
	ret_error[0] = '\0';
	src = calloc(1, sizeof(*src));
	if (!src) {
		snprintf(ret_error, error_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	src->ops = &nd_source_live;
	if (path) {
		r = nd_bundle_open(path, &src->bundle, ret_error, error_size);
		if (r < 0) {
			free(src);
			return r;
		}
		src->ops = detect(&src->bundle);
		if (!src->ops) {
			snprintf(ret_error, error_size, "no source reads what it holds");
			nd_bundle_close(&src->bundle);
			free(src);
			return -EINVAL;
		}
	}
	r = src->ops->open(src);
	if (r < 0) {
		snprintf(ret_error, error_size, "%s", strerror(-r));
		nd_bundle_close(&src->bundle);
		free(src);
		return r;
	}
	src->ops->describe(src, src->description, sizeof(src->description));
	*ret_src = src;
	return 0;
}

void nd_source_close(struct nd_source *src)
{
	if (!src)
		return;
	src->ops->close(src);
	free(src);
}

/* ---- the kinds read from a bundle's tree ---- */

int nd_source_tree_open(struct nd_source *src)
{
	return nd_root_open(src->bundle.root, &src->root);
}

void nd_source_tree_describe(const struct nd_source *src, char *buf, size_t size)
{
	nd_bundle_describe(&src->bundle, buf, size);
}

void nd_source_tree_close(struct nd_source *src)
{
	nd_root_close(src->root);
	nd_bundle_close(&src->bundle);
}

/* ---- interfaces ---- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int nd_source_list_ifaces(struct nd_source *src, char (*names)[ND_IFNAMSIZ], unsigned max,
			  unsigned *ret_count)
{
	unsigned count = 0, unique = 0;
	struct dirent *ent;
	DIR *dir = nd_sysroot_opendir(src->root, "/sys/class/net");

	while (dir && count < max && (ent = readdir(dir)) != NULL)
		if (ent->d_name[0] != '.' && nd_ifname_valid(ent->d_name) == 0)
			nd_strlcpy(names[count++], ent->d_name, ND_IFNAMSIZ);
	if (dir)
		closedir(dir);
	if (src->ops->list_ifaces) {
		unsigned more = 0;

		if (src->ops->list_ifaces(src, names + count, max - count, &more) == 0)
			count += more;
	}
	qsort(names, count, ND_IFNAMSIZ, cmp_names);
	for (unsigned i = 0; i < count; i++)
		if (!unique || strcmp(names[unique - 1], names[i]))
			memmove(names[unique++], names[i], ND_IFNAMSIZ);
	*ret_count = unique;
	return 0;
}

bool nd_source_iface_exists(struct nd_source *src, const char *ifname)
{
	char names[256][ND_IFNAMSIZ];
	unsigned count = 0;

	if (nd_ifname_valid(ifname) < 0)
		return false;
	if (nd_probe_iface_exists(src->root, ifname))
		return true;
	/* A sosreport names interfaces in its command output too. */
	if (!src->ops->list_ifaces ||
	    nd_source_list_ifaces(src, names, ND_ARRAY_SIZE(names), &count) < 0)
		return false;
	for (unsigned i = 0; i < count; i++)
		if (!strcmp(names[i], ifname))
			return true;
	return false;
}

int nd_source_default_iface(struct nd_source *src, char *buf, size_t size)
{
	char name[ND_IFNAMSIZ] = "";
	int r;

	if (!buf || size == 0)
		return -EINVAL;
	r = nd_probe_default_iface(src->root, name, sizeof(name));
	if (r < 0 && src->ops->default_iface)
		r = src->ops->default_iface(src, name, sizeof(name));
	if (r < 0)
		return r;
	/* ret_* style: buf is left untouched on failure. */
	nd_strlcpy(buf, name, size);
	return 0;
}

/* ---- what the handle is ---- */

bool nd_source_is_live(const struct nd_source *src)
{
	return src->ops == &nd_source_live;
}

const char *nd_source_noun(const struct nd_source *src)
{
	return src->ops->noun;
}

const char *nd_source_description(const struct nd_source *src)
{
	return src->description;
}

const struct nd_bundle *nd_source_bundle(const struct nd_source *src)
{
	return nd_source_is_live(src) ? NULL : &src->bundle;
}

const struct nd_root *nd_source_root(const struct nd_source *src)
{
	return src->root;
}

struct nd_root *nd_source_recording_root(struct nd_source *src)
{
	return src->root;
}

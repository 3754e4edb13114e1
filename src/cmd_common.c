/*
 * cmd_common.c - what more than one command does with its arguments: pick
 * and validate the interface, switch to a sysroot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

/* A sysroot without the interface: say which it has, so the next try works. */
static int no_such_iface(const char *ifname)
{
	char names[64][ND_IFNAMSIZ], list[512] = "";
	unsigned count = 0;
	size_t used = 0;

	nd_probe_list_ifaces(names, ND_ARRAY_SIZE(names), &count);
	for (unsigned i = 0; i < count && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
					 names[i]);
	if (count)
		nd_err("no interface '%s' in %s; it has: %s", ifname, nd_probe_origin_noun(), list);
	else
		nd_err("no interface '%s' in %s; it names none", ifname, nd_probe_origin_noun());
	return ND_EXIT_USAGE;
}

int nd_resolve_iface(const char **ifname, char *buf, size_t size)
{
	if (!*ifname) {
		if (nd_probe_default_iface(buf, size) < 0) {
			nd_err("no interface given and no default route to take one from");
			return ND_EXIT_USAGE;
		}
		*ifname = buf;
	}
	if (nd_ifname_valid(*ifname) < 0) {
		nd_err("invalid interface name '%s'", *ifname);
		return ND_EXIT_USAGE;
	}
	if (!nd_sysroot_is_live() && !nd_probe_iface_exists(*ifname))
		return no_such_iface(*ifname);
	return 0;
}

static struct nd_bundle sysroot_bundle;

static void close_bundle(void)
{
	nd_bundle_close(&sysroot_bundle);
}

/* --sysroot PATH: a snapshot or fixture tree, a sosreport or supportconfig
 * (directory or tarball), or collect --script's tarball.  A tarball is
 * unpacked privately and removed at exit. */
int nd_use_sysroot(const char *path)
{
	char error[512], origin[sizeof(((struct nd_facts *)0)->origin)];
	int r;

	if (!path)
		return 0;
	r = nd_bundle_open(path, &sysroot_bundle, error, sizeof(error));
	if (r < 0) {
		nd_err("cannot use sysroot '%s': %s", path, error);
		return r == -ENOMEM || r == -EIO ? ND_EXIT_ENV : ND_EXIT_USAGE;
	}
	atexit(close_bundle);
	if (sysroot_bundle.skipped_members)
		nd_err("note: sysroot '%s': %llu member%s left out, first %s", path,
			(unsigned long long)sysroot_bundle.skipped_members,
			sysroot_bundle.skipped_members == 1 ? "" : "s", sysroot_bundle.skipped);
	r = nd_sysroot_set(sysroot_bundle.root);
	if (r < 0) {
		nd_err("cannot use sysroot '%s': %s", path, strerror(-r));
		return ND_EXIT_USAGE;
	}
	nd_bundle_describe(&sysroot_bundle, origin, sizeof(origin));
	nd_probe_set_origin(sysroot_bundle.kind, origin);
	return 0;
}

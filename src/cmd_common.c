/*
 * cmd_common.c - what more than one command does with its arguments: pick
 * and validate the interface, switch to a sysroot.
 */
#include <string.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"

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
	return 0;
}

int nd_use_sysroot(const char *dir)
{
	int r = dir ? nd_sysroot_set(dir) : 0;

	if (r < 0)
		nd_err("cannot use sysroot '%s': %s", dir, strerror(-r));
	return r < 0 ? ND_EXIT_USAGE : 0;
}

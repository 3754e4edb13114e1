/*
 * common.c - what more than one command does with its arguments: open
 * the source (live or --sysroot), pick and validate the interface, open
 * the pipeline with its errors said.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/source.h"

/* A sysroot without the interface: say which it has, so the next try works. */
static int no_such_iface(struct nd_source *src, const char *ifname)
{
	char names[64][ND_IFNAMSIZ], list[512] = "";
	unsigned count = 0;
	size_t used = 0;

	nd_source_list_ifaces(src, names, ND_ARRAY_SIZE(names), &count);
	for (unsigned i = 0; i < count && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
					 names[i]);
	if (count)
		nd_err("no interface '%s' in %s; it has: %s", ifname, nd_source_noun(src), list);
	else
		nd_err("no interface '%s' in %s; it names none", ifname, nd_source_noun(src));
	return ND_EXIT_USAGE;
}

int nd_resolve_iface(struct nd_source *src, const char **ifname, char *buf, size_t size)
{
	if (!*ifname) {
		if (nd_source_default_iface(src, buf, size) < 0) {
			nd_err("no interface given and no default route to take one from");
			return ND_EXIT_USAGE;
		}
		*ifname = buf;
	}
	if (nd_ifname_valid(*ifname) < 0) {
		nd_err("invalid interface name '%s'", *ifname);
		return ND_EXIT_USAGE;
	}
	if (!nd_source_is_live(src) && !nd_source_iface_exists(src, *ifname))
		return no_such_iface(src, *ifname);
	return 0;
}

/* --sysroot PATH: a snapshot or fixture tree, a sosreport or supportconfig
 * (directory or tarball), or collect --script's tarball.  A tarball is
 * unpacked privately and removed at close (or, however the process ends,
 * by bundle.c's reaper). */
int nd_cmd_open_source(const char *sysroot, struct nd_source **ret_src)
{
	const struct nd_bundle *bundle;
	char error[512];
	int r;

	r = nd_source_open(sysroot, ret_src, error, sizeof(error));
	if (r < 0 && !sysroot) {
		nd_err("cannot read the live host: %s", error);
		return ND_EXIT_ENV;
	}
	if (r < 0) {
		nd_err("cannot use sysroot '%s': %s", sysroot, error);
		return r == -ENOMEM || r == -EIO ? ND_EXIT_ENV : ND_EXIT_USAGE;
	}
	bundle = nd_source_bundle(*ret_src);
	if (bundle && bundle->skipped_members)
		nd_err("note: sysroot '%s': %llu member%s left out, first %s", sysroot,
			(unsigned long long)bundle->skipped_members,
			bundle->skipped_members == 1 ? "" : "s", bundle->skipped);
	return 0;
}

void nd_progress_stderr(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "nicdoctor: %s\n", line);
}

int nd_cmd_diagnose_open(const struct nd_diag_request *rq, struct nd_diagnosis *d)
{
	const char *bad_id = NULL;
	int r = nd_diagnose_open(rq, d, &bad_id);

	if (r == -ENODEV) {
		nd_err("no such interface '%s'", rq->ifname);
		return ND_EXIT_USAGE;
	}
	if (r == -EINVAL && bad_id) {
		nd_err("unknown check ID '%s' (see 'nicdoctor checks')", bad_id);
		return ND_EXIT_USAGE;
	}
	if (r < 0) {
		nd_err("cannot probe '%s': %s", rq->ifname, strerror(-r));
		return ND_EXIT_ENV;
	}
	return 0;
}

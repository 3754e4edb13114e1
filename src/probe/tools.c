/*
 * tools.c - the "tools" probe source: the installed iperf3 version.
 *
 * Live: `iperf3 --version` from PATH.  In a sysroot the snapshot's
 * <root>/tools/iperf3-version (written by `collect`) is read instead;
 * nothing is run, the host's iperf3 says nothing about the snapshot's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

#define IPERF3_VERSION_FILE "/tools/iperf3-version"

/* Whether an executable named name is in PATH. */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		char candidate[PATH_MAX];

		if (len > 0 && len < sizeof(candidate) - 16) {
			snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, path, name);
			if (access(candidate, X_OK) == 0)
				return true;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return false;
}

/* Run `iperf3 --version` and keep its first line.  0 or negative errno. */
static int run_iperf3_version(char *buf, size_t size)
{
	char *argv[] = { "iperf3", "--version", NULL }, *text = NULL;
	size_t len;
	int r = nd_run_capture(argv, 5000, 64 * 1024, &text, &len);

	if (r < 0)
		return r == -ENOENT ? -ENOENT : -ENOEXEC;
	text[strcspn(text, "\n")] = '\0';
	nd_strlcpy(buf, text, size);
	free(text);
	return buf[0] ? 0 : -ENOEXEC;
}

static int iperf3_version_text(const struct nd_root *root, struct nd_tools *tools, char *text,
			       size_t size)
{
	int r;

	if (!nd_sysroot_is_live(root)) {
		r = nd_sysroot_read_line(root, IPERF3_VERSION_FILE, text, size);
		if (r < 0)
			nd_status_set_unknown(&tools->iperf3, "not recorded in snapshot ('%s': %s)",
					      IPERF3_VERSION_FILE, strerror(-r));
		return r;
	}
	if (!in_path("iperf3")) {
		nd_status_set_unknown(&tools->iperf3, "iperf3 not found in PATH");
		return -ENOENT;
	}
	r = run_iperf3_version(text, size);
	if (r < 0)
		nd_status_set_unknown(&tools->iperf3, "'iperf3 --version' failed");
	return r;
}

void nd_probe_tools(const struct nd_root *root, const char *ifname, struct nd_facts *facts)
{
	struct nd_tools *tools = &facts->tools;
	char text[256];
	int major, minor;

	(void)ifname;
	memset(tools, 0, sizeof(*tools));
	if (iperf3_version_text(root, tools, text, sizeof(text)) < 0)
		return;
	if (nd_parse_iperf3_version(text, &major, &minor) < 0) {
		nd_status_set_unknown(&tools->iperf3, "unrecognised iperf3 version '%.60s'", text);
		return;
	}
	tools->iperf3_major = major;
	tools->iperf3_minor = minor;
	snprintf(tools->iperf3_version, sizeof(tools->iperf3_version), "%d.%d", major, minor);
	nd_status_set_known(&tools->iperf3);
}

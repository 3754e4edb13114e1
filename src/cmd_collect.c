/*
 * cmd_collect.c - `nicdoctor collect IF -o DIR`: a snapshot that
 * `diagnose --sysroot DIR` reads back as if it were the live host.
 *
 * The /sys and /proc files are the ones the probe read (recorded by the
 * sysroot seam) plus the PCI functions libpci reads; netlink facts, which
 * have no file, go to DIR/ethtool/IF.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/cmd.h"
#include "nicdoctor/common.h"
#include "nicdoctor/facts_json.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/snapshot.h"
#include "nicdoctor/sysroot.h"

static int mkdir_p(const char *dir)
{
	char path[4096];

	if (nd_strlcpy(path, dir, sizeof(path)) >= sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Write text to DIR/ethtool/IF.json through a temporary file and rename. */
static int write_netlink_json(const char *dir, const char *ifname, const struct nd_facts *facts)
{
	char sub[4096], path[4200], tmp[4300];
	cJSON *json = nd_facts_netlink_to_json(facts);
	char *text = json ? cJSON_Print(json) : NULL;
	FILE *out;
	int r = 0;

	cJSON_Delete(json);
	if (!text)
		return -ENOMEM;
	if (strlen(dir) > sizeof(sub) - 16) {
		free(text);
		return -ENAMETOOLONG;
	}
	snprintf(sub, sizeof(sub), "%s/ethtool", dir);
	snprintf(path, sizeof(path), "%s/%s.json", sub, ifname);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	r = mkdir_p(sub);
	if (!r) {
		out = fopen(tmp, "w");
		if (!out) {
			r = -errno;
		} else {
			int written = fprintf(out, "%s\n", text);

			if (fclose(out) != 0 || written < 0)
				r = -EIO;
			else if (rename(tmp, path) < 0)
				r = -errno;
		}
	}
	free(text);
	return r;
}

static int parse_args(int argc, char **argv, const char **ret_if, const char **ret_dir)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (c == 'o') {
			*ret_dir = optarg;
		} else if (c == 'h') {
			printf("usage: nicdoctor collect IF -o DIR\n");
			return -1;
		} else {
			nd_err("collect: unknown or incomplete option '%s'", argv[optind - 1]);
			return ND_EXIT_USAGE;
		}
	}
	if (optind < argc)
		*ret_if = argv[optind++];
	if (!*ret_if || !*ret_dir || optind < argc) {
		nd_err("usage: nicdoctor collect IF -o DIR");
		return ND_EXIT_USAGE;
	}
	if (nd_ifname_valid(*ret_if) < 0) {
		nd_err("invalid interface name '%s'", *ret_if);
		return ND_EXIT_USAGE;
	}
	return 0;
}

int cmd_collect(int argc, char **argv)
{
	const char *ifname = NULL, *dir = NULL;
	struct nd_facts *facts;
	int r, rc = parse_args(argc, argv, &ifname, &dir);

	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	nd_sysroot_record_clear();
	nd_sysroot_record(true);
	r = nd_probe(ifname, &facts);
	nd_sysroot_record(false);
	if (r == -ENODEV) {
		nd_err("no such interface '%s'", ifname);
		return ND_EXIT_USAGE;
	}
	if (r < 0) {
		nd_err("cannot probe '%s': %s", ifname, strerror(-r));
		return ND_EXIT_ENV;
	}
	r = mkdir_p(dir);
	if (r < 0)
		nd_err("cannot create '%s': %s", dir, strerror(-r));
	if (!r && (r = nd_snapshot_copy_sysfs(ifname, dir, facts)) < 0)
		nd_err("cannot copy /sys and /proc files into '%s': %s", dir, strerror(-r));
	if (!r && (r = write_netlink_json(dir, ifname, facts)) < 0)
		nd_err("cannot write '%s/ethtool/%s.json': %s", dir, ifname, strerror(-r));
	if (!r)
		printf("snapshot of %s written to %s\n", ifname, dir);
	nd_sysroot_record_clear();
	nd_facts_free(facts);
	return r < 0 ? ND_EXIT_ENV : ND_EXIT_OK;
}

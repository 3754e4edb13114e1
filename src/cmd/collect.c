/*
 * collect.c - `nicdoctor collect IF -o DIR`: a snapshot that
 * `diagnose --sysroot DIR` reads back as if it were the live host.
 *
 * The /sys and /proc files are the ones the probe read (recorded on the
 * source's root, sysroot.h) plus the PCI functions libpci reads; netlink facts, which
 * have no file, go to DIR/ethtool/IF.json.
 *
 * `nicdoctor collect --script` instead prints a sh script gathering the
 * same in a sosreport's layout, for a host without nicdoctor.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
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
#include "nicdoctor/source.h"
#include "nicdoctor/sysroot.h"

/* DIR/ethtool/IF.json: what netlink knows, written under a temporary name. */
static int write_netlink_json(int dir_fd, const char *ifname, const struct nd_facts *facts)
{
	cJSON *json = nd_facts_netlink_to_json(facts);
	char *text = json ? cJSON_Print(json) : NULL;
	char path[64];
	size_t len;
	int r;

	cJSON_Delete(json);
	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/ethtool/%s.json", ifname);
	len = strlen(text);
	text[len] = '\n';	/* over cJSON's NUL: the file is written by length */
	r = nd_snapshot_mkdir(dir_fd, "/ethtool");
	if (r == 0)
		r = nd_snapshot_write_replace(dir_fd, path, text, len + 1);
	free(text);
	return r;
}

/* Open DIR by the rules of nd_snapshot_open_output: exit code or 0. */
static int open_output(const char *dir, int *ret_fd)
{
	char why[96];
	int r = nd_snapshot_open_output(dir, ret_fd, why, sizeof(why));

	if (r < 0 && why[0]) {
		nd_err("refusing output directory '%s': %s", dir, why);
		return ND_EXIT_USAGE;
	}
	if (r < 0) {
		nd_err("cannot create '%s': %s", dir, strerror(-r));
		return ND_EXIT_ENV;
	}
	return 0;
}

#define COLLECT_USAGE "usage: nicdoctor collect IF -o DIR | nicdoctor collect --script"

/* Print the script: 0, or ND_EXIT_ENV when stdout fails (a full disk). */
static int print_script(void)
{
	size_t len;
	const char *text = nd_collect_script(&len);

	if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		nd_err("cannot write the collect script: %s", strerror(errno));
		return ND_EXIT_ENV;
	}
	return 0;
}

static int parse_args(int argc, char **argv, const char **ret_if, const char **ret_dir,
		      bool *ret_script)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "script", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (c == 'o') {
			*ret_dir = optarg;
		} else if (c == 's') {
			*ret_script = true;
		} else if (c == 'h') {
			printf("%s\n", COLLECT_USAGE);
			return -1;
		} else {
			nd_err_option("collect", argc, argv);
			return ND_EXIT_USAGE;
		}
	}
	if (optind < argc)
		*ret_if = argv[optind++];
	if (*ret_script && (*ret_if || *ret_dir || optind < argc)) {
		nd_err("collect: --script takes no interface or -o: the script collects every one");
		return ND_EXIT_USAGE;
	}
	if (*ret_script)
		return 0;
	if (!*ret_if || !*ret_dir || optind < argc) {
		nd_err("%s", COLLECT_USAGE);
		return ND_EXIT_USAGE;
	}
	if (nd_ifname_valid(*ret_if) < 0) {
		nd_err("invalid interface name '%s'", *ret_if);
		return ND_EXIT_USAGE;
	}
	return 0;
}

/* Probe ifname with the source's root recording what is read.  As nd_probe. */
static int probe_recorded(struct nd_source *src, const char *ifname, struct nd_facts **ret_facts)
{
	struct nd_root *root = nd_source_recording_root(src);
	int r;

	nd_sysroot_record_clear(root);
	r = nd_sysroot_record(root, true);
	if (r == 0)
		r = nd_probe(src, ifname, ret_facts);
	nd_sysroot_record(root, false);
	return r;
}

/* One more interface, as collect would take it alone, so that diagnose
 * --sysroot can diagnose it too; *ret_facts (may be NULL) keeps its facts.
 * 0 (also when it is gone since its upper was read) or a negative errno. */
static int collect_one(struct nd_source *src, int dir_fd, const char *name,
		       struct nd_facts **ret_facts)
{
	const struct nd_root *root = nd_source_root(src);
	struct nd_facts *facts;
	int r = probe_recorded(src, name, &facts);

	if (ret_facts)
		*ret_facts = NULL;
	if (r == -ENODEV)
		return 0;
	if (r < 0)
		return r;
	r = nd_snapshot_copy_sysfs(root, name, dir_fd, facts);
	if (r == 0)
		r = write_netlink_json(dir_fd, name, facts);
	if (r == 0 && ret_facts)
		*ret_facts = facts;
	else
		nd_facts_free(facts);
	return r;
}

static bool seen(char (*names)[ND_IFNAMSIZ], unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* A bond's members, and a stacked device's lowers down to the NICs (each
 * name once, as diagnose follows them: src/diagnose/stack.c). */
static int collect_members(struct nd_source *src, int dir_fd, const struct nd_facts *facts)
{
	char names[1 + ND_MAX_BOND_MEMBERS][ND_IFNAMSIZ];
	unsigned n = 0, depth[1 + ND_MAX_BOND_MEMBERS];
	int r = 0;

	nd_strlcpy(names[n], facts->ifname, ND_IFNAMSIZ);
	depth[n++] = 0;
	for (unsigned i = 0; r == 0 && facts->bond.is_bond && i < facts->bond.n_members; i++) {
		r = collect_one(src, dir_fd, facts->bond.members[i].name, NULL);
		if (n < ND_ARRAY_SIZE(names) && !seen(names, n, facts->bond.members[i].name)) {
			nd_strlcpy(names[n], facts->bond.members[i].name, ND_IFNAMSIZ);
			depth[n++] = ND_STACK_MAX_DEPTH;	/* not followed further */
		}
	}
	/* Breadth first over the lowers; names[] is the queue. */
	for (unsigned q = 0; r == 0 && q < n; q++) {
		struct nd_facts *f = NULL;
		const struct nd_stack *s;

		if (q == 0)
			s = &facts->stack;
		else if (depth[q] >= ND_STACK_MAX_DEPTH ||
			 (r = collect_one(src, dir_fd, names[q], &f)) < 0 || !f)
			continue;
		else
			s = &f->stack;
		for (unsigned i = 0; s->st.known && i < s->n_lowers && n < ND_ARRAY_SIZE(names);
		     i++) {
			if (seen(names, n, s->lowers[i]))
				continue;
			nd_strlcpy(names[n], s->lowers[i], ND_IFNAMSIZ);
			depth[n++] = depth[q] + 1;
		}
		nd_facts_free(f);
	}
	return r;
}

int cmd_collect(int argc, char **argv)
{
	const char *ifname = NULL, *dir = NULL;
	struct nd_source *src = NULL;
	struct nd_facts *facts;
	bool script = false;
	int dir_fd = -1, r, rc = parse_args(argc, argv, &ifname, &dir, &script);

	if (rc)
		return rc < 0 ? ND_EXIT_OK : rc;
	if (script)
		return print_script();
	if ((rc = nd_cmd_open_source(NULL, &src)) != 0)
		return rc;
	r = probe_recorded(src, ifname, &facts);
	if (r == -ENODEV) {
		nd_err("no such interface '%s'", ifname);
		nd_source_close(src);
		return ND_EXIT_USAGE;
	}
	if (r < 0) {
		nd_err("cannot probe '%s': %s", ifname, strerror(-r));
		nd_source_close(src);
		return ND_EXIT_ENV;
	}
	rc = open_output(dir, &dir_fd);
	if (!rc && (r = nd_snapshot_copy_sysfs(nd_source_root(src), ifname, dir_fd, facts)) < 0)
		nd_err("cannot copy /sys and /proc files into '%s': %s", dir, strerror(-r));
	if (!rc && !r && (r = write_netlink_json(dir_fd, ifname, facts)) < 0)
		nd_err("cannot write '%s/ethtool/%s.json': %s", dir, ifname, strerror(-r));
	if (!rc && !r && (r = collect_members(src, dir_fd, facts)) < 0)
		nd_err("cannot write the members of '%s' into '%s': %s", ifname, dir, strerror(-r));
	if (!rc && !r)
		printf("snapshot of %s written to %s\n", ifname, dir);
	if (dir_fd >= 0)
		close(dir_fd);
	nd_facts_free(facts);
	nd_source_close(src);
	return rc ? rc : r < 0 ? ND_EXIT_ENV : ND_EXIT_OK;
}

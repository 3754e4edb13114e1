/*
 * team.c - the team probe (team.h): a team device's ports and teamd's
 * runner.  The kernel's team driver only moves packets; the runner (LACP,
 * load balancing, active-backup) and the tx hash live in teamd, which
 * `teamdctl TEAM state dump` / `config dump` print as JSON.  A sosreport
 * keeps those outputs under sos_commands/teamd/ (sos's teamd plugin runs
 * them for each "team*" link); live, teamdctl is run when installed.
 * Where neither is there the runner is unknown with the reason, and the
 * ports still come from netlink or the team's lower_* links.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/team.h"
#include "nicdoctor/sysfs_util.h"

/* teamd's state of a team with 32 ports is a few tens of KiB */
#define TEAMDCTL_MAX_OUTPUT (1024 * 1024)

/* teamdctl asks teamd over its socket: a stuck teamd must not stall us */
#define TEAMDCTL_TIMEOUT_MS 5000

int nd_team_dump(const char *ifname, const char *what, char **ret_text, size_t *ret_len)
{
	char *argv[] = { "teamdctl", (char *)ifname, (char *)what, "dump", NULL };
	int r = nd_run_capture(argv, TEAMDCTL_TIMEOUT_MS, TEAMDCTL_MAX_OUTPUT, ret_text, ret_len);

	if (r == 0 && *ret_len == 0) {
		free(*ret_text);
		r = -EIO;
	}
	return r == -ENOENT ? -ENOENT : r < 0 ? -EIO : 0;
}

/* Live: netlink found the team and its ports; teamd's JSON adds the
 * runner, the tx hash and the link watches' view of each port. */
static void probe_live(const char *ifname, struct nd_bond *b)
{
	char *text = NULL;
	size_t len = 0;
	int r = nd_team_dump(ifname, "state", &text, &len);

	if (r == 0 && nd_parse_teamd_state(text, len, b) < 0)
		r = -EINVAL;
	free(text);
	if (r < 0) {
		snprintf(b->team_reason, sizeof(b->team_reason), "%s",
			 r == -ENOENT  ? "teamdctl is not installed: the runner lives in teamd"
			 : r == -EINVAL ? "teamdctl printed no state JSON"
					: "teamdctl state dump failed (teamd not running, or not root)");
		return;
	}
	nd_strlcpy(b->source, "netlink+teamdctl", sizeof(b->source));
	if (nd_team_dump(ifname, "config", &text, &len) == 0) {
		nd_parse_teamd_config(text, len, b);
		free(text);
	}
}

/* A sosreport's (or a sysroot's) sos_commands/teamd/teamdctl_IF_WHAT_dump. */
static int read_dump(const struct nd_root *root, const char *ifname, const char *what,
		     char **ret_text, size_t *ret_len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sos_commands/teamd/teamdctl_%s_%s_dump", ifname, what);
	return nd_sysroot_read_alloc(root, path, ret_text, ret_len);
}

/* Ports without teamd's state: the config's "ports" names, else the
 * team's lower_* links; MII status from the port's carrier. */
static void ports_from_sysfs(const struct nd_root *root, const char *ifname, struct nd_bond *b)
{
	char path[128], line[16];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	dir = b->n_members ? NULL : nd_sysroot_opendir(root, path);
	while (dir && (de = readdir(dir)) && b->n_members < ND_MAX_BOND_MEMBERS)
		if (!strncmp(de->d_name, "lower_", 6) && nd_ifname_valid(de->d_name + 6) == 0) {
			nd_bond_member_reset(&b->members[b->n_members]);
			nd_strlcpy(b->members[b->n_members++].name, de->d_name + 6,
				   sizeof(b->members[0].name));
		}
	if (dir)
		closedir(dir);
	for (unsigned i = 0; i < b->n_members; i++) {
		struct nd_bond_member *m = &b->members[i];

		snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", m->name);
		if (!m->mii_status[0] && nd_sysroot_read_line(root, path, line, sizeof(line)) == 0)
			nd_strlcpy(m->mii_status, !strcmp(line, "1") ? "up" : "down",
				   sizeof(m->mii_status));
	}
}

static int probe_dumps(const struct nd_root *root, const char *ifname, struct nd_bond *b)
{
	char *state = NULL, *config = NULL;
	size_t state_len = 0, config_len = 0;
	bool have_state, have_config;

	have_state = read_dump(root, ifname, "state", &state, &state_len) == 0 &&
		     nd_parse_teamd_state(state, state_len, b) == 0;
	have_config = read_dump(root, ifname, "config", &config, &config_len) == 0 &&
		      nd_parse_teamd_config(config, config_len, b) == 0;
	free(state);
	free(config);
	if (!have_state && !have_config)
		return -ENOENT;
	if (!have_state)
		snprintf(b->team_reason, sizeof(b->team_reason), "no teamdctl state dump in "
			 "sos_commands/teamd: the ports' link watches and LACP state are unknown");
	else if (!have_config)
		snprintf(b->team_reason, sizeof(b->team_reason), "no teamdctl config dump in "
			 "sos_commands/teamd: the runner's tx_hash is unknown");
	ports_from_sysfs(root, ifname, b);
	return 0;
}

int nd_probe_team(const struct nd_root *root, const char *ifname, struct nd_bond *b)
{
	if (nd_sysroot_is_live(root)) {
		if (!b->is_team)
			return -ENOENT;
		probe_live(ifname, b);
	} else {
		nd_bond_reset(b);
		if (probe_dumps(root, ifname, b) < 0)
			return -ENOENT;
		nd_strlcpy(b->source, "teamdctl", sizeof(b->source));
	}
	b->is_bond = b->is_team = true;
	nd_team_map(b);
	if (!b->mode[0] && !b->team_reason[0])
		snprintf(b->team_reason, sizeof(b->team_reason), "teamd's state names no runner");
	nd_status_set_known(&b->st);
	return 0;
}

/*
 * test_collect_team.c - what `nicdoctor collect` keeps of a team
 * (src/collect/collect_copy.c): teamd's state and config dumps where
 * diagnose --sysroot reads them (sos_commands/teamd/, as sosreport keeps
 * them), so the snapshot diagnoses as the live team did.  This kernel has
 * no team driver and the machine no teamd: a stand-in teamdctl on PATH
 * prints a fixture's dumps (written in libteam's layout), and the facts
 * are the ones the live probe would have filled from netlink.  Without
 * teamdctl nothing of teamd's is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/bond.h"
#include "nicdoctor/common.h"
#include "nicdoctor/snapshot.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/team.h"

#define FIXTURE "tests/fixtures/team-loadbalance-l4-port-down"

struct fixture {
	char bin[64], out[64];
	char *path0;
	struct nd_facts facts;
};

static char *slurp(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	char *text = calloc(1, 1 << 16);
	size_t len;

	assert_non_null(f);
	assert_non_null(text);
	len = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	*ret_len = len;
	return text;
}

/* teamdctl IF state|config dump, from the fixture; anything else fails */
static void write_teamdctl(const char *bin)
{
	char path[PATH_MAX], cwd[PATH_MAX];
	FILE *f;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(path, sizeof(path), "%s/teamdctl", bin);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n[ \"$3\" = dump ] || exit 1\n"
		"exec cat \"%s/" FIXTURE "/sos_commands/teamd/teamdctl_$1_$2_dump\"\n", cwd);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	const char *path = getenv("PATH");
	char *with_bin;

	assert_non_null(fx);
	strcpy(fx->bin, "/tmp/nd-collect-team-bin.XXXXXX");
	strcpy(fx->out, "/tmp/nd-collect-team-out.XXXXXX");
	assert_non_null(mkdtemp(fx->bin));
	assert_non_null(mkdtemp(fx->out));
	fx->path0 = strdup(path ? path : "/usr/bin:/bin");
	assert_true(asprintf(&with_bin, "%s:%s", fx->bin, fx->path0) > 0);
	setenv("PATH", with_bin, 1);
	free(with_bin);
	/* what the live probe knows from netlink: a team of two ports */
	nd_bond_reset(&fx->facts.bond);
	fx->facts.bond.is_bond = fx->facts.bond.is_team = true;
	fx->facts.bond.n_members = 2;
	strcpy(fx->facts.bond.members[0].name, "lo");	/* a live port's files */
	strcpy(fx->facts.bond.members[1].name, "ens2f1");	/* gone: skipped */
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[256];

	setenv("PATH", fx->path0, 1);
	free(fx->path0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", fx->bin, fx->out);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

static int collect(struct fixture *fx)
{
	char why[128];
	int fd, r;

	assert_int_equal(nd_snapshot_open_output(fx->out, &fd, why, sizeof(why)), 0);
	r = nd_snapshot_copy_sysfs(&nd_root_live, "team0", fd, &fx->facts);
	close(fd);
	return r;
}

static void test_dumps_kept(void **state)
{
	struct fixture *fx = *state;
	static const char *const what[] = { "state", "config" };
	char path[PATH_MAX];
	struct nd_root *root;
	struct nd_bond b;

	write_teamdctl(fx->bin);
	assert_int_equal(collect(fx), 0);
	for (int i = 0; i < 2; i++) {
		size_t want_len, got_len;
		char *want, *got;

		snprintf(path, sizeof(path), FIXTURE "/sos_commands/teamd/teamdctl_team0_%s_dump",
			 what[i]);
		want = slurp(path, &want_len);
		snprintf(path, sizeof(path), "%s/sos_commands/teamd/teamdctl_team0_%s_dump",
			 fx->out, what[i]);
		got = slurp(path, &got_len);
		assert_true(want_len > 0);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
		free(want);
		free(got);
	}
	/* the live port's link files, through /sys/class/net's link */
	snprintf(path, sizeof(path), "%s/sys/class/net/lo/mtu", fx->out);
	assert_int_equal(access(path, F_OK), 0);
	/* and diagnose --sysroot reads the team from them */
	assert_int_equal(nd_root_open(fx->out, &root), 0);
	nd_bond_reset(&b);
	assert_int_equal(nd_probe_team(root, "team0", &b), 0);
	nd_root_close(root);
	assert_true(b.is_team);
	assert_string_equal(b.team_runner, "loadbalance");
	assert_string_equal(b.mode, "balance-xor");
	assert_string_equal(b.xmit_hash_policy, "layer3+4");
	assert_int_equal(b.n_members, 2);
}

static void test_no_teamdctl(void **state)
{
	struct fixture *fx = *state;
	char path[PATH_MAX];

	setenv("PATH", fx->bin, 1);	/* empty: no teamdctl anywhere */
	assert_int_equal(collect(fx), 0);
	snprintf(path, sizeof(path), "%s/sos_commands", fx->out);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/sys/class/net/lo/mtu", fx->out);
	assert_int_equal(access(path, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dumps_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_teamdctl, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

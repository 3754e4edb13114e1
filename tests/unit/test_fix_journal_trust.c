/*
 * test_fix_journal_trust.c - what a journal may make revert do: only the
 * knobs the fix kinds write, on the journal's own interface, and only the
 * files --persist writes; nothing from a journal or state directory that
 * someone other than root could have written; and an apply after earlier
 * journals keeps the value from before the first of them as the original.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/fix.h"
#include "state_dir_fixture.h"

static int setup(void **state)
{
	(void)state;
	return state_dir_setup("/tmp/nd-test-trust.XXXXXX", "/scratch-etc");
}

static struct nd_fix_journal *journal_with(const char *kind, const char *key,
					   const char *original, const char *target)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	struct nd_fix_step *s;

	assert_non_null(j);
	nd_strlcpy(j->ifname, "nda", sizeof(j->ifname));
	nd_strlcpy(j->state, "applied", sizeof(j->state));
	j->created_usec = 1000;
	s = &j->steps[j->n_steps++];
	s->kind = nd_fix_kind_find(kind);
	assert_non_null(s->kind);
	nd_strlcpy(s->key, key, sizeof(s->key));
	nd_strlcpy(s->current, original, sizeof(s->current));
	nd_strlcpy(s->target, target, sizeof(s->target));
	return j;
}

static int validate(const char *kind, const char *key, const char *original)
{
	struct nd_fix_journal *j = journal_with(kind, key, original, original);
	char why[256] = "";
	int r = nd_fix_journal_validate(j, "nda", why, sizeof(why));

	if (r < 0 && !strstr(why, "is not a change 'nicdoctor fix' makes"))
		fail_msg("reason '%s'", why);
	free(j);
	return r;
}

static void test_fix_own_steps_pass(void **state)
{
	(void)state;
	assert_int_equal(validate("offloads", "rx-gro", "off"), 0);
	assert_int_equal(validate("channels", "rx", "1"), 0);
	assert_int_equal(validate("channels", "combined", "8"), 0);
	assert_int_equal(validate("rings", "rx", "4096"), 0);
	assert_int_equal(validate("rps", "queues/rx-0/rps_cpus", "0"), 0);
	assert_int_equal(validate("rps", "queues/rx-12/rps_cpus", "ff,00000000"), 0);
	assert_int_equal(validate("rps", "queues/rx-3/rps_flow_cnt", "4096"), 0);
	assert_int_equal(validate("rps", "net.core.rps_sock_flow_entries", "0"), 0);
	assert_int_equal(validate("irq_affinity", "irq/45", "0-3,8"), 0);
	assert_int_equal(validate("sysctl", "net.core.rmem_max", "212992"), 0);
	assert_int_equal(validate("sysctl", "net.core.netdev_max_backlog", "1000"), 0);
	assert_int_equal(validate("sysctl", "net.ipv4.tcp_rmem", "4096 131072 6291456"), 0);
}

static void test_other_knobs_refused(void **state)
{
	(void)state;
	assert_int_equal(validate("sysctl", "kernel.hostname", "pwned"), -EPERM);
	assert_int_equal(validate("sysctl", "net.ipv4.ip_forward", "1"), -EPERM);
	assert_int_equal(validate("sysctl", "net.core.rmem_max", "1; reboot"), -EPERM);
	assert_int_equal(validate("sysctl", "net.ipv4.tcp_rmem", "1 2 3 4"), -EPERM);
	assert_int_equal(validate("rps", "net.ipv4.ip_forward", "1"), -EPERM);
	assert_int_equal(validate("rps", "queues/rx-0/../../mtu", "0"), -EPERM);
	assert_int_equal(validate("rps", "queues/tx-0/xps_cpus", "0"), -EPERM);
	assert_int_equal(validate("rps", "queues/rx-0/rps_cpus/x", "0"), -EPERM);
	assert_int_equal(validate("rps", "queues/rx-/rps_cpus", "0"), -EPERM);
	assert_int_equal(validate("rps", "queues/rx-0/rps_cpus", "0\n1"), -EPERM);
	assert_int_equal(validate("irq_affinity", "irq/45/../../sys/x", "0"), -EPERM);
	assert_int_equal(validate("irq_affinity", "irq/45", "0 > /etc/x"), -EPERM);
	assert_int_equal(validate("offloads", "tx-nocache-copy", "on"), -EPERM);
	assert_int_equal(validate("offloads", "rx-gro", "1"), -EPERM);
	assert_int_equal(validate("channels", "other", "1"), -EPERM);
	assert_int_equal(validate("rings", "rx", "-1"), -EPERM);
}

static void test_interface_and_files(void **state)
{
	struct nd_fix_journal *j = journal_with("offloads", "rx-gro", "off", "on");
	char why[256] = "";

	(void)state;
	/* journal-...-nda.json must be about nda. */
	assert_int_equal(nd_fix_journal_validate(j, "ndb", why, sizeof(why)), -EPERM);
	assert_string_equal(why, "it names interface 'nda', its file name 'ndb'");
	j->n_files = 1;
	nd_strlcpy(j->files[0].path, "/scratch-etc/udev/rules.d/90-nicdoctor-nda.rules",
		   sizeof(j->files[0].path));
	assert_int_equal(nd_fix_journal_validate(j, "nda", why, sizeof(why)), 0);
	nd_strlcpy(j->files[0].path, "/scratch-etc/sysctl.d/90-nicdoctor.conf",
		   sizeof(j->files[0].path));
	assert_int_equal(nd_fix_journal_validate(j, "nda", why, sizeof(why)), 0);
	nd_strlcpy(j->files[0].path, "/scratch-etc/udev/rules.d/90-nicdoctor-ndb.rules",
		   sizeof(j->files[0].path));
	assert_int_equal(nd_fix_journal_validate(j, "nda", why, sizeof(why)), -EPERM);
	nd_strlcpy(j->files[0].path, "/scratch-etc/sysctl.d/../../etc/passwd",
		   sizeof(j->files[0].path));
	assert_int_equal(nd_fix_journal_validate(j, "nda", why, sizeof(why)), -EPERM);
	assert_string_equal(why, "file 1 '/scratch-etc/sysctl.d/../../etc/passwd' is not one "
			    "--persist writes for 'nda'");
	nd_strlcpy(j->files[0].path, "/etc/passwd", sizeof(j->files[0].path));
	assert_int_equal(nd_fix_journal_validate(j, "nda", why, sizeof(why)), -EPERM);
	free(j);
}

static void write_journal(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"nda\",\"state\":\"applied\","
	      "\"created_usec\":1,\"steps\":[]}", f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void expect_refused(const char *path, const char *why_want)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	char why[256] = "";

	assert_int_equal(nd_fix_journal_read(path, j, why, sizeof(why)), -EPERM);
	assert_string_equal(why, why_want);
	free(j);
}

static void test_untrusted_files_refused(void **state)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	char path[4200], link[4200], why[4300] = "";

	(void)state;
	snprintf(path, sizeof(path), "%s/journal-0000000000000001-nda.json", state_dir);
	write_journal(path, 0600);
	assert_int_equal(nd_fix_journal_read(path, j, why, sizeof(why)), 0);
	write_journal(path, 0666);
	expect_refused(path, "writable by group or others");
	write_journal(path, 0620);
	expect_refused(path, "writable by group or others");
	if (geteuid() == 0) {
		write_journal(path, 0600);
		assert_int_equal(chown(path, 65534, 65534), 0);
		expect_refused(path, "owned by uid 65534, not root");
	}
	unlink(path);
	write_journal(path, 0600);
	snprintf(link, sizeof(link), "%s/journal-0000000000000002-nda.json", state_dir);
	assert_int_equal(symlink(path, link), 0);
	expect_refused(link, "a symlink");
	unlink(link);
	unlink(path);
	/* The state directory itself. */
	assert_int_equal(nd_fix_state_dir_check(why, sizeof(why)), 0);
	assert_int_equal(chmod(state_dir, 0777), 0);
	assert_int_equal(nd_fix_state_dir_check(why, sizeof(why)), -EPERM);
	snprintf(path, sizeof(path), "state directory '%s' is writable by group or others",
		 state_dir);
	assert_string_equal(why, path);
	assert_int_equal(nd_fix_lock(&(int){ 0 }), -EPERM);
	assert_int_equal(chmod(state_dir, 0700), 0);
	free(j);
}

/* A plan step's knob reads "B"; earlier journals say what it was before. */
static int fake_get(const char *ifname, const char *key, char *ret_value, size_t size)
{
	(void)ifname;
	(void)key;
	nd_strlcpy(ret_value, "B", size);
	return 0;
}

static void test_capture_keeps_first_original(void **state)
{
	const struct nd_fix_kind fake = { .name = "sysctl", .get = fake_get };
	struct nd_fix_journal *older = journal_with("sysctl", "net.core.rmem_max", "A", "B");
	struct nd_fix_journal *newer = journal_with("sysctl", "net.core.rmem_max", "A2", "B");
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	struct nd_fix_plan *plan = calloc(1, sizeof(*plan));
	struct nd_fix_journal_set set = { .n = 2, .j = { newer, older } };
	char why[128];

	(void)state;
	nd_strlcpy(plan->ifname, "nda", sizeof(plan->ifname));
	plan->n_steps = 2;
	plan->steps[0].kind = &fake;
	nd_strlcpy(plan->steps[0].key, "net.core.rmem_max", sizeof(plan->steps[0].key));
	nd_strlcpy(plan->steps[0].target, "C", sizeof(plan->steps[0].target));
	plan->steps[1].kind = &fake;
	nd_strlcpy(plan->steps[1].key, "net.core.wmem_max", sizeof(plan->steps[1].key));
	nd_strlcpy(plan->steps[1].target, "C", sizeof(plan->steps[1].target));
	assert_int_equal(nd_fix_journal_capture_after(j, plan, &set, why, sizeof(why)), 0);
	assert_int_equal(j->n_steps, 2);
	assert_string_equal(j->steps[0].current, "A");	/* the oldest journal's */
	assert_string_equal(j->steps[1].current, "B");	/* no journal touched it */
	/* A reverted journal's originals are history, not this knob's. */
	nd_strlcpy(older->state, "reverted", sizeof(older->state));
	assert_int_equal(nd_fix_journal_capture_after(j, plan, &set, why, sizeof(why)), 0);
	assert_string_equal(j->steps[0].current, "A2");
	free(older);
	free(newer);
	free(j);
	free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fix_own_steps_pass),
		cmocka_unit_test(test_other_knobs_refused),
		cmocka_unit_test(test_interface_and_files),
		cmocka_unit_test(test_untrusted_files_refused),
		cmocka_unit_test(test_capture_keeps_first_original),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

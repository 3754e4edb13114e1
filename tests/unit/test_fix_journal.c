/*
 * test_fix_journal.c - the fix journal on disk: a round trip keeps every
 * step and file, the journals of an interface come newest first, and a
 * truncated, corrupt or out-of-range journal is refused with a reason,
 * never half-read.  test_fix_journal_trust.c has the allow-list and the
 * owner and mode rules.
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
	return state_dir_setup("/tmp/nd-test-journal.XXXXXX", "/nonexistent-etc");
}

static struct nd_fix_journal *journal_new(const char *ifname, long long usec)
{
	struct nd_fix_journal *j = calloc(1, sizeof(*j));
	struct nd_fix_step *s;

	assert_non_null(j);
	nd_strlcpy(j->ifname, ifname, sizeof(j->ifname));
	nd_strlcpy(j->state, "applying", sizeof(j->state));
	j->created_usec = usec;
	s = &j->steps[j->n_steps++];
	s->kind = nd_fix_kind_find("channels");
	nd_strlcpy(s->key, "combined", sizeof(s->key));
	nd_strlcpy(s->what, "combined channels", sizeof(s->what));
	nd_strlcpy(s->current, "1", sizeof(s->current));
	nd_strlcpy(s->target, "8", sizeof(s->target));
	nd_strlcpy(s->finding_id, "queues.single", sizeof(s->finding_id));
	s = &j->steps[j->n_steps++];
	s->kind = nd_fix_kind_find("sysctl");
	nd_strlcpy(s->key, "net.ipv4.tcp_rmem", sizeof(s->key));
	nd_strlcpy(s->current, "4096 131072 6291456", sizeof(s->current));
	nd_strlcpy(s->target, "4096 131072 16777216", sizeof(s->target));
	j->files[0].existed = true;
	nd_fix_persist_path(ifname, ND_PERSIST_SYSCTL, j->files[0].path, sizeof(j->files[0].path));
	j->files[0].original = strdup("net.core.rmem_max = 1\n");
	j->files[0].content = strdup("# new\n");
	nd_fix_persist_path(ifname, ND_PERSIST_UDEV, j->files[1].path, sizeof(j->files[1].path));
	j->files[1].content = strdup("ACTION==\"add\"\n");
	j->n_files = 2;
	return j;
}

static void test_round_trip(void **state)
{
	struct nd_fix_journal *j = journal_new("eth0", 1000), *back = calloc(1, sizeof(*back));
	char why[128] = "";

	(void)state;
	assert_int_equal(nd_fix_journal_write(j), 0);
	assert_non_null(strstr(j->path, "/journal-0000000000001000-eth0.json"));
	assert_int_equal(nd_fix_journal_read(j->path, back, why, sizeof(why)), 0);
	assert_string_equal(back->ifname, "eth0");
	assert_string_equal(back->state, "applying");
	assert_int_equal(back->n_steps, 2);
	assert_ptr_equal(back->steps[0].kind, nd_fix_kind_find("channels"));
	assert_string_equal(back->steps[0].current, "1");
	assert_string_equal(back->steps[0].target, "8");
	assert_string_equal(back->steps[0].finding_id, "queues.single");
	assert_string_equal(back->steps[1].current, "4096 131072 6291456");
	assert_int_equal(back->n_files, 2);
	assert_true(back->files[0].existed);
	assert_string_equal(back->files[0].original, "net.core.rmem_max = 1\n");
	assert_false(back->files[1].existed);
	assert_null(back->files[1].original);
	assert_string_equal(back->files[1].content, "ACTION==\"add\"\n");
	/* Rewriting in place keeps the path. */
	nd_strlcpy(j->state, "applied", sizeof(j->state));
	assert_int_equal(nd_fix_journal_write(j), 0);
	nd_fix_journal_free(back);
	assert_int_equal(nd_fix_journal_read(j->path, back, why, sizeof(why)), 0);
	assert_string_equal(back->state, "applied");
	unlink(j->path);
	nd_fix_journal_free(back);
	nd_fix_journal_free(j);
	free(back);
	free(j);
}

static void test_all_newest_first(void **state)
{
	struct nd_fix_journal *a = journal_new("eth0", 2000), *b = journal_new("eth1", 3000);
	struct nd_fix_journal *c = journal_new("eth0", 2500);
	struct nd_fix_journal_set set;
	char path[4096], why[160];

	(void)state;
	nd_strlcpy(a->state, "reverted", sizeof(a->state));
	assert_int_equal(nd_fix_journal_write(a), 0);
	assert_int_equal(nd_fix_journal_write(b), 0);
	assert_int_equal(nd_fix_journal_write(c), 0);
	assert_int_equal(nd_fix_journal_load_all("eth0", false, &set, path, sizeof(path), why,
						 sizeof(why)), 0);
	assert_int_equal(set.n, 2);
	assert_int_equal(set.n_pending, 1);
	assert_string_equal(set.j[0]->path, c->path);
	assert_string_equal(set.j[1]->path, a->path);
	nd_fix_journal_set_free(&set);
	/* Pending only: the reverted one is read and checked, not kept. */
	assert_int_equal(nd_fix_journal_load_all("eth0", true, &set, path, sizeof(path), why,
						 sizeof(why)), 0);
	assert_int_equal(set.n, 1);
	assert_int_equal(set.n_seen, 2);
	nd_fix_journal_set_free(&set);
	assert_int_equal(nd_fix_journal_load_all(NULL, false, &set, path, sizeof(path), why,
						 sizeof(why)), 0);
	assert_int_equal(set.n, 3);
	assert_string_equal(set.j[0]->path, b->path);
	nd_fix_journal_set_free(&set);
	assert_int_equal(nd_fix_journal_load_all("eth9", true, &set, path, sizeof(path), why,
						 sizeof(why)), 0);
	assert_int_equal(set.n_seen, 0);
	unlink(a->path);
	unlink(b->path);
	unlink(c->path);
	nd_fix_journal_free(a);
	nd_fix_journal_free(b);
	nd_fix_journal_free(c);
	free(a);
	free(b);
	free(c);
}

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	chmod(path, 0600);
}

static void test_truncated_is_refused(void **state)
{
	struct nd_fix_journal *j = journal_new("eth2", 4000), *back = calloc(1, sizeof(*back));
	char why[128] = "", path[4200], *text;
	FILE *f;
	long len;

	(void)state;
	assert_int_equal(nd_fix_journal_write(j), 0);
	f = fopen(j->path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	snprintf(path, sizeof(path), "%s/truncated.json", state_dir);
	write_text(path, text, (size_t)len / 2);
	back->n_steps = 77;	/* untouched on failure */
	assert_int_equal(nd_fix_journal_read(path, back, why, sizeof(why)), -EBADMSG);
	assert_string_equal(why, "not valid JSON (truncated or corrupt)");
	assert_int_equal(back->n_steps, 77);
	free(text);
	nd_fix_journal_free(j);
	free(j);
	free(back);
}

static void expect_bad(const char *text, const char *why_part)
{
	struct nd_fix_journal *back = calloc(1, sizeof(*back));
	char why[160] = "", path[4200];

	snprintf(path, sizeof(path), "%s/corrupt.json", state_dir);
	write_text(path, text, strlen(text));
	assert_int_equal(nd_fix_journal_read(path, back, why, sizeof(why)), -EBADMSG);
	if (!strstr(why, why_part))
		fail_msg("reason '%s' lacks '%s'", why, why_part);
	free(back);
}

static void test_corrupt_is_refused(void **state)
{
	(void)state;
	expect_bad("[]", "not a nicdoctor.journal/1 document");
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"a/b\",\"state\":\"applied\",\"created_usec\":1,"
		   "\"steps\":[]}", "no valid 'interface'");
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"eth0\",\"state\":\"applied\",\"created_usec\":1}",
		   "no 'steps' array");
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"eth0\",\"state\":\"applied\",\"created_usec\":1,"
		   "\"steps\":[{\"kind\":\"teleport\",\"key\":\"k\",\"original\":\"1\","
		   "\"target\":\"2\"}]}", "step 1 has an unknown kind 'teleport'");
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"eth0\",\"state\":\"applied\",\"created_usec\":1,"
		   "\"steps\":[{\"kind\":\"rps\",\"key\":\"k\",\"target\":\"2\"}]}",
		   "step 1 lacks 'key', 'original' or 'target'");
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"eth0\",\"state\":\"applied\",\"created_usec\":1,"
		   "\"steps\":[],\"files\":[{\"path\":\"/etc/x\",\"existed\":true}]}",
		   "file 1 existed but its original content is missing");
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"eth0\","
		   "\"state\":\"teleported\",\"created_usec\":1,\"steps\":[]}", "no known 'state'");
}

/* created_usec is cast to an integer: out of range is refused, never cast. */
static void test_created_usec_range(void **state)
{
	static const char *const bad_values[] = { "1e300", "-1", "-1e300", "9.3e18", "\"1\"",
						  "null", "true" };
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		snprintf(text, sizeof(text), "{\"schema\":\"nicdoctor.journal/1\",\"interface\":"
			 "\"eth0\",\"state\":\"applied\",\"created_usec\":%s,\"steps\":[]}",
			 bad_values[i]);
		expect_bad(text, "no 'created_usec' between 0 and");
	}
	expect_bad("{\"schema\":\"nicdoctor.journal/1\",\"interface\":\"eth0\","
		   "\"state\":\"applied\",\"steps\":[]}", "no 'created_usec'");
}

static void test_missing_file(void **state)
{
	struct nd_fix_journal *back = calloc(1, sizeof(*back));
	char why[64];

	(void)state;
	assert_int_equal(nd_fix_journal_read("/nonexistent/j.json", back, why, sizeof(why)),
			 -ENOENT);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_all_newest_first),
		cmocka_unit_test(test_truncated_is_refused),
		cmocka_unit_test(test_corrupt_is_refused),
		cmocka_unit_test(test_created_usec_range),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

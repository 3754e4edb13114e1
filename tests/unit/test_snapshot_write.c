/*
 * test_snapshot_write.c - collect's write side (snapshot_write.c) in a
 * scratch directory: the rules for the output directory, and that no
 * write below it goes through a link, not even one collect made itself.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "nicdoctor/snapshot.h"

static char scratch[64];

static int setup(void **state)
{
	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/nd-unit-snap.XXXXXX");
	return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	return system(cmd) == 0 ? 0 : -1;
}

static void at(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", scratch, name);
}

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	at(path, sizeof(path), name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void assert_file(const char *name, const char *want)
{
	char path[256], got[64] = "";
	FILE *f;

	at(path, sizeof(path), name);
	f = fopen(path, "r");
	assert_non_null(f);
	if (!fgets(got, sizeof(got), f))
		got[0] = '\0';
	fclose(f);
	assert_string_equal(got, want);
}

static char why[96];

static int open_out(const char *name, int *fd)
{
	char path[256];

	at(path, sizeof(path), name);
	return nd_snapshot_open_output(path, fd, why, sizeof(why));
}

static void test_new_and_refused(void **state)
{
	char path[256];
	struct stat st;
	int fd;

	(void)state;
	assert_int_equal(open_out("new/", &fd), 0);
	close(fd);
	at(path, sizeof(path), "new");
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 077, 0);	/* made 0700 */
	/* empty and ours: accepted again */
	assert_int_equal(open_out("new", &fd), 0);
	close(fd);
	put("new/x", "x\n");
	assert_int_equal(open_out("new", &fd), -EEXIST);
	assert_string_equal(why, "not empty");
	at(path, sizeof(path), "open");
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(chmod(path, 01777), 0);
	assert_int_equal(open_out("open", &fd), -EEXIST);
	assert_string_equal(why, "writable by group or others");
	at(path, sizeof(path), "link");
	assert_int_equal(symlink("new", path), 0);
	assert_int_equal(open_out("link", &fd), -EEXIST);
	assert_string_equal(why, "a symbolic link");
	assert_int_equal(open_out("new/x", &fd), -EEXIST);
	assert_string_equal(why, "not a directory");
	assert_int_equal(open_out("missing/out", &fd), -ENOENT);
	assert_string_equal(why, "");
}

static void test_no_write_through_links(void **state)
{
	char path[256], victim[256];
	int fd;

	(void)state;
	put("victim", "precious\n");
	at(victim, sizeof(victim), "victim");
	assert_int_equal(open_out("snap", &fd), 0);
	assert_int_equal(nd_snapshot_mkdir(fd, "/proc"), 0);
	/* a link collect made (as /sys's own) is never walked through */
	assert_int_equal(nd_snapshot_symlink(fd, "/proc/net", scratch), 0);
	assert_int_equal(nd_snapshot_write(fd, "/proc/net/victim", "x\n", 2), -ENOTDIR);
	assert_int_equal(nd_snapshot_mkdir(fd, "/proc/net/sub"), -ENOTDIR);
	/* a link at the file's own name: not opened, not replaced */
	assert_int_equal(nd_snapshot_symlink(fd, "/proc/interrupts", victim), 0);
	assert_int_equal(nd_snapshot_write(fd, "/proc/interrupts", "x\n", 2), 0);
	assert_int_equal(nd_snapshot_symlink(fd, "/proc/j.tmp", victim), 0);
	assert_int_equal(nd_snapshot_write_replace(fd, "/proc/j", "x\n", 2), -EEXIST);
	assert_int_equal(nd_snapshot_write(fd, "/../victim", "x\n", 2), -EINVAL);
	assert_int_equal(nd_snapshot_write(fd, "/proc/../../victim", "x\n", 2), -EINVAL);
	assert_file("victim", "precious\n");
	/* the ordinary cases */
	assert_int_equal(nd_snapshot_write_replace(fd, "/proc/ok.json", "{}\n", 3), 0);
	assert_file("snap/proc/ok.json", "{}\n");
	at(path, sizeof(path), "snap/proc/ok.json.tmp");
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(nd_snapshot_write(fd, "/proc/a", "1\n", 2), 0);
	assert_int_equal(nd_snapshot_write(fd, "/proc/a", "2\n", 2), 0);
	assert_file("snap/proc/a", "1\n");
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_and_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_write_through_links, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

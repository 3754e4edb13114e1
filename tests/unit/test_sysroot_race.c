/*
 * test_sysroot_race.c - a snapshot's paths resolve while the host renames
 * and mounts.  openat2(RESOLVE_IN_ROOT) fails with EAGAIN when a rename or
 * a mount anywhere on the host races a ".." it resolves (openat2(2)), and
 * every /sys/class/net/IF of a snapshot is a symlink through "..".  The
 * integration lanes, running `ip netns add` and atomic writes beside
 * diagnose, once turned that into "no such interface 'team0'" and into
 * unknown findings.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicdoctor/sysroot.h"

static atomic_bool stop;

/* Renames back and forth as fast as it can: each one bumps the kernel's
 * rename sequence that a RESOLVE_IN_ROOT lookup of ".." checks. */
static void *renamer(void *arg)
{
	const char *dir = arg;
	char a[300], b[300];
	FILE *f;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	f = fopen(a, "w");
	if (f)
		fclose(f);
	while (!atomic_load(&stop)) {
		if (rename(a, b) == 0)
			rename(b, a);
	}
	unlink(a);
	unlink(b);
	return NULL;
}

static void test_resolves_while_renaming(void **state)
{
	char dir[] = "/tmp/nd-sysroot-race.XXXXXX";
	struct nd_root *root;
	pthread_t th;
	int misses = 0, tries = 0;
	char buf[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(nd_root_open("tests/fixtures/team-roundrobin-speed-mismatch", &root), 0);
	assert_int_equal(pthread_create(&th, NULL, renamer, dir), 0);
	/* Through the symlink team0 -> ../../devices/virtual/net/team0. */
	for (tries = 0; tries < 200000; tries++) {
		if (!nd_sysroot_exists(root, "/sys/class/net/team0"))
			misses++;
		if (tries % 16 == 0 &&
		    nd_sysroot_read_line(root, "/sys/class/net/team0/operstate", buf,
					 sizeof(buf)) < 0)
			misses++;
	}
	atomic_store(&stop, true);
	pthread_join(th, NULL);
	rmdir(dir);
	nd_root_close(root);
	print_message("%d lookups, %d missed\n", tries, misses);
	assert_int_equal(misses, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolves_while_renaming),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

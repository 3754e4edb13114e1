/*
 * test_server_budget.c - serve's limits without traffic: what a test costs
 * in stream buffers, its admission into the budget shared by all running
 * tests, the control timeout, and the config file reader's refusals.
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

#include "../../src/engine/engine_server.h"
#include "nicdoctor/share.h"

static struct nd_server *server_with(int max_streams, uint64_t max_bytes)
{
	struct nd_server_config cfg;
	struct nd_server *s = NULL;

	nd_server_config_init(&cfg);
	cfg.port = 0;
	cfg.bind_addr = "127.0.0.1";
	cfg.max_streams = max_streams;
	cfg.max_memory_bytes = max_bytes;
	assert_int_equal(nd_server_create(&cfg, &s), 0);
	return s;
}

static void test_defaults(void **state)
{
	struct nd_server_config cfg;
	struct nd_server *s = server_with(ND_SERVER_STREAMS_DEFAULT, ND_SERVER_MEMORY_DEFAULT);

	(void)state;
	nd_server_config_init(&cfg);
	assert_int_equal(cfg.rcv_timeout_ms, 120000);
	assert_int_equal(cfg.max_streams, 256);
	assert_true(cfg.max_memory_bytes == 256ULL << 20);
	/* Control reads wait the smaller of --idle-timeout and --rcv-timeout. */
	assert_int_equal(nd_server_ctrl_timeout_ms(s), 10000);
	s->cfg.rcv_timeout_ms = 2000;
	assert_int_equal(nd_server_ctrl_timeout_ms(s), 2000);
	nd_server_destroy(s);
}

static void test_cost(void **state)
{
	struct nd_engine_params p;

	(void)state;
	nd_engine_params_init(&p);
	p.streams = 128;
	p.bidir = true;
	p.len_bytes = 1 << 20;
	assert_true(nd_server_test_bytes(&p) == 256ULL << 20);
	/* A receiver reads in 256 KiB gulps whatever the block. */
	p.bidir = false;
	p.len_bytes = 1024;
	p.streams = 4;
	assert_true(nd_server_test_bytes(&p) == 4ULL * (256 << 10));
	p.reverse = true;
	assert_true(nd_server_test_bytes(&p) == 4ULL * 1024);
	p.udp = true;
	p.len_bytes = 65507;
	assert_true(nd_server_test_bytes(&p) == 4ULL * 64 * 65507);
}

static void test_admission(void **state)
{
	struct nd_server *s = server_with(8, 4 << 20);
	struct nd_budget_use a = { 0 }, b = { 0 }, c = { 0 };
	struct nd_engine_params p;
	char why[200];

	(void)state;
	nd_engine_params_init(&p);
	p.streams = 16;
	assert_int_equal(nd_server_budget_take(s, &p, &a, why, sizeof(why)), -E2BIG);
	assert_string_equal(why, "refused: 16 streams, the server allows 8 (--max-streams)");
	p.streams = 5;
	p.len_bytes = 1 << 20;
	assert_int_equal(nd_server_budget_take(s, &p, &a, why, sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "5 MiB of stream buffers, the server allows 4 MiB"));
	/* Two of four streams fit, a third must wait, and fits once one ends. */
	p.streams = 4;
	p.len_bytes = 0;
	assert_int_equal(nd_server_budget_take(s, &p, &a, why, sizeof(why)), 0);
	assert_int_equal(nd_server_budget_take(s, &p, &b, why, sizeof(why)), 0);
	p.streams = 1;
	assert_int_equal(nd_server_budget_take(s, &p, &c, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "leave 0 of 8 streams"));
	nd_server_budget_put(s, &a);
	assert_int_equal(nd_server_budget_take(s, &p, &c, why, sizeof(why)), 0);
	nd_server_budget_put(s, &b);
	nd_server_budget_put(s, &c);
	assert_int_equal(s->budget_streams, 0);
	assert_true(s->budget_bytes == 0);
	nd_server_destroy(s);
}

static int read_config(const char *path, char *err, size_t err_size)
{
	bool share = true;

	return nd_share_read_config(path, &share, err, err_size);
}

static void test_config_not_regular(void **state)
{
	char dir[] = "/tmp/nd-unit-conf.XXXXXX", fifo[64], err[300];

	(void)state;
	assert_int_equal(read_config("/dev/zero", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "cannot read '/dev/zero': not a regular file");
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(read_config(fifo, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	unlink(fifo);
	rmdir(dir);
}

static void test_config_long_lines(void **state)
{
	char path[] = "/tmp/nd-unit-conf.XXXXXX", err[300];
	bool share = true;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	(void)state;
	assert_non_null(f);
	fprintf(f, "share = no%400s# a comment after 400 blanks\n", "");
	fprintf(f, "#%0400d share = yes\n", 0);
	fclose(f);
	assert_int_equal(nd_share_read_config(path, &share, err, sizeof(err)), 0);
	assert_false(share);
	f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "bogus = 1\n");
	fclose(f);
	assert_int_equal(nd_share_read_config(path, &share, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":3: unknown setting 'bogus = 1'"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_admission),
		cmocka_unit_test(test_config_not_regular),
		cmocka_unit_test(test_config_long_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_sanitize.c - the string cleaner on crafted input: terminal escapes
 * (CSI, OSC 52, BEL, the C1 CSI U+009B as UTF-8 and as a raw byte), bytes
 * that are no UTF-8, overlong forms, surrogates, cut sequences; buffers too
 * small for the marker; JSON trees and the facts walk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/facts.h"
#include "nicdoctor/sanitize.h"

#define M ND_SANITIZE_MARK

static void expect_clean(const char *in, unsigned flags, const char *want, unsigned n_replaced)
{
	char buf[128];

	strcpy(buf, in);
	assert_int_equal(nd_sanitize_buf(buf, sizeof(buf), flags), n_replaced);
	assert_string_equal(buf, want);
	char *dup = nd_sanitize_dup(in, flags);
	assert_non_null(dup);
	assert_string_equal(dup, want);
	free(dup);
}

static void test_terminal_escapes(void **state)
{
	(void)state;
	expect_clean("\x1b[2Jwiped", 0, M "[2Jwiped", 1);
	expect_clean("\x1b]52;c;ZXZpbA==\x07", 0, M "]52;c;ZXZpbA==" M, 2);
	expect_clean("ding\a", 0, "ding" M, 1);
	expect_clean("c1 \xc2\x9b" "31m", 0, "c1 " M "31m", 1);
	expect_clean("raw \x9b" "31m", 0, "raw " M "31m", 1);
	expect_clean("del\x7f", 0, "del" M, 1);
	expect_clean("\xc2\x80\xc2\x9f\xc2\xa0", 0, M M "\xc2\xa0", 2);	/* NBSP is no control */
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	expect_clean("host\xff", 0, "host" M, 1);
	expect_clean("\xc0\xaf", 0, M M, 2);				/* overlong '/' */
	expect_clean("\xe0\x80\xaf", 0, M M M, 3);
	expect_clean("\xf0\x80\x80\xaf", 0, M M M M, 4);
	expect_clean("\xc1\xbf", 0, M M, 2);
	expect_clean("\xed\xa0\x80", 0, M M M, 3);			/* U+D800 */
	expect_clean("\xed\xbf\xbf", 0, M M M, 3);			/* U+DFFF */
	expect_clean("\xf4\x90\x80\x80", 0, M M M M, 4);		/* U+110000 */
	expect_clean("\xf5\x80\x80\x80", 0, M M M M, 4);
	expect_clean("cut \xe2\x82", 0, "cut " M M, 2);
	expect_clean("\xe2\x82" "A", 0, M M "A", 2);
	expect_clean("\xf0\x9f\x98", 0, M M M, 3);
	expect_clean("\x80\xbf", 0, M M, 2);				/* lone continuations */
}

static void test_valid_text_unchanged(void **state)
{
	(void)state;
	expect_clean("", 0, "", 0);
	expect_clean("mlx5_core 5.0-0 fw 16.35.2000 (MT_0000000013)", 0,
		     "mlx5_core 5.0-0 fw 16.35.2000 (MT_0000000013)", 0);
	expect_clean("h\xc3\xb4te \xe2\x82\xac \xf0\x9f\x98\x80 \xed\x9f\xbf \xf4\x8f\xbf\xbf", 0,
		     "h\xc3\xb4te \xe2\x82\xac \xf0\x9f\x98\x80 \xed\x9f\xbf \xf4\x8f\xbf\xbf", 0);
	expect_clean(M, 0, M, 0);			/* clean output stays clean */
}

static void test_lines(void **state)
{
	(void)state;
	expect_clean("a\tb\nc", 0, "a" M "b" M "c", 2);
	expect_clean("a\tb\nc\r\x1b[1A", ND_SANITIZE_MULTILINE, "a\tb\nc" M M "[1A", 2);
}

/* The marker is three bytes: a full buffer is cut at a character boundary. */
static void test_small_buffers(void **state)
{
	char buf[8] = "a\x1b\x1b\x1b";
	char full[4] = { 'a', 'b', 'c', 'd' };		/* not terminated */
	char two[2] = "\x1b";

	(void)state;
	assert_int_equal(nd_sanitize_buf(buf, sizeof(buf), 0), 3);
	assert_string_equal(buf, "a" M M);
	assert_int_equal(nd_sanitize_buf(full, sizeof(full), 0), 0);
	assert_string_equal(full, "abc");
	assert_int_equal(nd_sanitize_buf(two, sizeof(two), 0), 1);
	assert_string_equal(two, "");
}

static void test_json_tree(void **state)
{
	cJSON *doc = cJSON_Parse("{\"re\\u001bport\":{\"title\":\"\\u001b[31mred\","
				 "\"list\":[\"ok\",\"\\u009b1m\",5,null],\"n\":1}}");
	char *text;

	(void)state;
	assert_non_null(doc);
	/* cJSON's parser keeps a raw \xff as it is, which no JSON reader accepts. */
	cJSON_AddStringToObject(cJSON_GetObjectItem(doc, "re\x1bport"), "host", "h\xff");
	nd_sanitize_json(doc);
	text = cJSON_PrintUnformatted(doc);
	assert_string_equal(text, "{\"re" M "port\":{\"title\":\"" M "[31mred\","
			    "\"list\":[\"ok\",\"" M "1m\",5,null],\"n\":1,\"host\":\"h" M "\"}}");
	free(text);
	cJSON_Delete(doc);
	nd_sanitize_json(NULL);
}

static void test_facts_walk(void **state)
{
	struct nd_facts *f = calloc(1, sizeof(*f));

	(void)state;
	assert_non_null(f);
	strcpy(f->hostname, "evil\x1b]0;owned\a");
	strcpy(f->drvinfo.fw_version, "1.0\xc2\x9b" "2J");
	strcpy(f->link.qdisc, "fq\xff");
	f->irqs.count = 2;
	strcpy(f->irqs.irq[1].name, "eth0\x1b[2J");
	strcpy(f->cpus.governor[ND_MAX_CPUS - 1], "perf\x07");
	f->nicstats.count = 1;
	strcpy(f->nicstats.s[0].name, "rx\x9b");
	strcpy(f->sysctl.tcp_congestion_control.text, "bbr\n");
	nd_status_set_unknown(&f->pci.st, "cannot read '%s'", "/sys/\x1b[2J");
	f->pci.n_upstream = 1;
	strcpy(f->pci.upstream[0].name, "bridge\x1b");
	nd_facts_sanitize(f);
	assert_string_equal(f->hostname, "evil" M "]0;owned" M);
	assert_string_equal(f->drvinfo.fw_version, "1.0" M "2J");
	assert_string_equal(f->link.qdisc, "fq" M);
	assert_string_equal(f->irqs.irq[1].name, "eth0" M "[2J");
	assert_string_equal(f->cpus.governor[ND_MAX_CPUS - 1], "perf" M);
	assert_string_equal(f->nicstats.s[0].name, "rx" M);
	assert_string_equal(f->sysctl.tcp_congestion_control.text, "bbr" M);
	assert_string_equal(f->pci.st.reason, "cannot read '/sys/" M "[2J'");
	assert_string_equal(f->pci.upstream[0].name, "bridge" M);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terminal_escapes),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_valid_text_unchanged),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_small_buffers),
		cmocka_unit_test(test_json_tree),
		cmocka_unit_test(test_facts_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

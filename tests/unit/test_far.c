/*
 * test_far.c - the far end of a two-ended diagnosis (src/experiment/far.c):
 * its suspects judged on the runs seen from its side, the bottleneck
 * attributed to the host it is on, the peer that declines or says
 * nothing (a stock iperf3), the plan that failed before it answered, and
 * a far report whose strings hold terminal escapes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/experiment.h"

/* A far report as `serve` sends it: one RX queue and RPS off there. */
static const char far_report[] =
	"{\"schema\":\"nicdoctor.report/1\",\"host\":{\"name\":\"nas1.example.net\"},"
	"\"ceilings\":[{\"source\":\"wire\",\"mbps\":9414.8}],"
	"\"findings\":["
	"{\"id\":\"queues.single\",\"severity\":\"warning\",\"title\":\"one RX queue\","
	"\"evidence\":{},\"ceiling_mbps\":null,\"verdict\":\"untested\"},"
	"{\"id\":\"rps.off_single_queue\",\"severity\":\"warning\",\"title\":\"RPS off\","
	"\"evidence\":{},\"ceiling_mbps\":null,\"verdict\":\"untested\"},"
	"{\"id\":\"check.from_a_newer_version\",\"severity\":\"warning\",\"title\":\"?\"},"
	"{\"id\":\"pcie.link_downgraded\",\"severity\":\"ok\",\"title\":\"at capability\","
	"\"evidence\":{},\"ceiling_mbps\":null,\"verdict\":\"untested\"}]}";

static void set_cpus(struct nd_engine_cpu_share *cpus, int *count, double busy0, double soft0,
		     double busy1)
{
	*count = 2;
	cpus[0] = (struct nd_engine_cpu_share){ .cpu = 0, .busy_pct = busy0, .softirq_pct = soft0 };
	cpus[1] = (struct nd_engine_cpu_share){ .cpu = 1, .busy_pct = busy1, .softirq_pct = 2 };
}

/* Forward 3000 Mbit/s on a 10G link; the far end's CPU0 pegged in softirq. */
static struct nd_exp_set *peer_set(double far_busy1, const char *view_text)
{
	struct nd_exp_set *set = calloc(1, sizeof(*set));
	struct nd_exp_run *fwd = &set->runs[ND_RUN_FORWARD_MANY];
	struct nd_exp_run *rev = &set->runs[ND_RUN_REVERSE_MANY];

	assert_non_null(set);
	set->mode = ND_EXP_PEER;
	set->wire_mbps = 9414.8;
	nd_strlcpy(set->peer, "nas1.example.net:5201", sizeof(set->peer));
	fwd->done = rev->done = true;
	fwd->streams = rev->streams = 4;
	rev->reverse = true;
	fwd->duration_sec = rev->duration_sec = 6;
	fwd->mbps = 3000;
	rev->mbps = 3100;
	/* Our side idles as a sender; the far end's receive CPU is pegged. */
	set_cpus(fwd->cpus, &fwd->cpus_count, 30, 5, 20);
	set_cpus(fwd->far_cpus, &fwd->far_cpus_count, 100, 80, far_busy1);
	set_cpus(rev->cpus, &rev->cpus_count, 40, 10, 30);
	if (view_text)
		set->far_view = cJSON_Parse(view_text);
	return set;
}

static const cJSON *far_finding(const cJSON *peer, const char *id)
{
	const cJSON *f;

	cJSON_ArrayForEach(f, cJSON_GetObjectItem(cJSON_GetObjectItem(peer, "report"),
						  "findings"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(f, "id")), id))
			return f;
	return NULL;
}

static char *shared_view(void)
{
	static char text[4096];

	snprintf(text, sizeof(text), "{\"schema\":\"nicdoctor.peer/1\",\"report\":%s}", far_report);
	return text;
}

static void test_receive_bottleneck_is_the_far_ends(void **state)
{
	struct nd_exp_set *set = peer_set(3, shared_view());
	struct nd_exp_summary ours = { .measured_mbps = 3000, .binding = -1 };
	cJSON *bottleneck = NULL, *peer = nd_far_peer_json(set, &bottleneck);

	(void)state;
	assert_non_null(peer);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "status")), "shared");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
		far_finding(peer, "queues.single"), "verdict")), "confirmed");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
		far_finding(peer, "rps.off_single_queue"), "verdict")), "confirmed");
	/* An ok finding is no suspect; an ID this version lacks is kept as sent. */
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
		far_finding(peer, "pcie.link_downgraded"), "verdict")), "untested");
	assert_non_null(far_finding(peer, "check.from_a_newer_version"));
	assert_non_null(bottleneck);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(bottleneck, "host")),
			    "far end");
	assert_true(nd_far_binding_wins(bottleneck, &ours, NULL, 0));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(peer, "cpus_forward")), 2);
	cJSON_Delete(bottleneck);
	cJSON_Delete(peer);
	nd_exp_set_release(set);
	free(set);
}

static void test_load_spread_on_the_far_end_refutes(void **state)
{
	struct nd_exp_set *set = peer_set(95, shared_view());
	cJSON *bottleneck = NULL, *peer = nd_far_peer_json(set, &bottleneck);

	(void)state;
	/* Both far CPUs busy: not one CPU alone, so nothing is pinned on it. */
	assert_string_not_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
		far_finding(peer, "queues.single"), "verdict")), "confirmed");
	assert_null(bottleneck);
	cJSON_Delete(peer);
	nd_exp_set_release(set);
	free(set);
}

/* Both far CPUs idle: its one-RX-queue suspect is refuted, so in its
 * report as in ours it is info and keeps what its check said. */
static void test_refuted_far_suspect_is_info(void **state)
{
	struct nd_exp_set *set = peer_set(10, shared_view());
	cJSON *bottleneck = NULL, *peer;
	const cJSON *f, *key;
	int keys = 0;

	(void)state;
	set_cpus(set->runs[ND_RUN_FORWARD_MANY].far_cpus,
		 &set->runs[ND_RUN_FORWARD_MANY].far_cpus_count, 20, 10, 10);
	peer = nd_far_peer_json(set, &bottleneck);
	f = far_finding(peer, "queues.single");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(f, "verdict")), "refuted");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(f, "severity")), "info");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(f, "severity_before_verdict")),
			    "warning");
	/* one severity key, replaced, not added beside the old one */
	cJSON_ArrayForEach(key, f)
		keys += !strcmp(key->string, "severity");
	assert_int_equal(keys, 1);
	assert_null(bottleneck);
	cJSON_Delete(peer);
	nd_exp_set_release(set);
	free(set);
}

static void test_declined_silent_and_error(void **state)
{
	static const char *const views[] = {
		"{\"schema\":\"nicdoctor.peer/1\",\"declined\":true}",
		NULL,
		"{\"schema\":\"nicdoctor.peer/1\",\"error\":\"cannot probe 'eth9'\"}",
		"{\"schema\":\"nicdoctor.peer/1\",\"report\":\"not an object\"}",
	};
	static const char *const statuses[] = { "declined", "silent", "error", "error" };

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(views); i++) {
		struct nd_exp_set *set = peer_set(3, views[i]);
		cJSON *bottleneck = NULL, *peer = nd_far_peer_json(set, &bottleneck);

		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "status")),
				    statuses[i]);
		assert_null(cJSON_GetObjectItem(peer, "report"));
		assert_null(bottleneck);
		cJSON_Delete(peer);
		nd_exp_set_release(set);
		free(set);
	}
}

/* A declined far end's reason (why, and how its operator enables sharing)
 * is the report's, cleaned; an older serve's bare "declined" gets ours. */
static void test_declined_reason(void **state)
{
	static const char *const views[] = {
		"{\"schema\":\"nicdoctor.peer/1\",\"declined\":true,"
		"\"reason\":\"it runs without --share\\u001b[2J\"}",
		"{\"schema\":\"nicdoctor.peer/1\",\"declined\":true,\"reason\":5}",
	};
	static const char *const reasons[] = {
		"the far end declined to share its report: it runs without --share\xef\xbf\xbd[2J",
		"the far end declined to share its report: it was started with --no-share, "
		"or without --share",
	};

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(views); i++) {
		struct nd_exp_set *set = peer_set(3, views[i]);
		cJSON *bottleneck = NULL, *peer = nd_far_peer_json(set, &bottleneck);

		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "status")),
				    "declined");
		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "reason")),
				    reasons[i]);
		cJSON_Delete(peer);
		nd_exp_set_release(set);
		free(set);
	}
}

/* Without a view, a failed plan says why instead of "silent". */
static void test_plan_failures(void **state)
{
	static const struct { int err; bool some_done; const char *status, *reason; } cases[] = {
		{ -ECONNREFUSED, false, "unreachable", "peer 'nas1.example.net:5201' is unreachable: "
		  "cannot connect: Connection refused" },
		{ -ETIMEDOUT, false, "unreachable", NULL },
		{ -EHOSTUNREACH, false, "unreachable", NULL },
		{ -ECONNREFUSED, true, "failed", NULL },
		{ -EBUSY, false, "busy", NULL },
		{ -EINTR, false, "interrupted", NULL },
		{ -ECONNRESET, true, "failed", NULL },
		{ 0, true, "silent", NULL },
	};

	(void)state;
	for (size_t i = 0; i < ND_ARRAY_SIZE(cases); i++) {
		struct nd_exp_set *set = peer_set(3, NULL);
		cJSON *bottleneck = NULL, *peer;

		set->err = cases[i].err;
		snprintf(set->error, sizeof(set->error), "cannot connect: Connection refused");
		set->runs[ND_RUN_FORWARD_MANY].done = cases[i].some_done;
		set->runs[ND_RUN_REVERSE_MANY].done = cases[i].some_done;
		peer = nd_far_peer_json(set, &bottleneck);
		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "status")),
				    cases[i].status);
		if (cases[i].reason)
			assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(peer, "reason")),
					    cases[i].reason);
		cJSON_Delete(peer);
		nd_exp_set_release(set);
		free(set);
	}
}

/* What another host sent reaches the report only clean (sanitize.h). */
static void test_hostile_far_report(void **state)
{
	struct nd_exp_set *set = peer_set(3, "{\"schema\":\"nicdoctor.peer/1\",\"report\":"
					  "{\"host\":{\"name\":\"far\\u001b]0;x\\u0007\"},"
					  "\"findings\":[{\"id\":\"queues.single\",\"severity\":"
					  "\"warning\",\"title\":\"one\\u009b2J\",\"evidence\":"
					  "{\"k\\u001b\":1}}]}}");
	cJSON *bottleneck = NULL, *peer = nd_far_peer_json(set, &bottleneck);
	char *text = cJSON_PrintUnformatted(peer);
	char *btext = cJSON_PrintUnformatted(bottleneck);

	(void)state;
	assert_non_null(text);
	assert_null(strchr(text, '\x1b'));
	assert_null(strchr(text, '\a'));
	assert_null(strstr(text, "\xc2\x9b"));
	assert_non_null(strstr(text, "far\xef\xbf\xbd]0;x\xef\xbf\xbd"));
	assert_non_null(strstr(text, "\"one\xef\xbf\xbd" "2J\""));
	if (btext)
		assert_null(strstr(btext, "\xc2\x9b"));
	free(text);
	free(btext);
	cJSON_Delete(bottleneck);
	cJSON_Delete(peer);
	nd_exp_set_release(set);
	free(set);
}

static void test_no_peer_no_section(void **state)
{
	struct nd_exp_set set = { .mode = ND_EXP_LOOPBACK };
	cJSON *bottleneck = (cJSON *)&set;

	(void)state;
	assert_null(nd_far_peer_json(&set, &bottleneck));
	assert_null(bottleneck);
}

static void test_binding_rule(void **state)
{
	cJSON *far = cJSON_Parse("{\"id\":\"pcie.link_downgraded\",\"host\":\"far end\","
				 "\"ceiling_mbps\":3657}");
	struct nd_finding ours[1] = { { .id = "qdisc.rate_limit", .ceiling_mbps = 5000 } };
	struct nd_exp_summary sum = { .binding = 0 };

	(void)state;
	/* The lower ceiling binds. */
	assert_true(nd_far_binding_wins(far, &sum, ours, 1));
	ours[0].ceiling_mbps = 1000;
	assert_false(nd_far_binding_wins(far, &sum, ours, 1));
	assert_false(nd_far_binding_wins(NULL, &sum, ours, 1));
	cJSON_Delete(far);

	/* A pegged far CPU explains more than local drops, less than a ceiling. */
	far = cJSON_Parse("{\"id\":\"queues.single\",\"host\":\"far end\","
			  "\"ceiling_mbps\":null,\"kind\":\"cpu\"}");
	ours[0].ceiling_mbps = -1;
	ours[0].experiment = cJSON_Parse("{\"kind\":\"drops\"}");
	assert_true(nd_far_binding_wins(far, &sum, ours, 1));
	cJSON_Delete(ours[0].experiment);
	ours[0].experiment = cJSON_Parse("{\"kind\":\"cpu\"}");
	assert_false(nd_far_binding_wins(far, &sum, ours, 1));
	ours[0].ceiling_mbps = 5000;
	assert_false(nd_far_binding_wins(far, &sum, ours, 1));
	cJSON_Delete(ours[0].experiment);
	cJSON_Delete(far);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_receive_bottleneck_is_the_far_ends),
		cmocka_unit_test(test_load_spread_on_the_far_end_refutes),
		cmocka_unit_test(test_refuted_far_suspect_is_info),
		cmocka_unit_test(test_declined_silent_and_error),
		cmocka_unit_test(test_declined_reason),
		cmocka_unit_test(test_plan_failures),
		cmocka_unit_test(test_hostile_far_report),
		cmocka_unit_test(test_no_peer_no_section),
		cmocka_unit_test(test_binding_rule),
	};

	return cmocka_run_group_tests_name("far", tests, NULL, NULL);
}

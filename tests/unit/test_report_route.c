/*
 * test_report_route.c - the headline says which path the runs measured
 * (throughput.route, src/report/render.c): another path (--allow-route)
 * is "Measured N Mbit/s over lo, not eth0", with no wire goodput and no
 * bottleneck line; a bridge above the interface is "via br0 over eth0";
 * the interface's own route, and a document without a route, read as
 * before.  Text within 80 columns, and markdown.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/report.h"

#define PEER_DOC(wire, measured, route)                                                    \
	"{\"mode\": \"peer\", \"peer\": \"127.0.0.1:5201\", \"wire_ceiling_mbps\": " wire \
	", \"measured_mbps\": " measured ", \"at_wire\": false, \"bottleneck\": null, "    \
	"\"runs\": [], \"trials\": []" route "}"

struct fixture {
	struct nd_facts *facts;
	struct nd_report report;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->facts = calloc(1, sizeof(*fx->facts));
	assert_non_null(fx->facts);
	nd_strlcpy(fx->facts->ifname, "eth0", sizeof(fx->facts->ifname));
	assert_int_equal(nd_diagnose_judge(&fx->report, fx->facts, NULL, NULL, NULL), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	nd_report_free(&fx->report);
	free(fx->facts);
	free(fx);
	return 0;
}

static char *render(struct fixture *fx, const char *throughput, enum nd_format format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	cJSON_Delete(fx->report.throughput);
	fx->report.throughput = cJSON_Parse(throughput);
	assert_non_null(fx->report.throughput);
	assert_int_equal(nd_report_render(&fx->report, format, out), 0);
	fclose(out);
	return text;
}

static void assert_80_columns(const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len > 80)
			fail_msg("longer than 80 columns: %.*s", (int)len, line);
		line += len + (nl ? 1 : 0);
	}
}

static void test_other_path(void **state)
{
	struct fixture *fx = *state;
	const char *doc = PEER_DOC("null", "19807", ", \"route\": {\"dst\": \"127.0.0.1\", "
				   "\"dev\": \"lo\", \"via\": null, \"src\": \"127.0.0.1\", "
				   "\"matches\": false}");
	char *text = render(fx, doc, ND_FORMAT_TEXT);

	assert_non_null(strstr(text, "\nMeasured 19807 Mbit/s over lo, not eth0 (--allow-route): "
				     "eth0's findings stay\n    untested\n"));
	assert_null(strstr(text, "Bottleneck"));
	assert_null(strstr(text, "wire goodput"));
	assert_80_columns(text);
	free(text);
	text = render(fx, doc, ND_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "**Measured 19807 Mbit/s over lo, not eth0** "
				     "(--allow-route): eth0's findings stay untested\n"));
	assert_null(strstr(text, "no bottleneck confirmed"));
	free(text);
}

static void test_upper(void **state)
{
	struct fixture *fx = *state;
	const char *doc = PEER_DOC("9414.8", "9400", ", \"route\": {\"dst\": \"10.0.0.2\", "
				   "\"dev\": \"br0\", \"via\": null, \"src\": \"10.0.0.1\", "
				   "\"matches\": true}");
	char *text = render(fx, doc, ND_FORMAT_TEXT);

	assert_non_null(strstr(text, "\nMeasured 9400 of the 9415 Mbit/s wire goodput (100%) via "
				     "br0 over eth0\nBottleneck: none confirmed\n"));
	assert_80_columns(text);
	free(text);
	text = render(fx, doc, ND_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "**Measured 9400 of the 9415 Mbit/s wire goodput (100%) via "
				     "br0 over eth0**; no bottleneck confirmed"));
	free(text);
}

static void test_own_route(void **state)
{
	struct fixture *fx = *state;
	const char *own = PEER_DOC("9414.8", "9400", ", \"route\": {\"dst\": \"10.0.0.2\", "
				   "\"dev\": \"eth0\", \"via\": null, \"src\": null, "
				   "\"matches\": true}");
	const char *none = PEER_DOC("9414.8", "9400", "");
	const char *want = "\nMeasured 9400 of the 9415 Mbit/s wire goodput (100%)\n"
			   "Bottleneck: none confirmed\n";
	char *text = render(fx, own, ND_FORMAT_TEXT);

	assert_non_null(strstr(text, want));
	free(text);
	text = render(fx, none, ND_FORMAT_TEXT);
	assert_non_null(strstr(text, want));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_other_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upper, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_route, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

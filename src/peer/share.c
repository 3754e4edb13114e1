/*
 * share.c - what `serve` tells a diagnose client about its own end: the
 * static report of the interface the test arrived on.  The interface is
 * found from the control connection's local address, so a multi-homed
 * server describes the NIC that actually carries the traffic.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/report.h"
#include "nicdoctor/sanitize.h"
#include "nicdoctor/share.h"

static cJSON *payload_new(void)
{
	cJSON *o = cJSON_CreateObject();

	if (o && !cJSON_AddStringToObject(o, "schema", ND_SHARE_SCHEMA)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *payload_error(cJSON *o, const char *fmt, const char *arg, int err)
{
	char text[200];

	snprintf(text, sizeof(text), fmt, arg, strerror(err));
	/* An interface name may hold any byte but '/', ':' and blanks. */
	nd_sanitize_buf(text, sizeof(text), 0);
	cJSON_AddStringToObject(o, "error", text);
	return o;
}

cJSON *nd_share_payload(const struct sockaddr *local, bool allowed)
{
	struct nd_report report;
	struct nd_facts *facts;
	cJSON *o = payload_new(), *doc;
	char ifname[ND_IFNAMSIZ];
	int r;

	if (!o)
		return NULL;
	if (!allowed) {
		cJSON_AddBoolToObject(o, "declined", true);
		return o;
	}
	r = nd_probe_iface_by_addr(local, ifname, sizeof(ifname));
	if (r < 0)
		return payload_error(o, "cannot find the interface of the test%s: %s", "", -r);
	r = nd_probe(ifname, &facts);
	if (r < 0)
		return payload_error(o, "cannot probe '%s': %s", ifname, -r);
	r = nd_report_build(&report, facts, NULL, NULL, NULL);
	doc = r < 0 ? NULL : nd_report_to_json(&report);
	if (doc)
		cJSON_AddItemToObject(o, "report", doc);
	else
		payload_error(o, "cannot build the report of '%s': %s", ifname, r < 0 ? -r : ENOMEM);
	if (r >= 0)
		nd_report_free(&report);
	nd_facts_free(facts);
	return o;
}

/* "  share = no  # comment" -> key "share", value "no"; false for blank lines. */
static bool split_line(char *line, char **ret_key, char **ret_value)
{
	char *hash = strchr(line, '#'), *eq, *end;

	if (hash)
		*hash = '\0';
	eq = strchr(line, '=');
	if (!eq)
		return false;
	*eq = '\0';
	*ret_key = line + strspn(line, " \t");
	*ret_value = eq + 1 + strspn(eq + 1, " \t");
	for (end = eq; end > *ret_key && (end[-1] == ' ' || end[-1] == '\t'); end--)
		end[-1] = '\0';
	end = *ret_value + strlen(*ret_value);
	while (end > *ret_value && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return true;
}

int nd_share_read_config(const char *path, bool *ret_share, char *err, size_t err_size)
{
	FILE *f = fopen(path, "re");
	char line[256];
	unsigned lineno = 0;
	bool share = *ret_share;

	if (!f) {
		snprintf(err, err_size, "cannot read '%s': %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		char *key, *value;

		lineno++;
		if (!split_line(line, &key, &value)) {
			if (line[strspn(line, " \t\r\n")] == '\0')
				continue;
			snprintf(err, err_size, "%s:%u: expected 'key = value'", path, lineno);
			fclose(f);
			return -EINVAL;
		}
		if (strcmp(key, "share") || (strcmp(value, "yes") && strcmp(value, "no"))) {
			snprintf(err, err_size, "%s:%u: unknown setting '%s = %s' (share = yes|no)",
				 path, lineno, key, value);
			fclose(f);
			return -EINVAL;
		}
		share = !strcmp(value, "yes");
	}
	fclose(f);
	*ret_share = share;
	return 0;
}

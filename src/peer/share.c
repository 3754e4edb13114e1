/*
 * share.c - what `serve` tells a diagnose client about its own end: the
 * report of the interface the test arrived on, through the one pipeline,
 * its counters judged over the client's test (the window opens just
 * before the traffic and closes at the results exchange).  The interface
 * is found from the control connection's local address, so a multi-homed
 * server describes the NIC that actually carries the traffic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/diagnose.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/report.h"
#include "nicdoctor/sanitize.h"
#include "nicdoctor/share.h"
#include "nicdoctor/source.h"

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

struct nd_share_window {
	struct nd_source *src;		/* this host, live */
	char ifname[ND_IFNAMSIZ];
	int error;			/* finding the interface (-ENOENT ...) or probing it */
	bool found;			/* the interface was found: error is the probe's */
	struct nd_diagnosis d;
	double start_sec;
};

struct nd_share_window *nd_share_begin(const struct sockaddr *local)
{
	struct nd_share_window *w = calloc(1, sizeof(*w));
	struct nd_diag_request rq = { .traffic = true, .sample_sec = -1 };

	if (!w)
		return NULL;
	w->error = nd_probe_iface_by_addr(local, w->ifname, sizeof(w->ifname));
	if (w->error < 0)
		return w;
	w->found = true;
	w->error = nd_source_open(NULL, &w->src, NULL, 0);
	rq.src = w->src;
	rq.ifname = w->ifname;
	if (w->error == 0)
		w->error = nd_diagnose_open(&rq, &w->d, NULL);
	if (w->error == 0)
		nd_diagnose_window_begin(&w->d);
	return w;
}

void nd_share_end(struct nd_share_window *w)
{
	if (!w)
		return;
	if (w->found && w->error == 0)
		nd_diagnosis_free(&w->d);
	nd_source_close(w->src);
	free(w);
}

cJSON *nd_share_payload(struct nd_share_window *w, bool allowed, const char *why)
{
	cJSON *o = payload_new(), *doc;
	char label[64];

	if (!o)
		return NULL;
	if (!allowed) {
		cJSON_AddBoolToObject(o, "declined", true);
		if (why)
			cJSON_AddStringToObject(o, "reason", why);
		return o;
	}
	if (!w)
		return payload_error(o, "cannot build the report of '%s': %s", "", ENOMEM);
	if (!w->found)
		return payload_error(o, "cannot find the interface of the test%s: %s", "", -w->error);
	if (w->error < 0)
		return payload_error(o, "cannot probe '%s': %s", w->ifname, -w->error);
	snprintf(label, sizeof(label), "the client's test (%.0f s)",
		 nd_probe_clock_sec() - w->d.window_start_sec);
	nd_diagnose_window_end(&w->d, "serve test", label);
	doc = nd_report_to_json(&w->d.report);
	if (doc)
		cJSON_AddItemToObject(o, "report", doc);
	else
		payload_error(o, "cannot build the report of '%s': %s", w->ifname, ENOMEM);
	return o;
}

/* A settings file is a few lines; anything bigger is not one. */
#define ND_SHARE_CONFIG_MAX (64 * 1024)

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

/*
 * Only a regular file: /dev/zero would never end and a FIFO would block.
 * Opened without blocking so a FIFO with no writer cannot hold us at
 * open().  Lines may be of any length: getline() keeps the count right.
 */
static FILE *open_config(const char *path, char *err, size_t err_size, int *ret_err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	FILE *f;

	if (fd < 0 || fstat(fd, &st) < 0) {
		*ret_err = errno;
		snprintf(err, err_size, "cannot read '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*ret_err = EINVAL;
	if (!S_ISREG(st.st_mode))
		snprintf(err, err_size, "cannot read '%s': not a regular file", path);
	else if (st.st_size > ND_SHARE_CONFIG_MAX)
		snprintf(err, err_size, "cannot read '%s': larger than %d bytes", path,
			 ND_SHARE_CONFIG_MAX);
	else if ((f = fdopen(fd, "r")) != NULL)
		return f;
	else
		snprintf(err, err_size, "cannot read '%s': %s", path, strerror(*ret_err = errno));
	close(fd);
	return NULL;
}

int nd_share_read_config(const char *path, bool *ret_share, char *err, size_t err_size)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	bool share = *ret_share;
	int rc = 0;
	FILE *f = open_config(path, err, err_size, &rc);

	if (!f)
		return -rc;
	rc = 0;
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		char *key, *value;

		lineno++;
		if (!split_line(line, &key, &value)) {
			if (line[strspn(line, " \t\r\n")] == '\0')
				continue;
			snprintf(err, err_size, "%s:%u: expected 'key = value'", path, lineno);
			rc = -EINVAL;
		} else if (strcmp(key, "share") || (strcmp(value, "yes") && strcmp(value, "no"))) {
			snprintf(err, err_size, "%s:%u: unknown setting '%.40s = %.40s' (share = yes|no)",
				 path, lineno, key, value);
			rc = -EINVAL;
		} else {
			share = !strcmp(value, "yes");
		}
	}
	free(line);
	fclose(f);
	if (rc == 0)
		*ret_share = share;
	return rc;
}

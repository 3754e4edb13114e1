/*
 * iproute_text.c - the interface of the default route from `ip route`
 * output as a sosreport keeps it (`ip route show table all`, root
 * `ip_route`; `ip -6 route ...`), so `diagnose --sysroot` without an
 * interface picks the one the host routed through.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

/* One "default via X dev IF [table T] [metric M] ..." line; false when it
 * is not a usable default route of the main table. */
static bool default_line(struct nd_span line, char ifname[ND_IFNAMSIZ], uint64_t *ret_metric)
{
	struct nd_span tok, val;
	size_t pos = 0;
	bool have_dev = false;

	*ret_metric = 0;
	/* "unreachable default", "blackhole default": not a way out. */
	if (!nd_span_token(line, &pos, &tok) || !nd_span_eq(tok, "default"))
		return false;
	while (nd_span_token(line, &pos, &tok)) {
		size_t peek = pos;

		if (!nd_span_token(line, &peek, &val))
			break;
		if (nd_span_eq(tok, "dev")) {
			if (val.len == 0 || val.len >= ND_IFNAMSIZ)
				return false;
			nd_span_copy(val, ifname, ND_IFNAMSIZ);
			have_dev = true;
		} else if (nd_span_eq(tok, "table") && !nd_span_eq(val, "main")) {
			return false;
		} else if (nd_span_eq(tok, "metric")) {
			if (nd_span_u64(val, ret_metric) < 0)
				*ret_metric = 0;
		} else {
			continue;
		}
		pos = peek;
	}
	return have_dev && nd_ifname_valid(ifname) == 0;
}

int nd_parse_ip_route_default(const char *text, size_t len, char *buf, size_t size)
{
	char best[ND_IFNAMSIZ] = "", name[ND_IFNAMSIZ];
	uint64_t best_metric = 0, metric;
	struct nd_cursor c;
	struct nd_span line;

	if (!text || !buf || size == 0)
		return -EINVAL;
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line))
		if (default_line(nd_span_trim(line), name, &metric) &&
		    (!best[0] || metric < best_metric)) {
			memcpy(best, name, sizeof(best));
			best_metric = metric;
		}
	if (!best[0])
		return -ENOENT;
	nd_strlcpy(buf, best, size);
	return 0;
}

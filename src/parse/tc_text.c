/*
 * tc_text.c - `tc -s qdisc show` (and `tc class show`) text into nd_qdisc:
 * the interface's root qdisc kind and its lowest shaper, as the rtnetlink
 * probe reports them (tbf rate; htb class ceil when above its rate).
 * Only the qdisc/class line's own "rate" counts: the "rate 0bit 0pps" of
 * the statistics lines is a measurement, not a limit.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

int nd_parse_tc_rate(const char *text, size_t len, uint64_t *ret_bps)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "bit", 1 }, { "Kbit", 1e3 }, { "Mbit", 1e6 }, { "Gbit", 1e9 }, { "Tbit", 1e12 },
		{ "Kibit", 1024.0 }, { "Mibit", 1048576.0 }, { "Gibit", 1073741824.0 },
		{ "Tibit", 1099511627776.0 },
		/* tc's "bps" is bytes per second. */
		{ "bps", 8 }, { "Kbps", 8e3 }, { "Mbps", 8e6 }, { "Gbps", 8e9 }, { "Tbps", 8e12 },
	};
	struct nd_span s = nd_span_trim((struct nd_span){ text, text ? len : 0 });
	double value, bps;
	size_t used;

	if (nd_span_double_prefix(s, &value, &used) < 0)
		return -EINVAL;
	s = nd_span_from(s, used);
	for (size_t i = 0; i < ND_ARRAY_SIZE(units); i++) {
		if (!nd_span_eq(s, units[i].unit))
			continue;
		bps = value * units[i].mult;
		if (bps >= 1.8e19)
			return -ERANGE;
		*ret_bps = (uint64_t)bps;
		return 0;
	}
	return -EINVAL;
}

/* The value after `key` among the line's tokens. */
static bool token_after(struct nd_span t, const char *key, struct nd_span *ret)
{
	size_t pos = 0;
	struct nd_span tok;

	while (nd_span_token(t, &pos, &tok))
		if (nd_span_eq(tok, key))
			return nd_span_token(t, &pos, ret);
	return false;
}

static bool has_token(struct nd_span t, const char *key)
{
	size_t pos = 0;
	struct nd_span tok;

	while (nd_span_token(t, &pos, &tok))
		if (nd_span_eq(tok, key))
			return true;
	return false;
}

static void offer(struct nd_qdisc *out, struct nd_span kind, uint64_t bps)
{
	if (!bps || (out->rate_bps && out->rate_bps <= bps))
		return;
	out->rate_bps = bps;
	nd_span_copy(kind, out->kind, sizeof(out->kind));
}

static uint64_t rate_of(struct nd_span t, const char *key)
{
	struct nd_span v;
	uint64_t bps = 0;

	if (token_after(t, key, &v) && nd_parse_tc_rate(v.p, v.len, &bps) < 0)
		bps = 0;
	return bps;
}

int nd_parse_tc_qdisc(const char *text, size_t len, const char *ifname, struct nd_qdisc *out,
		      char ret_root_kind[16])
{
	struct nd_cursor c;
	struct nd_span line, kind, dev;
	bool seen = false;

	memset(out, 0, sizeof(*out));
	if (ret_root_kind)
		ret_root_kind[0] = '\0';
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		struct nd_span t = nd_span_trim(line);
		size_t pos = 0;
		bool is_class = nd_span_starts(t, "class ");

		if (!nd_span_starts(t, "qdisc ") && !is_class)
			continue;
		/* `tc class show dev X` names no dev: the caller chose it. */
		if (token_after(t, "dev", &dev) ? !nd_span_eq(dev, ifname) : !is_class)
			continue;
		nd_span_token(t, &pos, &kind);
		if (!nd_span_token(t, &pos, &kind))
			continue;
		seen = true;
		if (!is_class && ret_root_kind && has_token(t, "root") && !ret_root_kind[0])
			nd_span_copy(kind, ret_root_kind, 16);
		if (nd_span_eq(kind, "tbf") && !is_class) {
			offer(out, kind, rate_of(t, "rate"));
		} else if (nd_span_eq(kind, "htb") && is_class) {
			/* A class may borrow up to its ceil: the ceil caps it. */
			uint64_t rate = rate_of(t, "rate"), ceil = rate_of(t, "ceil");

			offer(out, kind, ceil > rate ? ceil : rate);
		}
	}
	if (!seen) {
		nd_status_set_unknown(&out->st, "no qdisc of '%s' in the tc text", ifname);
		return -ENOENT;
	}
	nd_status_set_known(&out->st);
	return 0;
}

/*
 * ethtool_text.c - `ethtool -i`, `-l`, `-g`, `-c` and `-a` text, as sos and
 * supportconfig save it and as people paste it, into the fact groups the
 * netlink probe fills; plus the block finding they share with
 * ethtool_text_link.c.  Old (ioctl) and new (netlink) ethtool layouts.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/parse_text.h"
#include "ethtool_text.h"

/* First lines of every ethtool output block: one ends where another begins. */
static const char *const block_headers[] = {
	"Settings for ", "Features for ", "Offload parameters for ", "Channel parameters for ",
	"Ring parameters for ", "Coalesce parameters for ", "Pause parameters for ",
	"NIC statistics:", "driver:",
};

static bool is_header(struct nd_span t)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(block_headers); i++)
		if (nd_span_starts(t, block_headers[i]))
			return true;
	return false;
}

/* stderr of ethtool: ioctl path ("Cannot get ...", ": Operation not
 * supported" on its own line), netlink path ("netlink error: ..."). */
static bool is_error(struct nd_span t)
{
	return nd_span_starts(t, "Cannot ") || nd_span_starts(t, "netlink error") ||
	       nd_span_starts(t, ": ") || nd_span_starts(t, "no stats available") ||
	       nd_span_starts(t, "No stats available") || nd_span_contains(t, "Operation not supported") ||
	       nd_span_contains(t, "Operation not permitted") || nd_span_contains(t, "No such device");
}

static void add_said(struct et_ctx *ctx, struct nd_span t)
{
	size_t used = strlen(ctx->said);

	if (used + 4 >= sizeof(ctx->said))
		return;
	/* ": Operation not supported" continues the line before it. */
	if (used && t.len && t.p[0] != ':') {
		memcpy(ctx->said + used, "; ", 3);
		used += 2;
	}
	nd_span_copy(t, ctx->said + used, sizeof(ctx->said) - used);
}

int et_begin(const char *text, size_t len, const char *header, bool header_is_body,
	     const char *opt, struct et_ctx *ctx)
{
	struct nd_span line;

	memset(ctx, 0, sizeof(*ctx));
	ctx->opt = opt;
	nd_cursor_init(&ctx->c, text, len);
	while (nd_next_line(&ctx->c, &line)) {
		struct nd_span t = nd_span_trim(line);

		if (nd_span_starts(t, header)) {
			ctx->header_found = true;
			if (header_is_body)
				ctx->first = t;
			return 0;
		}
		if (is_error(t))
			add_said(ctx, t);
	}
	return -ENOENT;
}

static bool is_prompt(struct nd_span t)
{
	return nd_span_starts(t, "# ") || nd_span_starts(t, "$ ") || nd_span_starts(t, "[root@") ||
	       nd_span_eq(t, "#");
}

bool et_line(struct et_ctx *ctx, bool blank_ends, bool seen_value, struct nd_span *ret_line)
{
	struct nd_span line;

	if (ctx->first.p) {
		*ret_line = ctx->first;
		ctx->first.p = NULL;
		return true;
	}
	while (nd_next_line(&ctx->c, &line)) {
		struct nd_span t = nd_span_trim(line);

		if (!t.len) {
			if (blank_ends && seen_value)
				return false;
			continue;
		}
		if (is_header(t) || is_prompt(t))
			return false;
		if (is_error(t)) {
			add_said(ctx, t);
			continue;
		}
		*ret_line = t;
		return true;
	}
	return false;
}

int et_fail(struct et_ctx *ctx, struct nd_status *st)
{
	if (strstr(ctx->said, "not supported") || strstr(ctx->said, "o stats available")) {
		nd_status_set_unknown(st, "not supported by the driver (%s said: %s)", ctx->opt,
				      ctx->said);
		return -EOPNOTSUPP;
	}
	if (ctx->said[0]) {
		nd_status_set_unknown(st, "%s failed: %s", ctx->opt, ctx->said);
		return -EIO;
	}
	nd_status_set_unknown(st, ctx->header_found ? "'%s' output has no values" :
			      "no '%s' output in the text", ctx->opt);
	return -EINVAL;
}

/* A "Pre-set maximums:" / "Current hardware settings:" table (-l, -g). */
struct two_section_field {
	const char *key;
	size_t max_off, cur_off;
};

static int parse_two_sections(const char *text, size_t len, const char *header, const char *opt,
			      const struct two_section_field *fields, size_t n_fields,
			      void *out, struct nd_status *st)
{
	struct et_ctx ctx;
	struct nd_span line, key, val;
	int section = 0;
	unsigned n_max = 0, n_cur = 0;

	if (et_begin(text, len, header, false, opt, &ctx) < 0)
		return et_fail(&ctx, st);
	while (et_line(&ctx, true, n_cur > 0, &line)) {
		if (nd_span_starts(line, "Pre-set")) {
			section = 1;
			continue;
		}
		if (nd_span_starts(line, "Current")) {
			section = 2;
			continue;
		}
		if (!section || !nd_span_kv(line, &key, &val))
			continue;
		for (size_t i = 0; i < n_fields; i++) {
			unsigned value;

			if (!nd_span_eq(key, fields[i].key) || nd_span_uint_or_na(val, &value) < 0)
				continue;
			*(unsigned *)((char *)out + (section == 1 ? fields[i].max_off :
						     fields[i].cur_off)) = value;
			if (section == 1)
				n_max++;
			else
				n_cur++;
		}
	}
	/* A paste cut before the current settings says nothing in use. */
	if (!n_cur)
		return et_fail(&ctx, st);
	nd_status_set_known(st);
	return 0;
}

#define TWO(key, type, max, cur) { key, offsetof(type, max), offsetof(type, cur) }

int nd_parse_ethtool_channels(const char *text, size_t len, struct nd_channels *out)
{
	static const struct two_section_field fields[] = {
		TWO("RX", struct nd_channels, rx_max, rx),
		TWO("TX", struct nd_channels, tx_max, tx),
		TWO("Other", struct nd_channels, other_max, other),
		TWO("Combined", struct nd_channels, combined_max, combined),
	};

	memset(out, 0, sizeof(*out));
	return parse_two_sections(text, len, "Channel parameters for ", "ethtool -l", fields,
				  ND_ARRAY_SIZE(fields), out, &out->st);
}

int nd_parse_ethtool_rings(const char *text, size_t len, struct nd_rings *out)
{
	static const struct two_section_field fields[] = {
		TWO("RX", struct nd_rings, rx_max, rx),
		TWO("RX Mini", struct nd_rings, rx_mini_max, rx_mini),
		TWO("RX Jumbo", struct nd_rings, rx_jumbo_max, rx_jumbo),
		TWO("TX", struct nd_rings, tx_max, tx),
	};

	memset(out, 0, sizeof(*out));
	return parse_two_sections(text, len, "Ring parameters for ", "ethtool -g", fields,
				  ND_ARRAY_SIZE(fields), out, &out->st);
}

int nd_parse_ethtool_drvinfo(const char *text, size_t len, struct nd_drvinfo *out)
{
	struct et_ctx ctx;
	struct nd_span line, key, val;
	bool seen = false;

	memset(out, 0, sizeof(*out));
	if (et_begin(text, len, "driver:", true, "ethtool -i", &ctx) < 0)
		return et_fail(&ctx, &out->st);
	while (et_line(&ctx, true, seen, &line)) {
		if (!nd_span_kv(line, &key, &val))
			break;
		if (nd_span_eq(key, "driver")) {
			/* A second "driver:" is the next interface's -i. */
			if (seen)
				break;
			nd_span_copy(val, out->driver, sizeof(out->driver));
			seen = true;
		} else if (nd_span_eq(key, "version")) {
			nd_span_copy(val, out->version, sizeof(out->version));
		} else if (nd_span_eq(key, "firmware-version")) {
			nd_span_copy(val, out->fw_version, sizeof(out->fw_version));
		} else if (nd_span_eq(key, "bus-info")) {
			nd_span_copy(val, out->bus_info, sizeof(out->bus_info));
		}
	}
	if (!out->driver[0])
		return et_fail(&ctx, &out->st);
	nd_status_set_known(&out->st);
	return 0;
}

static bool starts_on(struct nd_span s)
{
	return nd_span_starts(s, "on");
}

int nd_parse_ethtool_coalesce(const char *text, size_t len, struct nd_coalesce *out)
{
	static const struct { const char *key; size_t off; } fields[] = {
		{ "rx-usecs", offsetof(struct nd_coalesce, rx_usecs) },
		{ "rx-frames", offsetof(struct nd_coalesce, rx_frames) },
		{ "tx-usecs", offsetof(struct nd_coalesce, tx_usecs) },
		{ "tx-frames", offsetof(struct nd_coalesce, tx_frames) },
	};
	struct et_ctx ctx;
	struct nd_span line, key, val;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	if (et_begin(text, len, "Coalesce parameters for ", false, "ethtool -c", &ctx) < 0)
		return et_fail(&ctx, &out->st);
	/* Blank lines separate -c's groups: only a non "key: value" line ends it. */
	while (et_line(&ctx, false, false, &line)) {
		const char *tx;

		if (!nd_span_kv(line, &key, &val))
			break;
		if (nd_span_eq(key, "Adaptive RX")) {
			out->adaptive_rx = starts_on(val);
			tx = nd_span_find(val, "TX:");
			if (tx)
				out->adaptive_tx = starts_on(nd_span_trim(
					nd_span_from(val, (size_t)(tx - val.p) + 3)));
			seen++;
			continue;
		}
		for (size_t i = 0; i < ND_ARRAY_SIZE(fields); i++) {
			unsigned value;

			if (nd_span_eq(key, fields[i].key) && nd_span_uint_or_na(val, &value) == 0) {
				*(unsigned *)((char *)out + fields[i].off) = value;
				seen++;
			}
		}
	}
	if (!seen)
		return et_fail(&ctx, &out->st);
	nd_status_set_known(&out->st);
	return 0;
}

int nd_parse_ethtool_pause(const char *text, size_t len, struct nd_pause *out)
{
	struct et_ctx ctx;
	struct nd_span line, key, val;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	if (et_begin(text, len, "Pause parameters for ", false, "ethtool -a", &ctx) < 0)
		return et_fail(&ctx, &out->st);
	while (et_line(&ctx, true, seen > 0, &line)) {
		if (!nd_span_kv(line, &key, &val))
			break;
		if (nd_span_eq(key, "Autonegotiate"))
			out->autoneg = starts_on(val);
		else if (nd_span_eq(key, "RX"))
			out->rx = starts_on(val);
		else if (nd_span_eq(key, "TX"))
			out->tx = starts_on(val);
		else
			continue;	/* "RX negotiated": the link partner's */
		seen++;
	}
	if (!seen)
		return et_fail(&ctx, &out->st);
	nd_status_set_known(&out->st);
	return 0;
}

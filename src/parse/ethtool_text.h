/*
 * ethtool_text.h - what the per-option ethtool text parsers share: finding
 * an option's block in text that may hold stderr lines, other commands'
 * output or a whole mail, and turning a missing block into a reason.
 */
#ifndef NICDOCTOR_PARSE_ETHTOOL_TEXT_H
#define NICDOCTOR_PARSE_ETHTOOL_TEXT_H

#include <stdbool.h>

#include "nicdoctor/facts.h"
#include "nicdoctor/text_util.h"

struct et_ctx {
	const char *opt;		/* "ethtool -l": quoted in reasons */
	struct nd_cursor c;		/* at the first body line */
	struct nd_span first;		/* header line when it is body too (-i) */
	bool header_found;
	char said[112];			/* error lines, joined */
};

/* Find the block whose first line starts with `header`; with
 * header_is_body the header line is also the first body line.  Error
 * lines before it go to ctx->said.  0 or -ENOENT. */
int et_begin(const char *text, size_t len, const char *header, bool header_is_body,
	     const char *opt, struct et_ctx *ctx);
/* The next trimmed body line; false at the block's end: another ethtool
 * header, a shell prompt, or (blank_ends and seen_value) a blank line.
 * Error lines are skipped into ctx->said. */
bool et_line(struct et_ctx *ctx, bool blank_ends, bool seen_value, struct nd_span *ret_line);
/* Set st unknown with the reason; -EOPNOTSUPP, -EIO or -EINVAL. */
int et_fail(struct et_ctx *ctx, struct nd_status *st);

#endif

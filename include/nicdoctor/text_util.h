/*
 * text_util.h - bounded line and token helpers for the command-output
 * parsers in src/parse/ (ethtool, lspci, ip link, tc, sysctl, supportconfig).
 *
 * Every helper works on (pointer, length) spans and never reads past the
 * end it was given: the text comes from bundles and pastes, so it may lack
 * a final newline or a NUL, hold CRLF line ends or binary bytes.
 */
#ifndef NICDOCTOR_PARSE_TEXT_UTIL_H
#define NICDOCTOR_PARSE_TEXT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nd_span {
	const char *p;
	size_t len;
};

/* A cursor over text: nd_next_line() hands out one line at a time. */
struct nd_cursor {
	const char *p, *end;
};

void nd_cursor_init(struct nd_cursor *c, const char *text, size_t len);
/* The next line without its "\n" or "\r\n"; false at the end. */
bool nd_next_line(struct nd_cursor *c, struct nd_span *ret_line);

struct nd_span nd_span_trim(struct nd_span s);
bool nd_span_blank(struct nd_span s);
bool nd_span_eq(struct nd_span s, const char *str);
bool nd_span_starts(struct nd_span s, const char *prefix);
/* Case-sensitive search; NULL when absent. */
const char *nd_span_find(struct nd_span s, const char *needle);
bool nd_span_contains(struct nd_span s, const char *needle);
/* The part after the first `n` bytes. */
struct nd_span nd_span_from(struct nd_span s, size_t n);
/* Split at the first ':' into trimmed key and value; false without one. */
bool nd_span_kv(struct nd_span line, struct nd_span *ret_key, struct nd_span *ret_val);
/* Next blank-separated token after *pos; false at the end. */
bool nd_span_token(struct nd_span s, size_t *pos, struct nd_span *ret_tok);
/* Copy into dst (always terminated), bytes outside printable ASCII as '?'. */
void nd_span_copy(struct nd_span s, char *dst, size_t size);
/* Whole span a decimal number (no sign); -EINVAL or -ERANGE. */
int nd_span_u64(struct nd_span s, uint64_t *ret);
/* Leading decimal digits of s (at least one); their count in *ret_used. */
int nd_span_u64_prefix(struct nd_span s, uint64_t *ret, size_t *ret_used);
/* A value that fits an unsigned: "n/a" gives 0 (the device has
 * no such setting).  -EINVAL for anything else. */
int nd_span_uint_or_na(struct nd_span s, unsigned *ret);
/* Leading "12.5"-style number (digits, one optional fraction). */
int nd_span_double_prefix(struct nd_span s, double *ret, size_t *ret_used);

#endif

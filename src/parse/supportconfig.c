/*
 * supportconfig.c - split SUSE supportconfig files (network.txt,
 * hardware.txt, proc.txt, env.txt, ...) into their sections:
 *
 *   #==[ Command ]======================================#
 *   # /usr/sbin/ethtool -l eth0
 *   <output>
 *
 * A section ends at the next line starting "#==[" (as SUSE's own analyser
 * reads them); the body then goes to the matching text parser.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/parse_text.h"
#include "nicdoctor/text_util.h"

static bool section_header(struct nd_span line, struct nd_span *ret_kind)
{
	const char *close;

	if (!nd_span_starts(line, "#==["))
		return false;
	*ret_kind = nd_span_from(line, 4);
	close = nd_span_find(*ret_kind, "]");
	if (close)
		ret_kind->len = (size_t)(close - ret_kind->p);
	*ret_kind = nd_span_trim(*ret_kind);
	return true;
}

/* "# /proc/x - Last 500 Lines", "# /etc/x - File not found": the path. */
static void section_name(struct nd_span line, struct nd_sc_section *ret)
{
	struct nd_span name = nd_span_trim(nd_span_from(line, 1));
	const char *dash;

	if (name.len && name.p[0] == '/' && (dash = nd_span_find(name, " - ")) != NULL) {
		struct nd_span note = nd_span_from(name, (size_t)(dash - name.p) + 3);

		if (!memchr(name.p, ' ', (size_t)(dash - name.p))) {
			ret->file_missing = nd_span_starts(note, "File not found");
			name.len = (size_t)(dash - name.p);
		}
	}
	ret->name = name.p;
	ret->name_len = name.len;
}

int nd_sc_next(const char *text, size_t len, size_t *pos, struct nd_sc_section *ret)
{
	struct nd_cursor c;
	struct nd_span line, kind;
	bool in_section = false, named = false;
	const char *body_end = NULL;

	if (!text || *pos >= len)
		return -ENOENT;
	memset(ret, 0, sizeof(*ret));
	nd_cursor_init(&c, text + *pos, len - *pos);
	for (;;) {
		const char *line_start = c.p;

		if (!nd_next_line(&c, &line)) {
			line_start = c.end;
			if (!in_section)
				break;
		} else if (!section_header(line, &kind)) {
			if (!in_section)
				continue;
			if (!named && nd_span_starts(line, "#")) {
				section_name(line, ret);
				ret->body = c.p;
				named = true;
			} else if (!nd_span_blank(line)) {
				body_end = c.p;		/* blank tail is cut */
			}
			continue;
		} else if (!in_section) {
			ret->kind = kind.p;
			ret->kind_len = kind.len;
			ret->body = c.p;
			in_section = true;
			continue;
		}
		/* End of this section at line_start (the next header or end). */
		if (!body_end || body_end < ret->body)
			body_end = ret->body;
		ret->body_len = (size_t)(body_end - ret->body);
		*pos = (size_t)(line_start - text);
		return 0;
	}
	*pos = len;
	return -ENOENT;
}

/* "/usr/sbin/ethtool  -l eth0" matches "ethtool -l eth0". */
static bool command_matches(struct nd_span name, const char *what)
{
	size_t pos = 0, wpos = 0, wlen = strlen(what);
	struct nd_span tok, wtok, want = { what, wlen };
	bool first = true;

	while (nd_span_token(name, &pos, &tok)) {
		if (first) {
			const char *slash = NULL;

			for (size_t i = 0; i < tok.len; i++)
				if (tok.p[i] == '/')
					slash = tok.p + i;
			if (slash)
				tok = nd_span_from(tok, (size_t)(slash - tok.p) + 1);
			first = false;
		}
		if (!nd_span_token(want, &wpos, &wtok) || tok.len != wtok.len ||
		    memcmp(tok.p, wtok.p, tok.len))
			return false;
	}
	return !first && !nd_span_token(want, &wpos, &wtok);
}

bool nd_sc_command_is(const struct nd_sc_section *sec, const char *what)
{
	struct nd_span name = { sec->name, sec->name_len };

	return sec->name && what && what[0] && command_matches(name, what);
}

int nd_sc_find(const char *text, size_t len, const char *what, struct nd_sc_section *ret)
{
	size_t pos = 0;

	if (!what || !what[0])
		return -ENOENT;
	while (nd_sc_next(text, len, &pos, ret) == 0) {
		struct nd_span name = { ret->name, ret->name_len };

		if (!ret->name)
			continue;
		if (what[0] == '/' ? nd_span_eq(name, what) || command_matches(name, what) :
		    command_matches(name, what))
			return 0;
	}
	memset(ret, 0, sizeof(*ret));
	return -ENOENT;
}

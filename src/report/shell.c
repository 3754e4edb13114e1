/*
 * shell.c - fix commands printed so that pasting the block runs exactly
 * them.  A command is wrapped only at whitespace the shell would split at
 * (outside quotes, not escaped), each break ending in " \"; a comment, and
 * the comment that may end a command, is wrapped as more comment lines
 * ("# ..."), since a backslash does not continue a comment and the next
 * line would run.  A word is never cut: a word longer than a line is
 * printed whole (splitting it would put the indentation inside it).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

/* A control character could move the cursor or end the line early: shown
 * as '?', as everywhere in the text report. */
static void put_clean(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Where the command's words end, as the shell reads them: *ret_comment is
 * set to where an unquoted '#' starting a word begins a comment (or the
 * end).  Returns the length of the next word at p (0 at the end or at the
 * comment); quotes and backslashes keep their blanks inside the word.
 */
static size_t word_len(const char *p, const char *comment)
{
	const char *q = p;
	char quote = 0;

	while (*q && q < comment) {
		if (quote) {
			if (*q == quote)
				quote = 0;
			else if (quote == '"' && *q == '\\' && q[1])
				q++;
		} else if (*q == '\'' || *q == '"') {
			quote = *q;
		} else if (*q == '\\' && q[1]) {
			q++;
		} else if (blank(*q)) {
			break;
		}
		q++;
	}
	return (size_t)(q - p);
}

/* The first unquoted '#' that starts a word (a comment), or the end. */
static const char *comment_start(const char *cmd)
{
	const char *p = cmd;

	for (;;) {
		size_t len;

		while (blank(*p))
			p++;
		if (!*p || *p == '#')
			return p;
		len = word_len(p, p + strlen(p));
		p += len;
	}
}

/* Comment words from column col, continuation lines "# " at indent. */
static void comment_words(FILE *out, size_t col, size_t indent, const char *p)
{
	bool first = true;

	while (*p) {
		size_t len;

		while (blank(*p) || *p == '\n')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \t\n");
		if (!first && col + 1 + len > ND_TEXT_WIDTH) {
			fprintf(out, "\n%*s# ", (int)indent, "");
			col = indent + 2;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		put_clean(out, p, len);
		col += len;
		p += len;
		first = false;
	}
}

void nd_shell_print(FILE *out, size_t col, size_t indent, const char *cmd)
{
	const char *comment = comment_start(cmd), *p = cmd;
	bool first = true;

	while (blank(*p))
		p++;
	while (p < comment) {
		size_t len = word_len(p, comment);

		/* room for the word and, after it, " \" if more must follow */
		if (!first && col + 1 + len + 2 > ND_TEXT_WIDTH) {
			fprintf(out, " \\\n%*s", (int)indent + 2, "");
			col = indent + 2;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		put_clean(out, p, len);
		col += len;
		p += len;
		first = false;
		while (blank(*p))
			p++;
	}
	if (*comment) {
		/* "cmd # why": the comment on its own lines when it does not fit */
		if (!first && col + 3 + strcspn(comment + 1, " \t") > ND_TEXT_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fputs("# ", out);
		comment_words(out, col + 2, indent, comment + 1);
	}
	fputc('\n', out);
}

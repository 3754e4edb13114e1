/*
 * journal_check.c - what a journal may make revert do.  A journal is data
 * that root obeys, so revert acts only on what `fix` itself writes: each
 * step's kind vouches for its key and value (the allow-list lives next to
 * the planner that writes the knob), every file must be one of the exact
 * paths --persist writes for the journal's own interface.  Pure: the
 * fuzzer runs it on hostile input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "fixes.h"

static int refuse(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (why && size) {
		va_start(ap, fmt);
		vsnprintf(why, size, fmt, ap);
		va_end(ap);
	}
	return -EPERM;
}

static bool persist_path_ok(const char *ifname, const char *path)
{
	char want[PATH_MAX];

	for (int t = 0; t < ND_PERSIST_COUNT; t++)
		if (nd_fix_persist_path(ifname, (enum nd_fix_persist_target)t, want,
					sizeof(want)) == 0 && !strcmp(path, want))
			return true;
	return false;
}

int nd_fix_journal_validate(const struct nd_fix_journal *j, const char *ifname,
			    char *ret_why, size_t why_size)
{
	if (nd_ifname_valid(j->ifname) < 0 || strcmp(j->ifname, ifname))
		return refuse(ret_why, why_size, "it names interface '%s', its file name '%s'",
			      j->ifname, ifname);
	for (unsigned i = 0; i < j->n_steps; i++) {
		const struct nd_fix_step *s = &j->steps[i];

		if (!s->kind || !s->kind->check || s->kind->check(s->key, s->current) < 0 ||
		    s->kind->check(s->key, s->target) < 0)
			return refuse(ret_why, why_size, "step %u (%s '%s') is not a change "
				      "'nicdoctor fix' makes", i + 1, s->kind ? s->kind->name : "?",
				      s->key);
	}
	for (unsigned i = 0; i < j->n_files; i++)
		if (!persist_path_ok(j->ifname, j->files[i].path))
			return refuse(ret_why, why_size, "file %u '%s' is not one --persist writes "
				      "for '%s'", i + 1, j->files[i].path, j->ifname);
	return 0;
}

bool nd_fix_chars_only(const char *text, const char *allowed)
{
	return *text && strspn(text, allowed) == strlen(text);
}

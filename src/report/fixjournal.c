/*
 * fixjournal.c - `nicdoctor fix --revert --list`: each journal, newest
 * first, with its state and the original value of every knob and file it
 * would put back, so what a revert will do can be read before it runs.
 */
#include <stdio.h>
#include <time.h>

#include "nicdoctor/fix.h"

static void render_created(long long usec, FILE *out)
{
	time_t sec = (time_t)(usec / 1000000);
	struct tm tm;
	char text[32];

	if (gmtime_r(&sec, &tm) && strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &tm))
		fprintf(out, "created %s", text);
	else
		fprintf(out, "created at %lld usec", usec);
}

static void render_journal(const struct nd_fix_journal *j, FILE *out)
{
	fprintf(out, "journal %s\n  %s, %s, ", j->path, j->ifname, j->state);
	render_created(j->created_usec, out);
	fprintf(out, ", %u change%s%s\n", j->n_steps, j->n_steps == 1 ? "" : "s",
		j->n_files ? " and persist files" : "");
	for (unsigned i = 0; i < j->n_steps; i++) {
		const struct nd_fix_step *s = &j->steps[i];

		fprintf(out, "  %s: original %s, set to %s\n", s->what[0] ? s->what : s->key,
			s->current, s->target);
	}
	for (unsigned i = 0; i < j->n_files; i++)
		fprintf(out, "  file %s: %s\n", j->files[i].path,
			j->files[i].existed ? "existed, its content is restored" :
			"did not exist, removed");
}

void nd_render_fix_journals(const struct nd_fix_journal_set *set, FILE *out)
{
	for (unsigned i = 0; i < set->n; i++)
		render_journal(set->j[i], out);
	fprintf(out, "%u journal%s, %u to revert (newest first)\n", set->n, set->n == 1 ? "" : "s",
		set->n_pending);
}

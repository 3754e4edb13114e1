/*
 * fixplan.c - how `nicdoctor fix` reads: the plan (one line per change:
 * what, current -> new, why, the command a person would type), each
 * step's outcome as it happens, and the closing summary of an apply or a
 * revert.  Kept in report/ so src/cmd/fix.c and fixes/ hold no formatting.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicdoctor/fix.h"

static void column_widths(const struct nd_fix_plan *plan, int *what_w, int *change_w,
			  int *why_w)
{
	*what_w = *change_w = *why_w = 0;
	for (unsigned i = 0; i < plan->n_steps; i++) {
		const struct nd_fix_step *s = &plan->steps[i];
		int change = (int)(strlen(s->current) + strlen(" -> ") + strlen(s->target));
		int why = (int)strlen(s->finding_id) + 2;

		if ((int)strlen(s->what) > *what_w)
			*what_w = (int)strlen(s->what);
		if (change > *change_w)
			*change_w = change;
		if (why > *why_w)
			*why_w = why;
	}
}

void nd_render_fix_plan(const struct nd_fix_plan *plan, bool dry_run, FILE *out)
{
	int what_w, change_w, why_w;

	if (!plan->n_steps)
		fprintf(out, "nothing to fix on %s: no finding of warning or worse that a fix "
			"answers needs a change\n", plan->ifname);
	else
		fprintf(out, "fix plan for %s: %u change%s%s\n", plan->ifname, plan->n_steps,
			plan->n_steps == 1 ? "" : "s",
			dry_run ? " (dry run, nothing changed; add --apply to make them)" : "");
	column_widths(plan, &what_w, &change_w, &why_w);
	for (unsigned i = 0; i < plan->n_steps; i++) {
		const struct nd_fix_step *s = &plan->steps[i];
		char change[2 * ND_FIX_VALUE_LEN + 8], why[64];

		snprintf(change, sizeof(change), "%s -> %s", s->current, s->target);
		snprintf(why, sizeof(why), "[%s]", s->finding_id);
		fprintf(out, "  %-*s  %-*s  %-*s  %s\n", what_w, s->what, change_w, change, why_w,
			why, s->command);
	}
	for (unsigned i = 0; i < plan->n_notes; i++)
		fprintf(out, "note: %s\n", plan->notes[i]);
}

void nd_render_fix_persist_preview(const struct nd_fix_journal *j, FILE *out)
{
	for (unsigned i = 0; i < j->n_files; i++)
		fprintf(out, "with --apply, --persist writes: %s\n", j->files[i].path);
}

void nd_render_fix_step(const struct nd_fix_step *step, unsigned index,
			enum nd_fix_phase phase, int result, const char *value_now, FILE *out)
{
	static const char *const done_word[] = { "applied", "rolled back", "restored" };
	bool backwards = phase != ND_FIX_APPLY;

	if (result < 0)
		fprintf(out, "  step %u failed: %s -> %s\n", index + 1, step->what,
			backwards ? step->current : step->target);
	else if (result > 0 && phase != ND_FIX_ROLLBACK)
		fprintf(out, "  step %u unchanged: %s is already %s\n", index + 1, step->what,
			value_now);
	else if (result == 0)
		fprintf(out, "  step %u %s: %s %s -> %s\n", index + 1, done_word[phase], step->what,
			backwards ? step->target : step->current, value_now);
}

static void render_files(const struct nd_fix_journal *j, bool reverted, FILE *out)
{
	for (unsigned i = 0; i < j->n_files; i++) {
		const struct nd_fix_journal_file *f = &j->files[i];

		if (!reverted)
			fprintf(out, "persisted: %s\n", f->path);
		else
			fprintf(out, "%s: %s\n", f->existed ? "restored" : "removed", f->path);
	}
}

void nd_render_fix_baseline(const struct nd_fix_peer *peer, const struct nd_fix_baseline *b,
			    FILE *out)
{
	fprintf(out, "throughput from %s: %.0f Mbit/s (run-to-run noise %.0f%%", peer->host,
		b->mbps, b->noise_share * 100);
	if (b->rtt_usec > 0)
		fprintf(out, ", RTT %.3f ms", b->rtt_usec / 1000.0);
	fprintf(out, ")\n");
}

void nd_render_fix_measure(const char *kind, double mbps, double level_mbps, bool rolled_back,
			   double noise_share, FILE *out)
{
	if (rolled_back)
		fprintf(out, "  after %s: %.0f Mbit/s, below %.0f by more than the %.0f%% noise: "
			"rolling back\n", kind, mbps, level_mbps, noise_share * 100);
	else
		fprintf(out, "  after %s: %.0f Mbit/s (was %.0f)\n", kind, mbps, level_mbps);
}

static void render_throughput(const struct nd_fix_outcome *o, FILE *out)
{
	if (!o->measured)
		return;
	fprintf(out, "throughput: before %.0f Mbit/s, after %.0f Mbit/s", o->before_mbps,
		o->after_mbps);
	if (o->worse_undone)
		fprintf(out, " (%u change%s rolled back for lowering it)", o->worse_undone,
			o->worse_undone == 1 ? "" : "s");
	fprintf(out, "\n");
}

void nd_render_fix_applied(const struct nd_fix_journal *j, const struct nd_fix_outcome *o,
			   FILE *out)
{
	if (o->failed_index < 0 && o->error) {
		fprintf(out, "%s\nrolled back: %u change%s undone\njournal: %s\n", o->failed_detail,
			o->rolled_back, o->rolled_back == 1 ? "" : "s", j->path);
		return;
	}
	if (o->failed_index >= 0) {
		fprintf(out, "step %d of %u failed (%s): %s\n", o->failed_index + 1, j->n_steps,
			j->steps[o->failed_index].what, o->failed_detail);
		fprintf(out, "rolled back: %u change%s undone%s", o->rolled_back,
			o->rolled_back == 1 ? "" : "s",
			o->rollback_failed ? "" : ", every value is back to the original\n");
		if (o->rollback_failed)
			fprintf(out, ", %u could not be restored: see 'nicdoctor fix --revert %s'\n",
				o->rollback_failed, j->ifname);
		fprintf(out, "journal: %s\n", j->path);
		return;
	}
	fprintf(out, "applied %u change%s to %s", o->done - o->worse_undone,
		o->done - o->worse_undone == 1 ? "" : "s", j->ifname);
	if (o->skipped)
		fprintf(out, " (%u already set)", o->skipped);
	fprintf(out, "\n");
	render_throughput(o, out);
	render_files(j, false, out);
	fprintf(out, "journal: %s\nundo with: nicdoctor fix --revert %s\n", j->path, j->ifname);
}

void nd_render_fix_reverted(const struct nd_fix_journal *j, const struct nd_fix_outcome *o,
			    FILE *out)
{
	fprintf(out, "reverted %s from %s: %u value%s restored, %u already original\n",
		j->ifname, j->path, o->done, o->done == 1 ? "" : "s", o->skipped);
	render_files(j, true, out);
	if (o->failed_index >= 0 || o->error)
		fprintf(out, "not restored: %s\n", o->failed_detail);
}

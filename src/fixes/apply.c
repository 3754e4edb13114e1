/*
 * apply.c - the write loop shared by --apply, rollback and --revert.
 *
 * Every write is read, compare, write, read back: a value already right
 * is not written, and a write the kernel silently adjusted (clamped,
 * refused a dependent feature) is caught by the read back.  A failing
 * apply undoes what this call changed, newest first; revert restores
 * every step of the journal and is idempotent because it skips values
 * that already equal the original.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "fixes.h"

/* The original a pending earlier journal recorded for this knob, oldest
 * journal first (the set is newest first); NULL when none touched it. */
static const char *first_original(const struct nd_fix_journal_set *earlier,
				  const struct nd_fix_step *p)
{
	for (unsigned k = earlier ? earlier->n : 0; k-- > 0;) {
		const struct nd_fix_journal *e = earlier->j[k];

		if (!strcmp(e->state, "reverted"))
			continue;
		for (unsigned i = 0; i < e->n_steps; i++)
			if (e->steps[i].kind && !strcmp(e->steps[i].kind->name, p->kind->name) &&
			    !strcmp(e->steps[i].key, p->key))
				return e->steps[i].current;
	}
	return NULL;
}

int nd_fix_journal_capture_after(struct nd_fix_journal *j, const struct nd_fix_plan *plan,
				 const struct nd_fix_journal_set *earlier, char *ret_why,
				 size_t why_size)
{
	nd_strlcpy(j->ifname, plan->ifname, sizeof(j->ifname));
	j->n_steps = 0;
	for (unsigned i = 0; i < plan->n_steps; i++) {
		const struct nd_fix_step *p = &plan->steps[i];
		struct nd_fix_step *s = &j->steps[j->n_steps];
		const char *first;
		int r;

		*s = *p;
		r = p->kind->get(plan->ifname, p->key, s->current, sizeof(s->current));
		if (r < 0) {
			snprintf(ret_why, why_size, "cannot read %s of '%s': %s", p->what,
				 plan->ifname, strerror(-r));
			return r;
		}
		/* Right already (changed since the probe): nothing to write or restore. */
		if (!strcmp(s->current, s->target))
			continue;
		first = first_original(earlier, p);
		if (first)
			nd_strlcpy(s->current, first, sizeof(s->current));
		j->n_steps++;
	}
	return 0;
}

int nd_fix_journal_capture(struct nd_fix_journal *j, const struct nd_fix_plan *plan,
			   char *ret_why, size_t why_size)
{
	return nd_fix_journal_capture_after(j, plan, NULL, ret_why, why_size);
}

static int os_get(const struct nd_fix_step *s, const char *ifname, char *ret_value, size_t size,
		  void *arg)
{
	(void)arg;
	return s->kind->get(ifname, s->key, ret_value, size);
}

static int os_set(const struct nd_fix_step *s, const char *ifname, const char *value, void *arg)
{
	(void)arg;
	return s->kind->set(ifname, s->key, value);
}

static int os_put_file(const char *path, const char *text, void *arg)
{
	(void)arg;
	return nd_fix_write_durable(path, text, 0644);
}

static int os_remove_file(const char *path, void *arg)
{
	(void)arg;
	if (unlink(path) == 0)
		return nd_fix_fsync_parent(path);
	return errno == ENOENT ? 0 : -errno;
}

const struct nd_fix_io nd_fix_io_os = { os_get, os_set, os_put_file, os_remove_file, NULL };

/* A test hook: stop after the N-th step (1-based) so a test can SIGKILL
 * between two steps and check that --revert copes. */
static void test_pause_after(unsigned steps_done)
{
	const char *env = getenv("NICDOCTOR_TEST_PAUSE_AFTER_STEP");
	unsigned n;

	if (!env || nd_fix_parse_unsigned(env, &n) < 0 || n != steps_done)
		return;
	nd_err("paused after step %u (NICDOCTOR_TEST_PAUSE_AFTER_STEP)", n);
	for (;;)
		pause();
}

/* Put one step back to `value`: read, skip if equal, write, read back.
 * 1 when nothing had to be written, 0 when written, negative errno. */
static int put_value(const struct nd_fix_io *io, struct nd_fix_journal *j,
		     const struct nd_fix_step *s, const char *value, char *now, size_t now_size,
		     char *detail, size_t detail_size)
{
	int r = io->get(s, j->ifname, now, now_size, io->arg);

	if (r < 0) {
		snprintf(detail, detail_size, "cannot read %s: %s", s->what, strerror(-r));
		return r;
	}
	if (!strcmp(now, value))
		return 1;
	r = io->set(s, j->ifname, value, io->arg);
	if (r < 0) {
		snprintf(detail, detail_size, "cannot set %s to %s: %s", s->what, value,
			 strerror(-r));
		return r;
	}
	r = io->get(s, j->ifname, now, now_size, io->arg);
	if (r < 0) {
		snprintf(detail, detail_size, "cannot read %s back: %s", s->what, strerror(-r));
		return r;
	}
	if (strcmp(now, value)) {
		snprintf(detail, detail_size, "%s reads back %s after writing %s", s->what, now,
			 value);
		return -EIO;
	}
	return 0;
}

static int undo_range(struct nd_fix_journal *j, unsigned first, unsigned last,
		      enum nd_fix_phase phase, nd_fix_step_cb cb, void *cb_arg,
		      struct nd_fix_outcome *out)
{
	char now[ND_FIX_VALUE_LEN], detail[sizeof(out->failed_detail)];
	int worst = 0;

	for (unsigned i = last; i-- > first;) {
		const struct nd_fix_step *s = &j->steps[i];
		int r = put_value(&nd_fix_io_os, j, s, s->current, now, sizeof(now), detail,
				  sizeof(detail));

		if (cb)
			cb(s, i, phase, r, now, cb_arg);
		if (r == 0)
			out->rolled_back++;
		if (r < 0) {
			out->rollback_failed++;
			if (!worst) {
				worst = r;
				nd_strlcpy(out->failed_detail, detail, sizeof(out->failed_detail));
			}
		}
	}
	return worst;
}

int nd_fix_undo_range(struct nd_fix_journal *j, unsigned first, unsigned last,
		      nd_fix_step_cb cb, void *cb_arg, struct nd_fix_outcome *out)
{
	return undo_range(j, first, last, ND_FIX_ROLLBACK, cb, cb_arg, out);
}

int nd_fix_apply_range(struct nd_fix_journal *j, unsigned first, unsigned last,
		       nd_fix_step_cb cb, void *cb_arg, struct nd_fix_outcome *out)
{
	char now[ND_FIX_VALUE_LEN];
	int r = 0;
	unsigned i;

	out->failed_index = -1;
	for (i = first; i < last; i++) {
		const struct nd_fix_step *s = &j->steps[i];

		r = put_value(&nd_fix_io_os, j, s, s->target, now, sizeof(now), out->failed_detail,
			      sizeof(out->failed_detail));
		if (cb)
			cb(s, i, ND_FIX_APPLY, r, now, cb_arg);
		if (r < 0)
			break;
		if (r == 0)
			out->done++;
		else
			out->skipped++;
		test_pause_after(i + 1);
	}
	if (r >= 0)
		return 0;
	out->failed_index = (int)i;
	out->error = r;
	/* The failed step too: a refused write may still have half happened. */
	{
		char detail[sizeof(out->failed_detail)];

		memcpy(detail, out->failed_detail, sizeof(detail));
		undo_range(j, first, i + 1, ND_FIX_ROLLBACK, cb, cb_arg, out);
		memcpy(out->failed_detail, detail, sizeof(detail));
	}
	return r;
}

int nd_fix_revert(struct nd_fix_journal *j, nd_fix_step_cb cb, void *cb_arg,
		  struct nd_fix_outcome *out)
{
	return nd_fix_revert_io(j, &nd_fix_io_os, cb, cb_arg, out);
}

int nd_fix_revert_io(struct nd_fix_journal *j, const struct nd_fix_io *io, nd_fix_step_cb cb,
		     void *cb_arg, struct nd_fix_outcome *out)
{
	char now[ND_FIX_VALUE_LEN], detail[sizeof(out->failed_detail)];
	unsigned failed_file = 0;
	int worst = 0, r;

	out->failed_index = -1;
	for (unsigned i = j->n_steps; i-- > 0;) {
		const struct nd_fix_step *s = &j->steps[i];

		r = put_value(io, j, s, s->current, now, sizeof(now), detail, sizeof(detail));
		if (cb)
			cb(s, i, ND_FIX_REVERT, r, now, cb_arg);
		if (r == 0)
			out->done++;
		else if (r > 0)
			out->skipped++;
		else if (!worst) {
			worst = r;
			out->failed_index = (int)i;
			out->error = r;
			nd_strlcpy(out->failed_detail, detail, sizeof(out->failed_detail));
		}
	}
	r = nd_fix_persist_restore_io(j, io, &failed_file);
	if (r < 0 && !worst) {
		worst = r;
		out->error = r;
		snprintf(out->failed_detail, sizeof(out->failed_detail), "cannot restore '%s': %s",
			 j->files[failed_file].path, strerror(-r));
	}
	return worst;
}

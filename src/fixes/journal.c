/*
 * journal.c - the record of every original value, written (and fsync'd,
 * file and directory) before the first change, so `fix --revert` can put
 * everything back even after the applying process was killed.  JSON via
 * cJSON, one file per apply: STATE_DIR/journal-<usec>-<IF>.json.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "nicdoctor/common.h"
#include "fixes.h"


const char *nd_fix_state_dir(void)
{
	const char *dir = getenv("NICDOCTOR_STATE_DIR");

	return dir && *dir ? dir : "/var/lib/nicdoctor";
}

const char *nd_fix_etc_dir(void)
{
	const char *dir = getenv("NICDOCTOR_ETC_DIR");

	return dir && *dir ? dir : "/etc";
}

static cJSON *step_to_json(const struct nd_fix_step *s)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "kind", s->kind->name);
	cJSON_AddStringToObject(o, "key", s->key);
	cJSON_AddStringToObject(o, "what", s->what);
	cJSON_AddStringToObject(o, "original", s->current);
	cJSON_AddStringToObject(o, "target", s->target);
	cJSON_AddStringToObject(o, "finding", s->finding_id);
	cJSON_AddStringToObject(o, "command", s->command);
	return o;
}

static cJSON *file_to_json(const struct nd_fix_journal_file *f)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "path", f->path);
	cJSON_AddBoolToObject(o, "existed", f->existed);
	if (f->existed && f->original)
		cJSON_AddStringToObject(o, "original", f->original);
	else
		cJSON_AddNullToObject(o, "original");
	cJSON_AddStringToObject(o, "content", f->content ? f->content : "");
	return o;
}

static char *journal_to_text(const struct nd_fix_journal *j)
{
	cJSON *doc = cJSON_CreateObject(), *steps, *files;
	char *text = NULL;

	if (!doc)
		return NULL;
	cJSON_AddStringToObject(doc, "schema", ND_FIX_JOURNAL_SCHEMA);
	cJSON_AddStringToObject(doc, "interface", j->ifname);
	cJSON_AddStringToObject(doc, "state", j->state);
	cJSON_AddNumberToObject(doc, "created_usec", (double)j->created_usec);
	steps = cJSON_AddArrayToObject(doc, "steps");
	files = cJSON_AddArrayToObject(doc, "files");
	for (unsigned i = 0; steps && i < j->n_steps; i++)
		cJSON_AddItemToArray(steps, step_to_json(&j->steps[i]));
	for (unsigned i = 0; files && i < j->n_files; i++)
		cJSON_AddItemToArray(files, file_to_json(&j->files[i]));
	if (steps && files && cJSON_GetArraySize(steps) == (int)j->n_steps &&
	    cJSON_GetArraySize(files) == (int)j->n_files)
		text = cJSON_Print(doc);
	cJSON_Delete(doc);
	return text;
}

int nd_fix_journal_write(struct nd_fix_journal *j)
{
	const char *dir = nd_fix_state_dir();
	char path[PATH_MAX];
	char *text;
	int r;

	if (!j->created_usec) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		j->created_usec = (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
	}
	r = nd_fix_mkdirs(dir, 0700);	/* the journal names the host's settings */
	if (r < 0)
		return r;
	if (j->path[0])
		nd_strlcpy(path, j->path, sizeof(path));
	else if (snprintf(path, sizeof(path), "%s/journal-%016lld-%s.json", dir, j->created_usec,
			  j->ifname) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	text = journal_to_text(j);
	if (!text)
		return -ENOMEM;
	r = nd_fix_write_durable(path, text, 0600);
	free(text);
	if (r == 0)
		nd_strlcpy(j->path, path, sizeof(j->path));
	return r;
}

int nd_fix_lock(int *ret_fd)
{
	char path[PATH_MAX];
	int fd, r;

	r = nd_fix_mkdirs(nd_fix_state_dir(), 0700);
	if (r < 0)
		return r;
	/* Before the first file is opened in it: a directory others can
	 * write could hold a symlink where the lock goes. */
	r = nd_fix_state_dir_check(NULL, 0);
	if (r < 0)
		return r;
	if (snprintf(path, sizeof(path), "%s/lock", nd_fix_state_dir()) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	/* Held until exit: a second apply or revert must not interleave. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

void nd_fix_journal_free(struct nd_fix_journal *j)
{
	for (unsigned i = 0; i < j->n_files; i++) {
		free(j->files[i].original);
		free(j->files[i].content);
		j->files[i].original = j->files[i].content = NULL;
	}
	j->n_files = 0;
}

/*
 * journal_read.c - parsing a journal back, strictly: `fix --revert` must
 * not act on a journal it only half understands, so a truncated or
 * corrupt file is an error that names what is wrong, and a file that
 * someone other than root could have written is not read at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "nicdoctor/common.h"
#include "fixes.h"

#define JOURNAL_MAX_BYTES (16 << 20)
/* Year 5138 in microseconds: far past any clock, far below LLONG_MAX. */
#define CREATED_USEC_MAX 1e17

struct why {
	char *buf;
	size_t size;
};

static int bad(struct why *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct why *why, const char *fmt, ...)
{
	va_list ap;

	if (why->buf && why->size) {
		va_start(ap, fmt);
		vsnprintf(why->buf, why->size, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

/* Who may have written a file root is about to obey: root (or the caller,
 * for the unit tests), and nobody else through the mode bits. */
static int trusted(const struct stat *st, const char *prefix, struct why *why)
{
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		bad(why, "%sowned by uid %u, not root", prefix, (unsigned)st->st_uid);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		bad(why, "%swritable by group or others", prefix);
		return -EPERM;
	}
	return 0;
}

static int read_text(const char *path, char **ret_text, size_t *ret_len, struct why *why)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), r = 0;
	struct stat st;
	char *text = NULL;
	ssize_t got = 0;

	if (fd < 0) {
		if (errno != ELOOP)
			return -errno;
		bad(why, "a symlink");
		return -EPERM;
	}
	/* fstat of the opened file: what is checked is what is read. */
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = bad(why, "not a regular file");
	else
		r = trusted(&st, "", why);
	if (r == 0 && st.st_size > JOURNAL_MAX_BYTES)
		r = bad(why, "larger than %d bytes", JOURNAL_MAX_BYTES);
	if (r == 0 && !(text = malloc((size_t)st.st_size + 1)))
		r = -ENOMEM;
	for (size_t done = 0; r == 0 && done < (size_t)st.st_size; done += (size_t)got) {
		got = read(fd, text + done, (size_t)st.st_size - done);
		if (got < 0 && errno == EINTR)
			got = 0;
		else if (got < 0)
			r = -errno;
		else if (got == 0)
			st.st_size = (off_t)done;	/* shrank while read: parsing says so */
	}
	close(fd);
	if (r < 0) {
		free(text);
		return r;
	}
	text[st.st_size] = '\0';
	*ret_text = text;
	*ret_len = (size_t)st.st_size;
	return 0;
}

int nd_fix_state_dir_check(char *ret_why, size_t why_size)
{
	struct why why = { ret_why, why_size };
	const char *dir = nd_fix_state_dir();
	char prefix[PATH_MAX + 32];
	struct stat st;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	if (!S_ISDIR(st.st_mode)) {
		bad(&why, "state directory '%s' is not a directory (or is a symlink)", dir);
		return -EPERM;
	}
	snprintf(prefix, sizeof(prefix), "state directory '%s' is ", dir);
	return trusted(&st, prefix, &why);
}

/* Copy a required string member; false (with why) when absent or too long. */
static bool get_str(const cJSON *obj, const char *key, char *dst, size_t size)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsString(item) || strlen(item->valuestring) >= size)
		return false;
	memcpy(dst, item->valuestring, strlen(item->valuestring) + 1);
	return true;
}

static int parse_step(const cJSON *o, unsigned index, struct nd_fix_step *s, struct why *why)
{
	char kind[32];

	if (!cJSON_IsObject(o))
		return bad(why, "step %u is not an object", index + 1);
	if (!get_str(o, "kind", kind, sizeof(kind)))
		return bad(why, "step %u has no 'kind'", index + 1);
	s->kind = nd_fix_kind_find(kind);
	if (!s->kind)
		return bad(why, "step %u has an unknown kind '%s'", index + 1, kind);
	if (!get_str(o, "key", s->key, sizeof(s->key)) ||
	    !get_str(o, "original", s->current, sizeof(s->current)) ||
	    !get_str(o, "target", s->target, sizeof(s->target)))
		return bad(why, "step %u lacks 'key', 'original' or 'target'", index + 1);
	/* Descriptive members: optional. */
	get_str(o, "what", s->what, sizeof(s->what));
	get_str(o, "finding", s->finding_id, sizeof(s->finding_id));
	get_str(o, "command", s->command, sizeof(s->command));
	return 0;
}

static int parse_file(const cJSON *o, unsigned index, struct nd_fix_journal_file *f,
		      struct why *why)
{
	const cJSON *existed = cJSON_GetObjectItemCaseSensitive(o, "existed");
	const cJSON *original = cJSON_GetObjectItemCaseSensitive(o, "original");
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(o, "content");

	if (!cJSON_IsObject(o) || !get_str(o, "path", f->path, sizeof(f->path)) ||
	    f->path[0] != '/' || !cJSON_IsBool(existed))
		return bad(why, "file %u lacks 'path' or 'existed'", index + 1);
	f->existed = cJSON_IsTrue(existed);
	if (f->existed && !cJSON_IsString(original))
		return bad(why, "file %u existed but its original content is missing", index + 1);
	f->original = f->existed ? strdup(original->valuestring) : NULL;
	f->content = strdup(cJSON_IsString(content) ? content->valuestring : "");
	if ((f->existed && !f->original) || !f->content)
		return -ENOMEM;
	return 0;
}

static bool state_known(const char *state)
{
	static const char *const states[] = { "applying", "applied", "rolled-back", "reverted",
					      "revert-failed" };

	for (size_t i = 0; i < ND_ARRAY_SIZE(states); i++)
		if (!strcmp(state, states[i]))
			return true;
	return false;
}

static int parse_doc(const cJSON *doc, struct nd_fix_journal *j, struct why *why)
{
	const cJSON *steps = cJSON_GetObjectItemCaseSensitive(doc, "steps");
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(doc, "files");
	const cJSON *created = cJSON_GetObjectItemCaseSensitive(doc, "created_usec");
	char schema[64];
	int r;

	if (!get_str(doc, "schema", schema, sizeof(schema)) || strcmp(schema, ND_FIX_JOURNAL_SCHEMA))
		return bad(why, "not a %s document", ND_FIX_JOURNAL_SCHEMA);
	if (!get_str(doc, "interface", j->ifname, sizeof(j->ifname)) ||
	    nd_ifname_valid(j->ifname) < 0)
		return bad(why, "no valid 'interface'");
	if (!get_str(doc, "state", j->state, sizeof(j->state)) || !state_known(j->state))
		return bad(why, "no known 'state'");
	if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) > ND_FIX_MAX_STEPS)
		return bad(why, "no 'steps' array (or more than %d)", ND_FIX_MAX_STEPS);
	if (files && (!cJSON_IsArray(files) || cJSON_GetArraySize(files) > ND_FIX_MAX_FILES))
		return bad(why, "'files' is not an array of at most %d", ND_FIX_MAX_FILES);
	/* Range first: casting 1e300 or NaN to an integer is undefined. */
	if (!cJSON_IsNumber(created) || !(created->valuedouble >= 0 &&
					  created->valuedouble <= CREATED_USEC_MAX))
		return bad(why, "no 'created_usec' between 0 and %.0f", CREATED_USEC_MAX);
	j->created_usec = (long long)created->valuedouble;
	for (const cJSON *o = steps->child; o; o = o->next) {
		r = parse_step(o, j->n_steps, &j->steps[j->n_steps], why);
		if (r < 0)
			return r;
		j->n_steps++;
	}
	for (const cJSON *o = files ? files->child : NULL; o; o = o->next) {
		r = parse_file(o, j->n_files, &j->files[j->n_files], why);
		j->n_files++;	/* counted even when half-filled, so free releases it */
		if (r < 0)
			return r;
	}
	return 0;
}

int nd_fix_journal_parse(const char *text, size_t len, struct nd_fix_journal *j,
			 char *ret_why, size_t why_size)
{
	struct why why = { ret_why, why_size };
	struct nd_fix_journal *tmp;
	cJSON *doc = cJSON_ParseWithLength(text, len);
	int r;

	if (!doc)
		return bad(&why, "not valid JSON (truncated or corrupt)");
	tmp = calloc(1, sizeof(*tmp));
	r = tmp ? parse_doc(doc, tmp, &why) : -ENOMEM;
	cJSON_Delete(doc);
	if (r < 0) {
		if (tmp)
			nd_fix_journal_free(tmp);
		free(tmp);
		return r;
	}
	*j = *tmp;		/* the file pointers move with it */
	free(tmp);
	return 0;
}

int nd_fix_journal_read(const char *path, struct nd_fix_journal *j, char *ret_why,
			size_t why_size)
{
	struct why why = { ret_why, why_size };
	char *text = NULL;
	size_t len = 0;
	int r;

	r = read_text(path, &text, &len, &why);
	if (r < 0)
		return r;
	r = nd_fix_journal_parse(text, len, j, ret_why, why_size);
	free(text);
	if (r == 0)
		nd_strlcpy(j->path, path, sizeof(j->path));
	return r;
}

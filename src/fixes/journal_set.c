/*
 * journal_set.c - every journal of an interface, newest first.  Revert
 * walks them all (each puts back the values from before its own apply, so
 * newest first ends at the originals), a new apply looks in them for a
 * killed apply and for originals an earlier journal already recorded, and
 * --list shows them.  Each is checked (owner, mode) and validated (allow-
 * list) before any is used, so one hostile journal stops everything.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "fixes.h"

struct entry {
	long long usec;
	char ifname[ND_IFNAMSIZ];
	char name[ND_IFNAMSIZ + 48];
};

/* "journal-<usec>-<IF>.json" -> usec and IF; false when not a journal name. */
static bool parse_name(const char *name, struct entry *ret)
{
	const char *p = name + strlen("journal-"), *dash, *ext;
	char *end;
	long long usec;

	if (strncmp(name, "journal-", strlen("journal-")) || *p < '0' || *p > '9' ||
	    strlen(name) >= sizeof(ret->name))
		return false;
	errno = 0;
	usec = strtoll(p, &end, 10);
	dash = end;
	ext = strrchr(name, '.');
	if (errno || *dash != '-' || !ext || strcmp(ext, ".json") || ext <= dash + 1 ||
	    (size_t)(ext - dash - 1) >= sizeof(ret->ifname))
		return false;
	memcpy(ret->ifname, dash + 1, (size_t)(ext - dash - 1));
	ret->ifname[ext - dash - 1] = '\0';
	ret->usec = usec;
	nd_strlcpy(ret->name, name, sizeof(ret->name));
	return nd_ifname_valid(ret->ifname) == 0;
}

static int newest_first(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->usec != y->usec)
		return x->usec < y->usec ? 1 : -1;
	return -strcmp(x->name, y->name);
}

/* The journal names in the state dir for ifname (all when NULL), sorted. */
static int list_names(const char *ifname, struct entry **ret, unsigned *ret_n)
{
	struct entry *list = NULL, e;
	unsigned n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(nd_fix_state_dir());

	*ret = NULL;
	*ret_n = 0;
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (!parse_name(de->d_name, &e) || (ifname && strcmp(e.ifname, ifname)))
			continue;
		if (n == cap) {
			struct entry *grown = reallocarray(list, cap ? cap * 2 : 16, sizeof(*list));

			if (!grown) {
				free(list);
				closedir(d);
				return -ENOMEM;
			}
			list = grown;
			cap = cap ? cap * 2 : 16;
		}
		list[n++] = e;
	}
	closedir(d);
	if (n)
		qsort(list, n, sizeof(*list), newest_first);
	*ret = list;
	*ret_n = n;
	return 0;
}

/* Read, check and validate one; 0 or negative errno with why. */
static int load_one(const struct entry *e, struct nd_fix_journal **ret, char *path,
		    size_t path_size, char *why, size_t why_size)
{
	struct nd_fix_journal *j;
	int r;

	if (snprintf(path, path_size, "%s/%s", nd_fix_state_dir(), e->name) >= (int)path_size)
		return -ENAMETOOLONG;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	r = nd_fix_journal_read(path, j, why, why_size);
	if (r == 0) {
		r = nd_fix_journal_validate(j, e->ifname, why, why_size);
		if (r < 0)
			nd_fix_journal_free(j);
	}
	if (r < 0) {
		free(j);
		return r;
	}
	*ret = j;
	return 0;
}

int nd_fix_journal_load_all(const char *ifname, bool pending_only,
			    struct nd_fix_journal_set *set, char *ret_path, size_t path_size,
			    char *ret_why, size_t why_size)
{
	struct entry *list;
	unsigned n;
	int r = list_names(ifname, &list, &n);

	memset(set, 0, sizeof(*set));
	if (r < 0)
		return r;
	set->n_seen = n;
	for (unsigned i = 0; i < n && r == 0; i++) {
		struct nd_fix_journal *j;

		r = load_one(&list[i], &j, ret_path, path_size, ret_why, why_size);
		if (r < 0)
			break;
		if (pending_only && !strcmp(j->state, "reverted")) {
			nd_fix_journal_free(j);
			free(j);
			continue;
		}
		if (set->n == ND_FIX_MAX_JOURNALS) {
			snprintf(ret_why, why_size, "more than %d journals to use at once",
				 ND_FIX_MAX_JOURNALS);
			nd_fix_journal_free(j);
			free(j);
			r = -E2BIG;
			break;
		}
		set->j[set->n++] = j;
		if (strcmp(j->state, "reverted"))
			set->n_pending++;
	}
	free(list);
	if (r < 0)
		nd_fix_journal_set_free(set);
	return r;
}

void nd_fix_journal_set_free(struct nd_fix_journal_set *set)
{
	for (unsigned i = 0; i < set->n; i++) {
		nd_fix_journal_free(set->j[i]);
		free(set->j[i]);
	}
	set->n = set->n_pending = 0;
}

const struct nd_fix_journal *nd_fix_journal_set_applying(const struct nd_fix_journal_set *set)
{
	for (unsigned i = 0; i < set->n; i++)
		if (!strcmp(set->j[i]->state, "applying"))
			return set->j[i];
	return NULL;
}

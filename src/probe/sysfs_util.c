/*
 * sysfs_util.c - helpers shared by the sysfs/procfs probe sources: symlink
 * resolution confined to the sysroot, the PCI function behind an interface,
 * numbered directory listings and the "cannot read" reason text.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/sysfs_util.h"

#define RESOLVE_MAX_LINKS 40

bool nd_probe_is_pci_address(const char *name)
{
	unsigned domain, bus, dev, fn;
	char tail;

	if (strlen(name) != 12)
		return false;
	if (sscanf(name, "%4x:%2x:%2x.%1u%c", &domain, &bus, &dev, &fn, &tail) != 4)
		return false;
	return name[4] == ':' && name[7] == ':' && name[10] == '.' && dev < 32 && fn < 8;
}

/* Drop the last component of a root-relative path ("" stands for "/"). */
static void path_pop(char *done)
{
	char *slash = strrchr(done, '/');

	if (slash)
		*slash = '\0';
}

int nd_probe_resolve(const struct nd_root *root, const char *path, char *buf, size_t size)
{
	char done[PATH_MAX] = "", pending[PATH_MAX], comp[NAME_MAX + 1];
	char full[PATH_MAX], target[PATH_MAX], joined[2 * PATH_MAX];
	const char *rest;
	int links = 0, more;

	if (path[0] != '/')
		return -EINVAL;
	nd_strlcpy(pending, path, sizeof(pending));
	rest = pending;
	while ((more = nd_path_next_component(&rest, comp, sizeof(comp))) > 0) {
		struct stat st;
		ssize_t n;

		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			path_pop(done);
			continue;
		}
		if (strlen(done) + 1 + strlen(comp) >= sizeof(done))
			return -ENAMETOOLONG;
		strcat(done, "/");
		strcat(done, comp);
		if (nd_sysroot_path(root, full, sizeof(full), done) < 0)
			return -ENAMETOOLONG;
		if (lstat(full, &st) < 0)
			return -errno;
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > RESOLVE_MAX_LINKS)
			return -ELOOP;
		n = readlink(full, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		/* An absolute target restarts at the sysroot, never the host's /. */
		if (target[0] == '/')
			done[0] = '\0';
		else
			path_pop(done);
		if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", target, rest) >= sizeof(pending))
			return -ENAMETOOLONG;
		nd_strlcpy(pending, joined, sizeof(pending));
		rest = pending;
	}
	if (more < 0)
		return -ENAMETOOLONG;	/* a name no filesystem holds */
	if (!done[0])
		strcpy(done, "/");
	if (strlen(done) >= size)
		return -ENAMETOOLONG;
	nd_strlcpy(buf, done, size);
	return 0;
}

int nd_probe_pci_function_dir(const struct nd_root *root, const char *ifname, char *buf,
			      size_t size)
{
	char link[PATH_MAX], dir[PATH_MAX];
	int r;

	snprintf(link, sizeof(link), "/sys/class/net/%s/device", ifname);
	r = nd_probe_resolve(root, link, dir, sizeof(dir));
	if (r == -ENOENT)
		return -ENODEV;
	if (r < 0)
		return r;
	for (;;) {
		char *base = strrchr(dir, '/');

		if (!base || base == dir)
			return -ENOENT;
		if (nd_probe_is_pci_address(base + 1))
			break;
		*base = '\0';
	}
	if (strlen(dir) >= size)
		return -ENAMETOOLONG;
	nd_strlcpy(buf, dir, size);
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

int nd_probe_list_numbered(const struct nd_root *root, const char *dir, const char *prefix,
			   unsigned *ret_numbers, unsigned max_count)
{
	size_t prefix_len = strlen(prefix);
	unsigned found = 0;
	struct dirent *ent;
	DIR *d = nd_sysroot_opendir(root, dir);

	if (!d)
		return -errno;
	while ((ent = readdir(d)) != NULL && found < max_count) {
		const char *num = ent->d_name + prefix_len;
		char *end;
		unsigned long value;

		if (strncmp(ent->d_name, prefix, prefix_len) || !isdigit((unsigned char)*num))
			continue;
		errno = 0;
		value = strtoul(num, &end, 10);
		if (*end || errno || value > UINT_MAX)
			continue;
		ret_numbers[found++] = (unsigned)value;
	}
	closedir(d);
	qsort(ret_numbers, found, sizeof(*ret_numbers), cmp_unsigned);
	return (int)found;
}

#define CONFINED_ENTRIES_MAX 4096

/* realpath(host_path) is inside root_real (or dangling); checks its type. */
static int check_one(const char *root_real, const char *host_path, const char *shown,
		     char *why, size_t why_size)
{
	char real[PATH_MAX];
	size_t root_len = strlen(root_real);
	struct stat st;

	if (!realpath(host_path, real))
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	/* A root that resolves to "/" contains everything. */
	if (strcmp(root_real, "/") && (strncmp(real, root_real, root_len) ||
				       (real[root_len] != '/' && real[root_len] != '\0'))) {
		snprintf(why, why_size, "'%s' points outside the snapshot", shown);
		return -EXDEV;
	}
	if (stat(real, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		snprintf(why, why_size, "'%s' is not a regular file or directory", shown);
		return -EXDEV;
	}
	return 0;
}

static int check_entries(const char *root_real, const char *host_dir, const char *shown,
			 char *why, size_t why_size)
{
	char host_path[PATH_MAX], shown_path[PATH_MAX];
	unsigned count = 0;
	struct dirent *ent;
	int r = 0;
	DIR *d = opendir(host_dir);

	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while (r == 0 && (ent = readdir(d)) != NULL) {
		if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
			continue;
		if (++count > CONFINED_ENTRIES_MAX) {
			snprintf(why, why_size, "'%s' has more than %d entries", shown,
				 CONFINED_ENTRIES_MAX);
			r = -E2BIG;
			break;
		}
		if (snprintf(host_path, sizeof(host_path), "%s/%s", host_dir,
			     ent->d_name) >= (int)sizeof(host_path) ||
		    snprintf(shown_path, sizeof(shown_path), "%s/%s", shown,
			     ent->d_name) >= (int)sizeof(shown_path))
			r = -ENAMETOOLONG;
		else
			r = check_one(root_real, host_path, shown_path, why, why_size);
	}
	closedir(d);
	return r;
}

int nd_probe_host_path_confined(const struct nd_root *root, const char *path, bool entries,
				char *why, size_t why_size)
{
	char root_real[PATH_MAX], host_path[PATH_MAX];
	const char *p;
	int r;

	if (nd_sysroot_is_live(root))
		return 0;
	if (!realpath(nd_sysroot_dir(root), root_real))
		return -errno;
	/* Every ancestor below the root too: libpci resolves them all. */
	for (p = strchr(path + 1, '/');; p = strchr(p + 1, '/')) {
		size_t len = p ? (size_t)(p - path) : strlen(path);
		char prefix[PATH_MAX];

		if (len >= sizeof(prefix))
			return -ENAMETOOLONG;
		memcpy(prefix, path, len);
		prefix[len] = '\0';
		r = nd_sysroot_path(root, host_path, sizeof(host_path), prefix);
		if (r == 0)
			r = check_one(root_real, host_path, prefix, why, why_size);
		if (r < 0 || !p)
			break;
	}
	if (r == 0 && entries)
		r = check_entries(root_real, host_path, path, why, why_size);
	return r;
}

void nd_probe_read_reason(char *buf, size_t size, const char *path, int negative_errno)
{
	snprintf(buf, size, "cannot read '%s': %s", path, strerror(-negative_errno));
}

int nd_probe_read_unsigned(const struct nd_root *root, const char *path,
			   unsigned long long *ret_value)
{
	char text[64], *end;
	unsigned long long value;
	int r = nd_sysroot_read_line(root, path, text, sizeof(text));

	if (r < 0)
		return r;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (end == text || *end || errno)
		return -EINVAL;
	*ret_value = value;
	return 0;
}

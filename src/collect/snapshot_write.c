/*
 * snapshot_write.c - the write side of `nicdoctor collect`: open the
 * output directory once, and create every directory, file and link below
 * it relative to that descriptor, never following a link.
 *
 * collect runs as root into a path the caller names, often under /tmp, so
 * the directory may have been prepared by someone else with links to
 * root's files in it.  Hence: the directory must be new, or empty, ours
 * and writable by us alone (then nobody can plant anything while we
 * write); each path below it is walked one component at a time with
 * O_NOFOLLOW, and files are created O_EXCL.  The links the snapshot holds
 * (copies of /sys's) are made with symlinkat and never walked through:
 * collect_copy.c resolves them itself, as the live walk did.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/snapshot.h"
#include "nicdoctor/sysroot.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Split path into the directory holding it ("." when none) and its name. */
static int split_path(const char *path, char *parent, size_t size, char *base, size_t base_size)
{
	size_t len = strlen(path);
	char *slash;

	if (len == 0)
		return -ENOENT;
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(parent, path, len + 1);
	while (len > 1 && parent[len - 1] == '/')
		parent[--len] = '\0';
	slash = strrchr(parent, '/');
	if (!strcmp(parent, "/")) {
		nd_strlcpy(base, ".", base_size);	/* "/" itself: refused as not empty */
		return 0;
	}
	if (nd_strlcpy(base, slash ? slash + 1 : parent, base_size) >= base_size)
		return -ENAMETOOLONG;
	if (!slash)
		nd_strlcpy(parent, ".", size);
	else if (slash == parent)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 0;
}

static int is_empty_dir(int fd)
{
	int copy = dup(fd);
	struct dirent *ent;
	DIR *d;
	int r = 1;

	if (copy < 0)
		return -errno;
	d = fdopendir(copy);
	if (!d) {
		r = -errno;
		close(copy);
		return r;
	}
	errno = 0;
	while ((ent = readdir(d)) != NULL)
		if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..")) {
			r = 0;
			break;
		}
	if (!ent && errno)
		r = -errno;
	closedir(d);
	return r;
}

/* The rules an existing (or just made) output directory must pass. */
static int check_output(int fd, char *why, size_t why_size)
{
	struct stat st;
	int empty;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_uid != geteuid()) {
		snprintf(why, why_size, "owned by uid %u, not by uid %u",
			 (unsigned)st.st_uid, (unsigned)geteuid());
		return -EEXIST;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		nd_strlcpy(why, "writable by group or others", why_size);
		return -EEXIST;
	}
	empty = is_empty_dir(fd);
	if (empty < 0)
		return empty;
	if (!empty) {
		nd_strlcpy(why, "not empty", why_size);
		return -EEXIST;
	}
	return 0;
}

/* Why an entry that is not a directory cannot be the output directory. */
static const char *not_dir_refusal(int parent_fd, const char *base)
{
	struct stat st;

	if (fstatat(parent_fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return "a symbolic link";
	return "not a directory";
}

int nd_snapshot_open_output(const char *path, int *ret_fd, char *why, size_t why_size)
{
	char parent[PATH_MAX], base[NAME_MAX + 1];
	int parent_fd, fd, r;

	why[0] = '\0';
	r = split_path(path, parent, sizeof(parent), base, sizeof(base));
	if (r < 0)
		return r;
	/* The caller names the place: links above DIR are theirs to use. */
	parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent_fd < 0)
		return -errno;
	/* 0700: the snapshot holds PCI config space only root may read live. */
	if (mkdirat(parent_fd, base, 0700) < 0 && errno != EEXIST) {
		r = -errno;
		close(parent_fd);
		return r;
	}
	fd = openat(parent_fd, base, DIR_FLAGS);
	if (fd < 0) {
		r = -errno;
		if (r == -ELOOP || r == -ENOTDIR) {
			nd_strlcpy(why, not_dir_refusal(parent_fd, base), why_size);
			r = -EEXIST;
		}
		close(parent_fd);
		return r;
	}
	close(parent_fd);
	r = check_output(fd, why, why_size);
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

int nd_snapshot_open_dir(int root_fd, const char *path, int *ret_fd)
{
	char comp[NAME_MAX + 1];
	const char *rest = path;
	int fd = openat(root_fd, ".", DIR_FLAGS), more;

	if (fd < 0)
		return -errno;
	while ((more = nd_path_next_component(&rest, comp, sizeof(comp))) != 0) {
		int next;

		if (more < 0 || !strcmp(comp, ".") || !strcmp(comp, "..")) {
			close(fd);
			return more < 0 ? -ENAMETOOLONG : -EINVAL;	/* never made by collect */
		}
		next = openat(fd, comp, DIR_FLAGS);
		close(fd);
		if (next < 0)
			return -errno;
		fd = next;
	}
	*ret_fd = fd;
	return 0;
}

/* The directory holding path, opened as above, and path's last name. */
static int open_parent(int root_fd, const char *path, int *ret_fd, char *base, size_t size)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	if (nd_strlcpy(base, slash + 1, size) >= size)
		return -ENAMETOOLONG;
	if (!base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EINVAL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return nd_snapshot_open_dir(root_fd, dir, ret_fd);
}

int nd_snapshot_mkdir(int root_fd, const char *path)
{
	char base[NAME_MAX + 1];
	int fd, r = open_parent(root_fd, path, &fd, base, sizeof(base));

	if (r < 0)
		return r;
	if (mkdirat(fd, base, 0755) < 0 && errno != EEXIST)
		r = -errno;
	close(fd);
	return r;
}

int nd_snapshot_symlink(int root_fd, const char *path, const char *target)
{
	char base[NAME_MAX + 1];
	int fd, r = open_parent(root_fd, path, &fd, base, sizeof(base));

	if (r < 0)
		return r;
	if (symlinkat(target, fd, base) < 0 && errno != EEXIST)
		r = -errno;
	close(fd);
	return r;
}

static int write_all(int fd, const char *data, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	return 0;
}

/* Create base in dir_fd exclusively, never through a link, and fill it. */
static int create_file(int dir_fd, const char *base, const char *data, size_t len)
{
	int fd = openat(dir_fd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int r;

	if (fd < 0)
		return -errno;
	r = write_all(fd, data, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int nd_snapshot_write(int root_fd, const char *path, const char *data, size_t len)
{
	char base[NAME_MAX + 1];
	int fd, r = open_parent(root_fd, path, &fd, base, sizeof(base));

	if (r < 0)
		return r;
	r = create_file(fd, base, data, len);
	if (r == -EEXIST)
		r = 0;	/* copied earlier in this run (recorded and fixed paths overlap) */
	close(fd);
	return r;
}

int nd_snapshot_write_replace(int root_fd, const char *path, const char *data, size_t len)
{
	char base[NAME_MAX + 1], tmp[NAME_MAX + 8];
	int dir_fd, fd, r = open_parent(root_fd, path, &dir_fd, base, sizeof(base));

	if (r < 0)
		return r;
	snprintf(tmp, sizeof(tmp), "%s.tmp", base);
	fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = -errno;
		close(dir_fd);
		return r;
	}
	r = write_all(fd, data, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dir_fd, tmp, dir_fd, base) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dir_fd, tmp, 0);	/* ours: made O_EXCL above */
	close(dir_fd);
	return r;
}

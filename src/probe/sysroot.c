/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysroot.c - the one seam for reading /sys and /proc, through a root
 * the caller passes (struct nd_root: no root is kept here).
 *
 * Live, paths are opened as they are.  Below a directory, they are
 * opened relative to DIR with openat2(RESOLVE_IN_ROOT), so that a
 * snapshot's symlinks (relative, as in the real /sys) resolve inside it
 * and a hostile absolute or ../ link cannot reach the host's files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/sysroot.h"

/* collect's list of the paths read, deduplicated. */
struct nd_root_record {
	bool on;
	char **paths;
	size_t count, alloc;
};

struct nd_root {
	char dir[PATH_MAX];		/* "/" when live */
	int fd;				/* O_PATH fd of dir; -1 live */
	struct nd_root_record *record;	/* NULL until recording is turned on */
};

const struct nd_root nd_root_live = { .dir = "/", .fd = -1 };

int nd_root_open(const char *dir, struct nd_root **ret_root)
{
	struct nd_root *root;
	struct stat st;
	int fd = -1;

	if (dir && strcmp(dir, "/")) {
		if (strlen(dir) >= sizeof(root->dir) - 64)
			return -ENAMETOOLONG;
		if (stat(dir, &st) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	root = calloc(1, sizeof(*root));
	if (!root)
		return -ENOMEM;
	strcpy(root->dir, "/");
	root->fd = -1;
	if (dir && strcmp(dir, "/")) {
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			int r = -errno;

			free(root);
			return r;
		}
		root->fd = fd;
		nd_strlcpy(root->dir, dir, sizeof(root->dir));
		/* Keep "DIR" without a trailing slash so "DIR" + "/sys" joins cleanly. */
		for (size_t len = strlen(root->dir); len > 1 && root->dir[len - 1] == '/'; len--)
			root->dir[len - 1] = '\0';
	}
	*ret_root = root;
	return 0;
}

void nd_root_close(struct nd_root *root)
{
	if (!root)
		return;
	nd_sysroot_record_clear(root);
	free(root->record);
	if (root->fd >= 0)
		close(root->fd);
	free(root);
}

const char *nd_sysroot_dir(const struct nd_root *root)
{
	return root->dir;
}

bool nd_sysroot_is_live(const struct nd_root *root)
{
	return root->fd < 0;
}

int nd_sysroot_path(const struct nd_root *root, char *buf, size_t size, const char *path)
{
	int n;

	if (path[0] != '/')
		return -EINVAL;
	n = snprintf(buf, size, "%s%s", nd_sysroot_is_live(root) ? "" : root->dir, path);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * In a snapshot, only regular files and directories are opened: a device
 * node or FIFO planted in an untrusted tree (a tarball unpacked as root)
 * could block, or act on open (a watchdog), so it is looked at through an
 * O_PATH descriptor first and reopened only when its type is right.
 */
static int reopen_checked(int path_fd, int flags)
{
	char proc_path[64];
	struct stat st;
	int fd;

	if (fstat(path_fd, &st) < 0)
		return -1;
	if ((flags & O_DIRECTORY) ? !S_ISDIR(st.st_mode) :
	    !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? ENOTDIR : EINVAL;
		return -1;
	}
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", path_fd);
	fd = open(proc_path, flags | O_CLOEXEC);
	return fd;
}

int nd_path_next_component(const char **rest, char *comp, size_t size)
{
	const char *p = *rest;
	size_t len;

	while (*p == '/')
		p++;
	if (!*p)
		return 0;
	len = strcspn(p, "/");
	if (len >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(comp, p, len);
	comp[len] = '\0';
	*rest = p + len;
	return 1;
}

/*
 * openat2(RESOLVE_IN_ROOT) done by hand, for kernels before 5.6 (and
 * valgrind, which does not know the syscall): every component is checked
 * with fstatat(AT_SYMLINK_NOFOLLOW), a symlink's target is re-walked from
 * the root when absolute, ".." stops at the root, and the final open
 * follows nothing.  Opens with O_PATH like the openat2 call it replaces.
 */
static int open_in_root_by_hand(int root_fd, const char *path, int dir_flag)
{
	char done[PATH_MAX] = "", pending[PATH_MAX], comp[NAME_MAX + 1], target[PATH_MAX];
	char joined[2 * PATH_MAX];
	const char *rest;
	int links = 0, r;

	nd_strlcpy(pending, path, sizeof(pending));
	rest = pending;
	while ((r = nd_path_next_component(&rest, comp, sizeof(comp))) > 0) {
		size_t len = strlen(done);
		struct stat st;
		ssize_t n;

		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(done, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		if (len + 1 + strlen(comp) >= sizeof(done)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		snprintf(done + len, sizeof(done) - len, "/%s", comp);
		if (fstatat(root_fd, done + 1, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -1;
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > 40) {
			errno = ELOOP;
			return -1;
		}
		n = readlinkat(root_fd, done + 1, target, sizeof(target) - 1);
		if (n < 0)
			return -1;
		target[n] = '\0';
		done[len] = '\0';
		if (target[0] == '/')
			done[0] = '\0';
		if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", target, rest) >= sizeof(pending)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		nd_strlcpy(pending, joined, sizeof(pending));
		rest = pending;
	}
	if (r < 0)
		return -1;
	return openat(root_fd, done[0] ? done + 1 : ".",
		      O_PATH | O_NOFOLLOW | O_CLOEXEC | dir_flag);
}

static int sysroot_open(const struct nd_root *root, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(O_PATH | O_CLOEXEC | (flags & O_DIRECTORY)),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int path_fd, fd, saved;

	if (path[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	if (nd_sysroot_is_live(root))
		return open(path, flags | O_CLOEXEC);
	/*
	 * EAGAIN: a rename or mount anywhere on the host raced a ".." of the
	 * lookup (openat2(2)), and a snapshot's /sys/class/net/IF is a link
	 * through "..".  Retry; on a host that keeps renaming, resolve by
	 * hand, which is as strict and does not care.
	 */
	for (int tries = 0; tries < 8; tries++) {
		path_fd = (int)syscall(SYS_openat2, root->fd, path + 1, &how, sizeof(how));
		if (path_fd >= 0 || errno != EAGAIN)
			break;
	}
	if (path_fd < 0 && (errno == ENOSYS || errno == EAGAIN))
		path_fd = open_in_root_by_hand(root->fd, path, flags & O_DIRECTORY);
	if (path_fd < 0 || (flags & O_PATH))
		return path_fd;
	fd = reopen_checked(path_fd, flags);
	saved = errno;
	close(path_fd);
	errno = saved;
	return fd;
}

/* The recorder is behind a pointer, so that reads through a const root
 * can still note what they read. */
static void record_path(const struct nd_root *root, const char *path)
{
	struct nd_root_record *rec = root->record;

	if (!rec || !rec->on)
		return;
	for (size_t i = 0; i < rec->count; i++)
		if (!strcmp(rec->paths[i], path))
			return;
	if (rec->count == rec->alloc) {
		size_t alloc = rec->alloc ? rec->alloc * 2 : 256;
		char **grown = realloc(rec->paths, alloc * sizeof(*grown));

		if (!grown)
			return;
		rec->paths = grown;
		rec->alloc = alloc;
	}
	rec->paths[rec->count] = strdup(path);
	if (rec->paths[rec->count])
		rec->count++;
}

int nd_sysroot_record(struct nd_root *root, bool on)
{
	if (!root->record && !on)
		return 0;
	if (!root->record) {
		root->record = calloc(1, sizeof(*root->record));
		if (!root->record)
			return -ENOMEM;
	}
	root->record->on = on;
	return 0;
}

const char *nd_sysroot_recorded(const struct nd_root *root, size_t i)
{
	const struct nd_root_record *rec = root->record;

	return rec && i < rec->count ? rec->paths[i] : NULL;
}

void nd_sysroot_record_clear(struct nd_root *root)
{
	struct nd_root_record *rec = root->record;

	if (!rec)
		return;
	for (size_t i = 0; i < rec->count; i++)
		free(rec->paths[i]);
	free(rec->paths);
	rec->paths = NULL;
	rec->count = rec->alloc = 0;
}

/* Read fd to EOF into buf (size-1 bytes max); -EFBIG when it does not fit. */
static ssize_t read_fd(int fd, char *buf, size_t size)
{
	size_t used = 0;

	for (;;) {
		ssize_t n;

		if (used == size - 1) {
			char probe;

			n = read(fd, &probe, 1);
			if (n > 0)
				return -EFBIG;
			break;
		}
		n = read(fd, buf + used, size - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	return (ssize_t)used;
}

ssize_t nd_sysroot_read(const struct nd_root *root, const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	fd = sysroot_open(root, path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read_fd(fd, buf, size);
	close(fd);
	if (n >= 0)
		record_path(root, path);
	return n;
}

ssize_t nd_sysroot_readf(const struct nd_root *root, char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return nd_sysroot_read(root, path, buf, size);
}

int nd_sysroot_read_line(const struct nd_root *root, const char *path, char *buf, size_t size)
{
	ssize_t n = nd_sysroot_read(root, path, buf, size);

	if (n < 0)
		return (int)n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

int nd_sysroot_read_alloc(const struct nd_root *root, const char *path, char **ret_text,
			  size_t *ret_len)
{
	size_t size = 16384;

	/* /proc files report st_size 0, so grow until the whole file fits. */
	for (;;) {
		char *buf = malloc(size);
		ssize_t n;

		if (!buf)
			return -ENOMEM;
		n = nd_sysroot_read(root, path, buf, size);
		if (n >= 0) {
			*ret_text = buf;
			if (ret_len)
				*ret_len = (size_t)n;
			return 0;
		}
		free(buf);
		if (n != -EFBIG)
			return (int)n;
		if (size >= ND_SYSROOT_MAX_FILE)
			return -EFBIG;
		size *= 4;
		if (size > ND_SYSROOT_MAX_FILE)
			size = ND_SYSROOT_MAX_FILE;
	}
}

int nd_sysroot_link_basename(const struct nd_root *root, const char *path, char *buf, size_t size)
{
	char dir[PATH_MAX], target[PATH_MAX];
	const char *base, *name = strrchr(path, '/');
	ssize_t n;
	int dir_fd;

	if (path[0] != '/' || !name || !name[1] || (size_t)(name - path) >= sizeof(dir))
		return -EINVAL;
	/* The parent is opened through the seam, so its own symlinks stay in
	 * the root; only the last component is read as a link. */
	memcpy(dir, path, (size_t)(name - path));
	dir[name - path] = '\0';
	dir_fd = sysroot_open(root, dir[0] ? dir : "/", O_PATH | O_DIRECTORY);
	if (dir_fd < 0)
		return -errno;
	n = readlinkat(dir_fd, name + 1, target, sizeof(target) - 1);
	if (n < 0) {
		n = -errno;
		close(dir_fd);
		return (int)n;
	}
	close(dir_fd);
	target[n] = '\0';
	/* Only the target's last component is used, so a link pointing outside
	 * the root leaks nothing but a name. */
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base)
		return -EINVAL;
	nd_strlcpy(buf, base, size);
	record_path(root, path);
	return 0;
}

bool nd_sysroot_exists(const struct nd_root *root, const char *path)
{
	int fd = sysroot_open(root, path, O_PATH);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

DIR *nd_sysroot_opendir(const struct nd_root *root, const char *path)
{
	int fd = sysroot_open(root, path, O_RDONLY | O_DIRECTORY);
	DIR *dir;

	if (fd < 0)
		return NULL;
	dir = fdopendir(fd);
	if (!dir)
		close(fd);
	else
		record_path(root, path);
	return dir;
}

/*
 * sysroot.c - the one seam for reading /sys and /proc.
 *
 * Live, paths are opened as they are.  Under --sysroot DIR, they are
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

static char sysroot_dir[PATH_MAX] = "/";
static int sysroot_fd = -1;		/* O_PATH fd of the root when not live */

static bool recording;
static char **recorded_paths;
static size_t recorded_count, recorded_alloc;

int nd_sysroot_set(const char *dir)
{
	struct stat st;
	int fd;

	if (!dir || !strcmp(dir, "/")) {
		if (sysroot_fd >= 0)
			close(sysroot_fd);
		sysroot_fd = -1;
		strcpy(sysroot_dir, "/");
		return 0;
	}
	if (strlen(dir) >= sizeof(sysroot_dir) - 64)
		return -ENAMETOOLONG;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (sysroot_fd >= 0)
		close(sysroot_fd);
	sysroot_fd = fd;
	nd_strlcpy(sysroot_dir, dir, sizeof(sysroot_dir));
	/* Keep "DIR" without a trailing slash so "DIR" + "/sys" joins cleanly. */
	for (size_t len = strlen(sysroot_dir); len > 1 && sysroot_dir[len - 1] == '/'; len--)
		sysroot_dir[len - 1] = '\0';
	return 0;
}

const char *nd_sysroot_get(void)
{
	return sysroot_dir;
}

bool nd_sysroot_is_live(void)
{
	return sysroot_fd < 0;
}

int nd_sysroot_path(char *buf, size_t size, const char *path)
{
	int n;

	if (path[0] != '/')
		return -EINVAL;
	n = snprintf(buf, size, "%s%s", nd_sysroot_is_live() ? "" : sysroot_dir, path);
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
static int open_in_root_by_hand(const char *path, int dir_flag)
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
		if (fstatat(sysroot_fd, done + 1, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -1;
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > 40) {
			errno = ELOOP;
			return -1;
		}
		n = readlinkat(sysroot_fd, done + 1, target, sizeof(target) - 1);
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
	return openat(sysroot_fd, done[0] ? done + 1 : ".",
		      O_PATH | O_NOFOLLOW | O_CLOEXEC | dir_flag);
}

static int sysroot_open(const char *path, int flags)
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
	if (nd_sysroot_is_live())
		return open(path, flags | O_CLOEXEC);
	/*
	 * EAGAIN: a rename or mount anywhere on the host raced a ".." of the
	 * lookup (openat2(2)), and a snapshot's /sys/class/net/IF is a link
	 * through "..".  Retry; on a host that keeps renaming, resolve by
	 * hand, which is as strict and does not care.
	 */
	for (int tries = 0; tries < 8; tries++) {
		path_fd = (int)syscall(SYS_openat2, sysroot_fd, path + 1, &how, sizeof(how));
		if (path_fd >= 0 || errno != EAGAIN)
			break;
	}
	if (path_fd < 0 && (errno == ENOSYS || errno == EAGAIN))
		path_fd = open_in_root_by_hand(path, flags & O_DIRECTORY);
	if (path_fd < 0 || (flags & O_PATH))
		return path_fd;
	fd = reopen_checked(path_fd, flags);
	saved = errno;
	close(path_fd);
	errno = saved;
	return fd;
}

static void record_path(const char *path)
{
	if (!recording)
		return;
	for (size_t i = 0; i < recorded_count; i++)
		if (!strcmp(recorded_paths[i], path))
			return;
	if (recorded_count == recorded_alloc) {
		size_t alloc = recorded_alloc ? recorded_alloc * 2 : 256;
		char **grown = realloc(recorded_paths, alloc * sizeof(*grown));

		if (!grown)
			return;
		recorded_paths = grown;
		recorded_alloc = alloc;
	}
	recorded_paths[recorded_count] = strdup(path);
	if (recorded_paths[recorded_count])
		recorded_count++;
}

void nd_sysroot_record(bool on)
{
	recording = on;
}

const char *nd_sysroot_recorded(size_t i)
{
	return i < recorded_count ? recorded_paths[i] : NULL;
}

void nd_sysroot_record_clear(void)
{
	for (size_t i = 0; i < recorded_count; i++)
		free(recorded_paths[i]);
	free(recorded_paths);
	recorded_paths = NULL;
	recorded_count = recorded_alloc = 0;
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

ssize_t nd_sysroot_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	fd = sysroot_open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read_fd(fd, buf, size);
	close(fd);
	if (n >= 0)
		record_path(path);
	return n;
}

ssize_t nd_sysroot_readf(char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return nd_sysroot_read(path, buf, size);
}

int nd_sysroot_read_line(const char *path, char *buf, size_t size)
{
	ssize_t n = nd_sysroot_read(path, buf, size);

	if (n < 0)
		return (int)n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

int nd_sysroot_read_alloc(const char *path, char **ret_text, size_t *ret_len)
{
	size_t size = 16384;

	/* /proc files report st_size 0, so grow until the whole file fits. */
	for (;;) {
		char *buf = malloc(size);
		ssize_t n;

		if (!buf)
			return -ENOMEM;
		n = nd_sysroot_read(path, buf, size);
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

int nd_sysroot_link_basename(const char *path, char *buf, size_t size)
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
	dir_fd = sysroot_open(dir[0] ? dir : "/", O_PATH | O_DIRECTORY);
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
	record_path(path);
	return 0;
}

bool nd_sysroot_exists(const char *path)
{
	int fd = sysroot_open(path, O_PATH);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

DIR *nd_sysroot_opendir(const char *path)
{
	int fd = sysroot_open(path, O_RDONLY | O_DIRECTORY);
	DIR *dir;

	if (fd < 0)
		return NULL;
	dir = fdopendir(fd);
	if (!dir)
		close(fd);
	else
		record_path(path);
	return dir;
}

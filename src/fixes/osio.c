/*
 * osio.c - the small OS reads and writes the fix kinds share: sysctls by
 * name, whole-file writes to sysfs/procfs, fresh ethtool facts.  Reads go
 * through the sysroot seam (the live root: a fix acts on this host) and
 * the probe, as everywhere else; the writes
 * here are the only ones nicdoctor makes to /sys and /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/probe.h"
#include "nicdoctor/sysroot.h"
#include "fixes.h"

/* "net.core.rmem_max" -> "/proc/sys/net/core/rmem_max"; -EINVAL on a
 * name that could leave /proc/sys. */
static int sysctl_path(const char *name, char *buf, size_t size)
{
	int n;

	if (!*name || strstr(name, "..") || strchr(name, '/'))
		return -EINVAL;
	n = snprintf(buf, size, "/proc/sys/%s", name);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	for (char *p = buf + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

/* Collapse runs of blanks to one space, trim both ends, in place. */
static void squeeze_blanks(char *text)
{
	char *out = text;
	bool blank = false;

	for (const char *in = text; *in; in++) {
		if (*in == ' ' || *in == '\t' || *in == '\n') {
			blank = out != text;
			continue;
		}
		if (blank)
			*out++ = ' ';
		blank = false;
		*out++ = *in;
	}
	*out = '\0';
}

int nd_fix_read_file(const char *path, char *ret_value, size_t size)
{
	char text[ND_FIX_VALUE_LEN];
	int r = nd_sysroot_read_line(&nd_root_live, path, text, sizeof(text));

	if (r < 0)
		return r;
	squeeze_blanks(text);
	nd_strlcpy(ret_value, text, size);
	return 0;
}

int nd_fix_write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t written;
	int fd, r = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* sysfs and procfs take a value in one write(); a short write is an error. */
	written = write(fd, text, len);
	if (written < 0)
		r = -errno;
	else if ((size_t)written != len)
		r = -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	return r;
}

int nd_fix_sysctl_get(const char *name, char *ret_value, size_t size)
{
	char path[PATH_MAX];
	int r = sysctl_path(name, path, sizeof(path));

	return r < 0 ? r : nd_fix_read_file(path, ret_value, size);
}

int nd_fix_sysctl_set(const char *name, const char *value)
{
	char path[PATH_MAX];
	int r = sysctl_path(name, path, sizeof(path));

	return r < 0 ? r : nd_fix_write_file(path, value);
}

int nd_fix_read_ethtool(const char *ifname, struct nd_facts **ret_facts)
{
	struct nd_facts *facts = calloc(1, sizeof(*facts));

	if (!facts)
		return -ENOMEM;
	nd_strlcpy(facts->ifname, ifname, sizeof(facts->ifname));
	nd_probe_ethtool(&nd_root_live, ifname, facts);
	*ret_facts = facts;
	return 0;
}

int nd_fix_appendf(char **buf, const char *fmt, ...)
{
	size_t old_len = *buf ? strlen(*buf) : 0;
	va_list ap;
	char *grown;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	grown = realloc(*buf, old_len + (size_t)n + 1);
	if (!grown)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(grown + old_len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*buf = grown;
	return 0;
}

int nd_fix_mkdirs(const char *dir, mode_t mode)
{
	char path[PATH_MAX];
	size_t len = nd_strlcpy(path, dir, sizeof(path));

	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + 1; ; p++) {
		char saved = *p;

		if (saved && saved != '/')
			continue;
		*p = '\0';
		if (mkdir(path, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = saved;
		if (!saved)
			return 0;
	}
}

static int write_all_sync(const char *path, const char *text, mode_t mode)
{
	size_t len = strlen(text), done = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode), r = 0;

	if (fd < 0)
		return -errno;
	while (done < len && r == 0) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int nd_fix_fsync_parent(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd, r = 0;

	nd_strlcpy(dir, path, sizeof(dir));
	slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

int nd_fix_write_durable(const char *path, const char *text, mode_t mode)
{
	char tmp[PATH_MAX + 8];
	int r;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* Write aside and rename: the file is either whole or the old one. */
	r = write_all_sync(tmp, text, mode);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	return nd_fix_fsync_parent(path);
}

/*
 * bundle.c - what `--sysroot PATH` names: find the kind of record by its
 * content (sos_commands/ and version.txt; supportconfig's "#==[" sections;
 * a sys/proc tree), unpack a tarball privately, and read the bundle's own
 * account of where and when it was taken.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/common.h"

static bool is_dir_at(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return false;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Read the first line of dir/name (no links followed at the last step). */
static bool read_first_line(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return false;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return buf[0] != '\0';
}

/* supportconfig: its run log or basic-environment file, opening with the
 * section marker every supportconfig text file starts with. */
static bool is_supportconfig(const char *dir)
{
	static const char *const marks[] = { "basic-environment.txt", "supportconfig.txt",
					     "network.txt" };
	char line[256];

	for (size_t i = 0; i < ND_ARRAY_SIZE(marks); i++)
		if (read_first_line(dir, marks[i], line, sizeof(line)) &&
		    !strncmp(line, "#==[", 4))
			return true;
	return false;
}

static bool is_sos(const char *dir)
{
	char line[128];

	return is_dir_at(dir, "sos_commands") &&
	       (read_first_line(dir, "version.txt", line, sizeof(line)) ||
		is_dir_at(dir, "sos_commands/networking"));
}

static bool is_tree(const char *dir)
{
	return is_dir_at(dir, "sys") || is_dir_at(dir, "proc") || is_dir_at(dir, "ethtool");
}

/* The kind of the bundle at dir, or -1 when it is none. */
static int kind_at(const char *dir)
{
	if (is_sos(dir))
		return ND_BUNDLE_SOS;
	if (is_supportconfig(dir))
		return ND_BUNDLE_SUPPORTCONFIG;
	if (is_tree(dir))
		return ND_BUNDLE_TREE;
	return -1;
}

/* A bundle at dir or in exactly one of its subdirectories (a tarball's
 * wrapper directory, or the directory it was extracted into). */
static int find_root(const char *dir, struct nd_bundle *b)
{
	int kind = kind_at(dir), found = 0;
	struct dirent *de;
	DIR *d;

	if (kind >= 0) {
		b->kind = kind;
		return nd_strlcpy(b->root, dir, sizeof(b->root)) < sizeof(b->root) ? 0 : -ENAMETOOLONG;
	}
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char sub[PATH_MAX];

		if (de->d_name[0] == '.' || !is_dir_at(dir, de->d_name))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= (int)sizeof(sub))
			continue;
		kind = kind_at(sub);
		if (kind < 0)
			continue;
		if (found++) {
			closedir(d);
			return -EEXIST;
		}
		b->kind = kind;
		nd_strlcpy(b->root, sub, sizeof(b->root));
	}
	closedir(d);
	return found ? 0 : -EINVAL;
}

/* What sos and supportconfig say of themselves. */
static void read_metadata(struct nd_bundle *b)
{
	static const char *const sos_host[] = { "sos_commands/host/hostname",
						"sos_commands/general/hostname",
						"proc/sys/kernel/hostname", "etc/hostname" };
	static const char *const sos_date[] = { "sos_commands/date/date",
						"sos_commands/general/date" };
	char line[128];

	if (b->kind == ND_BUNDLE_SOS) {
		if (read_first_line(b->root, "version.txt", line, sizeof(line))) {
			const char *colon = strchr(line, ':');

			b->from_script = !strncmp(line, "nicdoctor-collect:", 18);

			nd_strlcpy(b->tool_version, colon ? colon + 1 + strspn(colon + 1, " \t") : line,
				   sizeof(b->tool_version));
		}
		for (size_t i = 0; i < ND_ARRAY_SIZE(sos_host) && !b->host[0]; i++)
			read_first_line(b->root, sos_host[i], b->host, sizeof(b->host));
		for (size_t i = 0; i < ND_ARRAY_SIZE(sos_date) && !b->date[0]; i++)
			read_first_line(b->root, sos_date[i], b->date, sizeof(b->date));
	}
}

/*
 * A child that removes the private directory once this process is gone,
 * however it ends (a signal, a crash, SIGKILL): it waits for EOF on a
 * pipe whose write end only we hold.  Ignores the terminal's signals so a
 * Ctrl-C to the group leaves it to clean up.
 */
static void start_reaper(const char *dir)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		char byte;
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		close(fds[1]);
		if (null >= 0) {	/* never hold the caller's terminal or pipes */
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		while (read(fds[0], &byte, 1) < 0 && errno == EINTR)
			;
		nd_bundle_remove_tree(dir);
		_exit(0);
	}
	close(fds[0]);
	if (pid < 0)
		close(fds[1]);
	/* fds[1] stays open, close-on-exec, until this process ends. */
}

/* b->tmpdir: a new mode-0700 directory that the reaper removes however
 * this process ends. */
static int make_private_dir(struct nd_bundle *b, char *error, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char real[PATH_MAX];
	int r;

	if (snprintf(b->tmpdir, sizeof(b->tmpdir), "%s/nicdoctor-bundle.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") >= (int)sizeof(b->tmpdir) || !mkdtemp(b->tmpdir)) {
		r = errno ? -errno : -ENAMETOOLONG;
		b->tmpdir[0] = '\0';
		snprintf(error, size, "cannot make a private directory to unpack into: %s",
			 strerror(-r));
		return r;
	}
	/* libarchive refuses to write through a symlink anywhere in the path,
	 * so use the directory's real name ($TMPDIR may be a link). */
	if (realpath(b->tmpdir, real) && strlen(real) < sizeof(b->tmpdir))
		memcpy(b->tmpdir, real, strlen(real) + 1);
	start_reaper(b->tmpdir);
	return 0;
}

static int open_tarball(const char *path, struct nd_bundle *b, char *error, size_t size)
{
	int r = make_private_dir(b, error, size);

	if (r < 0)
		return r;
	b->from_tarball = true;
	r = nd_bundle_extract(path, b->tmpdir, b, error, size);
	if (r < 0)
		nd_bundle_close(b);
	return r;
}

/*
 * A supportconfig is read as the sosreport it is converted into, in a
 * directory of its own inside the private one (made now when the
 * supportconfig is a directory, not a tarball).
 */
static int convert_supportconfig(struct nd_bundle *b, char *error, size_t size)
{
	char dst[PATH_MAX];
	int fd, r;

	/* No place to convert into is the environment's fault (exit 4). */
	if (!b->tmpdir[0] && make_private_dir(b, error, size) < 0)
		return -EIO;
	if (snprintf(dst, sizeof(dst), "%s/nicdoctor-sos.XXXXXX", b->tmpdir) >= (int)sizeof(dst))
		return -ENAMETOOLONG;
	if (!mkdtemp(dst)) {
		r = -errno;
		snprintf(error, size, "cannot make a directory to convert into: %s", strerror(-r));
		return r;
	}
	fd = open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = nd_supportconfig_convert(b->root, fd, b);
	close(fd);
	if (r < 0) {
		snprintf(error, size, "cannot convert the supportconfig: %s", strerror(-r));
		return r;
	}
	nd_strlcpy(b->root, dst, sizeof(b->root));
	b->kind = ND_BUNDLE_SOS;
	b->from_supportconfig = true;
	return 0;
}

int nd_bundle_open(const char *path, struct nd_bundle *ret, char *ret_error, size_t error_size)
{
	struct stat st;
	int r;

	memset(ret, 0, sizeof(*ret));
	ret_error[0] = '\0';
	if (stat(path, &st) < 0) {
		snprintf(ret_error, error_size, "%s", strerror(errno));
		return -errno;
	}
	r = S_ISDIR(st.st_mode) ? 0 : open_tarball(path, ret, ret_error, error_size);
	if (r < 0)
		return r;
	r = find_root(ret->tmpdir[0] ? ret->tmpdir : path, ret);
	if (r < 0) {
		snprintf(ret_error, error_size, r == -EEXIST ? "holds more than one bundle" :
			 "holds no snapshot (sys/, proc/), sosreport (sos_commands/, "
			 "version.txt) or supportconfig (*.txt with #==[ sections)");
		nd_bundle_close(ret);
		return r == -EEXIST ? -EINVAL : r;
	}
	read_metadata(ret);
	if (ret->kind == ND_BUNDLE_SUPPORTCONFIG) {
		r = convert_supportconfig(ret, ret_error, error_size);
		if (r < 0) {
			nd_bundle_close(ret);
			return r == -ENOMEM || r == -ENOSPC ? -EIO : r;
		}
	}
	return 0;
}

void nd_bundle_close(struct nd_bundle *bundle)
{
	if (bundle->tmpdir[0])
		nd_bundle_remove_tree(bundle->tmpdir);
	bundle->tmpdir[0] = '\0';
}

void nd_bundle_describe(const struct nd_bundle *b, char *buf, size_t size)
{
	bool sc = b->from_supportconfig || b->kind == ND_BUNDLE_SUPPORTCONFIG;
	const char *what = b->from_script ? "a collect script's tarball" :
			   sc ? "a supportconfig" :
			   b->kind == ND_BUNDLE_SOS ? "a sosreport" : "a snapshot";
	const char *tool = b->from_script ? "nicdoctor-collect" :
			   sc ? "supportconfig" : "sos";

	snprintf(buf, size, "%s%s%s%s%s%s%s%s", what,
		 b->tool_version[0] ? " (" : "", b->tool_version[0] ? tool : "",
		 b->tool_version[0] ? " " : "", b->tool_version,
		 b->tool_version[0] ? ")" : "",
		 b->host[0] ? " of " : "", b->host);
	if (b->date[0]) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, " taken %s", b->date);
	}
}

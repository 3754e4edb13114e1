/*
 * bundle_archive.c - unpack a support bundle's tarball with libarchive into
 * a private directory, keeping only what a diagnosis reads and nothing that
 * could write or point outside that directory.
 *
 * libarchive's disk writer does the safe part (no "..", never through a
 * symlink on disk); here we refuse absolute names and choose the members (regular
 * files, directories, symlinks whose targets stay inside), cap the sizes
 * (a decompression bomb stops with one line), and clear the modes.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/bundle.h"
#include "nicdoctor/common.h"

/* Top-level names a diagnosis reads, at the archive's root or one level
 * down (sosreport-HOST-DATE/..., scc_HOST_DATE/...). */
static const char *const wanted_top[] = {
	"sos_commands", "sos_strings", "sos_reports", "proc", "sys", "etc", "ethtool", "tools",
	"version.txt", "hostname", "uname", "uptime", "date", "ip_route", "lspci",
};

static bool component_wanted(const char *comp, size_t len)
{
	for (size_t i = 0; i < ND_ARRAY_SIZE(wanted_top); i++)
		if (strlen(wanted_top[i]) == len && !memcmp(comp, wanted_top[i], len))
			return true;
	/* supportconfig: flat *.txt files (network.txt, hardware.txt, ...) */
	return len > 4 && !memcmp(comp + len - 4, ".txt", 4) && !memchr(comp, '/', len);
}

/* Whether the member lies under a wanted name at depth 0 or 1. */
static bool member_wanted(const char *name)
{
	const char *slash = strchr(name, '/');

	if (component_wanted(name, slash ? (size_t)(slash - name) : strlen(name)))
		return true;
	if (!slash)
		return false;
	if (!slash[1])
		return true;	/* a top-level (wrapper) directory itself */
	name = slash + 1;
	slash = strchr(name, '/');
	return component_wanted(name, slash ? (size_t)(slash - name) : strlen(name));
}

/*
 * Whether a symlink at `name` with `target` stays inside the extraction:
 * relative, and never climbing above the root when read lexically from the
 * link's own directory.  (The sysroot seam also resolves in the root; this
 * keeps such links out of the tree altogether.)
 */
static bool link_stays_inside(const char *name, const char *target)
{
	int depth = 0;

	if (!target || !*target || target[0] == '/')
		return false;
	for (const char *p = name; *p; p++)	/* directories above the link */
		if (*p == '/' && p[1] && p[1] != '/')
			depth++;
	for (const char *p = target; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 2 && !memcmp(p, "..", 2)) {
			if (--depth < 0)
				return false;
		} else if (len && !(len == 1 && *p == '.')) {
			depth++;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	return true;
}

static bool has_dotdot(const char *name)
{
	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += len;
		p += strspn(p, "/");
	}
	return false;
}

struct extract {
	struct archive *in, *out;
	const char *dir;
	struct nd_bundle *bundle;
	uint64_t written_total;
	char *error;
	size_t error_size;
};

static void skip_note(struct extract *x, const char *name, const char *why)
{
	x->bundle->skipped_members++;
	if (!x->bundle->skipped[0])
		snprintf(x->bundle->skipped, sizeof(x->bundle->skipped), "'%s' %s", name, why);
}

/* Copy one member's data within the per-member and total caps: 0, 1 when
 * the member was over its cap (caller removes it), negative on error. */
static int copy_data(struct extract *x, const char *name)
{
	const void *buf;
	size_t size;
	la_int64_t offset;
	int r;

	while ((r = archive_read_data_block(x->in, &buf, &size, &offset)) == ARCHIVE_OK) {
		uint64_t end = (uint64_t)offset + size;

		if (offset < 0 || end > ND_BUNDLE_MAX_MEMBER_BYTES)
			return 1;
		x->written_total += size;
		if (x->written_total > ND_BUNDLE_MAX_TOTAL_BYTES) {
			snprintf(x->error, x->error_size,
				 "more than %llu MiB to extract (at '%s'): refused as a "
				 "decompression bomb", ND_BUNDLE_MAX_TOTAL_BYTES >> 20, name);
			return -EFBIG;
		}
		if (archive_write_data_block(x->out, buf, size, offset) != ARCHIVE_OK) {
			snprintf(x->error, x->error_size, "cannot write '%s': %s", name,
				 archive_error_string(x->out));
			return -EIO;
		}
	}
	if (r == ARCHIVE_EOF)
		return 0;
	snprintf(x->error, x->error_size, "truncated or corrupt archive at '%s': %s", name,
		 archive_error_string(x->in));
	return -EINVAL;
}

static void remove_partial(struct extract *x, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", x->dir, name) < (int)sizeof(path))
		unlink(path);	/* the disk writer made it; never a link */
}

/* Decide on and write one member: 0 (written or skipped), negative to stop. */
static int extract_member(struct extract *x, struct archive_entry *entry)
{
	const char *member = archive_entry_pathname(entry);
	mode_t type = archive_entry_filetype(entry);
	char path[PATH_MAX], name_buf[PATH_MAX];
	const char *name = name_buf;
	int r;

	while (member && member[0] == '.' && member[1] == '/')
		member += 2;
	if (!member || !*member)
		return 0;
	/* A copy: setting the entry's path below frees its name. */
	if (nd_strlcpy(name_buf, member, sizeof(name_buf)) >= sizeof(name_buf)) {
		skip_note(x, "(a member)", "has too long a name");
		return 0;
	}
	if (name[0] == '/' || has_dotdot(name)) {
		skip_note(x, name, "names a path outside the bundle");
		return 0;
	}
	if (!member_wanted(name))
		return 0;
	if (type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK) {
		skip_note(x, name, "is not a file, directory or symlink");
		return 0;
	}
	if (archive_entry_hardlink(entry)) {
		skip_note(x, name, "is a hard link");
		return 0;
	}
	if (type == AE_IFLNK && !link_stays_inside(name, archive_entry_symlink(entry))) {
		skip_note(x, name, "is a symlink pointing outside the bundle");
		return 0;
	}
	if (snprintf(path, sizeof(path), "%s/%s", x->dir, name) >= (int)sizeof(path)) {
		skip_note(x, name, "has too long a name");
		return 0;
	}
	/* Setting the pathname frees the string `name` points into. */
	name = path + strlen(x->dir) + 1;
	archive_entry_set_pathname(entry, path);
	archive_entry_set_perm(entry, type == AE_IFDIR ? 0700 : 0600);
	r = archive_write_header(x->out, entry);
	if (r != ARCHIVE_OK) {
		/* "..", an absolute name or a path through a symlink: libarchive said no. */
		skip_note(x, name, "was refused by the extractor");
		return 0;
	}
	r = type == AE_IFREG ? copy_data(x, name) : 0;
	archive_write_finish_entry(x->out);
	if (r == 1) {
		remove_partial(x, name);
		skip_note(x, name, "is larger than 32 MiB");
		return 0;
	}
	return r;
}

static int extract_all(struct extract *x)
{
	struct archive_entry *entry;
	uint64_t members = 0;
	int r;

	while ((r = archive_read_next_header(x->in, &entry)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		if (++members > ND_BUNDLE_MAX_MEMBERS) {
			snprintf(x->error, x->error_size, "more than %d members: refused",
				 ND_BUNDLE_MAX_MEMBERS);
			return -EFBIG;
		}
		if ((uint64_t)archive_filter_bytes(x->in, 0) > ND_BUNDLE_MAX_STREAM_BYTES) {
			snprintf(x->error, x->error_size,
				 "more than %llu GiB of archive to read: refused as a "
				 "decompression bomb", ND_BUNDLE_MAX_STREAM_BYTES >> 30);
			return -EFBIG;
		}
		r = extract_member(x, entry);
		if (r < 0)
			return r;
	}
	if (r == ARCHIVE_EOF)
		return members ? 0 : (snprintf(x->error, x->error_size, "empty archive"), -EINVAL);
	snprintf(x->error, x->error_size, "%s: %s",
		 members ? "truncated or corrupt archive" : "not a tar archive",
		 archive_error_string(x->in));
	return -EINVAL;
}

/* Open without blocking on a FIFO or following a final symlink, and insist
 * on a regular file. */
static int open_regular(const char *path, char *error, size_t error_size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		snprintf(error, error_size, "%s", strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(error, error_size, "not a regular file or directory");
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, 0);
	return fd;
}

int nd_bundle_extract(const char *path, const char *dir, struct nd_bundle *bundle,
		      char *ret_error, size_t error_size)
{
	struct extract x = { .dir = dir, .bundle = bundle, .error = ret_error,
			     .error_size = error_size };
	int fd = open_regular(path, ret_error, error_size), r;

	if (fd < 0)
		return fd;
	x.in = archive_read_new();
	x.out = archive_write_disk_new();
	if (!x.in || !x.out) {
		r = -ENOMEM;
		snprintf(ret_error, error_size, "out of memory");
		goto out;
	}
	archive_read_support_format_tar(x.in);
	archive_read_support_filter_all(x.in);
	/* Names are made absolute below the private directory, so absolute
	 * member names are refused above, not by libarchive. */
	archive_write_disk_set_options(x.out, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
				       ARCHIVE_EXTRACT_SECURE_NODOTDOT);
	if (archive_read_open_fd(x.in, fd, 64 * 1024) != ARCHIVE_OK) {
		snprintf(ret_error, error_size, "not a tar archive: %s",
			 archive_error_string(x.in));
		r = -EINVAL;
		goto out;
	}
	r = extract_all(&x);
out:
	if (x.in)
		archive_read_free(x.in);
	if (x.out)
		archive_write_free(x.out);
	close(fd);
	return r;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

int nd_bundle_remove_tree(const char *dir)
{
	/* FTW_PHYS: a symlink is removed, never followed. */
	return nftw(dir, remove_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 ? -errno : 0;
}

/*
 * bundle.h - what `--sysroot PATH` can name besides a plain tree: a
 * nicdoctor snapshot, a sosreport (directory or tarball), a SUSE
 * supportconfig (directory or tarball), or the tarball of `collect --script`.
 *
 * A tarball is read with libarchive into a private temporary directory
 * (mode 0700) that nd_bundle_close() removes; only regular files,
 * directories and symlinks whose targets stay inside are extracted, within
 * size caps.  The kind is found by content, never by name.
 */
#ifndef NICDOCTOR_BUNDLE_H
#define NICDOCTOR_BUNDLE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Caps on what a tarball may make us write: sos truncates each output at
 * 25 MB, so 32 MiB per member leaves room; the total covers the members
 * nicdoctor reads of any real bundle; the stream cap bounds the time spent
 * decompressing members that are skipped. */
#define ND_BUNDLE_MAX_MEMBER_BYTES  (32ULL << 20)
#define ND_BUNDLE_MAX_TOTAL_BYTES  (512ULL << 20)
#define ND_BUNDLE_MAX_STREAM_BYTES   (4ULL << 30)
#define ND_BUNDLE_MAX_MEMBERS       200000

enum nd_bundle_kind {
	ND_BUNDLE_TREE,			/* a nicdoctor snapshot or a plain sys/proc tree */
	ND_BUNDLE_SOS,			/* sosreport, or collect --script's tarball */
	ND_BUNDLE_SUPPORTCONFIG,
};

struct nd_bundle {
	enum nd_bundle_kind kind;
	char root[PATH_MAX];		/* the tree the probe reads */
	char tmpdir[PATH_MAX];		/* private extraction, "" when none */
	bool from_tarball;
	bool from_script;		/* sos-shaped, written by collect --script */
	bool from_supportconfig;	/* converted to a sos-shaped tree in tmpdir */
	char tool_version[32];		/* "4.2" (sos), "3.2.14" (supportconfig) */
	char host[64];			/* host name the bundle recorded, "" unknown */
	char date[64];			/* when it was taken, "" unknown */
	/* What the caps or the safety rules left out, one line, "" none. */
	char skipped[256];
	uint64_t skipped_members;
};

/*
 * Open PATH: a directory is used in place (or its one subdirectory that
 * holds a bundle); a regular file must be a tar archive (plain, gzip, xz,
 * bzip2, zstd).  0, or a negative errno with one line in ret_error:
 * -EINVAL not a bundle or archive, -EFBIG over a cap, -ENOENT, -EACCES ...
 */
int nd_bundle_open(const char *path, struct nd_bundle *ret, char *ret_error, size_t error_size);

/* Remove the private extraction (if any).  Safe to call twice. */
void nd_bundle_close(struct nd_bundle *bundle);

/* "a sosreport (sos 4.2) of HOST taken DATE" for the report's header. */
void nd_bundle_describe(const struct nd_bundle *bundle, char *buf, size_t size);

/* Extract the tar archive at path into the empty directory dir (used by
 * nd_bundle_open; exposed for the fuzz target).  Same errors. */
int nd_bundle_extract(const char *path, const char *dir, struct nd_bundle *bundle,
		      char *ret_error, size_t error_size);

/*
 * supportconfig.c: write below dst_fd the sos-shaped tree of the
 * supportconfig directory src (network.txt, hardware.txt, proc.txt,
 * env.txt, ...); the host, date and version it records go into bundle.
 * 0 or a negative errno (-ENOMEM, -ENOSPC ...).
 */
int nd_supportconfig_convert(const char *src, int dst_fd, struct nd_bundle *bundle);
/* One file's text ("network.txt", ...): for the converter and the fuzz target. */
int nd_supportconfig_convert_text(const char *file, const char *text, size_t len, int dst_fd,
				  struct nd_bundle *bundle);

/* Remove a directory tree without following any link in it. */
int nd_bundle_remove_tree(const char *dir);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysroot.h - the single seam through which every /sys and /proc read goes.
 *
 * What is read is a root passed by the caller: &nd_root_live for the
 * running kernel, or a root opened on a directory (`--sysroot DIR`, a
 * snapshot made by `nicdoctor collect`, a test fixture).  A source
 * (source.h) holds the root it reads; no global decides it.  Reads below
 * a directory refuse to follow a symlink out of it.
 */
#ifndef NICDOCTOR_SYSROOT_H
#define NICDOCTOR_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Larger files are refused.  /proc/interrupts of a 1024-CPU host prints
 * about 11 KiB a line: 2000 IRQs make 22 MiB. */
#define ND_SYSROOT_MAX_FILE (32 << 20)

/* Where reads go: the directory (and its O_PATH descriptor) and, while
 * collect records, the paths read.  Opaque: sysroot.c. */
struct nd_root;

/* The running kernel's /sys and /proc; never records. */
extern const struct nd_root nd_root_live;

/* Open a root on dir ("/" or NULL: the live host, in a root of its own
 * that can record).  0, or -ENOENT/-ENOTDIR/-ENAMETOOLONG/-ENOMEM. */
int nd_root_open(const char *dir, struct nd_root **ret_root);
/* Close it and forget what it recorded.  NULL is fine. */
void nd_root_close(struct nd_root *root);

bool nd_sysroot_is_live(const struct nd_root *root);
/* The directory: "/" when live. */
const char *nd_sysroot_dir(const struct nd_root *root);

/* Build "<root><path>" into buf.  path must start with '/'. */
int nd_sysroot_path(const struct nd_root *root, char *buf, size_t size, const char *path);

/*
 * Read a whole small text file below the root, NUL-terminated, trailing
 * newline kept.  Returns bytes read or a negative errno (-ENOENT,
 * -EACCES, -EFBIG when larger than size-1, -ELOOP when it escapes).
 */
ssize_t nd_sysroot_read(const struct nd_root *root, const char *path, char *buf, size_t size);
ssize_t nd_sysroot_readf(const struct nd_root *root, char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Read a file and trim trailing whitespace. */
int nd_sysroot_read_line(const struct nd_root *root, const char *path, char *buf, size_t size);

/* Read a whole file of any size up to ND_SYSROOT_MAX_FILE, malloc'd. */
int nd_sysroot_read_alloc(const struct nd_root *root, const char *path, char **ret_text,
			  size_t *ret_len);

/* readlink below the root, basename only ("ixgbe" for .../driver). */
int nd_sysroot_link_basename(const struct nd_root *root, const char *path, char *buf, size_t size);

/* Take the next component of the path *rest into comp (slashes skipped):
 * 1, 0 at the end, -1 (errno ENAMETOOLONG) when it does not fit. */
int nd_path_next_component(const char **rest, char *comp, size_t size);

/* Whether a path exists below the root. */
bool nd_sysroot_exists(const struct nd_root *root, const char *path);

/* Open a directory below the root (for listing msi_irqs/, queues/, ...).
 * Returns a DIR * or NULL with errno set.  Symlinks stay inside the root. */
DIR *nd_sysroot_opendir(const struct nd_root *root, const char *path);

/*
 * Recording, for `collect`: while on, every path read successfully
 * through this root is remembered (deduplicated), so the snapshot holds
 * exactly what the probe looked at.  nd_sysroot_recorded returns the
 * i-th path or NULL past the end.  Recording on needs memory: 0 or
 * -ENOMEM; &nd_root_live cannot record.
 */
int nd_sysroot_record(struct nd_root *root, bool on);
const char *nd_sysroot_recorded(const struct nd_root *root, size_t i);
void nd_sysroot_record_clear(struct nd_root *root);

#endif

/*
 * sysroot.h - the single seam through which every /sys and /proc read goes.
 *
 * The root defaults to "/"; `--sysroot DIR` switches it so that a snapshot
 * made by `nicdoctor collect` (or a test fixture) is read instead of the
 * live kernel.  Reads refuse to follow a symlink out of the root.
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

/* Set the root ("/" or NULL for live).  0, or -ENOENT/-ENOTDIR. */
int nd_sysroot_set(const char *dir);
const char *nd_sysroot_get(void);	/* "/" when live */
bool nd_sysroot_is_live(void);

/* Build "<root><path>" into buf.  path must start with '/'. */
int nd_sysroot_path(char *buf, size_t size, const char *path);

/*
 * Read a whole small text file below the root, NUL-terminated, trailing
 * newline kept.  Returns bytes read or a negative errno (-ENOENT,
 * -EACCES, -EFBIG when larger than size-1, -ELOOP when it escapes).
 */
ssize_t nd_sysroot_read(const char *path, char *buf, size_t size);
ssize_t nd_sysroot_readf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read a file and trim trailing whitespace. */
int nd_sysroot_read_line(const char *path, char *buf, size_t size);

/* Read a whole file of any size up to ND_SYSROOT_MAX_FILE, malloc'd. */
int nd_sysroot_read_alloc(const char *path, char **ret_text, size_t *ret_len);

/* readlink below the root, basename only ("ixgbe" for .../driver). */
int nd_sysroot_link_basename(const char *path, char *buf, size_t size);

/* Take the next component of the path *rest into comp (slashes skipped):
 * 1, 0 at the end, -1 (errno ENAMETOOLONG) when it does not fit. */
int nd_path_next_component(const char **rest, char *comp, size_t size);

/* Whether a path exists below the root. */
bool nd_sysroot_exists(const char *path);

/* Open a directory below the root (for listing msi_irqs/, queues/, ...).
 * Returns a DIR * or NULL with errno set.  Symlinks stay inside the root. */
DIR *nd_sysroot_opendir(const char *path);

/*
 * Recording, for `collect`: while on, every path read successfully
 * through this seam is remembered (deduplicated), so the snapshot holds
 * exactly what the probe looked at.  nd_sysroot_recorded returns the
 * i-th path or NULL past the end.
 */
void nd_sysroot_record(bool on);
const char *nd_sysroot_recorded(size_t i);
void nd_sysroot_record_clear(void);

#endif

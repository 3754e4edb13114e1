/*
 * daemon.h - `serve` as a system service: -D (detach), -I (pidfile),
 * --logfile, and syslog for a daemon without a log file.
 */
#ifndef NICDOCTOR_DAEMON_H
#define NICDOCTOR_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * A pidfile path made absolute (a daemon changes to /) into ret_abs, and
 * checked: -EEXIST with ret_holder set while a live process holds it; a
 * stale or unreadable-as-a-pid file is removed.
 */
int nd_pidfile_check(const char *path, char *ret_abs, size_t abs_size, pid_t *ret_holder);
/* This process's pid into path, atomically and exclusively: a temporary
 * file linked into place, -EEXIST if one appeared meanwhile. */
int nd_pidfile_write(const char *path);
/* Remove path if it still names this process. */
void nd_pidfile_remove(const char *path);

/*
 * Detach: fork, and in the child setsid() and chdir("/").  The parent
 * (*ret_parent true) waits until the child calls nd_daemon_ready() and
 * returns the exit code it reported, so that a service manager finds the
 * pidfile written when the command returns (systemd's Type=forking).
 */
int nd_daemon_fork(bool *ret_parent, int *ret_exit_code, int *ret_notify_fd);
/* Tell the waiting parent how startup went (0: running) and close. */
void nd_daemon_ready(int notify_fd, int exit_code);

/* Open --logfile for appending (before detaching, so a relative path and
 * an error still reach the user). */
int nd_log_open(const char *path, int *ret_fd);
/* stdout and stderr to fd (line-buffered); a daemon's stdin from
 * /dev/null and, with fd < 0, its stdout and stderr to /dev/null at the
 * descriptor level and to syslog (daemon facility, "nicdoctor") at the
 * stdio level. */
int nd_log_redirect(int fd, bool daemon);

#endif

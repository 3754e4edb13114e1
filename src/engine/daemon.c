/*
 * daemon.c - `serve` as a system service, as iperf3 -s does it: -D detaches
 * (daemon(3)'s fork and setsid, chdir /, stdio on /dev/null) but the
 * parent returns only once the child is listening with its pidfile
 * written, so a service manager that forks it (systemd Type=forking with
 * PIDFile=) sees a ready server; -I writes the pidfile exclusively and
 * refuses while a live process holds it; --logfile takes what serve
 * prints, and a daemon without one logs through syslog.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "nicdoctor/daemon.h"

/* The pid a pidfile names, or 0 when it names none. */
static pid_t pidfile_read(const char *path)
{
	char buf[24];
	ssize_t n;
	long pid;
	char *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	pid = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || pid <= 0 || pid > INT_MAX)
		return 0;
	return (pid_t)pid;
}

int nd_pidfile_check(const char *path, char *ret_abs, size_t abs_size, pid_t *ret_holder)
{
	char cwd[PATH_MAX];
	pid_t pid;
	int n;

	if (path[0] == '/')
		n = snprintf(ret_abs, abs_size, "%s", path);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(ret_abs, abs_size, "%s/%s", cwd, path);
	else
		return -errno;
	if (n < 0 || (size_t)n >= abs_size)
		return -ENAMETOOLONG;
	pid = pidfile_read(ret_abs);
	/* EPERM: alive, owned by another user; either way not ours to take. */
	if (pid > 0 && pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM)) {
		*ret_holder = pid;
		return -EEXIST;
	}
	if (unlink(ret_abs) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int nd_pidfile_write(const char *path)
{
	char tmp[PATH_MAX + 8], text[24];
	int fd, n, rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(text, sizeof(text), "%d\n", (int)getpid());
	if (fchmod(fd, 0644) < 0 || write(fd, text, (size_t)n) != n)
		rc = errno ? -errno : -EIO;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	/* link() never replaces: two servers racing for one pidfile, one wins. */
	if (rc == 0 && link(tmp, path) < 0)
		rc = -errno;
	unlink(tmp);
	return rc;
}

void nd_pidfile_remove(const char *path)
{
	if (path && path[0] && pidfile_read(path) == getpid())
		unlink(path);
}

int nd_daemon_fork(bool *ret_parent, int *ret_exit_code, int *ret_notify_fd)
{
	int pfd[2];
	pid_t pid;
	unsigned char code;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);	/* nothing buffered is printed twice */
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid > 0) {
		close(pfd[1]);
		do
			n = read(pfd[0], &code, 1);
		while (n < 0 && errno == EINTR);
		close(pfd[0]);
		*ret_parent = true;
		/* No byte: the child died before it could say; its error is printed. */
		*ret_exit_code = n == 1 ? code : 4;
		return 0;
	}
	close(pfd[0]);
	*ret_parent = false;
	*ret_notify_fd = pfd[1];
	if (setsid() < 0 || chdir("/") < 0)
		return -errno;
	umask(022);
	return 0;
}

void nd_daemon_ready(int notify_fd, int exit_code)
{
	unsigned char code = (unsigned char)exit_code;

	if (notify_fd < 0)
		return;
	(void)!write(notify_fd, &code, 1);
	close(notify_fd);
}

int nd_log_open(const char *path, int *ret_fd)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0644);

	if (fd < 0)
		return -errno;
	*ret_fd = fd;
	return 0;
}

/* One syslog record per line; serve's rules of dashes say nothing there. */
struct syslog_line {
	int priority;
	size_t len;
	char text[1024];
};

static void syslog_flush(struct syslog_line *l)
{
	size_t i;

	l->text[l->len] = '\0';
	for (i = 0; i < l->len && (l->text[i] == '-' || l->text[i] == ' '); i++)
		;
	if (i < l->len)
		syslog(l->priority, "%s", l->text);
	l->len = 0;
}

static ssize_t syslog_write(void *cookie, const char *buf, size_t size)
{
	struct syslog_line *l = cookie;

	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n' || l->len == sizeof(l->text) - 1)
			syslog_flush(l);
		if (buf[i] != '\n')
			l->text[l->len++] = buf[i];
	}
	return (ssize_t)size;
}

static int syslog_close(void *cookie)
{
	struct syslog_line *l = cookie;

	if (l->len)
		syslog_flush(l);
	free(l);
	return 0;
}

static FILE *syslog_stream(int priority)
{
	cookie_io_functions_t io = { .write = syslog_write, .close = syslog_close };
	struct syslog_line *l = calloc(1, sizeof(*l));
	FILE *f;

	if (!l)
		return NULL;
	l->priority = priority;
	f = fopencookie(l, "w", io);
	if (!f) {
		free(l);
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

int nd_log_redirect(int fd, bool daemon)
{
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC | O_NOCTTY);
	int out_fd = fd >= 0 ? fd : null_fd;

	if (null_fd < 0)
		return -errno;
	fflush(NULL);
	if ((daemon && dup2(null_fd, STDIN_FILENO) < 0) || dup2(out_fd, STDOUT_FILENO) < 0 ||
	    dup2(out_fd, STDERR_FILENO) < 0) {
		close(null_fd);
		return -errno;
	}
	close(null_fd);
	if (fd >= 0 && fd > STDERR_FILENO)
		close(fd);
	if (fd < 0 && daemon) {
		FILE *out = syslog_stream(LOG_INFO), *err = syslog_stream(LOG_ERR);

		if (!out || !err) {
			if (out)
				fclose(out);
			if (err)
				fclose(err);
			return -ENOMEM;
		}
		openlog("nicdoctor", LOG_PID | LOG_NDELAY, LOG_DAEMON);
		/* glibc's stdout and stderr are assignable: every printf of the
		 * server, from any thread, becomes a record. */
		stdout = out;
		stderr = err;
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}

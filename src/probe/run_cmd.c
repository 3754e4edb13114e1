/*
 * run_cmd.c - the probe's one way to run a program and take its output:
 * argv through posix_spawnp (no shell), stdout into a buffer, stderr to
 * /dev/null, a deadline after which the child is killed.  A probe must
 * never hang a diagnosis on a tool that hangs (teamdctl waiting on a dead
 * teamd's socket), nor block on a child writing more than it reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nicdoctor/sysfs_util.h"

extern char **environ;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Read until EOF, max bytes or the deadline; 0, -E2BIG or -ETIMEDOUT. */
static int drain(int fd, char *buf, size_t max, size_t *ret_len, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = end - now_ms();
		ssize_t n;
		int ready;

		if (left <= 0)
			return -ETIMEDOUT;
		ready = poll(&p, 1, (int)left);
		if (ready < 0 && errno != EINTR)
			return -errno;
		if (ready <= 0)
			continue;	/* the deadline is checked above */
		if (len == max)
			return -E2BIG;
		n = read(fd, buf + len, max - len);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		len += (size_t)n;
	}
	*ret_len = len;
	return 0;
}

int nd_run_capture(char *const argv[], int timeout_ms, size_t max, char **ret_text,
		   size_t *ret_len)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = 0, r;
	size_t len = 0;
	char *text;
	pid_t pid;

	if (!(text = malloc(max + 1)))
		return -ENOMEM;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(text);
		return -errno;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	r = -posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r == 0) {
		r = drain(pipefd[0], text, max, &len, timeout_ms);
		if (r < 0)
			kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (r == 0 && (!WIFEXITED(status) || WEXITSTATUS(status)))
			r = -EIO;
	}
	close(pipefd[0]);
	if (r < 0) {
		free(text);
		return r;
	}
	text[len] = '\0';
	*ret_text = text;
	*ret_len = len;
	return 0;
}

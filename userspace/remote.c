// SPDX-License-Identifier: GPL-2.0
/*
 * Driving the other hosts of a fabric split over hosts (issue 25,
 * docs/multihost.md): `create --drive` and `destroy --drive` run the
 * same tool's command on every other host, over ssh, one connection
 * per host, all hosts at once, and collect each one's exit status and
 * the last line it printed.  No daemon: ssh is the control channel.
 *
 * $MF_SSH (shell words; default "ssh -o BatchMode=yes -o
 * ConnectTimeout=10") is run as `$MF_SSH HOST COMMAND`, ssh's own
 * convention: COMMAND is one string the remote shell splits, so each
 * word is quoted here.  $MF_REMOTE_TOOL names the tool on the remote
 * host (default meshfabric, found on its PATH).  HOST is a peer
 * address as inet_ntop() wrote it, never an option.
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "remote.h"

#define MF_SSH_DEFAULT	"ssh -o BatchMode=yes -o ConnectTimeout=10"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int mf_remote_arg(struct mf_remote *r, const char *w)
{
	size_t need = 3 + (r->len ? 1 : 0), i;

	for (i = 0; w[i]; i++)
		need += w[i] == '\'' ? 4 : 1;
	if (r->len + need >= sizeof(r->cmd)) {
		r->toolong = 1;
		return -1;
	}
	if (r->len)
		r->cmd[r->len++] = ' ';
	/* 'word', a quote inside as '\'' */
	r->cmd[r->len++] = '\'';
	for (i = 0; w[i]; i++) {
		if (w[i] == '\'') {
			memcpy(r->cmd + r->len, "'\\''", 4);
			r->len += 4;
		} else {
			r->cmd[r->len++] = w[i];
		}
	}
	r->cmd[r->len++] = '\'';
	r->cmd[r->len] = 0;
	return 0;
}

void mf_remote_init(struct mf_remote *r, const char *host)
{
	const char *tool = getenv("MF_REMOTE_TOOL");

	memset(r, 0, sizeof(*r));
	snprintf(r->host, sizeof(r->host), "%s", host);
	r->fd = -1;
	r->status = 255;
	mf_remote_arg(r, tool && *tool ? tool : "meshfabric");
}

static void start(struct mf_remote *r)
{
	int p[2], nul;

	r->secs = 0;
	if (r->toolong) {
		snprintf(r->last, sizeof(r->last),
			 "the command is too long for one ssh call");
		return;
	}
	/* close-on-exec: no other host's ssh inherits this pipe */
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(r->last, sizeof(r->last), "pipe: %s", strerror(errno));
		return;
	}
	r->secs = now();
	r->pid = fork();
	if (r->pid < 0) {
		snprintf(r->last, sizeof(r->last), "fork: %s", strerror(errno));
		r->pid = 0;
		r->secs = 0;
		close(p[0]);
		close(p[1]);
		return;
	}
	if (!r->pid) {
		setpgid(0, 0);
		nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		/* eval: MF_SSH's own quotes count (shell words) */
		execl("/bin/sh", "sh", "-c",
		      "eval \"exec ${MF_SSH:-" MF_SSH_DEFAULT "}\" '\"$0\" \"$1\"'",
		      r->host, r->cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	r->fd = p[0];
}

/* The last non-empty line of what r printed (its tail). */
static void last_line(struct mf_remote *r)
{
	size_t e = r->tlen, b;

	while (e && (r->tail[e - 1] == '\n' || r->tail[e - 1] == '\r'))
		e--;
	b = e;
	while (b && r->tail[b - 1] != '\n')
		b--;
	if (e > b)
		snprintf(r->last, sizeof(r->last), "%.*s", (int)(e - b),
			 r->tail + b);
}

/* What r has printed so far, kept to its last bytes; false at the end
 * of it (or an error).
 */
static bool drain(struct mf_remote *r)
{
	char buf[4096];
	ssize_t got;
	size_t keep;

	got = read(r->fd, buf, sizeof(buf));
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return errno == EINTR;
	if (got <= 0)
		return false;
	if ((size_t)got >= sizeof(r->tail)) {
		memcpy(r->tail, buf + got - sizeof(r->tail), sizeof(r->tail));
		r->tlen = sizeof(r->tail);
		return true;
	}
	keep = sizeof(r->tail) - (size_t)got;
	if (r->tlen > keep) {
		memmove(r->tail, r->tail + r->tlen - keep, keep);
		r->tlen = keep;
	}
	memcpy(r->tail + r->tlen, buf, (size_t)got);
	r->tlen += (size_t)got;
	return true;
}

static void end_output(struct mf_remote *r)
{
	if (r->fd < 0)
		return;
	/* what is there now, then no more: a process the command left
	 * behind may hold the pipe open for as long as it lives
	 */
	fcntl(r->fd, F_SETFL, O_NONBLOCK);
	while (drain(r))
		;
	close(r->fd);
	r->fd = -1;
}

void mf_remote_run(struct mf_remote *r, unsigned int n,
		   volatile sig_atomic_t *stop)
{
	struct pollfd *pf = calloc(n ? n : 1, sizeof(*pf));
	unsigned int i, running = 0;
	bool stopped = false;
	pid_t w;
	int st;

	for (i = 0; i < n && pf; i++) {
		start(&r[i]);
		running += r[i].pid > 0;
	}
	for (i = 0; i < n && !pf; i++)
		snprintf(r[i].last, sizeof(r[i].last), "out of memory");
	while (running) {
		for (i = 0; i < n; i++) {
			pf[i].fd = r[i].fd;
			pf[i].events = POLLIN;
			pf[i].revents = 0;
		}
		/* a child's exit is seen within 0.2 s */
		if (poll(pf, n, 200) > 0)
			for (i = 0; i < n; i++)
				if (r[i].fd >= 0 && pf[i].revents &&
				    !drain(&r[i])) {
					close(r[i].fd);
					r[i].fd = -1;
				}
		if (stop && *stop && !stopped) {
			stopped = true;
			for (i = 0; i < n; i++)
				if (r[i].pid > 0)
					kill(r[i].pid, SIGTERM);
		}
		for (i = 0; i < n; i++) {
			if (r[i].pid <= 0)
				continue;
			w = waitpid(r[i].pid, &st, WNOHANG);
			if (w == 0 || (w < 0 && errno == EINTR))
				continue;
			r[i].status = w > 0 && WIFEXITED(st) ?
				      WEXITSTATUS(st) : 255;
			r[i].pid = 0;
			running--;
			end_output(&r[i]);
			last_line(&r[i]);
			r[i].secs = now() - r[i].secs;
		}
	}
	for (i = 0; i < n; i++) {
		end_output(&r[i]);
		if (!r[i].last[0])
			last_line(&r[i]);
	}
	free(pf);
}

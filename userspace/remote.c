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
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
	if (r->len + need >= sizeof(r->cmd))
		return -1;
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

	r->secs = now();
	if (pipe(p)) {
		snprintf(r->last, sizeof(r->last), "pipe: %s", strerror(errno));
		return;
	}
	r->pid = fork();
	if (r->pid < 0) {
		snprintf(r->last, sizeof(r->last), "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return;
	}
	if (!r->pid) {
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

void mf_remote_run(struct mf_remote *r, unsigned int n)
{
	struct pollfd *pf = calloc(n ? n : 1, sizeof(*pf));
	unsigned int i, open = 0;
	char buf[4096];
	ssize_t got;
	size_t keep;
	pid_t w;
	int st;

	for (i = 0; i < n; i++) {
		start(&r[i]);
		open += r[i].fd >= 0;
	}
	/* every host's output, as it comes (the last bytes kept) */
	while (pf && open) {
		for (i = 0; i < n; i++) {
			pf[i].fd = r[i].fd;
			pf[i].events = POLLIN;
		}
		if (poll(pf, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			if (r[i].fd < 0 || !pf[i].revents)
				continue;
			got = read(r[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(r[i].fd);
				r[i].fd = -1;
				open--;
				continue;
			}
			if ((size_t)got >= sizeof(r[i].tail)) {
				memcpy(r[i].tail, buf + got - sizeof(r[i].tail),
				       sizeof(r[i].tail));
				r[i].tlen = sizeof(r[i].tail);
				continue;
			}
			keep = sizeof(r[i].tail) - (size_t)got;
			if (r[i].tlen > keep) {
				memmove(r[i].tail, r[i].tail + r[i].tlen - keep,
					keep);
				r[i].tlen = keep;
			}
			memcpy(r[i].tail + r[i].tlen, buf, (size_t)got);
			r[i].tlen += (size_t)got;
		}
	}
	for (i = 0; i < n; i++) {
		if (r[i].fd >= 0)
			close(r[i].fd);
		r[i].fd = -1;
		if (r[i].pid > 0) {
			do
				w = waitpid(r[i].pid, &st, 0);
			while (w < 0 && errno == EINTR);
			r[i].status = w > 0 && WIFEXITED(st) ?
				      WEXITSTATUS(st) : 255;
			last_line(&r[i]);
		}
		r[i].secs = now() - r[i].secs;
	}
	free(pf);
}

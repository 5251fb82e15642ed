/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The other hosts of a fabric split over hosts, driven from this one
 * (remote.c): the tool's own command on each host over ssh, one
 * connection per host, all hosts at once.
 */
#ifndef MF_REMOTE_H
#define MF_REMOTE_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#define MF_REMOTE_CMD_MAX	8192

struct mf_remote {
	char host[64];		/* in: where (mf_remote_init) */
	char cmd[MF_REMOTE_CMD_MAX];	/* in: the tool and its words, quoted */
	size_t len;
	int status;		/* out: exit status; 255: ssh failed */
	char last[240];		/* out: its output's last line */
	double secs;		/* out: how long it took */
	/* mf_remote_run's */
	pid_t pid;
	int fd;
	int toolong;		/* a word did not fit: never run */
	char tail[1024];
	size_t tlen;
};

/* r runs the remote tool ($MF_REMOTE_TOOL, default meshfabric) on host. */
void mf_remote_init(struct mf_remote *r, const char *host);
/* One more word of the command; -1 if it is too long (then r does not
 * run: status 255).
 */
int mf_remote_arg(struct mf_remote *r, const char *word);
/* Runs r[0..n-1] at once and waits for them all; each one's output is
 * read until it exits (not until every holder of the pipe, e.g. an ssh
 * ControlPersist master, closes it).  Each runs in a process group of
 * its own (a terminal's ^C reaches the caller only); *stop (the
 * caller's signal flag) becoming non-zero sends them SIGTERM.
 */
void mf_remote_run(struct mf_remote *r, unsigned int n,
		   volatile sig_atomic_t *stop);

#endif

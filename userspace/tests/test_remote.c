// SPDX-License-Identifier: GPL-2.0
/*
 * test_remote.c - remote.c, the runner of `create --drive` and `destroy
 * --drive`, with a stand-in for ssh that runs COMMAND here as a remote
 * shell would: MF_SSH='sh -c "eval \"\$2\"" ssh' (ssh's convention:
 * $MF_SSH HOST COMMAND).  What must hold, from POSIX sh's quoting rules
 * and ssh's convention: every word arrives as it was given (spaces,
 * quotes, $, backquotes, newlines), the exit status and the last line
 * come back per host, hosts run at once, a process left holding the
 * output does not hold the run, a signal's flag stops them, and a
 * command too long never runs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "mf_test.h"
#include "remote.h"

static const char *const words[] = {
	"plain", "two words", "it's", "\"dq\"", "$HOME", "`id`", "$(id)",
	"a\\b", "*", "-n", "", "line1\nline2", NULL
};

/* printf '<%s>' WORDS: the words come back between < and >. */
static void test_words(void)
{
	struct mf_remote r;
	char want[512] = "";
	u32 i;

	setenv("MF_REMOTE_TOOL", "printf", 1);
	mf_remote_init(&r, "host-a");
	EXPECT_EQ(mf_remote_arg(&r, "<%s>"), 0);
	for (i = 0; words[i]; i++) {
		EXPECT_EQ(mf_remote_arg(&r, words[i]), 0);
		strcat(want, "<");
		strcat(want, words[i]);
		strcat(want, ">");
	}
	mf_remote_run(&r, 1, NULL);
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.tlen, strlen(want));
	EXPECT_MSG(r.tlen == strlen(want) && !memcmp(r.tail, want, r.tlen),
		   "got '%.*s' want '%s'", (int)r.tlen, r.tail, want);
	/* the last line: after the word with a newline */
	EXPECT_MSG(!strcmp(r.last, strchr(want, '\n') + 1), "last '%s'",
		   r.last);
}

/* The host is $1 of the stand-in; statuses and last lines per host;
 * three hosts of 1 s each take about 1 s, not 3.
 */
static void test_hosts(void)
{
	struct mf_remote r[3];
	struct timespec a, b;
	double secs;
	u32 i;

	setenv("MF_SSH", "sh -c 'echo \"on $1\"; eval \"$2\"' ssh", 1);
	setenv("MF_REMOTE_TOOL", "sh", 1);
	for (i = 0; i < 3; i++) {
		char host[16], cmd[64];

		snprintf(host, sizeof(host), "h%u", i);
		snprintf(cmd, sizeof(cmd), "sleep 1; echo done %u; exit %u", i,
			 i * 3);
		mf_remote_init(&r[i], host);
		mf_remote_arg(&r[i], "-c");
		mf_remote_arg(&r[i], cmd);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	mf_remote_run(r, 3, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9;
	for (i = 0; i < 3; i++) {
		char want[32];

		EXPECT_EQ(r[i].status, (int)(i * 3));
		snprintf(want, sizeof(want), "done %u", i);
		EXPECT_MSG(!strcmp(r[i].last, want), "host %u: last '%s'", i,
			   r[i].last);
		EXPECT_MSG(!strncmp(r[i].tail, "on h", 4) &&
			   r[i].tail[4] == '0' + (char)i,
			   "host %u: '%.*s'", i, (int)r[i].tlen, r[i].tail);
	}
	/* at once: under 3 s (each sleeps 1 s) however loaded the host */
	EXPECT_MSG(secs < 2.9, "3 hosts of 1 s took %.2f s", secs);
	/* ssh itself failing: 255 (the stand-in exits so) */
	setenv("MF_SSH", "sh -c 'echo \"ssh: connect to host $1: refused\"; exit 255' ssh", 1);
	mf_remote_init(&r[0], "h9");
	mf_remote_run(r, 1, NULL);
	EXPECT_EQ(r[0].status, 255);
	EXPECT_MSG(!strcmp(r[0].last, "ssh: connect to host h9: refused"),
		   "last '%s'", r[0].last);
}

static double since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return b.tv_sec - a->tv_sec + (b.tv_nsec - a->tv_nsec) / 1e9;
}

/* A command too long for one ssh call is refused, never cut, never run
 * (even when a shorter word fits after it).
 */
static void test_too_long(void)
{
	static char big[MF_REMOTE_CMD_MAX];
	struct mf_remote r;

	memset(big, 'x', sizeof(big) - 1);
	setenv("MF_SSH", "sh -c 'echo ran' ssh", 1);
	mf_remote_init(&r, "h");
	EXPECT_EQ(mf_remote_arg(&r, big), -1);
	EXPECT_EQ(mf_remote_arg(&r, "short"), 0);
	EXPECT_MSG(!strchr(r.cmd, 'x'), "a cut word went in");
	mf_remote_run(&r, 1, NULL);
	EXPECT_EQ(r.status, 255);
	EXPECT_MSG(!strcmp(r.last, "the command is too long for one ssh call"),
		   "last '%s'", r.last);
}

/* A process the command leaves behind holding the output (as an ssh
 * ControlPersist master does) does not hold the run: it ends when the
 * command exits, with what it printed.
 */
static void test_left_behind(void)
{
	struct mf_remote r;
	struct timespec a;
	double secs;

	setenv("MF_SSH", "sh -c '(sleep 20) & echo started; exit 4' ssh", 1);
	mf_remote_init(&r, "h");
	clock_gettime(CLOCK_MONOTONIC, &a);
	mf_remote_run(&r, 1, NULL);
	secs = since(&a);
	EXPECT_EQ(r.status, 4);
	EXPECT_MSG(!strcmp(r.last, "started"), "last '%s'", r.last);
	/* 0.2 s polls: far under the 20 s the holder lives */
	EXPECT_MSG(secs < 10, "took %.2f s", secs);
}

/* The stop flag (a signal's) ends the commands still running. */
static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
	stop_flag = 1;
}

static void test_stop(void)
{
	struct mf_remote r[2];
	struct timespec a;
	double secs;

	setenv("MF_SSH", "sh -c 'exec sleep 20' ssh", 1);
	mf_remote_init(&r[0], "h0");
	mf_remote_init(&r[1], "h1");
	signal(SIGALRM, on_alarm);
	alarm(1);
	clock_gettime(CLOCK_MONOTONIC, &a);
	mf_remote_run(r, 2, &stop_flag);
	secs = since(&a);
	EXPECT_EQ(r[0].status, 255);	/* killed: no exit status */
	EXPECT_EQ(r[1].status, 255);
	EXPECT_MSG(secs < 10, "took %.2f s", secs);
}

int main(void)
{
	setenv("MF_SSH", "sh -c 'eval \"$2\"' ssh", 1);
	RUN(test_words);
	RUN(test_hosts);
	RUN(test_too_long);
	RUN(test_left_behind);
	RUN(test_stop);
	return mf_test_done();
}

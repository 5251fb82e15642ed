// SPDX-License-Identifier: GPL-2.0
/*
 * mf_allreduce - an MPI allreduce whose result is checked against a closed
 * form, for running one rank in each node of a fabric (scripts/mf-mpirun).
 *
 *   mf_allreduce [COUNT[,COUNT...] [ITERS]]
 *                                      default 1024 elements, 10 timed calls
 *
 * Rank r's element j is x(r, j) = (r + 1) * (j + 1) + j * j (an s64); the
 * sum over P ranks is S(j) = (j + 1) * P * (P + 1) / 2 + P * j * j, which
 * the program computes itself, not through MPI.  One untimed call warms
 * the connections (MPI's TCP transport opens them on first use), then ITERS calls of
 * MPI_Allreduce(MPI_INT64_T, MPI_SUM) are timed, each between two
 * barriers' worth of skew: the time printed is the slowest rank's
 * (MPI_MAX of each rank's MPI_Wtime difference), per call.  Each COUNT
 * in turn, in one run (one start-up of all the ranks); rank 0 prints one
 * line per COUNT:
 *
 *   mf_allreduce ranks P count N bytes B iters I ok 1 usec_per_call T
 *     host H
 *
 * ("ok 0" and exit 1 if any rank's result differs; each wrong rank prints
 * its first wrong element to stderr).
 */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int64_t x_of(int64_t r, int64_t j)
{
	return (r + 1) * (j + 1) + j * j;
}

static int64_t sum_of(int64_t p, int64_t j)
{
	return (j + 1) * p * (p + 1) / 2 + p * j * j;
}

/* one COUNT: 0 if every rank's result is right */
static int run(long count, long iters, int rank, int size)
{
	int bad = 0, allbad = 0;
	double t0, dt, worst;
	char host[256] = "";
	int64_t *in, *out;
	long i, j;

	in = malloc(count * sizeof(*in));
	out = malloc(count * sizeof(*out));
	if (!in || !out)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (j = 0; j < count; j++)
		in[j] = x_of(rank, j);
	/* warm-up: the connections are made on first use */
	MPI_Allreduce(in, out, (int)count, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < iters; i++)
		MPI_Allreduce(in, out, (int)count, MPI_INT64_T, MPI_SUM,
			      MPI_COMM_WORLD);
	dt = (MPI_Wtime() - t0) / iters;
	for (j = 0; j < count; j++) {
		if (out[j] != sum_of(size, j)) {
			fprintf(stderr, "mf_allreduce: rank %d element %ld: %" PRId64
				", want %" PRId64 "\n", rank, j, out[j],
				sum_of(size, j));
			bad = 1;
			break;
		}
	}
	MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	gethostname(host, sizeof(host) - 1);
	if (!rank) {
		printf("mf_allreduce ranks %d count %ld bytes %ld iters %ld ok %d usec_per_call %.1f host %s\n",
		       size, count, count * (long)sizeof(int64_t), iters,
		       !allbad, worst * 1e6, host);
		fflush(stdout);
	}
	free(in);
	free(out);
	return allbad;
}

int main(int argc, char **argv)
{
	const char *counts = argc > 1 ? argv[1] : "1024";
	long iters = argc > 2 ? atol(argv[2]) : 10;
	int rank, size, bad = 0;
	const char *p = counts;
	char *end;
	long count;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (iters < 1 || iters > 100000) {
		if (!rank)
			fprintf(stderr, "mf_allreduce: ITERS 1..100000\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (;;) {
		count = strtol(p, &end, 10);
		if (end == p || count < 1 || count > (1L << 24) ||
		    (*end && *end != ',')) {
			if (!rank)
				fprintf(stderr, "mf_allreduce: COUNT 1..16777216, comma-separated\n");
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		bad |= run(count, iters, rank, size);
		if (!*end)
			break;
		p = end + 1;
	}
	MPI_Finalize();
	return bad ? 1 : 0;
}

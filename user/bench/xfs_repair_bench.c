/*
 * xfs_repair_bench.c - docs/seeds.md's seed 002, its own workload: Debian's xfs_repair, run
 * unmodified on an XFS image, timed the way the seed timed it.
 *
 * Per repetition and per ag_stride S (interleaved, -s -1,4 by default):
 * the pristine image (tools/xfs-image made it on the host; the experiment
 * stages it with the binary) is copied to a fresh file, and
 *
 *	xfs_repair -f -vv -o ag_stride=S FRESH
 *
 * runs as a child. Measured: wall time, the child's user and system CPU
 * (wait4's rusage), and each phase's time. xfs_repair's own summary gives
 * phases in whole seconds, too coarse for a few-second phase, so a phase's
 * time here is between the arrival of its "Phase N - " line and the next
 * one's (xfs_repair logs to unbuffered stderr), the last phase ending with
 * the child. In xfsprogs 6.1, S = -1 is one worker plus the prefetch
 * threads (the seed's baseline) and S = N a worker per N allocation groups.
 *
 * The rwsem_spin policy is the experiment's variant: set before this runs
 * (experiments/rwsem.toml), it applies to every child. Metrics: wall_ms_<S>,
 * user_ms_<S>, sys_ms_<S> and phase<N>_ms_<S>, S written stride4 or
 * stride_m1 (-1).
 */
#include "lib/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_STRIDES 8
#define PHASES	    7
#define COPY_CHUNK  (64 * 1024)

static const char *pristine = "/xfs/pristine.img";
static const char *fresh = "/xfs/repair.img";
static const char *repair = "/bin/xfs_repair";
static int strides[MAX_STRIDES] = { -1, 4 };
static int nstrides = 2;

struct repair_run {
	double wall_ms, user_ms, sys_ms;
	double phase_ms[PHASES + 1]; /* [N]: phase N, 1-based; 0 if not seen */
};

static int
parse_strides(const char *list)
{
	char *copy = strdup(list), *save = NULL;

	nstrides = 0;
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		int v = atoi(s);
		if (nstrides == MAX_STRIDES || (v != -1 && v < 1)) {
			free(copy);
			return 1;
		}
		strides[nstrides++] = v;
	}
	free(copy);
	return nstrides == 0;
}

static int
parse_option(int c, const char *arg)
{
	if (c == 's')
		return parse_strides(arg);
	if (c == 'i')
		pristine = arg;
	else if (c == 'o')
		fresh = arg;
	else if (c == 'x')
		repair = arg;
	return 0;
}

static void
die(const char *what, const char *path)
{
	fprintf(stderr, "xfs_repair_bench: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static int
all_zero(const char *buf, ssize_t n)
{
	for (ssize_t i = 0; i < n; i++)
		if (buf[i])
			return 0;
	return 1;
}

/* The pristine image into a fresh file; its zero chunks left as holes. */
static void
copy_image(void)
{
	static char buf[COPY_CHUNK];
	int in = open(pristine, O_RDONLY), out;
	off_t off = 0;
	ssize_t n;

	if (in < 0)
		die("open", pristine);
	out = open(fresh, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		die("create", fresh);
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (!all_zero(buf, n) && pwrite(out, buf, (size_t)n, off) != n)
			die("write", fresh);
		off += n;
	}
	if (n < 0)
		die("read", pristine);
	if (ftruncate(out, off) != 0)
		die("truncate", fresh);
	close(in);
	close(out);
}

static pid_t
start_repair(int stride, int *output)
{
	char option[32];
	int pipefd[2];
	pid_t pid;

	snprintf(option, sizeof(option), "ag_stride=%d", stride);
	if (pipe(pipefd) != 0)
		die("pipe", "");
	pid = fork();
	if (pid < 0)
		die("fork", repair);
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(repair, repair, "-f", "-vv", "-o", option, fresh, (char *)NULL);
		fprintf(stderr, "xfs_repair_bench: exec %s: %s\n", repair, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	*output = pipefd[0];
	return pid;
}

/*
 * Reads the child's output to its end, noting when each "Phase N - " line
 * arrives (start_ns[N]); lines are echoed as comments, so that a failed run
 * shows why.
 */
static void
follow_output(int fd, double start_ns[PHASES + 2])
{
	FILE *f = fdopen(fd, "r");
	char line[512];
	int phase;

	if (!f)
		die("fdopen", "pipe");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Phase %d - ", &phase) == 1 && phase >= 1 && phase <= PHASES &&
		    strstr(line, " - "))
			start_ns[phase] = bench_now_ns();
		printf("# %s", line);
	}
	fclose(f);
}

static void
phase_times(const double start_ns[PHASES + 2], double end_ns, struct repair_run *r)
{
	for (int n = 1; n <= PHASES; n++) {
		double next = end_ns;
		for (int m = n + 1; m <= PHASES; m++)
			if (start_ns[m]) {
				next = start_ns[m];
				break;
			}
		r->phase_ms[n] = start_ns[n] ? (next - start_ns[n]) / 1e6 : 0;
	}
}

static double
timeval_ms(struct timeval tv)
{
	return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

/* One run of xfs_repair on a fresh copy; 0 if it exited with status 0. */
static int
run_repair(int stride, struct repair_run *r)
{
	double start_ns[PHASES + 2] = { 0 };
	struct rusage usage;
	int output, status;

	copy_image();
	double t0 = bench_now_ns();
	pid_t pid = start_repair(stride, &output);
	follow_output(output, start_ns);
	if (wait4(pid, &status, 0, &usage) != pid)
		die("wait4", repair);
	double t1 = bench_now_ns();
	unlink(fresh);
	r->wall_ms = (t1 - t0) / 1e6;
	r->user_ms = timeval_ms(usage.ru_utime);
	r->sys_ms = timeval_ms(usage.ru_stime);
	phase_times(start_ns, t1, r);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "xfs_repair_bench: ag_stride=%d: xfs_repair exited with status 0x%x\n",
		stride, status);
	return -1;
}

static void
report_run(int stride, const struct repair_run *r)
{
	char suffix[24], metric[64];

	if (stride < 0)
		snprintf(suffix, sizeof(suffix), "stride_m%d", -stride);
	else
		snprintf(suffix, sizeof(suffix), "stride%d", stride);
	bench_metric_name(metric, sizeof(metric), "wall_ms_%s", suffix);
	bench_result(metric, r->wall_ms, "ms");
	bench_metric_name(metric, sizeof(metric), "user_ms_%s", suffix);
	bench_result(metric, r->user_ms, "ms");
	bench_metric_name(metric, sizeof(metric), "sys_ms_%s", suffix);
	bench_result(metric, r->sys_ms, "ms");
	for (int n = 1; n <= PHASES; n++) {
		bench_metric_name(metric, sizeof(metric), "phase%d_ms_%s", n, suffix);
		bench_result(metric, r->phase_ms[n], "ms");
	}
}

static const struct bench_help help = {
	.name = "xfs_repair_bench",
	.about =
		"Debian's xfs_repair -f -vv -o ag_stride=S on a fresh copy of an XFS image (seed 002):\n"
		"wall, user and system ms and each phase's ms, per stride.",
	.synopsis = "[-s STRIDE,...] [-i PRISTINE] [-o SCRATCH] [-x XFS_REPAIR]",
	.options =
		"  -s STRIDE,...  ag_stride values, -1 or from 1, at most 8 (default -1,4)\n"
		"  -i PRISTINE    the image to copy (default /xfs/pristine.img; tools/xfs-image)\n"
		"  -o SCRATCH     the copy xfs_repair repairs (default /xfs/repair.img)\n"
		"  -x XFS_REPAIR  the program (default /bin/xfs_repair)\n",
	.exits =
		"  0  the figures were printed\n"
		"  1  a copy failed or an xfs_repair run did not exit 0 (its output is in '#' lines)\n"
		"  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	int failed = 0;

	bench_init_opts(argc, argv, &help, "s:i:o:x:", parse_option);
	for (int rep = 0; rep < bench_repeats(1); rep++)
		for (int i = 0; i < nstrides; i++) {
			struct repair_run r;
			if (run_repair(strides[i], &r) == 0)
				report_run(strides[i], &r);
			else
				failed = 1;
		}
	return failed;
}

/*
 * fsmark_lite.c - the workload of docs/seeds.md's seed 000: fs_mark 3.3 run as
 * `fs_mark -S0 -s 0 -d DIR ...`, reduced to what made it sensitive to the
 * vsyscall page: many small file creations, each bracketed by gettimeofday
 * calls.
 *
 * Per file, as fs_mark does it: gettimeofday for the file's name, mkdir of
 * the target directory (EEXIST after the first), then gettimeofday pairs
 * around open(O_CREAT|O_RDWR|O_TRUNC), around one zero-length write() and
 * around close(): 7 gettimeofday calls per file. One process per
 * directory (-d N processes), -n files each.
 *
 * gettimeofday takes one of three routes: the vDSO (a modern libc), the
 * vsyscall page (an old static glibc: seed 000's case) or the raw system
 * call. On rewind every (route, vsyscall mode) pair is run, interleaved and
 * repeated; with the vsyscall route each mode that emulates or executes the
 * page is a variant. Figures per variant: files/s, and user and system CPU
 * microseconds per file from the children's rusage. The CPU-time method in
 * force (cputime=tsc exact, or tick sampled as Linux 3.0 did) is in the
 * variant; run under both to see how the seed's "user time went up" depends
 * on how time is charged. The files are removed after each run, untimed, so
 * that ramfs holds only one run's files.
 */
#include "lib/bench.h"
#include "lib/clock_routes.h"
#include "lib/procfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOP_DIR	  "/tmp/fsmark_lite"
#define MAX_PROCS 32

static int nprocs = 2;
static int files_per_proc;

static const char *const emulating_modes[] = { "legacy", "trap", "trap-sysret", "emulate" };

static int
parse_option(int c, const char *arg)
{
	if (c == 'd')
		nprocs = atoi(arg);
	else if (c == 'n')
		files_per_proc = atoi(arg);
	return c == 'd' ? !(nprocs >= 1 && nprocs <= MAX_PROCS) : !(files_per_proc >= 1);
}

static void
child_fail(const char *what, const char *path)
{
	fprintf(stderr, "fsmark_lite: %s %s: %s\n", what, path, strerror(errno));
	_exit(1);
}

/* One fs_mark thread: creates files_per_proc empty files in its directory. */
static void
child_run(int id, gettimeofday_fn gtod)
{
	char dir[64], path[128];
	struct timeval start, stop, name_time;

	snprintf(dir, sizeof(dir), "%s/%02d", TOP_DIR, id);
	for (int i = 0; i < files_per_proc; i++) {
		gtod(&name_time, NULL);
		snprintf(path, sizeof(path), "%s/%08lx%05lx%06x", dir,
			 (unsigned long)name_time.tv_sec, (unsigned long)name_time.tv_usec,
			 (unsigned)i);
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			child_fail("mkdir", dir);

		gtod(&start, NULL);
		int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
		gtod(&stop, NULL);
		if (fd < 0)
			child_fail("open", path);

		gtod(&start, NULL);
		if (write(fd, path, 0) != 0)
			child_fail("write", path);
		gtod(&stop, NULL);

		gtod(&start, NULL);
		if (close(fd) != 0)
			child_fail("close", path);
		gtod(&stop, NULL);
	}
	_exit(0);
}

static void
remove_files(void)
{
	char dir[64], path[384];

	for (int id = 0; id < nprocs; id++) {
		snprintf(dir, sizeof(dir), "%s/%02d", TOP_DIR, id);
		DIR *d = opendir(dir);
		struct dirent *e;
		if (!d)
			continue;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
				unlink(path);
			}
		closedir(d);
		rmdir(dir);
	}
}

static double
timeval_us(struct timeval tv)
{
	return tv.tv_sec * 1e6 + tv.tv_usec;
}

/* One run of every process; prints its figures under metric suffix name. Returns 0 if all went well. */
static int
run_variant(gettimeofday_fn gtod, const char *name)
{
	struct rusage before, after;
	pid_t pids[MAX_PROCS];
	int failed = 0, started;
	char metric[96];

	getrusage(RUSAGE_CHILDREN, &before);
	double t0 = bench_now_ns();
	for (started = 0; started < nprocs; started++) {
		pids[started] = fork();
		if (pids[started] == 0)
			child_run(started, gtod);
		if (pids[started] < 0) {
			perror("fsmark_lite: fork");
			failed = 1;
			break;
		}
	}
	for (int id = 0; id < started; id++) {
		int status;
		if (waitpid(pids[id], &status, 0) != pids[id] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			printf("# %s: process %d failed (status %#x)\n", name, id, status);
			failed = 1;
		}
	}
	double wall_s = (bench_now_ns() - t0) / 1e9;
	getrusage(RUSAGE_CHILDREN, &after);
	remove_files();
	if (failed)
		return -1;

	double files = (double)nprocs * files_per_proc;
	bench_metric_name(metric, sizeof(metric), "files_per_s_%s", name);
	bench_result(metric, files / wall_s, "files/s");
	bench_metric_name(metric, sizeof(metric), "user_us_per_file_%s", name);
	bench_result(metric, (timeval_us(after.ru_utime) - timeval_us(before.ru_utime)) / files,
		     "us");
	bench_metric_name(metric, sizeof(metric), "sys_us_per_file_%s", name);
	bench_result(metric, (timeval_us(after.ru_stime) - timeval_us(before.ru_stime)) / files,
		     "us");
	return 0;
}

/* The vsyscall route under each mode this kernel has (rewind), or the one it runs in (Linux). */
static void
run_vsyscall_modes(gettimeofday_fn gtod)
{
	char name[64];

	if (!bench_on_rewind()) {
		snprintf(name, sizeof(name), "vsyscall_%s", vsyscall_mode_now());
		run_variant(gtod, name);
		return;
	}
	for (size_t i = 0; i < sizeof(emulating_modes) / sizeof(emulating_modes[0]); i++) {
		if (bench_set_knob("vsyscall", emulating_modes[i]) != 0)
			continue;
		snprintf(name, sizeof(name), "vsyscall_%s", emulating_modes[i]);
		run_variant(gtod, name);
	}
}

static const struct bench_help help = {
	.name = "fsmark_lite",
	.about =
		"fs_mark -S0 -s 0 (seed 000): empty files created, 7 gettimeofday calls each, under\n"
		"every clock route and vsyscall= mode: files/s, and user and system CPU us per file.",
	.synopsis = "[-d PROCESSES] [-n FILES]",
	.options =
		"  -d PROCESSES  processes, one directory each (1 to 32; default 2)\n"
		"  -n FILES      files per process (default 4000, 200 with -q)\n",
	.exits =
		"  0  the figures were printed\n"
		"  1  the top directory could not be made (a failed run is a '#' line, not a status)\n"
		"  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	char mode_at_start[64] = "";

	bench_init_opts(argc, argv, &help, "d:n:", parse_option);
	if (!files_per_proc)
		files_per_proc = bench_quick() ? 200 : 4000;
	int repeats = bench_repeats(bench_quick() ? 1 : 3);
	if (mkdir(TOP_DIR, 0755) != 0 && errno != EEXIST) {
		perror("fsmark_lite: mkdir " TOP_DIR);
		return 1;
	}
	printf("# %d processes x %d files, 7 gettimeofday calls per file\n", nprocs,
	       files_per_proc);
	knob_read("vsyscall", mode_at_start, sizeof(mode_at_start));
	for (int rep = 0; rep < repeats; rep++) {
		printf("# repeat %d of %d\n", rep + 1, repeats);
		for (enum clock_route r = 0; r < NROUTES; r++) {
			gettimeofday_fn gtod = clock_routes_get(r).gettimeofday;
			if (!gtod)
				printf("# no %s route here: skipped\n", clock_route_name(r));
			else if (r == ROUTE_VSYSCALL)
				run_vsyscall_modes(gtod);
			else
				run_variant(gtod, clock_route_name(r));
		}
	}
	if (mode_at_start[0])
		bench_set_knob("vsyscall", mode_at_start);
	rmdir(TOP_DIR);
	return 0;
}

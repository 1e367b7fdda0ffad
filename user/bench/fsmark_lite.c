/*
 * fsmark_lite.c - the workload of docs/seeds.md's seed 000, fs_mark 3.3 in
 * the seed's shape (`fs_mark -D 10000 -S0 -n 100000 -s 0 -L 63 -d DIR0 ...
 * -d DIR7`), written anew with fs_mark's per-file work, so that the user
 * CPU time the vsyscall page adds is set beside the user time fs_mark
 * itself spends, as in the seed.
 *
 * Its options are fs_mark's, defaulting to the seed's run (-n and -L scaled):
 *   -T threads  processes in all, spread over the directories (fs_mark's -t:
 *               here -t is every benchmark's seconds option); 8
 *   -d dirs     top directories, one thread each when -T is -d; 8
 *   -D subdirs  subdirectories of each, one picked by the clock and kept for
 *               180 s, as fs_mark's -D without -N; 10000
 *   -n files    per thread per loop; 1000 (-q: 100), the seed's 100000 / 100
 *   -s bytes    per file, in write()s of 16 KiB (0: one empty write); 0
 *   -L loops    each forks the threads anew; files stay across loops, so the
 *               directories grow as the seed's did; 1, the seed's 63 / 63
 * and no sync (-S0). The seed made 50.4 million files in 8 minutes on 8
 * CPUs; under TCG one loop of its 8 x 100000 did not end in 10 minutes, so
 * the defaults make 1/6300 of its files, and the figures are per file
 * (docs/regressions/vsyscall.md). Per file, as fs_mark does it:
 * gettimeofday for the name, 16 characters of the seconds in hex padded
 * with '~' and 24 random ones from random() ([0-9A-Z], rejection-sampled),
 * mkdir of the subdirectory (EEXIST after the first), then gettimeofday
 * pairs around open(O_CREAT|O_RDWR|O_TRUNC), around each write() and
 * around close(): 7 gettimeofday calls per empty file.
 *
 * gettimeofday takes one of three routes: the vDSO (a modern libc), the
 * vsyscall page (a 2011 static glibc: seed 000's case) or the raw system
 * call. On rewind every (route, vsyscall mode) pair is run, interleaved and
 * repeated; with the vsyscall route each mode that emulates or executes the
 * page is a variant. Figures per variant: files/s over the loops, and user
 * and system CPU microseconds per file from the threads' rusage. The
 * CPU-time method in force (cputime=tsc exact, or tick sampled as Linux 3.0
 * did) is in the variant; run under both to see how the seed's "user time
 * went up" depends on how time is charged. The files are removed after each
 * variant, untimed, so that the RAM file system holds only one run's files.
 */
#include "lib/bench.h"
#include "lib/clock_routes.h"
#include "lib/procfile.h"

#include <ctype.h>
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

#define TOP_DIR		"/tmp/fsmark_lite"
#define MAX_THREADS	64  /* fs_mark's limit */
#define SECS_PER_SUBDIR 180 /* fs_mark's time-hashed subdirectory policy */
#define IO_SIZE		(16 * 1024)
#define SEQ_CHARS	16 /* a name: the clock, then random characters */
#define RANDOM_CHARS	24

static int nthreads, ndirs = 8, nsubdirs = 10000, files_per_thread, file_size, loops = 1;
static char io_buffer[IO_SIZE];

static const char *const emulating_modes[] = { "legacy", "trap", "trap-sysret", "emulate" };

static int
parse_option(int c, const char *arg)
{
	int v = atoi(arg);

	switch (c) {
	case 'T':
		nthreads = v;
		return !(v >= 1 && v <= MAX_THREADS);
	case 'd':
		ndirs = v;
		return !(v >= 1 && v <= MAX_THREADS);
	case 'D':
		nsubdirs = v;
		return !(v >= 1 && v <= 1 << 20);
	case 'n':
		files_per_thread = v;
		return !(v >= 1);
	case 's':
		file_size = v;
		return !(v >= 0);
	default:
		loops = v;
		return !(v >= 1);
	}
}

static void
thread_fail(const char *what, const char *path)
{
	fprintf(stderr, "fsmark_lite: %s %s: %s\n", what, path, strerror(errno));
	_exit(1);
}

/* One thread's place: its directory, and the subdirectory the clock picked for now. */
struct thread_state {
	char dir[64];
	long subdir;
	long subdir_since;
};

static long
current_subdir(struct thread_state *t, long sec)
{
	if (sec - t->subdir_since > SECS_PER_SUBDIR) {
		t->subdir = (t->subdir + 1) % nsubdirs;
		t->subdir_since = sec;
	}
	return t->subdir;
}

/* A name as fs_mark makes one: the seconds in hex, '~' padding, random [0-9A-Z]. */
static void
make_name(char *name, long sec)
{
	int n = snprintf(name, SEQ_CHARS + 1, "%lx", sec);

	memset(name + n, '~', (size_t)(SEQ_CHARS - n));
	for (int i = SEQ_CHARS; i < SEQ_CHARS + RANDOM_CHARS; i++) {
		char c;
		do
			c = (char)('0' + (random() & 0x7f));
		while (!isupper((unsigned char)c) && !isdigit((unsigned char)c));
		name[i] = c;
	}
	name[SEQ_CHARS + RANDOM_CHARS] = '\0';
}

/* The writes of one file, each timed as fs_mark times them; an empty file gets one empty write. */
static void
write_file(int fd, gettimeofday_fn gtod, const char *path)
{
	struct timeval start, stop;
	int left = file_size;

	do {
		int chunk = left < IO_SIZE ? left : IO_SIZE;
		gtod(&start, NULL);
		if (write(fd, io_buffer, (size_t)chunk) != chunk)
			thread_fail("write", path);
		gtod(&stop, NULL);
		left -= chunk;
	} while (left > 0);
}

static int
writes_per_file(void)
{
	return file_size > 0 ? (file_size + IO_SIZE - 1) / IO_SIZE : 1;
}

/* One fs_mark thread for one loop: files_per_thread files under its directory. */
static void
thread_run(int id, gettimeofday_fn gtod)
{
	struct thread_state t;
	struct timeval now, start, stop;
	char subdir[96], name[SEQ_CHARS + RANDOM_CHARS + 1], path[160];

	snprintf(t.dir, sizeof(t.dir), "%s/%02d", TOP_DIR, id % ndirs);
	gtod(&now, NULL);
	srandom((unsigned)now.tv_usec);
	t.subdir = now.tv_sec % nsubdirs; /* short runs do not all start in subdirectory 0 */
	t.subdir_since = now.tv_sec;
	if (mkdir(t.dir, 0755) != 0 && errno != EEXIST)
		thread_fail("mkdir", t.dir);

	for (int i = 0; i < files_per_thread; i++) {
		gtod(&now, NULL);
		snprintf(subdir, sizeof(subdir), "%s/%02lx", t.dir, current_subdir(&t, now.tv_sec));
		if (mkdir(subdir, 0755) != 0 && errno != EEXIST)
			thread_fail("mkdir", subdir);
		make_name(name, now.tv_sec);
		snprintf(path, sizeof(path), "%s/%s", subdir, name);

		gtod(&start, NULL);
		int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
		gtod(&stop, NULL);
		if (fd < 0)
			thread_fail("open", path);

		write_file(fd, gtod, path);

		gtod(&start, NULL);
		if (close(fd) != 0)
			thread_fail("close", path);
		gtod(&stop, NULL);
	}
	_exit(0);
}

/* Removes path and, if it is a directory, everything under it. */
static void
remove_tree(const char *path)
{
	char child[384];
	DIR *d;
	struct dirent *e;

	if (unlink(path) == 0 || !(d = opendir(path)))
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
			remove_tree(child);
		}
	closedir(d);
	rmdir(path);
}

/* One loop: every thread forked, then waited for. Returns 0 if all went well. */
static int
run_loop(gettimeofday_fn gtod, const char *name)
{
	pid_t pids[MAX_THREADS];
	int failed = 0, started;

	for (started = 0; started < nthreads; started++) {
		pids[started] = fork();
		if (pids[started] == 0)
			thread_run(started, gtod);
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
			printf("# %s: thread %d failed (status %#x)\n", name, id, status);
			failed = 1;
		}
	}
	return failed ? -1 : 0;
}

static double
timeval_us(struct timeval tv)
{
	return tv.tv_sec * 1e6 + tv.tv_usec;
}

/* Every loop of one variant; prints its figures under metric suffix name. */
static void
run_variant(gettimeofday_fn gtod, const char *name)
{
	struct rusage before, after;
	char metric[96];
	int failed = 0;

	getrusage(RUSAGE_CHILDREN, &before);
	double t0 = bench_now_ns();
	for (int loop = 0; loop < loops && !failed; loop++)
		failed = run_loop(gtod, name);
	double wall_s = (bench_now_ns() - t0) / 1e9;
	getrusage(RUSAGE_CHILDREN, &after);
	for (int dir = 0; dir < ndirs; dir++) {
		char path[64];
		snprintf(path, sizeof(path), "%s/%02d", TOP_DIR, dir);
		remove_tree(path);
	}
	if (failed)
		return;

	double files = (double)nthreads * files_per_thread * loops;
	bench_metric_name(metric, sizeof(metric), "files_per_s_%s", name);
	bench_result(metric, files / wall_s, "files/s");
	bench_metric_name(metric, sizeof(metric), "user_us_per_file_%s", name);
	bench_result(metric, (timeval_us(after.ru_utime) - timeval_us(before.ru_utime)) / files,
		     "us");
	bench_metric_name(metric, sizeof(metric), "sys_us_per_file_%s", name);
	bench_result(metric, (timeval_us(after.ru_stime) - timeval_us(before.ru_stime)) / files,
		     "us");
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
		"fs_mark 3.3 in seed 000's shape (-S0 -s 0 -D 10000, 8 threads over 8 directories;\n"
		"-n and -L scaled): empty files created with fs_mark's per-file work (7 gettimeofday\n"
		"calls each), under every clock route and vsyscall= mode: files/s, and user and\n"
		"system CPU us per file.",
	.synopsis = "[-T THREADS] [-d DIRS] [-D SUBDIRS] [-n FILES] [-s BYTES] [-L LOOPS]",
	.options =
		"  -T THREADS  processes in all, spread over the directories (fs_mark's -t; a\n"
		"              multiple of -d; 1 to 64; default: -d's value)\n"
		"  -d DIRS     top directories (1 to 64; default 8)\n"
		"  -D SUBDIRS  subdirectories of each, one picked by the clock (default 10000)\n"
		"  -n FILES    files per thread per loop (default 1000, 100 with -q)\n"
		"  -s BYTES    bytes per file (default 0)\n"
		"  -L LOOPS    loops, the files kept across them (default 1)\n",
	.exits =
		"  0  the figures were printed\n"
		"  1  the top directory could not be made (a failed run is a '#' line, not a status)\n"
		"  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	char mode_at_start[64] = "";

	bench_init_opts(argc, argv, &help, "T:d:D:n:s:L:", parse_option);
	if (!nthreads)
		nthreads = ndirs;
	if (nthreads % ndirs != 0) {
		fprintf(stderr, "fsmark_lite: -T %d is not a multiple of -d %d (as fs_mark)\n",
			nthreads, ndirs);
		return 2;
	}
	if (!files_per_thread)
		files_per_thread = bench_quick() ? 100 : 1000;
	int repeats = bench_repeats(bench_quick() ? 1 : 3);
	if (mkdir(TOP_DIR, 0755) != 0 && errno != EEXIST) {
		perror("fsmark_lite: mkdir " TOP_DIR);
		return 1;
	}
	printf("# fs_mark -S0 -s %d -n %d -L %d -D %d, %d threads over %d directories: "
	       "%d gettimeofday calls per file\n",
	       file_size, files_per_thread, loops, nsubdirs, nthreads, ndirs,
	       5 + 2 * writes_per_file());
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

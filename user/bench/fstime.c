/*
 * fstime.c - UnixBench's file-system throughput test (src/fstime.c: write,
 * read and copy), the benchmark of docs/seeds.md's seed 004, written anew
 * with the same semantics, plus a read-back variant and rewind's
 * copy_nocache policies switched within one run.
 *
 * As UnixBench's: a file of max_blocks KiB is written (or read) bufsize
 * bytes at a time from a static buffer, with an lseek to 0 at the end of
 * every pass, until alarm(t) sets a flag; a call cut short by the alarm
 * earns partial credit in 256-byte units (COUNTSIZE), and the score is
 * counted units / (elapsed s x 4), which UnixBench prints as KBps (its K is
 * 1024 bytes). Before each test: fsync, sleep, fsync, sleep (2 s each in
 * UnixBench; -s). The read test first writes for 2 s to make the file, the
 * copy test writes and reads for 2 s each to calibrate the partial credit of
 * a cut-short copy (read f, write g). The file never grows past max_blocks
 * KiB, so after the first pass every write() lands on a page already cached:
 * pure copy and dirtying, the path that the non-temporal copy (Linux 2.6.29)
 * slowed down.
 *
 *   -R  read-back: each block is written, then read back at once (pread
 *       of the same bytes), where the lines a non-temporal copy evicted
 *       must come back from memory; scored as the write test
 *
 * The defaults are seed 004's run, not UnixBench 5.1's (-c -b 1024 -m 2000):
 * the write test only, 10 s, and passes of 2000 writes of 256 bytes (the
 * seed's "MAX_BLOCK of 2000"), a 500 KiB file. 5.1 counts max_blocks in KiB
 * (max_buffs = max_blocks x 1024 / bufsize), so that shape is -b 256 -m 500,
 * the sizes of its Run script's "fsbuffer"; -b 256 -m 2000 would be passes
 * of 8000 writes over a 2000 KiB file.
 *
 * Ours: -P p1,p2... runs the test once per copy_nocache policy, interleaved
 * within each of -n repeats (metrics suffixed _<policy>; on Linux, whose
 * write path copies cached, once, suffixed _linux); -L counts the lock
 * acquisitions of one write() with lockstat (rewind only); -q is -t 1 -s 0.
 *
 * Metrics: <test>_kbps_b<bufsize>[_<policy>] in KBps, test = write, read,
 * copy or readback; locks_per_write_<class>_b<bufsize>.
 */
#define _GNU_SOURCE
#include "lib/bench.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_BUFSIZE  8192
#define COUNTSIZE    256 /* the unit of credit */
#define HALFCOUNT    (COUNTSIZE / 2)
#define COUNT_PER_K  (1024 / COUNTSIZE)
#define MAX_POLICIES 8

static char buf[MAX_BUFSIZE], back[MAX_BUFSIZE]; /* static, as UnixBench's (see there) */
static int bufsize = 256, max_blocks = 500, max_buffs, count_per_buf; /* seed 004 */
static int seconds = 10, settle = 2;
static int f = -1, g = -1;
static char fname0[32], fname1[32];
static volatile sig_atomic_t sigalarm;
static long read_score = 1, write_score = 1; /* the copy test's calibration */

static void
stop_count(int sig __attribute__((unused)))
{
	sigalarm = 1;
}

static double
now_s(void)
{
	struct timeval t;

	gettimeofday(&t, NULL);
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static void
settle_down(void)
{
	fsync(f);
	fsync(g);
	sleep((unsigned)settle);
	fsync(f);
	fsync(g);
	sleep((unsigned)settle);
}

static void
start_alarm(int secs)
{
	sigalarm = 0;
	signal(SIGALRM, stop_count); /* BSD semantics (SA_RESTART), as UnixBench's signal() */
	alarm((unsigned)secs);
}

static long
score(unsigned long counted, double elapsed)
{
	return (long)((double)counted / (elapsed * COUNT_PER_K));
}

/* Credit for a call cut short: rounded to 256-byte units. */
static unsigned long
partial(ssize_t got)
{
	return got > 0 ? ((unsigned long)got + HALFCOUNT) / COUNTSIZE : 0;
}

__attribute__((noreturn)) static void
die(const char *what)
{
	perror(what);
	unlink(fname0);
	unlink(fname1);
	exit(1);
}

/* UnixBench's w_test; with read_back, each block is read back right after it is written. */
static long
w_test(int secs, int read_back)
{
	unsigned long counted = 0;

	settle_down();
	start_alarm(secs);
	double start = now_s();
	while (!sigalarm) {
		for (long b = 0; b < max_buffs; b++) {
			ssize_t n = write(f, buf, (size_t)bufsize);
			if (n != bufsize) {
				if (errno != EINTR)
					die("fstime: write");
				sigalarm = 1;
				counted += partial(n);
				continue;
			}
			if (read_back && pread(f, back, (size_t)bufsize, b * bufsize) != bufsize)
				die("fstime: read back");
			counted += (unsigned long)count_per_buf;
		}
		lseek(f, 0, SEEK_SET);
	}
	double elapsed = now_s() - start;
	write_score = score(counted, elapsed);
	fprintf(stderr, "COUNT|%ld|0|KBps\nTIME|%.1f\n", write_score, elapsed);
	return write_score;
}

static long
r_test(int secs)
{
	unsigned long counted = 0;

	settle_down();
	errno = 0;
	lseek(f, 0, SEEK_SET);
	start_alarm(secs);
	double start = now_s();
	while (!sigalarm) {
		ssize_t n = read(f, buf, (size_t)bufsize);
		if (n == bufsize) {
			counted += (unsigned long)count_per_buf;
		} else if (errno == 0 || errno == EINVAL) {
			lseek(f, 0, SEEK_SET); /* the end of the file */
			counted += partial(n);
		} else if (errno == EINTR) {
			sigalarm = 1;
			counted += partial(n);
		} else {
			die("fstime: read");
		}
	}
	double elapsed = now_s() - start;
	read_score = score(counted, elapsed);
	fprintf(stderr, "COUNT|%ld|0|KBps\nTIME|%.1f\n", read_score, elapsed);
	return read_score;
}

/* Credit for a copy cut short: the bytes written, plus the read-only part at the write share. */
static unsigned long
copy_partial(ssize_t written, ssize_t unwritten)
{
	long part = (long)unwritten * write_score / (read_score + write_score);

	return ((unsigned long)(written + part) + HALFCOUNT) / COUNTSIZE;
}

static long
c_test(int secs)
{
	unsigned long counted = 0;

	settle_down();
	errno = 0;
	lseek(f, 0, SEEK_SET);
	start_alarm(secs);
	double start = now_s();
	while (!sigalarm) {
		ssize_t n = read(f, buf, (size_t)bufsize);
		if (n != bufsize) {
			if (errno == 0 || errno == EINVAL) {
				lseek(f, 0, SEEK_SET);
				lseek(g, 0, SEEK_SET);
			} else if (errno == EINTR) {
				counted += copy_partial(0, n > 0 ? n : 0);
				sigalarm = 1;
			} else {
				die("fstime: copy read");
			}
			continue;
		}
		ssize_t w = write(g, buf, (size_t)bufsize);
		if (w == bufsize) {
			counted += (unsigned long)count_per_buf;
		} else if (errno == EINTR) {
			w = w > 0 ? w : 0;
			counted += copy_partial(w, bufsize - w);
			sigalarm = 1;
		} else {
			die("fstime: copy write");
		}
	}
	double elapsed = now_s() - start;
	long copy_score = score(counted, elapsed);
	fprintf(stderr, "COUNT|%ld|0|KBps\nTIME|%.1f\n", copy_score, elapsed);
	return copy_score;
}

/* One test as UnixBench runs it, calibration passes included: KiB/s. */
static long
run_test(char test)
{
	switch (test) {
	case 'w':
		return w_test(seconds, 0);
	case 'R':
		return w_test(seconds, 1);
	case 'r':
		w_test(2, 0);
		return r_test(seconds);
	default:
		w_test(2, 0);
		r_test(2);
		return c_test(seconds);
	}
}

static const char *
test_name(char test)
{
	return test == 'w' ? "write" : test == 'R' ? "readback" : test == 'r' ? "read" : "copy";
}

/*
 * The locks one write() takes, from lockstat: acquisitions per class over
 * a pass of max_buffs writes (lockstat counts the whole machine; the
 * figures are averages, and the idle rest adds next to nothing).
 */
static void
count_locks(void)
{
	static const char *const classes[] = { "files", "file_pos", "inode", "inode_pages" };
	unsigned long long n[4];

	if (bench_set_knob("lockstat", "1") != 0) {
		printf("# -L: no lockstat here (it is rewind's): no lock counts\n");
		return;
	}
	lseek(f, 0, SEEK_SET);
	for (long b = 0; b < max_buffs; b++) /* the file exists: the timed case */
		if (write(f, buf, (size_t)bufsize) != bufsize)
			die("fstime: write");
	lseek(f, 0, SEEK_SET);
	if (proc_lockstat_reset() != 0)
		die("fstime: /proc/lockstat");
	for (long b = 0; b < max_buffs; b++)
		if (write(f, buf, (size_t)bufsize) != bufsize)
			die("fstime: write");
	for (int c = 0; c < 4; c++)
		if (proc_lockstat_acquisitions(classes[c], &n[c]) != 0)
			die("fstime: /proc/lockstat");
	bench_set_knob("lockstat", "0");
	for (int c = 0; c < 4; c++) {
		char metric[64];
		bench_metric_name(metric, sizeof(metric), "locks_per_write_%s_b%d", classes[c],
				  bufsize);
		bench_result(metric, (double)n[c] / (double)max_buffs, "locks");
	}
}

static void
open_files(void)
{
	int pid = getpid();

	snprintf(fname0, sizeof(fname0), "dummy0-%d", pid);
	snprintf(fname1, sizeof(fname1), "dummy1-%d", pid);
	f = open(fname0, O_CREAT | O_TRUNC | O_RDWR, 0600);
	g = open(fname1, O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (f < 0 || g < 0)
		die("fstime: open");
}

static const struct bench_help help = {
	.name = "fstime",
	.about =
		"UnixBench 5.1's fstime (seed 004): a file of MAX_BLOCKS KiB written, read or copied\n"
		"BUFSIZE bytes at a time for SECONDS; KBps, per copy_nocache= policy with -P. The\n"
		"defaults are seed 004's run: passes of 2000 writes of 256 B (-w -b 256 -m 500).",
	.synopsis =
		"[-c|-r|-w|-R] [-b BUFSIZE] [-m MAX_BLOCKS] [-t SECONDS] [-d DIR] [-s SETTLE]\n"
		"              [-P POLICY,...] [-n REPEATS] [-L] [-q]",
	.options =
		"  -c, -r, -w     the copy, read or write (default) test\n"
		"  -R             write each block, then read it back at once\n"
		"  -b BUFSIZE     bytes per call, 256 to 8192 (default 256)\n"
		"  -m MAX_BLOCKS  file size in KiB, 1 to 1048576 (default 500)\n"
		"  -t SECONDS     seconds per test, 1 to 3600 (default 10)\n"
		"  -d DIR         where the files go (default: the current directory)\n"
		"  -s SETTLE      seconds of each sleep between the fsyncs before a test (default 2)\n"
		"  -P POLICY,...  copy_nocache= policies (never, large, always), one run each,\n"
		"                 interleaved within each repeat (rewind only)\n"
		"  -n REPEATS     repeats of the whole set (default 1)\n"
		"  -L             count the locks one write() takes (lockstat; rewind only)\n"
		"  -q             quick: -t 1 -s 0\n",
	.exits = "  0  the figures were printed\n"
		 "  1  a file could not be made, written or read\n"
		 "  2  bad usage, or a copy_nocache policy refused\n",
};

static __attribute__((noreturn)) void
usage(void)
{
	fprintf(stderr, "usage: fstime %s\n", help.synopsis);
	exit(2);
}

/* Splits "a,b,c" into at most MAX_POLICIES names, in place. */
static int
split_policies(char *list, const char **out)
{
	int n = 0;

	for (char *p = strtok(list, ","); p && n < MAX_POLICIES; p = strtok(NULL, ","))
		out[n++] = p;
	return n;
}

int
main(int argc, char **argv)
{
	const char *policies[MAX_POLICIES];
	int npolicies = 0, repeats = 1, locks = 0, c;
	char test = 'w', at_start[32] = "";

	bench_answer_help(argc, argv, &help, false);
	while ((c = getopt(argc, argv, "crwRb:m:t:d:s:P:n:Lq")) != -1) {
		switch (c) {
		case 'c':
		case 'r':
		case 'w':
		case 'R':
			test = (char)c;
			break;
		case 'b':
			bufsize = atoi(optarg);
			break;
		case 'm':
			max_blocks = atoi(optarg);
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		case 'd':
			if (chdir(optarg) < 0)
				die("fstime: chdir");
			break;
		case 's':
			settle = atoi(optarg);
			break;
		case 'P':
			npolicies = split_policies(optarg, policies);
			break;
		case 'n':
			repeats = atoi(optarg);
			break;
		case 'L':
			locks = 1;
			break;
		case 'q':
			seconds = 1;
			settle = 0;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || bufsize < COUNTSIZE || bufsize > MAX_BUFSIZE || max_blocks < 1 ||
	    max_blocks > 1024 * 1024 || seconds < 1 || seconds > 3600 || settle < 0 || repeats < 1)
		usage();
	max_buffs = max_blocks * 1024 / bufsize;
	count_per_buf = bufsize / COUNTSIZE;
	for (int i = 0; i < bufsize; i++)
		buf[i] = (char)(i & 0xff);

	bench_init(1, argv, &help);
	printf("# fstime -%c: %d-byte blocks, %d KiB file (%d blocks a pass), %d s per test\n",
	       test, bufsize, max_blocks, max_buffs, seconds);
	open_files();
	if (locks)
		count_locks();
	int rewind = bench_on_rewind();
	if (rewind && npolicies)
		knob_read("copy_nocache", at_start, sizeof(at_start));
	if (!rewind || !npolicies) {
		npolicies = 1;
		policies[0] = rewind ? NULL : "linux";
	}
	for (int r = 0; r < repeats; r++)
		for (int p = 0; p < npolicies; p++) {
			char metric[64];
			if (rewind && policies[p] &&
			    bench_set_knob("copy_nocache", policies[p]) != 0) {
				fprintf(stderr, "fstime: copy_nocache=%s refused\n", policies[p]);
				exit(2);
			}
			long kbps = run_test(test);
			if (policies[p])
				bench_metric_name(metric, sizeof(metric), "%s_kbps_b%d_%s",
						  test_name(test), bufsize, policies[p]);
			else
				bench_metric_name(metric, sizeof(metric), "%s_kbps_b%d",
						  test_name(test), bufsize);
			bench_result(metric, (double)kbps, "KBps");
		}
	if (at_start[0])
		bench_set_knob("copy_nocache", at_start);
	unlink(fname0);
	unlink(fname1);
	return 0;
}

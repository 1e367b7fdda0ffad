/*
 * repair_storm.c - the shape of xfs_repair's phase 3 (docs/seeds.md, seed 002) behind the
 * mmap lock, under every rwsem_spin= policy, and a small readers-versus-
 * one-writer contention benchmark on the same lock.
 *
 * The storm: a fixed amount of work - N buffer regions - split over T
 * threads, as xfs_repair splits a filesystem's allocation groups (T = 1 is
 * the seed's ag_stride=-1). Each region is one buffer of the user-space
 * cache, made the way glibc's malloc grows a thread's arena:
 *
 *	mmap P pages PROT_NONE (a reservation)        mmap lock for writing
 *	every 8th region: brk up by 64 KiB, touch it,
 *	  brk back down (the main heap growing)       writing
 *	per chunk of C pages:
 *	  mprotect the chunk read-write              writing  (the seed's
 *	                                                      sys_mprotect)
 *	  fault each page in                         reading  (page faults)
 *	  wait for its direct I/O: D us              no lock, no CPU
 *	munmap                                       writing
 *
 * The I/O is served by a timer: the thread blocks in clock_nanosleep, so
 * its CPU is free for the other threads, as a thread waiting on a disk
 * leaves it. Per run (T, policy): wall time, user and system CPU (getrusage),
 * regions per second and I/Os dispatched per second, the mean time an I/O
 * wait of D us really took (a sleep ends on a timer interrupt, which a
 * loaded host delivers late: at T = 1 this is most of the wall time), and
 * from /proc/lockstat's rwsem table the policy's spin time and sleeps
 * during the run.
 *
 * T runs over 1, 2, 4 ... 4 x CPUs (quick: 1 and 4 x CPUs); the policies
 * are switched with bench_set_knob, interleaved within each repeat. Each
 * run is a child process forked after the switch: a lock's count layout
 * is fixed when it is made (locking/rwsem.c), so only an address space
 * made under `handoff` has 5.3's lock - one made before would run
 * reader-owned's code in its place - and a fresh address space also
 * starts every run from the same empty map. On Linux there is no knob:
 * every figure is suffixed _linux instead.
 *
 * The contention benchmark: R reader threads fault pages in and drop them
 * (madvise MADV_DONTNEED: both take the lock for reading) while one writer
 * mprotects a page of its own region back and forth (writing) and then
 * waits D us off the lock, as the storm's writers do; for a fixed time,
 * reader and writer operations per second per policy.
 *
 * -P runs only T = max under the policy in force (the one an experiment's
 * variant set), for a profiled step. -L switches lockstat=1 on for the run (it costs every lock operation a
 * little, so the timed figures are best taken without it).
 *
 * Metric names: wall_ms_t<T>_<policy> ... and wall_ms_tmax_<policy> for the
 * largest T, so that an experiment's ratio does not depend on the CPU count.
 */
#define _GNU_SOURCE
#include "lib/bench.h"
#include "lib/procfile.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE	    4096UL
#define MAX_THREADS 256
#define HEAP_STEP   (64 * 1024UL)

static const char *const policies[] = {
	"off", "osq", "owner-null-fix", "deceive-fix", "reader-owned", "handoff",
};
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

static long regions = 2000; /* -n: regions in all, split over the threads */
static long pages = 16;	    /* -p: pages per region */
static long chunk = 4;	    /* -c: pages per mprotect + I/O */
static long io_us = 100;    /* -d: simulated direct I/O time */
static long max_threads;    /* -T: largest T (default 4 x CPUs) */
static long offset_us;	    /* -o: CPU burnt before each run's threads start */
static double rw_seconds = 0.5;
static int profiling;	  /* -P: the policy in force, T = max only (a profiled step) */
static int with_lockstat; /* -L: lockstat=1 for the figures from /proc/lockstat */

static void
die(const char *what)
{
	fprintf(stderr, "repair_storm: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
sleep_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* --- the heap: brk up and back down, one thread at a time ----------------- */

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Moves the break directly (musl's sbrk refuses increments). It goes back
 * down only if it is still where we put it, so that nothing another user
 * of brk took is ever given back.
 */
static void
grow_heap(void)
{
	pthread_mutex_lock(&heap_lock);
	char *base = (char *)syscall(SYS_brk, 0);
	char *top = (char *)syscall(SYS_brk, base + HEAP_STEP);
	if (top == base + HEAP_STEP) {
		for (unsigned long off = 0; off < HEAP_STEP; off += PAGE)
			base[off] = 1;
		if ((char *)syscall(SYS_brk, 0) == top)
			syscall(SYS_brk, base);
	}
	pthread_mutex_unlock(&heap_lock);
}

/* --- the storm ----------------------------------------------------------- */

struct storm {
	atomic_long next; /* the next region to make */
	atomic_long ios;
	atomic_long io_wait_ns; /* how long the I/O waits took, summed: asked D, got this */
};

static void
one_region(struct storm *s, long n)
{
	size_t len = pages * PAGE;
	char *r = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED)
		die("mmap");
	if (n % 8 == 0)
		grow_heap();
	for (long p = 0; p < pages; p += chunk) {
		long c = pages - p < chunk ? pages - p : chunk;
		if (mprotect(r + p * PAGE, c * PAGE, PROT_READ | PROT_WRITE) != 0)
			die("mprotect");
		for (long q = p; q < p + c; q++)
			((volatile char *)r)[q * PAGE] = (char)q;
		double t0 = bench_now_ns();
		sleep_us(io_us);
		atomic_fetch_add(&s->io_wait_ns, (long)(bench_now_ns() - t0));
		atomic_fetch_add(&s->ios, 1);
	}
	if (munmap(r, len) != 0)
		die("munmap");
}

static void *
storm_thread(void *arg)
{
	struct storm *s = arg;
	long n;

	while ((n = atomic_fetch_add(&s->next, 1)) < regions)
		one_region(s, n);
	return NULL;
}

/* This policy's row of /proc/lockstat's rwsem table: spin ns and sleeps. */
static int
rwsem_row(const char *policy, unsigned long long *spin_ns, unsigned long long *sleeps)
{
	static char text[65536]; /* the class table comes first */
	char name[32];
	unsigned long long won, failed;

	if (read_text_file("/proc/lockstat", text, sizeof(text)) < 0)
		return -1;
	const char *at = strstr(text, "\nrwsem_spin ");
	while (at && (at = strchr(at + 1, '\n'))) {
		if (sscanf(at + 1, "%31s %llu %llu %llu %llu", name, spin_ns, &won, &failed,
			   sleeps) == 5 &&
		    strcmp(name, policy) == 0)
			return 0;
	}
	return -1;
}

static double
cpu_ms(struct timeval tv)
{
	return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

/*
 * Runs fn(threads, policy, row) in a child forked now, with a mmap lock
 * made under the policy in force; the parent has no other thread, so the
 * child is a plain copy of it.
 */
static void
in_fresh_process(void (*fn)(long, const char *, const char *), long threads, const char *policy,
		 const char *lockstat_row)
{
	int status;

	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		fn(threads, policy, lockstat_row);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "repair_storm: the run T=%ld %s failed (status %#x)\n", threads,
			policy, status);
		exit(1);
	}
}

static void
result(const char *what, long threads, const char *policy, double value, const char *unit)
{
	char metric[96];

	bench_metric_name(metric, sizeof(metric), "%s_t%ld_%s", what, threads, policy);
	bench_result(metric, value, unit);
	if (threads == max_threads) {
		bench_metric_name(metric, sizeof(metric), "%s_tmax_%s", what, policy);
		bench_result(metric, value, unit);
	}
}

/*
 * -o: burns offset_us of CPU before the threads start, so that the run meets
 * the timer tick at another phase. On the icount ground whether a spinning
 * writer ever finds a reader stopped mid-fault on the other vCPU hinges on
 * where timer deadlines fall against the threads' work (docs/grounds.md):
 * a sweep of offsets samples that phase instead of trusting one.
 */
static void
start_late(void)
{
	double until = bench_now_ns() + offset_us * 1e3;

	while (bench_now_ns() < until)
		;
}

static void
storm(long threads, const char *policy, const char *lockstat_row)
{
	struct storm s = { 0 };
	pthread_t tid[MAX_THREADS];
	struct rusage r0, r1;
	unsigned long long spin0 = 0, sleeps0 = 0, spin1 = 0, sleeps1 = 0;
	int have_lockstat = lockstat_row && rwsem_row(lockstat_row, &spin0, &sleeps0) == 0;

	start_late();
	getrusage(RUSAGE_SELF, &r0);
	double t0 = bench_now_ns();
	for (long i = 0; i < threads; i++)
		if ((errno = pthread_create(&tid[i], NULL, storm_thread, &s)))
			die("pthread_create");
	for (long i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	double wall_s = (bench_now_ns() - t0) / 1e9;
	getrusage(RUSAGE_SELF, &r1);
	have_lockstat = have_lockstat && rwsem_row(lockstat_row, &spin1, &sleeps1) == 0;

	if (have_lockstat) { /* a run with lockstat on is not a timed one */
		result("spin_ms", threads, policy, (spin1 - spin0) / 1e6, "ms");
		result("sleeps", threads, policy, (double)(sleeps1 - sleeps0), "count");
		return;
	}
	result("wall_ms", threads, policy, wall_s * 1e3, "ms");
	result("user_ms", threads, policy, cpu_ms(r1.ru_utime) - cpu_ms(r0.ru_utime), "ms");
	result("sys_ms", threads, policy, cpu_ms(r1.ru_stime) - cpu_ms(r0.ru_stime), "ms");
	result("regions_per_s", threads, policy, regions / wall_s, "ops/s");
	result("ios_per_s", threads, policy, atomic_load(&s.ios) / wall_s, "ops/s");
	result("io_wait_us", threads, policy,
	       atomic_load(&s.io_wait_ns) / 1e3 / atomic_load(&s.ios), "us");
}

/* --- readers against one writer ----------------------------------------- */

struct rw {
	atomic_bool stop;
	atomic_long reads, writes;
};

static void *
reader(void *arg)
{
	struct rw *rw = arg;
	char *r = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED)
		die("mmap");
	while (!atomic_load(&rw->stop)) {
		for (int p = 0; p < 4; p++)
			((volatile char *)r)[p * PAGE] = 1;
		madvise(r, 4 * PAGE, MADV_DONTNEED);
		atomic_fetch_add(&rw->reads, 5);
	}
	munmap(r, 4 * PAGE);
	return NULL;
}

static void *
writer(void *arg)
{
	struct rw *rw = arg;
	char *r = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED)
		die("mmap");
	while (!atomic_load(&rw->stop)) {
		mprotect(r, PAGE, PROT_READ);
		mprotect(r, PAGE, PROT_READ | PROT_WRITE);
		atomic_fetch_add(&rw->writes, 2);
		sleep_us(io_us / 2);
	}
	munmap(r, 2 * PAGE);
	return NULL;
}

static void
contention(long readers, const char *policy, const char *lockstat_row)
{
	struct rw rw = { 0 };
	pthread_t tid[MAX_THREADS];
	char metric[96];

	(void)lockstat_row; /* this run reports throughput only */

	double t0 = bench_now_ns();
	for (long i = 0; i <= readers; i++)
		if ((errno = pthread_create(&tid[i], NULL, i ? reader : writer, &rw)))
			die("pthread_create");
	sleep_us((long)(rw_seconds * 1e6));
	atomic_store(&rw.stop, 1);
	for (long i = 0; i <= readers; i++)
		pthread_join(tid[i], NULL);
	double s = (bench_now_ns() - t0) / 1e9;
	bench_metric_name(metric, sizeof(metric), "rw_reads_per_s_%s", policy);
	bench_result(metric, atomic_load(&rw.reads) / s, "ops/s");
	bench_metric_name(metric, sizeof(metric), "rw_writes_per_s_%s", policy);
	bench_result(metric, atomic_load(&rw.writes) / s, "ops/s");
}

/* --- options and the plan ------------------------------------------------- */

static int
option(int c, const char *arg)
{
	long v = arg ? strtol(arg, NULL, 10) : 0;

	switch (c) {
	case 'n':
		regions = v;
		return v > 0 ? 0 : -1;
	case 'p':
		pages = v;
		return v > 0 && v <= 4096 ? 0 : -1;
	case 'c':
		chunk = v;
		return v > 0 ? 0 : -1;
	case 'd':
		io_us = v;
		return v >= 0 ? 0 : -1;
	case 'P':
		profiling = 1;
		return 0;
	case 'L':
		with_lockstat = 1;
		return 0;
	case 'o':
		offset_us = v;
		return v >= 0 ? 0 : -1;
	case 'T':
		max_threads = v;
		return v > 0 && v <= MAX_THREADS ? 0 : -1;
	}
	return -1;
}

static const struct bench_help help = {
	.name = "repair_storm",
	.about =
		"xfs_repair's phase 3 behind the mmap lock (seed 002), T threads under every\n"
		"rwsem_spin= policy: wall and CPU ms, regions/s, I/Os/s; and a readers-versus-writer\n"
		"contention run on the same lock.",
	.synopsis =
		"[-n REGIONS] [-p PAGES] [-c CHUNK] [-d IO_US] [-o OFFSET_US] [-T MAX_THREADS] "
		"[-L] [-P]",
	.options =
		"  -n REGIONS      buffer regions in all, split over the threads (default 2000; -q: 48)\n"
		"  -p PAGES        pages per region, 1 to 4096 (default 16)\n"
		"  -c CHUNK        pages per mprotect and simulated I/O (default 4)\n"
		"  -d IO_US        simulated direct I/O time in us (default 100)\n"
		"  -o OFFSET_US    CPU time burnt before each run's threads start (default 0)\n"
		"  -T MAX_THREADS  largest thread count, T = 1, 2, 4 ... up to it (default 4 x CPUs)\n"
		"  -L              lockstat=1, for spin and sleep figures from /proc/lockstat\n"
		"  -P              one run at the largest T under the policy in force (to profile)\n",
};

int
main(int argc, char **argv)
{
	char at_start[64] = "", lockstat_at_start[16] = "";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	bench_init_opts(argc, argv, &help, "n:p:c:d:o:T:LP", option);
	if (cpus < 1)
		cpus = 1;
	if (!max_threads)
		max_threads = 4 * cpus > MAX_THREADS - 1 ? MAX_THREADS - 1 : 4 * cpus;
	if (bench_quick()) {
		regions = regions < 48 ? regions : 48;
		rw_seconds = 0.05;
	}
	int repeats = bench_repeats(1);
	int rewind = bench_on_rewind();
	knob_read("rwsem_spin", at_start, sizeof(at_start));
	knob_read("lockstat", lockstat_at_start, sizeof(lockstat_at_start));
	if (with_lockstat && bench_set_knob("lockstat", "1") != 0) {
		printf("# lockstat=1 refused: no spin or sleep figures\n");
		with_lockstat = 0;
	}
	if (rewind && !with_lockstat)
		printf("# lockstat off: no spin or sleep figures (-L switches it on, at a cost)\n");
	printf("# %ld regions of %ld pages, mprotect and I/O per %ld pages, I/O %ld us; "
	       "T up to %ld on %ld CPUs\n",
	       regions, pages, chunk, io_us, max_threads, cpus);
	if (profiling) {
		in_fresh_process(storm, max_threads, rewind ? at_start : "linux",
				 with_lockstat ? at_start : NULL);
		return 0;
	}
	for (int rep = 0; rep < repeats; rep++) {
		printf("# repeat %d of %d\n", rep + 1, repeats);
		for (long t = 1;; t = 2 * t < max_threads ? 2 * t : max_threads) {
			if (bench_quick() && t != 1 && t != max_threads)
				continue;
			for (size_t p = 0; p < (rewind ? NPOLICIES : 1); p++) {
				if (rewind && bench_set_knob("rwsem_spin", policies[p]) != 0) {
					printf("# rwsem_spin=%s refused: skipped\n", policies[p]);
					continue;
				}
				in_fresh_process(storm, t, rewind ? policies[p] : "linux",
						 with_lockstat ? policies[p] : NULL);
			}
			if (t == max_threads)
				break;
		}
		for (size_t p = 0; p < (rewind ? NPOLICIES : 1); p++) {
			if (rewind && bench_set_knob("rwsem_spin", policies[p]) != 0)
				continue;
			in_fresh_process(contention, cpus > 1 ? 2 * cpus - 1 : 1,
					 rewind ? policies[p] : "linux", NULL);
		}
	}
	if (at_start[0] && bench_set_knob("rwsem_spin", at_start) != 0)
		printf("# could not restore rwsem_spin=%s\n", at_start);
	if (with_lockstat && lockstat_at_start[0])
		bench_set_knob("lockstat", lockstat_at_start);
	return 0;
}

/*
 * repair_storm.c - the shape of xfs_repair's phase 3 (docs/seeds.md, seed 002) behind the
 * mmap lock, under every rwsem_spin= policy, and a small readers-versus-
 * one-writer contention benchmark on the same lock.
 *
 * The storm: a fixed amount of work - N buffer regions - done by T
 * threads, in one of two shapes, as xfs_repair walks a filesystem's
 * allocation groups with several workers (ag_stride=N) or with one worker
 * and its prefetch threads (ag_stride=-1). Each thread takes its buffers
 * from an arena of its own, grown the way glibc grows a thread's arena:
 *
 *	at start: a 64 MiB reservation, PROT_NONE        mmap lock for writing
 *	per buffer of C pages past the arena's mark:
 *	  mprotect it read-write (grow_heap)           writing  (the seed's
 *	                                                        sys_mprotect)
 *	  its direct I/O: fault each page in           reading  (page faults)
 *	  and wait D us                                no lock, no CPU
 *	per region, once its I/O is in: read each page  no lock
 *	every 32nd region: free the newest 128 KiB,
 *	  madvise(MADV_DONTNEED) (shrink_heap)          reading
 *
 * Threaded: every thread makes whole regions. One worker: thread 0 makes
 * every region and hands each buffer to the T - 1 others, which do its
 * I/O (the prefetch threads); the same work and threads, one writer.
 *
 * The I/O is served by a timer: the thread blocks in clock_nanosleep, so
 * its CPU is free for the other threads, as a thread waiting on a disk
 * leaves it. Per run (T, shape, policy): wall time, user and system CPU
 * (getrusage), regions per second and I/Os dispatched per second, the
 * mean time an I/O wait of D us really took (a sleep ends on a timer
 * interrupt, which a loaded host delivers late), and from
 * /proc/lockstat's rwsem table the policy's spin time and sleeps during
 * the run.
 *
 * T runs over 1, 2, 4 ... 4 x CPUs (quick: 1 and 4 x CPUs), each T > 1 in
 * both shapes; the policies are switched with bench_set_knob, interleaved
 * within each repeat. Each run is a child process forked after the
 * switch: a lock's count layout is fixed when it is made
 * (locking/rwsem.c), so only an address space made under `handoff` has
 * 5.3's lock - one made before would run reader-owned's code in its place
 * - and a fresh address space also starts every run from the same empty
 * map. On Linux there is no knob:
 * every figure is suffixed _linux instead.
 *
 * The contention benchmark: R reader threads fault pages in and drop them
 * (madvise MADV_DONTNEED: both take the lock for reading) while one writer
 * mprotects a page of its own region back and forth (writing) and then
 * waits D us off the lock, as the storm's writers do; for a fixed time,
 * reader and writer operations per second per policy.
 *
 * -P runs only T = max under the policy in force (the one an experiment's
 * variant set), threaded or (-b) one worker, for a profiled step. -L
 * switches lockstat=1 on for the run (it costs every lock operation a
 * little, so the timed figures are best taken without it).
 *
 * Metric names: wall_ms_t<T>_<policy> (threaded), wall_ms_one_t<T>_<policy>
 * (one worker) ... and wall_ms_tmax_<policy>, wall_ms_one_tmax_<policy> for
 * the largest T, so that an experiment's ratio does not depend on the CPU
 * count.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE	    4096UL
#define MAX_THREADS 256

static const char *const policies[] = {
	"off", "osq", "owner-null-fix", "deceive-fix", "reader-owned", "handoff",
};
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

static long regions = 2000; /* -n: regions in all, split over the threads */
static long pages = 16;	    /* -p: pages per region */
static long chunk = 4;	    /* -c: pages per buffer (an arena growth + I/O) */
static long io_us = 100;    /* -d: simulated direct I/O time */
static long max_threads;    /* -T: largest T (default 4 x CPUs) */
static long offset_us;	    /* -o: CPU burnt before each run's threads start */
static double rw_seconds = 0.5;
static int profiling;	       /* -P: the policy in force, T = max only (a profiled step) */
static int with_lockstat;      /* -L: lockstat=1 for the figures from /proc/lockstat */
static int profile_one_worker; /* -b: -P runs the one-worker shape */

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

/* --- a thread's arena, grown as glibc grows one ---------------------------- */

/*
 * glibc gives each thread an arena of its own: a heap reserved PROT_NONE
 * (HEAP_MAX_SIZE, 64 MiB on 64-bit) and made usable from its start by
 * mprotect as malloc needs more (grow_heap), only past the highest point
 * made usable before (its mprotect_size). Freeing trims the heap's top
 * once the free top reaches M_TRIM_THRESHOLD (128 KiB), with
 * madvise(MADV_DONTNEED) (shrink_heap): the pages go but stay read-write,
 * so growing back into them takes no mprotect. A full heap is followed by
 * a new reservation. So the write lock is taken by mprotect, and by mmap
 * once per 64 MiB a thread grows.
 */
#define HEAP_MAX       (64UL << 20)
#define TRIM_THRESHOLD (128UL << 10)
/*
 * Regions between trims. Phase 3's cache grows (to 6 GB in the seed), so a
 * thread's frees seldom bring its top down by the threshold: one trim per
 * 2 MiB made keeps glibc's shrink path in the run without its shootdowns
 * (madvise flushes every CPU running the process) filling the profile.
 */
#define TRIM_EVERY 32

struct arena {
	char *heap;
	size_t top;    /* bytes handed out from the heap's start */
	size_t usable; /* bytes made read-write: glibc's mprotect_size */
	long regions;  /* regions finished, for the trims */
};

static void
arena_reserve(struct arena *a)
{
	a->heap =
		mmap(NULL, HEAP_MAX, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (a->heap == MAP_FAILED)
		die("mmap");
	a->top = a->usable = 0;
}

/* A buffer of len bytes at the heap's top, made read-write if it lies past the mark. */
static char *
arena_alloc(struct arena *a, size_t len)
{
	if (a->top + len > HEAP_MAX)
		arena_reserve(a);
	char *buf = a->heap + a->top;
	a->top += len;
	if (a->top > a->usable) {
		if (mprotect(a->heap + a->usable, a->top - a->usable, PROT_READ | PROT_WRITE) != 0)
			die("mprotect");
		a->usable = a->top;
	}
	return buf;
}

/* After a region: every TRIM_EVERY-th, the newest buffers are freed and the heap shrinks. */
static void
arena_region_done(struct arena *a)
{
	if (++a->regions % TRIM_EVERY != 0 || a->top < TRIM_THRESHOLD)
		return;
	a->top -= TRIM_THRESHOLD;
	if (madvise(a->heap + a->top, TRIM_THRESHOLD, MADV_DONTNEED) != 0)
		die("madvise");
}

/* --- the storm ----------------------------------------------------------- */

/* A region is nchunks() buffers; buffer b has chunk_pages(b) pages. */
static long
nchunks(void)
{
	return (pages + chunk - 1) / chunk;
}

static long
chunk_pages(long b)
{
	return pages - b * chunk < chunk ? pages - b * chunk : chunk;
}

struct storm {
	atomic_long next; /* the next region to make (threaded shape) */
	atomic_long ios;
	atomic_long io_wait_ns; /* how long the I/O waits took, summed: asked D, got this */
	atomic_long sum;	/* what the walks read, so that they are not optimised away */
	/*
	 * The one-worker shape: the buffers of the regions made ahead, a ring of
	 * `ahead` regions of nchunks() buffers (region r's buffer b at slot
	 * (r % ahead) * nchunks() + b), and how many buffers of each region
	 * have their I/O in.
	 */
	pthread_mutex_t lock;
	pthread_cond_t more, finished;
	long ahead;
	char **buf_at;
	long *done;
	long issued, taken; /* buffers handed to the prefetchers, and taken by them */
	int stop;
};

/* One buffer's direct I/O: its pages pinned (a fault each: the lock for reading), then the wait. */
static void
read_chunk(struct storm *s, char *buf, long npages)
{
	for (long q = 0; q < npages; q++)
		((volatile char *)buf)[q * PAGE] = (char)q;
	double t0 = bench_now_ns();
	sleep_us(io_us);
	atomic_fetch_add(&s->io_wait_ns, (long)(bench_now_ns() - t0));
	atomic_fetch_add(&s->ios, 1);
}

/* Processing a region once its I/O is in: a read of every page, no fault. */
static void
walk_region(struct storm *s, char *const *bufs, long nbufs)
{
	long sum = 0;

	for (long b = 0; b < nbufs; b++)
		for (long q = 0; q < chunk_pages(b); q++)
			sum += ((volatile char *)bufs[b])[q * PAGE];
	atomic_fetch_add(&s->sum, sum);
}
/* --- the two shapes ------------------------------------------------------ */

/*
 * The threaded shape (ag_stride=N): every thread makes whole regions, in its
 * own arena, each buffer read before the next is made; the threads' regions
 * run at once, and so do their mprotects and faults.
 */
static void *
region_worker(void *arg)
{
	struct storm *s = arg;
	struct arena a = { 0 };
	char *bufs[nchunks()];

	arena_reserve(&a);
	while (atomic_fetch_add(&s->next, 1) < regions) {
		for (long b = 0; b < nchunks(); b++) {
			bufs[b] = arena_alloc(&a, chunk_pages(b) * PAGE);
			read_chunk(s, bufs[b], chunk_pages(b));
		}
		walk_region(s, bufs, nchunks());
		arena_region_done(&a);
	}
	return NULL;
}

/*
 * The one-worker shape (ag_stride=-1): one thread makes every region in
 * its arena and hands each buffer over as soon as it is usable; the other
 * threads are xfs_repair's prefetch threads, faulting a buffer's pages in
 * and waiting for its I/O, several at once. The worker runs up to `ahead`
 * regions ahead of the one it walks, as prefetching reads ahead, but
 * stops at each trim until the walks catch up: glibc trims only a free
 * top. The same regions, buffers, mprotects, faults and I/Os as the
 * threaded shape, and the same threads, but only one making regions: the
 * lock meets one writer, and the prefetchers' faults.
 */
static void
hand_over(struct storm *s, struct arena *a, long region)
{
	for (long b = 0; b < nchunks(); b++) {
		char *buf = arena_alloc(a, chunk_pages(b) * PAGE);
		pthread_mutex_lock(&s->lock);
		s->buf_at[(region % s->ahead) * nchunks() + b] = buf;
		s->issued++;
		pthread_cond_signal(&s->more);
		pthread_mutex_unlock(&s->lock);
	}
}

static void *
one_worker(void *arg)
{
	struct storm *s = arg;
	struct arena a = { 0 };
	long made = 0, walked = 0;

	arena_reserve(&a);
	while (walked < regions) {
		if (made < regions && made - walked < s->ahead &&
		    made / TRIM_EVERY == walked / TRIM_EVERY) {
			hand_over(s, &a, made++);
			continue;
		}
		long slot = walked % s->ahead;
		pthread_mutex_lock(&s->lock);
		while (s->done[slot] < nchunks())
			pthread_cond_wait(&s->finished, &s->lock);
		s->done[slot] = 0;
		pthread_mutex_unlock(&s->lock);
		walk_region(s, &s->buf_at[slot * nchunks()], nchunks());
		walked++;
		arena_region_done(&a);
	}
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->more);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void *
prefetcher(void *arg)
{
	struct storm *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (s->taken == s->issued && !s->stop)
			pthread_cond_wait(&s->more, &s->lock);
		if (s->taken == s->issued)
			break;
		long n = s->taken++, b = n % nchunks(), slot = n / nchunks() % s->ahead;
		char *buf = s->buf_at[slot * nchunks() + b];
		pthread_mutex_unlock(&s->lock);
		read_chunk(s, buf, chunk_pages(b));
		pthread_mutex_lock(&s->lock);
		if (++s->done[slot] == nchunks())
			pthread_cond_signal(&s->finished);
	}
	pthread_mutex_unlock(&s->lock);
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

/* One run: T threads in a shape under a policy; lockstat_row, if any, is the policy's row. */
struct run {
	long threads;
	int one_worker; /* the one-worker shape (ag_stride=-1) rather than the threaded one */
	const char *policy;
	const char *lockstat_row;
};

/*
 * Runs fn(run) in a child forked now, with a mmap lock made under the
 * policy in force; the parent has no other thread, so the child is a plain
 * copy of it.
 */
static void
in_fresh_process(void (*fn)(const struct run *), const struct run *run)
{
	int status;

	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		fn(run);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "repair_storm: the run T=%ld%s %s failed (status %#x)\n",
			run->threads, run->one_worker ? " one worker" : "", run->policy, status);
		exit(1);
	}
}

/* what_t<T>_<policy>, or what_one_t<T>_<policy> for the one-worker shape, and _tmax at the largest T. */
static void
result(const char *what, const struct run *run, double value, const char *unit)
{
	char metric[96];
	const char *shape = run->one_worker ? "_one" : "";

	bench_metric_name(metric, sizeof(metric), "%s%s_t%ld_%s", what, shape, run->threads,
			  run->policy);
	bench_result(metric, value, unit);
	if (run->threads == max_threads) {
		bench_metric_name(metric, sizeof(metric), "%s%s_tmax_%s", what, shape, run->policy);
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
storm(const struct run *run)
{
	struct storm s = { .lock = PTHREAD_MUTEX_INITIALIZER,
			   .more = PTHREAD_COND_INITIALIZER,
			   .finished = PTHREAD_COND_INITIALIZER };
	pthread_t tid[MAX_THREADS];
	struct rusage r0, r1;
	unsigned long long spin0 = 0, sleeps0 = 0, spin1 = 0, sleeps1 = 0;
	const char *row = run->lockstat_row;
	int have_lockstat = row && rwsem_row(row, &spin0, &sleeps0) == 0;

	s.ahead = run->threads > 1 ? run->threads - 1 : 1; /* a buffer in flight per prefetcher */
	s.buf_at = calloc(s.ahead * nchunks(), sizeof(*s.buf_at));
	s.done = calloc(s.ahead, sizeof(*s.done));
	if (!s.buf_at || !s.done)
		die("calloc");
	start_late();
	getrusage(RUSAGE_SELF, &r0);
	double t0 = bench_now_ns();
	for (long i = 0; i < run->threads; i++) {
		void *(*body)(void *) = !run->one_worker ? region_worker
					: i == 0	 ? one_worker
							 : prefetcher;
		if ((errno = pthread_create(&tid[i], NULL, body, &s)))
			die("pthread_create");
	}
	for (long i = 0; i < run->threads; i++)
		pthread_join(tid[i], NULL);
	double wall_s = (bench_now_ns() - t0) / 1e9;
	getrusage(RUSAGE_SELF, &r1);
	have_lockstat = have_lockstat && rwsem_row(row, &spin1, &sleeps1) == 0;

	if (have_lockstat) { /* a run with lockstat on is not a timed one */
		result("spin_ms", run, (spin1 - spin0) / 1e6, "ms");
		result("sleeps", run, (double)(sleeps1 - sleeps0), "count");
		return;
	}
	result("wall_ms", run, wall_s * 1e3, "ms");
	result("user_ms", run, cpu_ms(r1.ru_utime) - cpu_ms(r0.ru_utime), "ms");
	result("sys_ms", run, cpu_ms(r1.ru_stime) - cpu_ms(r0.ru_stime), "ms");
	result("regions_per_s", run, regions / wall_s, "ops/s");
	result("ios_per_s", run, atomic_load(&s.ios) / wall_s, "ops/s");
	result("io_wait_us", run, atomic_load(&s.io_wait_ns) / 1e3 / atomic_load(&s.ios), "us");
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

/* Reports throughput only: run->threads readers and one writer. */
static void
contention(const struct run *run)
{
	struct rw rw = { 0 };
	pthread_t tid[MAX_THREADS];
	char metric[96];
	long readers = run->threads;

	double t0 = bench_now_ns();
	for (long i = 0; i <= readers; i++)
		if ((errno = pthread_create(&tid[i], NULL, i ? reader : writer, &rw)))
			die("pthread_create");
	sleep_us((long)(rw_seconds * 1e6));
	atomic_store(&rw.stop, 1);
	for (long i = 0; i <= readers; i++)
		pthread_join(tid[i], NULL);
	double s = (bench_now_ns() - t0) / 1e9;
	bench_metric_name(metric, sizeof(metric), "rw_reads_per_s_%s", run->policy);
	bench_result(metric, atomic_load(&rw.reads) / s, "ops/s");
	bench_metric_name(metric, sizeof(metric), "rw_writes_per_s_%s", run->policy);
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
	case 'b':
		profile_one_worker = 1;
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
		"xfs_repair's phase 3 behind the mmap lock (seed 002): T threads growing glibc-style\n"
		"arenas by mprotect, all making regions (ag_stride=N) or one making them and T - 1\n"
		"prefetching (ag_stride=-1), under every rwsem_spin= policy: wall and CPU ms,\n"
		"regions/s, I/Os/s; and a readers-versus-writer contention run on the same lock.",
	.synopsis =
		"[-n REGIONS] [-p PAGES] [-c CHUNK] [-d IO_US] [-o OFFSET_US] [-T MAX_THREADS] "
		"[-L] [-P [-b]]",
	.options =
		"  -n REGIONS      buffer regions in all, split over the threads (default 2000; -q: 48)\n"
		"  -p PAGES        pages per region, 1 to 4096 (default 16)\n"
		"  -c CHUNK        pages per buffer: an arena growth and a simulated I/O (default 4)\n"
		"  -d IO_US        simulated direct I/O time in us (default 100)\n"
		"  -o OFFSET_US    CPU time burnt before each run's threads start (default 0)\n"
		"  -T MAX_THREADS  largest thread count, T = 1, 2, 4 ... up to it (default 4 x CPUs)\n"
		"  -L              lockstat=1, for spin and sleep figures from /proc/lockstat\n"
		"  -P              one run at the largest T under the policy in force (to profile)\n"
		"  -b              with -P: the one-worker shape rather than the threaded one\n",
};

int
main(int argc, char **argv)
{
	char at_start[64] = "", lockstat_at_start[16] = "";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	bench_init_opts(argc, argv, &help, "n:p:c:d:o:T:LPb", option);
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
		struct run run = { max_threads, profile_one_worker && max_threads > 1,
				   rewind ? at_start : "linux", with_lockstat ? at_start : NULL };
		in_fresh_process(storm, &run);
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
				/* At T = 1 the shapes are one: a lone worker reads its own buffers. */
				for (int one = 0; one <= (t > 1); one++) {
					struct run run = { t, one, rewind ? policies[p] : "linux",
							   with_lockstat ? policies[p] : NULL };
					in_fresh_process(storm, &run);
				}
			}
			if (t == max_threads)
				break;
		}
		for (size_t p = 0; p < (rewind ? NPOLICIES : 1); p++) {
			if (rewind && bench_set_knob("rwsem_spin", policies[p]) != 0)
				continue;
			struct run run = { cpus > 1 ? 2 * cpus - 1 : 1, 0,
					   rewind ? policies[p] : "linux", NULL };
			in_fresh_process(contention, &run);
		}
	}
	if (at_start[0] && bench_set_knob("rwsem_spin", at_start) != 0)
		printf("# could not restore rwsem_spin=%s\n", at_start);
	if (with_lockstat && lockstat_at_start[0])
		bench_set_knob("lockstat", lockstat_at_start);
	return 0;
}

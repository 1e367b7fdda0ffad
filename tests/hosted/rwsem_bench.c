/*
 * rwsem_bench.c - rewind's rwsem and osq (locking/rwsem*.c, osq.c,
 * unchanged, built with -DHOSTED) on the host's real cores, with host
 * threads as CPUs (docs/grounds.md, "The hosted ground").
 *
 * Under TCG a spinning vCPU and the lock holder's vCPU share the host's
 * cores with the emulator, so spin-versus-sleep costs there are not a
 * machine's. Here each thread is one CPU running one task: this file is
 * the scheduler - a task that sleeps waits on a futex on its state word,
 * wake_up_task makes it runnable and wakes the futex, on_cpu is false
 * while it waits - and a tick thread sets every CPU's need_resched every
 * 10 ms, as the kernel's tick ends a 10-tick slice. Two runs per
 * rwsem_spin policy:
 *
 *   torture     every thread mixes reads, writes and downgrades on one
 *               rwsem; writers do a non-atomic increment: lost updates and
 *               exclusion violations must be 0 (the exit status says so)
 *   contention  docs/seeds.md's seed 002 pattern: T-1 readers (page faults: a short read
 *               hold) and one writer (mprotect: a short write hold, then a
 *               simulated I/O wait of 50 us off the lock); reader and
 *               writer operations per second, the share of the run the
 *               writer spent in down_write, and lockstat's spin time,
 *               spin failures and sleeps
 *
 * Few writes per second is not by itself a starved writer: the writer's
 * usleep(50) is a host sleep, and on a loaded host each one costs what the
 * host's scheduler makes of it (0.5 ms and more here, at a load average
 * of 14 on 2 cores). So the writer also runs alone first (writes_alone_per_s),
 * and the writer's share of time in down_write says what the lock cost it.
 *
 *   make hosted-bench && build/hosted/rwsem_bench [-q] [-T THREADS]
 */
#include "kernel/process/task.h"
#include "kernel/x86/percpu.h"
#include "locking/lockstat.h"
#include "locking/rwsem.h"
#include "locking/rwsem_policy.h"
#include "user/lib/bench.h"

#include <asm/prctl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

extern int rwsem_spin;

#define MAX_THREADS 64

static struct cpu host_cpus[MAX_THREADS];
static struct task host_tasks[MAX_THREADS];
static int nthreads;
static volatile int ticking;

/* ---- what locking/ needs from the kernel ------------------------------------------------- */

__noreturn void
panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static double tsc_per_ns = 1;

u64
ns_since_boot(void)
{
	return (u64)(__rdtsc() / tsc_per_ns);
}

u64
tsc_cycles_to_ns(u64 cycles)
{
	return (u64)(cycles / tsc_per_ns);
}

/*
 * When each task was last woken, and the time from there until its host
 * thread ran again, summed: what the host's scheduler adds to every sleep.
 */
static u64 woken_at[MAX_THREADS], wake_latency_ns[MAX_THREADS];

void
set_current_sleeping(void)
{
	__atomic_store_n(&current()->state, TASK_SLEEPING, __ATOMIC_SEQ_CST);
}

static long
futex(int *word, int op, int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

void
schedule(void)
{
	struct task *t = current();

	WRITE_ONCE(this_cpu()->need_resched, false);
	if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != TASK_SLEEPING) {
		sched_yield();
		return;
	}
	WRITE_ONCE(t->on_cpu, false);
	while (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) == TASK_SLEEPING)
		futex(&t->state, FUTEX_WAIT_PRIVATE, TASK_SLEEPING);
	WRITE_ONCE(t->on_cpu, true);
	wake_latency_ns[t->pid - 1] +=
		ns_since_boot() - __atomic_load_n(&woken_at[t->pid - 1], __ATOMIC_ACQUIRE);
}

void
wake_up_task(struct task *t)
{
	int sleeping = TASK_SLEEPING;

	__atomic_store_n(&woken_at[t->pid - 1], ns_since_boot(), __ATOMIC_RELEASE);
	if (__atomic_compare_exchange_n(&t->state, &sleeping, TASK_RUNNABLE, false,
					__ATOMIC_SEQ_CST, __ATOMIC_RELAXED) &&
	    !READ_ONCE(t->on_cpu))
		futex(&t->state, FUTEX_WAKE_PRIVATE, 1);
}

static void
calibrate(void)
{
	double t0 = bench_now_ns();
	unsigned long long c0 = __rdtsc();

	while (bench_now_ns() - t0 < 5e7)
		;
	tsc_per_ns = (__rdtsc() - c0) / (bench_now_ns() - t0);
}

static void *
ticker(void *arg)
{
	while (__atomic_load_n(&ticking, __ATOMIC_ACQUIRE)) {
		usleep(10000);
		for (int i = 0; i < nthreads; i++)
			WRITE_ONCE(host_cpus[i].need_resched, true);
	}
	return NULL;
}

/* ---- running threads as CPUs ------------------------------------------------------------- */

struct job {
	void (*fn)(int id);
	int id;
};

static void *
cpu_thread(void *arg)
{
	struct job *j = arg;
	struct cpu *c = &host_cpus[j->id];

	*c = (struct cpu){ .self = c, .id = (u32)j->id, .current = &host_tasks[j->id] };
	host_tasks[j->id] =
		(struct task){ .state = TASK_RUNNABLE, .on_cpu = true, .pid = j->id + 1 };
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, c) != 0)
		abort();
	j->fn(j->id);
	return NULL;
}

static void
run_threads(void (*fn)(int id), int n)
{
	pthread_t th[MAX_THREADS], tick;
	struct job jobs[MAX_THREADS];

	nthreads = n;
	__atomic_store_n(&ticking, 1, __ATOMIC_RELEASE);
	pthread_create(&tick, NULL, ticker, NULL);
	for (int i = 0; i < n; i++) {
		jobs[i] = (struct job){ fn, i };
		pthread_create(&th[i], NULL, cpu_thread, &jobs[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&ticking, 0, __ATOMIC_RELEASE);
	pthread_join(tick, NULL);
}

/* ---- the workloads ---------------------------------------------------------------------------- */

static struct rwsem sem;
static double deadline_ns;
static u64 counter, writes[MAX_THREADS], reads[MAX_THREADS], violations;
static double writer_wait_ns; /* thread 0's time in down_write (contention) */
/*
 * A read hold of work(200) takes well under a microsecond; one that took
 * over 100 us is a reader whose host thread the host took the core from
 * while it held the lock.
 */
#define LONG_HOLD_NS 100000
static u64 long_hold_ns[MAX_THREADS];
static int writers_inside, readers_inside;

static void
work(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

static void
torture_cpu(int id)
{
	u64 seed = 0x9e3779b97f4a7c15ull * (u64)(id + 1);

	while (bench_now_ns() < deadline_ns) {
		for (int k = 0; k < 64; k++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			if ((seed >> 40) % 4) {
				down_read(&sem);
				__atomic_fetch_add(&readers_inside, 1, __ATOMIC_ACQ_REL);
				if (__atomic_load_n(&writers_inside, __ATOMIC_ACQUIRE))
					__atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED);
				work((unsigned)(seed & 63));
				__atomic_fetch_sub(&readers_inside, 1, __ATOMIC_ACQ_REL);
				up_read(&sem);
				reads[id]++;
			} else {
				down_write(&sem);
				if (__atomic_fetch_add(&writers_inside, 1, __ATOMIC_ACQ_REL) ||
				    __atomic_load_n(&readers_inside, __ATOMIC_ACQUIRE))
					__atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED);
				u64 c = READ_ONCE(counter);
				work((unsigned)(seed & 63));
				WRITE_ONCE(counter, c + 1);
				writes[id]++;
				__atomic_fetch_sub(&writers_inside, 1, __ATOMIC_ACQ_REL);
				if (seed & 64) {
					downgrade_write(&sem);
					up_read(&sem);
				} else {
					up_write(&sem);
				}
			}
			if (READ_ONCE(this_cpu()->need_resched))
				schedule();
		}
	}
}

/* Thread 0 is mprotect (write, then an I/O wait off the lock); the others fault pages in. */
static void
contention_cpu(int id)
{
	while (bench_now_ns() < deadline_ns) {
		if (id == 0) {
			double t0 = bench_now_ns();
			down_write(&sem);
			writer_wait_ns += bench_now_ns() - t0;
			work(200);
			up_write(&sem);
			writes[id]++;
			usleep(50); /* the simulated direct I/O: the CPU is free meanwhile */
		} else {
			down_read(&sem);
			u64 t0 = ns_since_boot();
			work(200);
			u64 held = ns_since_boot() - t0;
			up_read(&sem);
			if (held > LONG_HOLD_NS)
				long_hold_ns[id] += held;
			reads[id]++;
		}
		if (READ_ONCE(this_cpu()->need_resched))
			schedule();
	}
}

static u64
sum(const u64 *v)
{
	u64 s = 0;

	for (int i = 0; i < nthreads; i++)
		s += v[i];
	return s;
}

static void
reset(int policy, double seconds)
{
	rwsem_spin = policy;
	rwsem_init(&sem, "hosted");
	counter = violations = 0;
	writer_wait_ns = 0;
	memset(wake_latency_ns, 0, sizeof(wake_latency_ns));
	memset(long_hold_ns, 0, sizeof(long_hold_ns));
	writers_inside = readers_inside = 0;
	memset(writes, 0, sizeof(writes));
	memset(reads, 0, sizeof(reads));
	lockstat_reset();
	deadline_ns = bench_now_ns() + seconds * 1e9;
}

static int threads_opt;

static int
opt(int c, const char *arg)
{
	if (c != 'T')
		return -1;
	threads_opt = atoi(arg);
	return threads_opt >= 2 && threads_opt <= MAX_THREADS ? 0 : -1;
}

static const struct bench_help help = {
	.name = "rwsem_hosted",
	.about =
		"locking/'s rwsem and osq on this machine's cores, host threads as CPUs, under every\n"
		"rwsem_spin policy: a torture run and the seed 002 readers-and-writer contention.",
	.synopsis = "[-T THREADS]",
	.options =
		"  -T THREADS  threads as CPUs, 2 to 64 (default the host's cores, at least 2)\n",
	.exits = "  0  the figures were printed and the torture runs lost nothing\n"
		 "  1  a torture run lost an update or broke exclusion\n"
		 "  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int bad = 0;

	bench_init_opts(argc, argv, &help, "T:", opt);
	int threads = threads_opt ? threads_opt : (int)MIN(MAX(cores, 2l), (long)MAX_THREADS);
	double seconds = bench_quick() ? 0.05 : 0.5;
	char name[96];

	calibrate();
	lock_knobs.stat = 1;
	printf("# %d threads as CPUs on %ld host cores, %.2f s per run\n", threads, cores, seconds);
	reset(RWSEM_SPIN_OFF, seconds);
	run_threads(contention_cpu, 1); /* thread 0 alone: the writer, nobody to wait for */
	bench_result("writes_alone_per_s", sum(writes) / seconds, "ops/s");
	printf("%-15s %12s %8s %10s %12s %8s %8s %8s %12s %10s %8s\n", "rwsem_spin", "torture-ops",
	       "lost", "reads/s", "writes/s", "w-wait%", "w-wake%", "r-long%", "spin-ns",
	       "spin-fail", "sleeps");
	for (int p = 0; p < RWSEM_SPIN_POLICIES; p++) {
		const char *pn = rwsem_policy_name((unsigned)p);
		struct lockstat_rwsem st[RWSEM_SPIN_POLICIES];

		reset(p, seconds);
		run_threads(torture_cpu, threads);
		u64 w = sum(writes), ops = w + sum(reads), lost = w - counter;
		bad |= lost != 0 || violations != 0 || rwsem_is_locked(&sem);
		bench_metric_name(name, sizeof(name), "torture_ops_%s", pn);
		bench_result(name, (double)ops, "ops");
		bench_metric_name(name, sizeof(name), "torture_lost_updates_%s", pn);
		bench_result(name, (double)(lost + violations), "count");

		reset(p, seconds);
		run_threads(contention_cpu, threads);
		lockstat_rwsem_snapshot(st);
		double rps = sum(reads) / seconds, wps = sum(writes) / seconds;
		double wait_pct = 100 * writer_wait_ns / (seconds * 1e9);
		double latency_pct = 100.0 * (double)wake_latency_ns[0] / (seconds * 1e9);
		double long_hold_pct = 100.0 * (double)sum(long_hold_ns) / (seconds * 1e9);
		bench_metric_name(name, sizeof(name), "reads_per_s_%s", pn);
		bench_result(name, rps, "ops/s");
		bench_metric_name(name, sizeof(name), "writes_per_s_%s", pn);
		bench_result(name, wps, "ops/s");
		bench_metric_name(name, sizeof(name), "writer_wait_pct_%s", pn);
		bench_result(name, wait_pct, "%");
		bench_metric_name(name, sizeof(name), "writer_wake_latency_pct_%s", pn);
		bench_result(name, latency_pct, "%");
		bench_metric_name(name, sizeof(name), "reader_long_hold_pct_%s", pn);
		bench_result(name, long_hold_pct, "%");
		bench_metric_name(name, sizeof(name), "spin_ns_%s", pn);
		bench_result(name, (double)st[p].ev[RWSEM_EV_SPIN], "ns");
		printf("%-15s %12lu %8lu %10.0f %12.0f %8.1f %8.1f %8.1f %12lu %10lu %8lu\n", pn,
		       ops, lost + violations, rps, wps, wait_pct, latency_pct, long_hold_pct,
		       st[p].ev[RWSEM_EV_SPIN], st[p].ev[RWSEM_EV_SPIN_FAILED],
		       st[p].ev[RWSEM_EV_SLEEPS]);
	}
	return bad;
}

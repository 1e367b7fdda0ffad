/*
 * tickless.c - usertests: an idle CPU stops its tick (rewind's `nohz`
 * knob, Linux's NO_HZ_IDLE, kernel/time/tick.c), seen through
 * /proc/interrupts's LOC row (Linux's layout, checked on both kernels),
 * and idle time still counts over the tickless stretch (/proc/stat,
 * /proc/uptime).
 *
 * The assertion that holds under any host load: a process pinned to CPU 1
 * sleeps 200 ms while CPU 1 has nothing else to run. With its tick stopped
 * CPU 1 takes a timer interrupt only for what it must handle (the sleep's
 * end, a kernel timer's deadline), so its LOC count grows by a handful
 * whatever the load; a 1000 Hz tick would add 200. A loaded host can only
 * delay interrupts, never add them, so the bound (a fifth of the ticks)
 * cannot be reached by load. The idle columns must grow by at least half
 * the sleep: the guest's clock, not the host's, measures the stretch, so
 * load does not shrink it. Both only on rewind with its tick able to stop
 * (nohz on, highres, profiler off): a Linux host's CPU 1 runs the host's
 * other work.
 *
 * Kernel timers wake the CPU that armed them (kernel/time/timer.c keeps a
 * queue per CPU, as Linux's timer bases): a process pinned to CPU 0 that
 * reads a periodic timerfd of 1 ms until 200 expiries came adds an
 * interrupt per read to CPU 0's LOC row (on both kernels: only the timer's
 * CPU brings its expiries), and on rewind with nohz on, a handful to idle
 * CPU 1's. With one queue for the machine, CPU 1, once it had gone idle
 * with the timer armed, counted to every one of its deadlines: the test
 * sends a child to CPU 1 after arming, so that it does. `usertests
 * --helper timerfd_sleeps N USEC [CPU]` is the same loop, a child sent to
 * every CPU, for tools/idle-cost and docs/performance.md's figures.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define NOHZ_KNOB      "/proc/sys/rewind/nohz"
#define SLEEP_MS       200
#define TIMER_EXPIRIES 200
#define MAX_CPUS_SEEN  256 /* the CPUs local_timer_count can ask of */

/* The LOC row's count for cpu, the column its "CPUn" heads; -1 when no column is cpu's. */
static long long
local_timer_count(int cpu)
{
	long long counts[MAX_CPUS_SEEN];
	char label[64];

	CHECK(cpu < MAX_CPUS_SEEN);
	if (interrupt_row("LOC", counts, MAX_CPUS_SEEN, label, sizeof(label)) <= 0)
		fail("/proc/interrupts has no LOC row (or not Linux's layout)");
	CHECK(strstr(label, "Local timer interrupts") != NULL);
	return counts[cpu];
}

/* The idle column of /proc/stat's cpuN line, in USER_HZ ticks. */
static long long
stat_idle_ticks(int cpu)
{
	char line[512], name[16];
	FILE *f = fopen("/proc/stat", "r");

	CHECK(f != NULL);
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		long long user, nice, sys, idle;
		if (strncmp(line, name, strlen(name)) != 0)
			continue;
		CHECK_EQ(sscanf(line + strlen(name), "%lld %lld %lld %lld", &user, &nice, &sys,
				&idle),
			 4);
		fclose(f);
		return idle;
	}
	fclose(f);
	fail("/proc/stat has no %sline", name);
}

/* /proc/uptime's second figure, the CPUs' idle time summed, in ms. */
static long long
uptime_idle_ms(void)
{
	FILE *f = fopen("/proc/uptime", "r");
	double up, idle;

	CHECK(f != NULL);
	CHECK_EQ(fscanf(f, "%lf %lf", &up, &idle), 2);
	fclose(f);
	return (long long)(idle * 1000);
}

/* Whether rewind's knob at path reads value (its first line); false off rewind. */
static bool
knob_is(const char *path, const char *value)
{
	char line[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	ssize_t n = read(fd, line, sizeof(line) - 1);
	close(fd);
	return n > 0 && strncmp(line, value, strlen(value)) == 0 && line[strlen(value)] == '\n';
}

static bool
rewind_nohz_on(void)
{
	return knob_is(NOHZ_KNOB, "on");
}

/*
 * Whether this is rewind with an idle CPU able to stop its tick: a periodic
 * timer (highres=0) or the profiler's NMIs keep it (kernel/time/tick.c).
 */
static bool
rewind_tick_can_stop(void)
{
	return rewind_nohz_on() && knob_is("/proc/sys/rewind/highres", "1") &&
	       knob_is("/proc/sys/rewind/profile", "off");
}

/* Pins this process to cpu. */
static void
pin_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	CHECK_OK(sched_setaffinity(0, sizeof(one), &one));
}

/* A periodic timerfd of usec on CLOCK_MONOTONIC: a kernel timer that stays armed, period after period. */
static int
periodic_timerfd(long usec)
{
	int fd = CHECK_OK(timerfd_create(CLOCK_MONOTONIC, 0));
	struct itimerspec every = { .it_interval = { 0, usec * 1000 },
				    .it_value = { 0, usec * 1000 } };

	CHECK_OK(timerfd_settime(fd, 0, &every, NULL));
	return fd;
}

/* Sleeps in read(fd) until n expiries came; how many reads that took. */
static int
read_expiries(int fd, int n)
{
	int reads = 0;

	for (uint64_t got = 0; got < (uint64_t)n; reads++) {
		uint64_t expiries;
		CHECK_EQ(read(fd, &expiries, sizeof(expiries)), (ssize_t)sizeof(expiries));
		got += expiries;
	}
	return reads;
}

/* A child runs on cpu and exits: cpu leaves idle, and entering it again programs its timer anew. */
static void
visit(int cpu)
{
	pid_t child = CHECK_OK(fork());

	if (child == 0) {
		pin_to(cpu);
		_exit(0);
	}
	expect_exited(wait_status(child), 0, "a child visiting a CPU");
}

int
helper_timerfd_sleeps(int n, long usec, int cpu)
{
	if (cpu >= 0)
		pin_to(cpu);
	int fd = periodic_timerfd(usec);
	/* Every CPU goes idle again with the timer armed, as after any work of its own. */
	for (int other = 0; other < sysconf(_SC_NPROCESSORS_ONLN); other++)
		visit(other);
	read_expiries(fd, n);
	close(fd);
	return 0;
}

/* Linux's x86 layout: a header of CPUn columns, one per online CPU, and a LOC row with a count each. */
TEST(proc_interrupts_has_a_local_timer_row_per_cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	for (int cpu = 0; cpu < online; cpu++)
		CHECK(local_timer_count(cpu) >= 0);
}

TEST(idle_cpu_stops_its_tick)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip("one CPU: no idle CPU beside this one");
	pin_to(1);
	long long loc0 = local_timer_count(1), idle0 = stat_idle_ticks(1),
		  uptime_idle0 = uptime_idle_ms(), t0 = mono_ns();
	struct timespec nap = { 0, SLEEP_MS * 1000000L };
	CHECK_OK(nanosleep(&nap, NULL));
	long long loc1 = local_timer_count(1), idle1 = stat_idle_ticks(1),
		  uptime_idle1 = uptime_idle_ms();

	CHECK(mono_ns() - t0 >= SLEEP_MS * 1000000LL); /* the timer on the tickless CPU fired */
	CHECK(loc1 >= loc0);
	if (!rewind_tick_can_stop())
		skip("not rewind with nohz=on, highres=1 and profile=off: CPU 1's tick and idle "
		     "time are not this test's");
	if (loc1 - loc0 >= SLEEP_MS / 5)
		fail("CPU 1 took %lld timer interrupts over a %d ms idle sleep: its tick did not stop",
		     loc1 - loc0, SLEEP_MS);
	long long user_hz = sysconf(_SC_CLK_TCK), want_ms = SLEEP_MS / 2;
	if ((idle1 - idle0) * 1000 / user_hz < want_ms)
		fail("/proc/stat's cpu1 idle grew by %lld ticks over a %d ms idle sleep",
		     idle1 - idle0, SLEEP_MS);
	if (uptime_idle1 - uptime_idle0 < want_ms)
		fail("/proc/uptime's idle grew by %lld ms over a %d ms idle sleep",
		     uptime_idle1 - uptime_idle0, SLEEP_MS);
}

TEST(kernel_timers_wake_the_cpu_that_armed_them)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip("one CPU: no idle CPU beside this one");
	pin_to(0);
	int fd = periodic_timerfd(1000);
	/* CPU 1 enters idle with the timer armed: it must not count to the timer's deadlines. */
	visit(1);
	long long cpu0_before = local_timer_count(0), cpu1_before = local_timer_count(1);
	int reads = read_expiries(fd, TIMER_EXPIRIES);
	long long cpu0 = local_timer_count(0) - cpu0_before,
		  cpu1 = local_timer_count(1) - cpu1_before;
	close(fd);

	/*
	 * Each read waits for an expiry after the one before, and only an
	 * interrupt on the timer's CPU brings one; two may share an interrupt
	 * with the tick on Linux.
	 */
	if (cpu0 < reads / 2)
		fail("CPU 0 took %lld timer interrupts for %d reads of a timerfd armed on it", cpu0,
		     reads);
	if (!rewind_tick_can_stop())
		skip("not rewind with nohz=on, highres=1 and profile=off: CPU 1 ticks");
	if (cpu1 >= TIMER_EXPIRIES / 5)
		fail("idle CPU 1 took %lld timer interrupts over %d expiries of CPU 0's timer",
		     cpu1, TIMER_EXPIRIES);
}

/* The knob takes on and off; anything else is refused with EINVAL and leaves it as it was. */
TEST(nohz_knob_takes_on_and_off)
{
	if (!on_rewind())
		skip("no /proc/sys/rewind (not running on rewind)");
	if (geteuid() != 0)
		skip("writing a knob needs root");
	bool was_on = rewind_nohz_on();
	int fd = CHECK_OK(open(NOHZ_KNOB, O_WRONLY));
	CHECK_ERR(EINVAL, write(fd, "sometimes", 9));
	CHECK_EQ(rewind_nohz_on(), was_on);
	CHECK_EQ(write(fd, "off", 3), 3);
	CHECK(!rewind_nohz_on());
	CHECK_EQ(write(fd, "on", 2), 2);
	CHECK(rewind_nohz_on());
	if (!was_on)
		CHECK_EQ(write(fd, "off", 3), 3);
	close(fd);
}

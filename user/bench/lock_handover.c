/*
 * lock_handover.c - where lmbench's lat_fcntl spends its time: its pattern
 * (two processes, two one-byte write locks, F_SETLKW and F_SETLK/F_UNLCK)
 * timed per round, with the kernel's own counts of what each round cost:
 * context switches (/proc/stat's ctxt) and wake-up IPIs (/proc/interrupts'
 * RES and CAL rows: Linux 6.1 wakes a task on another CPU with either).
 *
 * Three shapes, each for the configured time:
 *   fcntl_alone     lat_fcntl's four calls per round with no partner: every
 *                   call is uncontended, nothing sleeps or wakes;
 *   fcntl_pingpong  lat_fcntl itself: the partner unlocks and waits in turn,
 *                   so a round sleeps only when the partner got in first;
 *   pipe_pingpong   lat_pipe's one byte there and back over two pipes: every
 *                   round hands the CPU over twice.
 * For each: microseconds per round, switches and IPIs per round, and the
 * part of a round spent in calls that took over OUTLIER_US (whatever made
 * them slow: a sleep, a wake-up, or the host descheduling a vCPU, which
 * the alone shape shows on its own). Run on rewind and on Linux, the counts
 * say whether the two kernels hand over as often, the times what it costs.
 */
#define _GNU_SOURCE
#include "lib/bench.h"
#include "lib/procfile.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUTLIER_US 30.0 /* far above a call's cost under TCG, far below a host time slice */

static void
die(const char *what)
{
	fprintf(stderr, "lock_handover: ");
	perror(what);
	exit(1);
}

struct counts {
	long switches;
	long ipis;
};

/* The counts of /proc/interrupts' row name summed over the CPUs; 0 without the row. */
static long
interrupts_summed(const char *name)
{
	enum { MAX_CPUS_SEEN = 256 };
	long long per_cpu[MAX_CPUS_SEEN];
	long sum = 0;

	if (interrupt_row(name, per_cpu, MAX_CPUS_SEEN, NULL, 0) < 0)
		return 0;
	for (int cpu = 0; cpu < MAX_CPUS_SEEN; cpu++)
		if (per_cpu[cpu] > 0)
			sum += per_cpu[cpu];
	return sum;
}

static struct counts
read_counts(void)
{
	struct counts c = { 0, interrupts_summed("RES") + interrupts_summed("CAL") };
	char line[1024];
	FILE *f = fopen("/proc/stat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "ctxt ", 5))
			c.switches = atol(line + 5);
	if (f)
		fclose(f);
	return c;
}

static const struct flock lock_byte = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };
static const struct flock unlock_byte = { .l_type = F_UNLCK, .l_whence = SEEK_SET, .l_len = 1 };

static void
waiton(int fd)
{
	if (fcntl(fd, F_SETLKW, &lock_byte))
		die("F_SETLKW");
}

static void
release(int fd)
{
	if (fcntl(fd, F_SETLK, &unlock_byte))
		die("F_SETLK");
}

struct shape {
	int fd1, fd2;		      /* the lock files (fcntl shapes) */
	int to_partner, from_partner; /* the pipes' ends (pipe shape) */
	void (*round)(struct shape *s, double *outlier_ns);
};

/* Times one call of a round: adds its time to *outlier_ns when it was an outlier. */
static void
timed(void (*call)(int), int fd, double *outlier_ns)
{
	double t0 = bench_now_ns(), dt;

	call(fd);
	dt = bench_now_ns() - t0;
	if (dt > OUTLIER_US * 1000)
		*outlier_ns += dt;
}

/* lat_fcntl's procA. */
static void
fcntl_round(struct shape *s, double *outlier_ns)
{
	timed(waiton, s->fd1, outlier_ns);
	timed(release, s->fd2, outlier_ns);
	timed(waiton, s->fd2, outlier_ns);
	timed(release, s->fd1, outlier_ns);
}

static void
pipe_write(int fd)
{
	char c = 0;

	if (write(fd, &c, 1) != 1)
		die("write");
}

static void
pipe_read(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("read");
}

static void
pipe_round(struct shape *s, double *outlier_ns)
{
	timed(pipe_write, s->to_partner, outlier_ns);
	timed(pipe_read, s->from_partner, outlier_ns);
}

/* lat_fcntl's procB, forever. */
static __attribute__((noreturn)) void
fcntl_partner(struct shape *s)
{
	for (;;) {
		release(s->fd1);
		waiton(s->fd2);
		release(s->fd2);
		waiton(s->fd1);
	}
}

/* lat_pipe's partner: echoes each byte, forever. */
static __attribute__((noreturn)) void
pipe_partner(int from, int to)
{
	for (;;) {
		pipe_read(from);
		pipe_write(to);
	}
}

/* Runs rounds for the configured time and reports the shape's figures. */
static void
measure(const char *name, struct shape *s)
{
	double deadline, t0, outlier_ns = 0, ignored = 0;
	long rounds = 0;
	char metric[96];

	for (int i = 0; i < 1000; i++) /* both sides past their first faults and into step */
		s->round(s, &ignored);
	struct counts c0 = read_counts();
	t0 = bench_now_ns();
	deadline = t0 + bench_seconds() * 1e9;
	do {
		for (int i = 0; i < 256; i++)
			s->round(s, &outlier_ns);
		rounds += 256;
	} while (bench_now_ns() < deadline);
	double elapsed = bench_now_ns() - t0;
	struct counts c1 = read_counts();

	bench_metric_name(metric, sizeof(metric), "%s_us_per_round", name);
	bench_result(metric, elapsed / rounds / 1000, "us");
	bench_metric_name(metric, sizeof(metric), "%s_outlier_us_per_round", name);
	bench_result(metric, outlier_ns / rounds / 1000, "us");
	bench_metric_name(metric, sizeof(metric), "%s_switches_per_round", name);
	bench_result(metric, (double)(c1.switches - c0.switches) / rounds, "count");
	bench_metric_name(metric, sizeof(metric), "%s_ipis_per_round", name);
	bench_result(metric, (double)(c1.ipis - c0.ipis) / rounds, "count");
}

static int
open_lock_file(const char *path)
{
	char page[100] = { 0 };
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);

	if (fd < 0 || write(fd, page, sizeof(page)) != sizeof(page))
		die(path);
	unlink(path);
	return fd;
}

static void
stop(pid_t partner)
{
	kill(partner, SIGKILL);
	waitpid(partner, NULL, 0);
}

static void
measure_fcntl(void)
{
	struct shape s = { .round = fcntl_round };

	s.fd1 = open_lock_file("/tmp/lock_handover.1");
	s.fd2 = open_lock_file("/tmp/lock_handover.2");
	waiton(s.fd1); /* lat_fcntl's initial state: the measuring process holds both */
	waiton(s.fd2);
	measure("fcntl_alone", &s);
	pid_t partner = fork();
	if (partner < 0)
		die("fork");
	if (partner == 0)
		fcntl_partner(&s);
	measure("fcntl_pingpong", &s);
	stop(partner);
	close(s.fd1);
	close(s.fd2);
}

static void
measure_pipe(void)
{
	int there[2], back[2];
	struct shape s = { .round = pipe_round };

	if (pipe(there) || pipe(back))
		die("pipe");
	pid_t partner = fork();
	if (partner < 0)
		die("fork");
	if (partner == 0)
		pipe_partner(there[0], back[1]);
	s.to_partner = there[1];
	s.from_partner = back[0];
	measure("pipe_pingpong", &s);
	stop(partner);
}

static const struct bench_help help = {
	.name = "lock_handover",
	.about = "lmbench's lat_fcntl pattern alone and with its partner, and lat_pipe's:\n"
		 "us per round, us per round in calls over 30 us, switches and IPIs per round.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	bench_init(argc, argv, &help);
	measure_fcntl();
	measure_pipe();
	return 0;
}

/*
 * vclock_bench.c - rewind's vDSO clock code timed on the host's real CPU,
 * beside a bare rdtsc and the host kernel's own vDSO (docs/grounds.md,
 * "The hosted ground").
 *
 * Under TCG an instruction's cost is the emulator's, so the vDSO's goal -
 * clock_gettime(MONOTONIC) through the vDSO within 1.3x of a bare rdtsc
 * loop - cannot be judged in the guest. Here user/vdso/vclock.c is
 * compiled with the vDSO's own flags into a host program that fills a
 * vvar page the way the kernel's timekeeper does (TSC clock, mult/shift,
 * the monotonic base at a cycle_last), and the same timing loops as every
 * benchmark (user/lib/bench.c) measure:
 *
 *   rdtsc                    the counter alone, the floor
 *   vclock_monotonic         rewind's __vdso_clock_gettime(CLOCK_MONOTONIC)
 *   host_vdso_monotonic      the host libc's clock_gettime (the host kernel's vDSO)
 *
 * It also checks that rewind's code agrees with the host's clock within a
 * calibration error, so a figure never comes from a broken reader.
 *
 *   make hosted-bench && build/hosted/vclock_bench [-q] [-t SECONDS]
 */
#include "kernel/vdso/vvar.h"
#include "user/lib/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

/* What user/vdso/vclock.c reads (its linker scripts place them in the vDSO). */
struct vvar_data vvar_data_page __attribute__((aligned(4096)));
unsigned char vvar_hpet_page[4096] __attribute__((aligned(4096)));

int vclock_gettime(int clock, struct timespec *ts);

#define SHIFT 24

static double
host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The TSC rate against the host's clock over 50 ms. */
static double
tsc_hz(void)
{
	double t0 = host_ns();
	unsigned long long c0 = __rdtsc();

	while (host_ns() - t0 < 5e7)
		;
	return (__rdtsc() - c0) * 1e9 / (host_ns() - t0);
}

/* The page as the kernel's timekeeper would publish it, MONOTONIC based on the host's clock. */
static void
publish(double hz)
{
	struct vvar_data *v = &vvar_data_page;
	unsigned long long now_ns = (unsigned long long)host_ns();

	v->cycle_last = __rdtsc();
	v->vclock_mode = VCLOCK_TSC;
	v->mask = ~0ull;
	v->shift = SHIFT;
	v->mult = (unsigned)(1e9 * (1 << SHIFT) / hz);
	v->base[VVAR_CLOCK_MONOTONIC].sec = now_ns / 1000000000ull;
	v->base[VVAR_CLOCK_MONOTONIC].snsec = (now_ns % 1000000000ull) << SHIFT;
	v->seq = 2;
}

static void
op_rdtsc(void *unused)
{
	(void)unused;
	__asm__ __volatile__("" : : "r"(__rdtsc()));
}

static void
op_vclock(void *unused)
{
	struct timespec ts;

	(void)unused;
	vclock_gettime(CLOCK_MONOTONIC, &ts);
}

static void
op_host_vdso(void *unused)
{
	struct timespec ts;

	(void)unused;
	clock_gettime(CLOCK_MONOTONIC, &ts);
}

static const struct bench_help help = {
	.name = "vclock_hosted",
	.about =
		"rewind's vDSO clock_gettime(CLOCK_MONOTONIC) on this CPU, beside a bare rdtsc and the\n"
		"host's own vDSO, in ns.",
	.synopsis = "",
	.options = "",
	.exits = "  0  the figures were printed\n"
		 "  1  rewind's reader disagrees with the host's clock (by more than 1 ms)\n"
		 "  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	struct timespec ours;

	bench_init(argc, argv, &help);
	publish(tsc_hz());
	vclock_gettime(CLOCK_MONOTONIC, &ours);
	double drift = ours.tv_sec * 1e9 + ours.tv_nsec - host_ns();
	if (drift > 1e6 || drift < -1e6) {
		fprintf(stderr, "vclock_bench: rewind's reader is %.0f ns off the host's clock\n",
			drift);
		return 1;
	}
	struct bench_stat floor = bench_measure(op_rdtsc, NULL);
	struct bench_stat vclock = bench_measure(op_vclock, NULL);
	struct bench_stat host = bench_measure(op_host_vdso, NULL);
	bench_report("rdtsc", floor, "ns");
	bench_report("vclock_monotonic", vclock, "ns");
	bench_report("host_vdso_monotonic", host, "ns");
	bench_result("ratio_vclock_over_rdtsc", vclock.batchmin_ns / floor.batchmin_ns, "x");
	bench_result("ratio_vclock_over_host_vdso", vclock.batchmin_ns / host.batchmin_ns, "x");
	return 0;
}

/*
 * paravirt_bench.c - the paravirt call sites on real silicon (regression 3,
 * DESIGN.md §4 "hosted measurement"): mm/paging.c's page-table code, with
 * the kernel's own paravirt.h, compiled for the host and timed on the
 * page-table work of a fault and an unmap (tests/hosted/pgtable_work.c),
 * in one process, interleaved, under
 *
 *   native    the copy built without CONFIG_PARAVIRT (PARAVIRT=n: inline)
 *   indirect  the CONFIG_PARAVIRT copy as built: call *pv_ops.op(%rip)
 *   patched   the same copy's sites rewritten by the kernel's own patcher
 *             (kernel/x86/paravirt_patch.c) as paravirt=patched does
 *   ident     ... as paravirt=ident does (the accessors one mov)
 *
 * Sites are rewritten through /proc/self/mem, the host's writable alias
 * of this process's read-only text (the kernel's text_poke in spirit).
 * Under TCG an indirect call costs a lookup of the next translated block;
 * here the branch predictor and the caches are real, which is the ground
 * the TCG figures are read against. Figures in ns per page (one fault's
 * entry work plus one zap's), and each mode's ratio to native.
 *
 *   make hosted-bench && build/hosted/paravirt_bench [-q] [-t S] [-r N]
 */
#include "kernel/x86/paravirt_patch.c"
#include "user/lib/bench.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGES_PER_ROUND 512 /* one page table's worth: 2 MiB of mappings */
#define NMODES		4

u64 pgtable_work_pv(u64 pages, u64 rounds);
u64 pgtable_work_native(u64 pages, u64 rounds);
extern const struct paravirt_site __start_parainstructions[], __stop_parainstructions[];

static const char *const mode_names[NMODES] = { "native", "indirect", "patched", "ident" };
static int self_mem;
static volatile u64 sink;

/* Rewrites every site for mode and checks that each holds what the patcher said. */
static void
patch_sites(enum pv_mode mode)
{
	for (const struct paravirt_site *s = __start_parainstructions; s < __stop_parainstructions;
	     s++) {
		void *const *slot = (void *const *)&pv_ops + s->type;
		u8 buf[16];
		if (!paravirt_patch_site(mode, s, (u64)slot, (u64)*slot,
					 paravirt_target_clobbers(s->type), buf) ||
		    pwrite(self_mem, buf, s->len, (off_t)s->addr) != s->len ||
		    memcmp((const void *)s->addr, buf, s->len)) {
			fprintf(stderr, "paravirt_bench: cannot patch the site at %#lx\n", s->addr);
			exit(1);
		}
	}
}

typedef u64 (*work_fn)(u64 pages, u64 rounds);

/* n pages of work, in rounds of at most a page table's worth; its time in ns. */
static double
run_work(void *arg, uint64_t n)
{
	work_fn work = *(work_fn *)arg;
	u64 pages = n < PAGES_PER_ROUND ? n : PAGES_PER_ROUND;
	double t0 = bench_now_ns();

	sink += work(pages, n / pages);
	return bench_now_ns() - t0;
}

int
main(int argc, char **argv)
{
	double batchmin[NMODES] = { 0 };

	bench_init(argc, argv, "paravirt_hosted");
	self_mem = open("/proc/self/mem", O_RDWR);
	if (self_mem < 0) {
		perror("paravirt_bench: /proc/self/mem");
		return 1;
	}
	printf("# %ld call sites in mm/paging.c's host copy\n",
	       (long)(__stop_parainstructions - __start_parainstructions));
	for (int r = 0; r < bench_repeats(3); r++)
		for (int m = 0; m < NMODES; m++) {
			if (m > 0)
				patch_sites((enum pv_mode)(m - 1));
			work_fn work = m ? pgtable_work_pv : pgtable_work_native;
			struct bench_stat s = bench_measure_timed(run_work, &work);
			char metric[64];
			bench_metric_name(metric, sizeof(metric), "pte_work_%s", mode_names[m]);
			bench_report(metric, s, "ns");
			if (r == 0 || s.batchmin_ns < batchmin[m])
				batchmin[m] = s.batchmin_ns;
		}
	for (int m = 1; m < NMODES; m++) {
		char metric[64];
		bench_metric_name(metric, sizeof(metric), "pte_work_%s_over_native", mode_names[m]);
		bench_result(metric, batchmin[m] / batchmin[0], "x");
	}
	return 0;
}

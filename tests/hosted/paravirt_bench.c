/*
 * paravirt_bench.c - the paravirt call sites on real silicon (regression 3;
 * docs/grounds.md, "The hosted ground"): mm/paging.c's page-table code, with
 * the kernel's own paravirt.h, compiled for the host and timed on the
 * page-table work of a fault and an unmap (tests/hosted/pgtable_work.c),
 * in one process, interleaved, under
 *
 *   native    the copy built without CONFIG_PARAVIRT (PARAVIRT=n: inline)
 *   indirect  the CONFIG_PARAVIRT copy as built: call *pv_ops.op(%rip)
 *   patched   the same copy's sites rewritten by the kernel's own patcher
 *             (kernel/x86/paravirt_patch.c) as paravirt=patched does
 *   ident     ... as paravirt=ident does (the accessors one mov)
 *   pv30      the copy built with CONFIG_PV_CALLEE_SAVE too (2.6.30's
 *             callee-save accessor sites, thunks in its table), patched as
 *             paravirt=ident does: the bytes of ident without the clobbers
 *   pv30_patched  ... patched as paravirt=patched does: direct calls to
 *             the thunks at callee-save sites
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

typedef u64 (*work_fn)(u64 pages, u64 rounds);
u64 pgtable_work_pv(u64 pages, u64 rounds);
u64 pgtable_work_pv30(u64 pages, u64 rounds);
u64 pgtable_work_native(u64 pages, u64 rounds);
extern const struct paravirt_site __start_parainstructions_pv[], __stop_parainstructions_pv[];
extern const struct paravirt_site __start_parainstructions_pv30[], __stop_parainstructions_pv30[];
extern void *const pv_ops30[]; /* the 2.6.30 copy's table: pv_ops's layout, thunks in it */

/* One copy of the work: its sites, and the table they call through. */
struct pv_copy {
	const struct paravirt_site *start, *stop;
	void *const *table;
	bool callee_save_accessors; /* its accessor slots hold thunks */
	work_fn work;
};
static const struct pv_copy copy_pv = { __start_parainstructions_pv, __stop_parainstructions_pv,
					(void *const *)&pv_ops, false, pgtable_work_pv };
static const struct pv_copy copy_pv30 = { __start_parainstructions_pv30,
					  __stop_parainstructions_pv30, pv_ops30, true,
					  pgtable_work_pv30 };

static const struct {
	const char *name;
	const struct pv_copy *copy; /* NULL: the native copy, no sites */
	enum pv_mode mode;
} modes[] = {
	{ "native", NULL, PV_MODE_INDIRECT },	  { "indirect", &copy_pv, PV_MODE_INDIRECT },
	{ "patched", &copy_pv, PV_MODE_PATCHED }, { "ident", &copy_pv, PV_MODE_IDENT },
	{ "pv30", &copy_pv30, PV_MODE_IDENT },	  { "pv30_patched", &copy_pv30, PV_MODE_PATCHED },
};
#define NMODES ARRAY_SIZE(modes)

static int self_mem;
static volatile u64 sink;

/* Rewrites every site of copy for mode and checks that each holds what the patcher said. */
static void
patch_sites(const struct pv_copy *copy, enum pv_mode mode)
{
	for (const struct paravirt_site *s = copy->start; s < copy->stop; s++) {
		void *const *slot = copy->table + s->type;
		u16 clobbers = copy->callee_save_accessors && is_entry_accessor(s->type)
				       ? CLBR_RAX
				       : paravirt_target_clobbers(s->type);
		u8 buf[16];
		if (!paravirt_patch_site(mode, s, (u64)slot, (u64)*slot, clobbers, buf) ||
		    pwrite(self_mem, buf, s->len, (off_t)s->addr) != s->len ||
		    memcmp((const void *)s->addr, buf, s->len)) {
			fprintf(stderr, "paravirt_bench: cannot patch the site at %#lx\n", s->addr);
			exit(1);
		}
	}
}

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

static const struct bench_help help = {
	.name = "paravirt_hosted",
	.about =
		"mm/paging.c's page-table work on this CPU under native, indirect, patched, ident\n"
		"and the 2.6.30 builds' call sites: ns per page, and each mode's ratio to native.",
	.synopsis = "",
	.options = "",
	.exits = "  0  the figures were printed\n"
		 "  1  /proc/self/mem could not be opened or a call site not patched\n"
		 "  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	double batchmin[NMODES] = { 0 };

	bench_init(argc, argv, &help);
	self_mem = open("/proc/self/mem", O_RDWR);
	if (self_mem < 0) {
		perror("paravirt_bench: /proc/self/mem");
		return 1;
	}
	printf("# %ld call sites in mm/paging.c's 2.6.25 host copy, %ld in its 2.6.30 one\n",
	       (long)(copy_pv.stop - copy_pv.start), (long)(copy_pv30.stop - copy_pv30.start));
	for (int r = 0; r < bench_repeats(3); r++)
		for (size_t m = 0; m < NMODES; m++) {
			if (modes[m].copy)
				patch_sites(modes[m].copy, modes[m].mode);
			work_fn work = modes[m].copy ? modes[m].copy->work : pgtable_work_native;
			struct bench_stat s = bench_measure_timed(run_work, &work);
			char metric[64];
			bench_metric_name(metric, sizeof(metric), "pte_work_%s", modes[m].name);
			bench_report(metric, s, "ns");
			if (r == 0 || s.batchmin_ns < batchmin[m])
				batchmin[m] = s.batchmin_ns;
		}
	for (size_t m = 1; m < NMODES; m++) {
		char metric[64];
		bench_metric_name(metric, sizeof(metric), "pte_work_%s_over_native", modes[m].name);
		bench_result(metric, batchmin[m] / batchmin[0], "x");
	}
	return 0;
}

/*
 * kbench.c - in-kernel micro-benchmarks, for mechanisms user space cannot
 * reach directly, run after the CPUs are up; the figures are printed in
 * the @result format of user/lib/bench.h (mean over all batches, and the
 * fastest batch as _batchmin), with the knobs in force as the variant.
 *
 *   kbench=ipi   the round trip of a function-call IPI from CPU 0 to each
 *                other CPU and back (send, remote handler, acknowledgement
 *                seen), in ns
 *   kbench=copy  the two user-copy routines of mm/uaccess.c (rep movs and
 *                movnti + sfence) in fstime's pattern: copies of 64 bytes to
 *                a page from one 8 KiB source, one after another through the
 *                pages of a 500 KiB "file" (docs/seeds.md's seed 004), over
 *                and over; TSC cycles per copy, alone and with the copied
 *                bytes read back at once (where lines written around the
 *                cache must come back from memory). Regression 4 (docs/regressions/nocache.md).
 *   kbench=irq   local_irq_save + local_irq_restore, through the paravirt
 *                call sites as paravirt= left them, and as the native
 *                instructions inline; ns per pair. Patched sites should cost
 *                what the inline ones do. Regression 3 (docs/labs/lab3-paravirt.md).
 */
#include "kernel/kbench.h"
#include "kernel/knobs.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/x86/smp.h"
#include "kernel/lib/string.h"
#include "kernel/time/tsc.h"
#include "kernel/lib/vsprintf.h"
#include "mm/page_alloc.h"
#include "mm/uaccess.h"
#include "version.h"

KNOB_ENUM(kbench, "kbench", 0, false, "run an in-kernel micro-benchmark after boot", "none", "ipi",
	  "copy", "irq");

enum { KBENCH_NONE, KBENCH_IPI, KBENCH_COPY, KBENCH_IRQ };

#define BATCH	64
#define BATCHES 200

extern const struct knob __start_knobs[], __stop_knobs[];

static void
nothing(void *arg)
{
}

/* {"os":"rewind","release":"...","knob":"value",...} */
static void
format_variant(char *buf, size_t size)
{
	size_t n = (size_t)ksnprintf(buf, size, "{\"os\":\"rewind\",\"release\":\"%s\"",
				     REWIND_VERSION);

	/* As user/lib/bench.c: the knobs not at their default; text knobs say what runs, not a policy. */
	for (const struct knob *k = __start_knobs; k < __stop_knobs && n < size; k++) {
		if (k->type == KNOB_STRING || READ_ONCE(*k->value) == k->def)
			continue;
		char v[160];
		knob_format_current(k, v, sizeof(v));
		n += (size_t)kscnprintf(buf + n, size - n, ",\"%s\":\"%s\"", k->name, v);
	}
	if (n + 2 < size)
		memcpy(buf + n, "}", 2);
}

/* Straight to the consoles, without a log timestamp: a result line starts with "@result". */
static void
report(const char *variant, const char *metric, u64 value_x100, const char *unit)
{
	char line[1400];
	int n = ksnprintf(line, sizeof(line),
			  "@result {\"bench\":\"kernel\",\"variant\":%s,\"metric\":\"%s\","
			  "\"value\":%lu.%02lu,\"unit\":\"%s\"}\n",
			  variant, metric, value_x100 / 100, value_x100 % 100, unit);
	console_write_all(line, (size_t)MIN(n, (int)sizeof(line) - 1));
}

static void
bench_ipi(const char *variant)
{
	for (unsigned cpu = 1; cpu < ncpus; cpu++) {
		u64 best = ~0ul, total = 0;
		for (int b = 0; b < BATCHES; b++) {
			u64 t0 = rdtsc();
			for (int i = 0; i < BATCH; i++)
				smp_call_mask(1ul << cpu, nothing, NULL);
			u64 cycles = rdtsc() - t0;
			total += cycles;
			best = MIN(best, cycles);
		}
		char metric[48];
		ksnprintf(metric, sizeof(metric), "ipi_call_rtt_cpu0_to_cpu%u", cpu);
		report(variant, metric, tsc_cycles_to_ns(total) * 100 / (BATCH * BATCHES), "ns");
		ksnprintf(metric, sizeof(metric), "ipi_call_rtt_cpu0_to_cpu%u_batchmin", cpu);
		report(variant, metric, tsc_cycles_to_ns(best) * 100 / BATCH, "ns");
	}
}

#define FILE_PAGES  125 /* fstime's default file: 500 KiB */
#define COPY_PASSES 8

static u8 copy_source[8192] __aligned(64); /* fstime's static buffer */
static struct page *file_pages[FILE_PAGES];

/* Sums the n bytes at p a quadword at a time (n a multiple of 8): the read-back. */
static u64
read_back(const u8 *p, size_t n)
{
	u64 sum = 0;

	for (size_t i = 0; i < n; i += 8)
		sum += *(const volatile u64 *)(p + i);
	return sum;
}

/* One pass through the file in copies of size bytes: TSC cycles. */
static u64
copy_pass(size_t (*copy)(void *, const void *, size_t), size_t size, bool with_read, u64 *sink)
{
	u64 t0 = rdtsc();

	for (size_t off = 0; off < (size_t)FILE_PAGES * PAGE_SIZE; off += size) {
		u8 *dst = (u8 *)page_address(file_pages[off / PAGE_SIZE]) + off % PAGE_SIZE;
		copy(dst, copy_source, size);
		if (with_read)
			*sink += read_back(dst, size);
	}
	return rdtsc() - t0;
}

static void
bench_copy(const char *variant)
{
	static const struct {
		const char *name;
		size_t (*copy)(void *, const void *, size_t);
	} routines[] = { { "cached", copy_user_raw }, { "nocache", copy_user_nocache_raw } };
	static const size_t sizes[] = { 64, 256, 1024, 4096 };
	u64 sink = 0;
	int have = 0;

	while (have < FILE_PAGES && (file_pages[have] = alloc_shared_page()))
		have++;
	for (size_t r = 0; have == FILE_PAGES && r < ARRAY_SIZE(routines); r++)
		for (size_t s = 0; s < ARRAY_SIZE(sizes); s++)
			for (int with_read = 0; with_read < 2; with_read++) {
				u64 copies = (u64)FILE_PAGES * PAGE_SIZE / sizes[s], best = ~0ul,
				    total = 0;
				copy_pass(routines[r].copy, sizes[s], with_read, &sink); /* warm */
				for (int p = 0; p < COPY_PASSES; p++) {
					u64 c = copy_pass(routines[r].copy, sizes[s], with_read,
							  &sink);
					total += c;
					best = MIN(best, c);
				}
				char metric[64];
				ksnprintf(metric, sizeof(metric), "copy%s_cycles_%s_%zu",
					  with_read ? "_read" : "", routines[r].name, sizes[s]);
				report(variant, metric, total * 100 / (COPY_PASSES * copies),
				       "cycles");
				ksnprintf(metric, sizeof(metric), "copy%s_cycles_%s_%zu_batchmin",
					  with_read ? "_read" : "", routines[r].name, sizes[s]);
				report(variant, metric, best * 100 / copies, "cycles");
			}
	if (have < FILE_PAGES)
		pr_notice("kbench: copy needs %d free pages; none measured\n", FILE_PAGES);
	while (have > 0)
		put_page(file_pages[--have]);
}

/* BATCH irq-flag pairs through the call sites: TSC cycles (not inlined: one copy of the sites). */
static __attribute__((noinline)) u64
irq_pairs_through_sites(void)
{
	u64 t0 = rdtsc();

	for (int i = 0; i < BATCH; i++)
		local_irq_restore(local_irq_save());
	return rdtsc() - t0;
}

/* The same pairs as the bare instructions, what a perfectly patched site amounts to. */
static __attribute__((noinline)) u64
irq_pairs_inline(void)
{
	u64 t0 = rdtsc();

	for (int i = 0; i < BATCH; i++) {
		u64 f = __native_save_fl();
		__native_irq_disable();
		__native_restore_fl(f);
	}
	return rdtsc() - t0;
}

static void
bench_irq(const char *variant)
{
	static const struct {
		const char *name;
		u64 (*pairs)(void);
	} ways[] = { { "sites", irq_pairs_through_sites }, { "inline", irq_pairs_inline } };
	u64 best[2] = { ~0ul, ~0ul }, total[2] = { 0, 0 };

	for (int b = 0; b < BATCHES; b++)
		for (int w = 0; w < 2; w++) { /* interleaved: load falls on both alike */
			u64 c = ways[w].pairs();
			total[w] += c;
			best[w] = MIN(best[w], c);
		}
	for (int w = 0; w < 2; w++) {
		char metric[48];
		ksnprintf(metric, sizeof(metric), "irq_save_restore_%s", ways[w].name);
		report(variant, metric, tsc_cycles_to_ns(total[w]) * 100 / (BATCH * BATCHES), "ns");
		ksnprintf(metric, sizeof(metric), "irq_save_restore_%s_batchmin", ways[w].name);
		report(variant, metric, tsc_cycles_to_ns(best[w]) * 100 / BATCH, "ns");
	}
}

void
kbench_run(void)
{
	char variant[1024];

	switch (READ_ONCE(kbench)) {
	case KBENCH_IPI:
		format_variant(variant, sizeof(variant));
		if (ncpus < 2)
			pr_notice("kbench: ipi needs two CPUs; none measured\n");
		else
			bench_ipi(variant);
		break;
	case KBENCH_COPY:
		format_variant(variant, sizeof(variant));
		bench_copy(variant);
		break;
	case KBENCH_IRQ:
		format_variant(variant, sizeof(variant));
		bench_irq(variant);
		break;
	}
}

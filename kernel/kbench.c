/*
 * kbench.c - in-kernel micro-benchmarks, for mechanisms user space cannot
 * reach directly. `kbench=ipi` measures, after the CPUs are up, the round
 * trip of a function-call IPI from CPU 0 to each other CPU and back
 * (send, remote handler, acknowledgement seen), and prints the figures in
 * the @result format of user/lib/bench.h (mean over all batches, and the
 * fastest batch as _batchmin), with the knobs in force as the variant.
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
#include "version.h"

KNOB_ENUM(kbench, "kbench", 0, false, "run an in-kernel micro-benchmark after boot", "none", "ipi");

enum { KBENCH_NONE, KBENCH_IPI };

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
		n += (size_t)ksnprintf(buf + n, size - n, ",\"%s\":\"%s\"", k->name, v);
	}
	if (n + 2 < size)
		memcpy(buf + n, "}", 2);
}

/* Straight to the consoles, without a log timestamp: a result line starts with "@result". */
static void
report(const char *variant, const char *metric, u64 ns_x100)
{
	char line[1400];
	int n = ksnprintf(line, sizeof(line),
			  "@result {\"bench\":\"kernel\",\"variant\":%s,\"metric\":\"%s\","
			  "\"value\":%lu.%02lu,\"unit\":\"ns\"}\n",
			  variant, metric, ns_x100 / 100, ns_x100 % 100);
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
		report(variant, metric, tsc_cycles_to_ns(total) * 100 / (BATCH * BATCHES));
		ksnprintf(metric, sizeof(metric), "ipi_call_rtt_cpu0_to_cpu%u_batchmin", cpu);
		report(variant, metric, tsc_cycles_to_ns(best) * 100 / BATCH);
	}
}

void
kbench_run(void)
{
	char variant[1024];

	if (READ_ONCE(kbench) == KBENCH_NONE)
		return;
	format_variant(variant, sizeof(variant));
	if (ncpus < 2) {
		pr_notice("kbench: ipi needs two CPUs; none measured\n");
		return;
	}
	bench_ipi(variant);
}

/*
 * test_profile.c - the sampling profiler (kernel/profile.c): switched on
 * through its knob, every CPU takes samples; a function spinning with
 * interrupts off shows up in its own samples, in mode 'K', with its caller
 * found by the stack walk, and so does the caller of a leaf that runs
 * without a frame of its own; switched off, no CPU takes another.
 *
 * Mechanisms, not rates: each wait is for an event (a CPU's tick applying
 * the knob, a sample counted), bounded by a generous deadline that only a
 * broken profiler reaches, so a loaded host slows the test but cannot fail
 * it.
 */
#include "kernel/ksyms.h"
#include "kernel/ktest.h"
#include "kernel/knobs.h"
#include "kernel/printk.h"
#include "kernel/profile.h"
#include "kernel/sched/sched.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/smp.h"

#define DEADLINE_NS (20ul * 1000 * 1000 * 1000)

static bool
every_cpu(bool (*pred)(unsigned cpu))
{
	for (unsigned i = 0; i < ncpus; i++)
		if ((cpus_online_mask() >> i & 1) && !pred(i))
			return false;
	return true;
}

static bool
sampling(unsigned cpu)
{
	struct profile_cpu_state s;

	profile_cpu_state(cpu, &s);
	return s.rate != 0;
}

static bool
stopped(unsigned cpu)
{
	return !sampling(cpu);
}

static bool
has_samples(unsigned cpu)
{
	struct profile_cpu_state s;

	profile_cpu_state(cpu, &s);
	return s.samples > 0;
}

/* Sleeps (interrupts on: the ticks that apply the knob must run) until pred holds everywhere. */
static bool
wait_every_cpu(bool (*pred)(unsigned cpu))
{
	u64 t0 = ns_since_boot();

	while (!every_cpu(pred)) {
		if (ns_since_boot() - t0 > DEADLINE_NS)
			return false;
		sleep_ns(1000 * 1000);
	}
	return true;
}

static u64
own_samples(void)
{
	struct profile_cpu_state s;

	profile_cpu_state(this_cpu()->id, &s);
	return s.samples;
}

/* Spins with interrupts off until this CPU has taken `more` samples (or the deadline). */
static __attribute__((noinline)) bool
profile_test_spin_irqs_off(u64 more)
{
	u64 t0 = rdtsc(), limit = tsc_hz * (DEADLINE_NS / 1000000000ul), target;
	bool ok = true;

	u64 flags = local_irq_save();
	target = own_samples() + more;
	while (own_samples() < target) {
		if (rdtsc() - t0 > limit) {
			ok = false;
			break;
		}
		for (int i = 0; i < 1000; i++) /* most samples land here, in this function */
			cpu_relax();
	}
	local_irq_restore(flags);
	return ok;
}

/*
 * A leaf without a frame of its own, as gcc makes of a short spin loop
 * (osq_lock's): pauses rdi times. While it runs, rbp is its caller's, so
 * only the return address on top of the stack names that caller.
 */
void profile_test_frameless_spin(u64 turns);
__asm__(".pushsection .text\n"
	".globl profile_test_frameless_spin\n"
	".type profile_test_frameless_spin, @function\n"
	"profile_test_frameless_spin:\n"
	"	xor %eax, %eax\n" /* the loop past the first instruction, which the walk knows */
	"1:	pause\n"
	"	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".size profile_test_frameless_spin, .-profile_test_frameless_spin\n"
	".popsection\n");

/* Runs the frameless spin until a sample in it names this function as a caller (or the deadline). */
static __attribute__((noinline)) bool
profile_test_frameless_caller(void)
{
	u64 spin_off, spin_size, me_off, me_size, t0 = ns_since_boot();
	u64 spin = (u64)profile_test_frameless_spin, me = (u64)profile_test_frameless_caller;

	if (!ksym_lookup(spin, &spin_off, &spin_size) || !ksym_lookup(me, &me_off, &me_size))
		return false;
	while (!profile_find_sample(this_cpu()->id, PROFILE_KERNEL, spin, spin + spin_size, me,
				    me + me_size)) {
		if (ns_since_boot() - t0 > DEADLINE_NS)
			return false;
		profile_test_frameless_spin(100000);
	}
	return true;
}

KTEST(profile_samples_irqs_off_on_every_cpu)
{
	const struct knob *k = knob_find("profile");
	u64 spin_off, spin_size, test_off, test_size;

	CHECK(k != NULL);
	CHECK(ksym_lookup((u64)profile_test_spin_irqs_off, &spin_off, &spin_size));
	CHECK(ksym_lookup((u64)profile_samples_irqs_off_on_every_cpu, &test_off, &test_size));

	CHECK_EQ(knob_set(k, "997"), 0);
	CHECK_EQ(profile_hz, 997);
	CHECK(wait_every_cpu(sampling));

	/* Interrupts off: only an NMI can take these samples. */
	CHECK(profile_test_spin_irqs_off(5));
	u64 spin = (u64)profile_test_spin_irqs_off;
	u64 test = (u64)profile_samples_irqs_off_on_every_cpu;
	CHECK(profile_find_sample(this_cpu()->id, PROFILE_KERNEL_IRQOFF, spin, spin + spin_size,
				  test, test + test_size));
	CHECK(wait_every_cpu(has_samples));
	/* A sample in a frameless leaf keeps the leaf's caller (backtrace.c, caller_before_frame). */
	CHECK(profile_test_frameless_caller());

	CHECK_EQ(knob_set(k, "off"), 0);
	CHECK(wait_every_cpu(stopped));
	u64 before[MAX_CPUS];
	for (unsigned i = 0; i < ncpus; i++) {
		struct profile_cpu_state s;
		profile_cpu_state(i, &s);
		before[i] = s.samples;
	}
	sleep_ns(30 * 1000 * 1000); /* 30 ticks: at 997 Hz this would be ~30 samples a CPU */
	for (unsigned i = 0; i < ncpus; i++) {
		struct profile_cpu_state s;
		profile_cpu_state(i, &s);
		CHECK_EQ(s.samples, before[i]);
	}
	pr_info("ktest:     %u CPUs sampled; CPU %u: %lu samples\n", ncpus, this_cpu()->id,
		before[this_cpu()->id]);
}

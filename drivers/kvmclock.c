/*
 * kvmclock.c - KVM's paravirtual clock; see kvmclock.h.
 *
 * The ABI (Linux Documentation/virt/kvm/msr.rst, "pvclock"): each vCPU
 * writes the guest-physical address of a 32-byte pvclock_vcpu_time_info,
 * with bit 0 set to enable it, to MSR_KVM_SYSTEM_TIME_NEW. The host keeps
 * it current: at its TSC value tsc_timestamp, the time since the host's
 * epoch was system_time ns, and TSC deltas scale to ns by shifting by
 * tsc_shift (left if positive) then multiplying by tsc_to_system_mul / 2^32.
 * An odd version means an update is in progress; a changed version means
 * one happened meanwhile: read again.
 *
 * If the host does not vouch that the areas agree across vCPUs
 * (PVCLOCK_TSC_STABLE), a reading is clamped to the largest one any CPU
 * has returned, so the clocksource never runs backwards.
 */
#include "drivers/kvmclock.h"
#include "kernel/time/clocksource.h"
#include "kernel/x86/paravirt.h"
#include "kernel/x86/percpu.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/vdso/vvar.h"
#include "kernel/x86/x86.h"
#include "mm/layout.h"
#include "mm/page_alloc.h"

#define KVM_CPUID_SIGNATURE	       0x40000000
#define KVM_CPUID_FEATURES	       0x40000001
#define KVM_FEATURE_CLOCKSOURCE2       (1u << 3)
#define KVM_FEATURE_CLOCKSOURCE_STABLE (1u << 24)
#define MSR_KVM_SYSTEM_TIME_NEW	       0x4b564d01
#define PVCLOCK_TSC_STABLE	       (1u << 0)
#define CPUID_HYPERVISOR	       (1u << 31)

struct pvclock_vcpu_time_info {
	u32 version;
	u32 pad0;
	u64 tsc_timestamp;
	u64 system_time;
	u32 tsc_to_system_mul;
	s8 tsc_shift;
	u8 flags;
	u8 pad[2];
} __packed;

BUILD_BUG_ON(sizeof(struct pvclock_vcpu_time_info) != 32);
BUILD_BUG_ON(MAX_CPUS * sizeof(struct pvclock_vcpu_time_info) > PAGE_SIZE);

static struct pvclock_vcpu_time_info *areas; /* one page, MAX_CPUS areas */
static bool host_says_stable;
static u64 last_value; /* the clamp, when not stable */

u32
kvm_cpuid_features(void)
{
	if (!(cpuid(1, 0).ecx & CPUID_HYPERVISOR))
		return 0;
	struct cpuid_regs sig = cpuid(KVM_CPUID_SIGNATURE, 0);
	char name[13];
	memcpy(name, &sig.ebx, 4);
	memcpy(name + 4, &sig.ecx, 4);
	memcpy(name + 8, &sig.edx, 4);
	name[12] = '\0';
	if (strcmp(name, "KVMKVMKVM") != 0 || sig.eax < KVM_CPUID_FEATURES)
		return 0;
	return cpuid(KVM_CPUID_FEATURES, 0).eax;
}

static bool
kvm_has_clock(void)
{
	u32 features = kvm_cpuid_features();

	host_says_stable = features & KVM_FEATURE_CLOCKSOURCE_STABLE;
	return features & KVM_FEATURE_CLOCKSOURCE2;
}

static u64
scale_delta(u64 delta, u32 mul, s8 shift)
{
	if (shift >= 0)
		delta <<= shift;
	else
		delta >>= -shift;
	return (u64)(((unsigned __int128)delta * mul) >> 32);
}

/* One consistent reading of this CPU's area: ns, and whether the host marked it stable. */
static u64
read_area(const struct pvclock_vcpu_time_info *a, bool *stable)
{
	u32 version;
	u64 ns;

	do {
		version = READ_ONCE(a->version);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		u64 delta = rdtsc() - READ_ONCE(a->tsc_timestamp);
		ns = READ_ONCE(a->system_time) +
		     scale_delta(delta, READ_ONCE(a->tsc_to_system_mul), READ_ONCE(a->tsc_shift));
		*stable = READ_ONCE(a->flags) & PVCLOCK_TSC_STABLE;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((version & 1) || version != READ_ONCE(a->version));
	return ns;
}

static u64
kvmclock_read(void)
{
	bool stable;
	u64 flags = local_irq_save(); /* stay on this CPU, with its area */
	u64 ns = read_area(&areas[this_cpu()->id], &stable);
	local_irq_restore(flags);

	if (stable && host_says_stable)
		return ns;
	u64 last = __atomic_load_n(&last_value, __ATOMIC_RELAXED);
	do {
		if (ns <= last)
			return last;
	} while (!__atomic_compare_exchange_n(&last_value, &last, ns, false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return ns;
}

static struct clocksource kvmclock_cs = {
	.name = "kvm-clock",
	.read = kvmclock_read,
	.mask = ~0ull,
	.hz = NSEC_PER_SEC,
	.rating = RATING_KVMCLOCK,
	.vclock_mode = VCLOCK_NONE, /* the vDSO has no pvclock reader (Linux 3.0 had none either) */
};

void
kvmclock_init_cpu(void)
{
	if (!areas)
		return;
	struct pvclock_vcpu_time_info *a = &areas[this_cpu()->id];
	wrmsr(MSR_KVM_SYSTEM_TIME_NEW, virt_to_phys(a) | 1);
}

bool
kvmclock_init(void)
{
	if (!kvm_has_clock())
		return false;
	areas = alloc_zeroed_page();
	if (!areas) {
		pr_warn("kvmclock: no memory for the time areas; not used\n");
		return false;
	}
	kvmclock_init_cpu();
	/*
	 * An invariant TSC is as good and user mode can read it without a
	 * system call: then kvm-clock ranks just below the TSC, as later Linux
	 * kernels rank it.
	 */
	if (cpuid(0x80000000, 0).eax >= 0x80000007 && (cpuid(0x80000007, 0).edx & (1u << 8)))
		kvmclock_cs.rating = RATING_TSC - 1;
	clocksource_register(&kvmclock_cs);
	return true;
}

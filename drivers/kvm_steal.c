/*
 * kvm_steal.c - finding and registering KVM's steal clock; see kvm_steal.h.
 *
 * The ABI (Linux's Documentation/virt/kvm/msr.rst and cpuid.rst): CPUID
 * 0x40000001 EAX bit 5 (KVM_FEATURE_STEAL_TIME) says the host keeps one;
 * each vCPU writes the guest-physical address of its 64-byte-aligned
 * struct kvm_steal_time, with bit 0 set to enable it, to MSR_KVM_STEAL_TIME.
 * TCG and bare metal have none: there steal stays inside CPU time.
 */
#include "drivers/kvm_steal.h"
#include "drivers/kvmclock.h"
#include "kernel/printk.h"
#include "kernel/x86/percpu.h"
#include "kernel/x86/x86.h"
#include "mm/layout.h"
#include "mm/page_alloc.h"

#define KVM_FEATURE_STEAL_TIME (1u << 5)
#define MSR_KVM_STEAL_TIME     0x4b564d03
#define KVM_MSR_ENABLED	       1u

BUILD_BUG_ON(MAX_CPUS * sizeof(struct kvm_steal_time) > PAGE_SIZE);

static struct kvm_steal_time *areas; /* one page, MAX_CPUS areas; NULL: no steal clock */

void
kvm_steal_init_cpu(void)
{
	if (areas)
		wrmsr(MSR_KVM_STEAL_TIME, virt_to_phys(&areas[this_cpu()->id]) | KVM_MSR_ENABLED);
}

void
kvm_steal_init(void)
{
	if (!(kvm_cpuid_features() & KVM_FEATURE_STEAL_TIME)) {
		pr_info("steal: no steal clock (needs KVM's steal time): steal stays in CPU time\n");
		return;
	}
	struct kvm_steal_time *page = alloc_zeroed_page();
	if (!page) {
		pr_warn("steal: no memory for the steal-time areas; not used\n");
		return;
	}
	WRITE_ONCE(areas, page);
	kvm_steal_init_cpu();
	pr_info("steal: KVM steal clock: steal is kept out of CPU time and shown in /proc/stat\n");
}

u64
kvm_steal_clock(void)
{
	const struct kvm_steal_time *st;
	u64 ns;

	if (!READ_ONCE(areas))
		return 0;
	st = &areas[this_cpu()->id];
	while (!kvm_steal_read_once(st, &ns))
		cpu_relax();
	return ns;
}

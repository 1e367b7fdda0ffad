/*
 * kvm_steal.h - KVM's steal clock: how long each vCPU was runnable but not
 * running because the host ran something else. CPU time charged over such
 * a stretch is time the task never had; cputime.c takes it out at the tick
 * and shows it as /proc/stat's steal column.
 *
 * The reading protocol and the per-tick arithmetic are inline here, plain C,
 * so that the host unit tests (tests/unit/test_kvm_steal.c) can run them;
 * the driver that finds and registers the areas is kvm_steal.c.
 */
#ifndef REWIND_KVM_STEAL_H
#define REWIND_KVM_STEAL_H

#include "kernel/lib/types.h"

/*
 * One vCPU's area, 64 bytes aligned to 64, as the host writes it (Linux's
 * Documentation/virt/kvm/msr.rst, MSR_KVM_STEAL_TIME): steal in ns since
 * the area was registered, a version the host makes odd while it writes,
 * and fields rewind does not read.
 */
struct kvm_steal_time {
	u64 steal;
	u32 version;
	u32 flags;
	u8 preempted;
	u8 unused[47];
};

BUILD_BUG_ON(sizeof(struct kvm_steal_time) != 64);

/*
 * One try at reading the area: true when the read is whole, the version
 * even (no write in progress) and the same after as before (none began).
 */
static inline bool
kvm_steal_read_once(const struct kvm_steal_time *st, u64 *steal_ns)
{
	u32 before = READ_ONCE(st->version);

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	*steal_ns = READ_ONCE(st->steal);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return !(before & 1) && before == READ_ONCE(st->version);
}

/*
 * The steal not yet charged, as much of it as one tick can take: a tick's
 * charge can lose no more than the tick, and what is left waits for the
 * next ticks (as Linux's steal_account_process_time carries it). accounted:
 * the steal charged so far, which this advances. A clock that went back
 * (the area registered again) starts the count over.
 */
static inline u64
kvm_steal_take(u64 *accounted, u64 clock_ns, u64 limit_ns)
{
	if (clock_ns < *accounted) {
		*accounted = clock_ns;
		return 0;
	}
	u64 take = MIN(clock_ns - *accounted, limit_ns);

	*accounted += take;
	return take;
}

#ifndef HOSTED
/* On the boot CPU: finds KVM's steal clock and registers its area; says which on the console. */
void kvm_steal_init(void);
/* On each application processor: its own area. */
void kvm_steal_init_cpu(void);
/* This CPU's steal since its area was registered, ns; 0 without a clock. Interrupts off. */
u64 kvm_steal_clock(void);
#endif

#endif

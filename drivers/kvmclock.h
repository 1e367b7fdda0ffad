/*
 * kvmclock.h - KVM's paravirtual clock as a clocksource ("kvm-clock").
 *
 * Present only when CPUID names the KVM hypervisor with the kvmclock
 * feature; everywhere else (TCG, bare metal) these do nothing.
 */
#ifndef REWIND_KVMCLOCK_H
#define REWIND_KVMCLOCK_H

#include "kernel/lib/types.h"

/* KVM's feature bits (CPUID 0x40000001 EAX); 0 when the hypervisor is not KVM. */
u32 kvm_cpuid_features(void);
/* On the boot CPU: registers kvm-clock if KVM offers it; false if not. */
bool kvmclock_init(void);
/* On each application processor, before it reads any clock: its own time area. */
void kvmclock_init_cpu(void);

#endif

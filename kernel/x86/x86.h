/*
 * x86.h - thin wrappers for x86 instructions that have no C equivalent:
 * port I/O, MSRs, CPUID, descriptor-table loads, control registers other
 * than CR3.
 *
 * Not here: anything behind the paravirt boundary (CR3, TLB flushes,
 * interrupt flags, halt, TSC reads, page-table entries); those live in
 * kernel/x86/paravirt.h so that one header decides how they are done.
 */
#ifndef REWIND_X86_H
#define REWIND_X86_H

#include "kernel/lib/types.h"

/* Whether addr is canonical with 48-bit virtual addresses (bits 63..47 all equal). */
static inline bool
is_canonical_address(u64 addr)
{
	return addr < 0x0000800000000000ul || addr >= 0xffff800000000000ul;
}

static inline void
outb(u16 port, u8 v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}
static inline void
outw(u16 port, u16 v)
{
	__asm__ __volatile__("outw %0, %1" : : "a"(v), "Nd"(port));
}
static inline void
outl(u16 port, u32 v)
{
	__asm__ __volatile__("outl %0, %1" : : "a"(v), "Nd"(port));
}
static inline u8
inb(u16 port)
{
	u8 v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u16
inw(u16 port)
{
	u16 v;
	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u32
inl(u16 port)
{
	u32 v;
	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64
rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void
wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

static inline struct cpuid_regs
cpuid(u32 leaf, u32 subleaf)
{
	struct cpuid_regs r;
	__asm__ __volatile__("cpuid"
			     : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			     : "a"(leaf), "c"(subleaf));
	return r;
}

static inline u64
read_cr0(void)
{
	u64 v;
	__asm__ __volatile__("mov %%cr0, %0" : "=r"(v));
	return v;
}
static inline void
write_cr0(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr0" : : "r"(v) : "memory");
}
static inline u64
read_cr4(void)
{
	u64 v;
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(v));
	return v;
}
static inline void
write_cr4(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(v) : "memory");
}
/* Only the NMI writes CR2: to put back the fault address a fault inside it replaced. */
static inline void
write_cr2(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr2" : : "r"(v) : "memory");
}

static inline void
cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

static inline u64
read_rflags(void)
{
	u64 f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

#define MSR_EFER	   0xc0000080
#define MSR_STAR	   0xc0000081
#define MSR_LSTAR	   0xc0000082
#define MSR_FMASK	   0xc0000084
#define MSR_FS_BASE	   0xc0000100
#define MSR_GS_BASE	   0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_APIC_BASE	   0x1b

#define CR0_WP	   (1ul << 16)
#define CR4_TSD	   (1ul << 2) /* rdtsc, rdtscp: #GP outside ring 0 (tsc_mode.h) */
#define CR4_PGE	   (1ul << 7)
#define CR4_OSFXSR (1ul << 9)
#define CR4_SMEP   (1ul << 20)
#define CR4_SMAP   (1ul << 21)
#define RFLAGS_TF  (1ul << 8) /* single-step: #DB after each instruction */
#define RFLAGS_IF  (1ul << 9)
#define RFLAGS_RF  (1ul << 16) /* resume: no instruction breakpoint on the next one */
/*
 * The flags user mode may set by rt_sigreturn or its own iretq: the
 * arithmetic ones, TF, DF, RF, AC (Linux's FIX_EFLAGS).
 */
#define RFLAGS_USER_CHANGEABLE                                                                \
	(0x1ul | 0x4ul | 0x10ul | 0x40ul | 0x80ul | 0x100ul | 0x400ul | 0x800ul | 0x10000ul | \
	 0x40000ul)

#endif

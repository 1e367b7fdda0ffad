/*
 * percpu.h - per-CPU state, reached through the GS base (docs/design.md,
 * "Per-CPU state through the GS base").
 *
 * While a CPU runs kernel code its GS base points at its struct cpu, whose
 * first word points at itself, so this_cpu() is one %gs-relative load and
 * there is no global "current" anything. Entry from user mode does swapgs
 * (kernel/x86/entry_64.asm), which reaches the fields it needs by the
 * offsets kernel/x86/asm-offsets.c computes from this structure: they may
 * move freely.
 */
#ifndef REWIND_PERCPU_H
#define REWIND_PERCPU_H

#include "kernel/lib/types.h"

struct expected_trap;

#define MAX_CPUS 64

/*
 * GDT layout; the order is what syscall/sysret require (STAR). The user
 * selectors are Linux's (cs 0x33, ss 0x2b): debuggers tell a 64-bit
 * process by them (gdb's x86 target description reads cs == 0x33).
 */
enum {
	GDT_NULL,
	GDT_KERNEL_CODE32, /* 0x08: Linux's; unused, keeps the user selectors Linux's */
	GDT_KERNEL_CODE,   /* 0x10 */
	GDT_KERNEL_DATA,   /* 0x18 */
	GDT_USER_CODE32,   /* 0x20: sysret's base; 32-bit user code is never run */
	GDT_USER_DATA,	   /* 0x28 | 3 */
	GDT_USER_CODE,	   /* 0x30 | 3 */
	GDT_TSS,	   /* 0x38, two slots */
	GDT_TSS_HIGH,
	GDT_PER_CPU, /* 0x48 | 3: limit = (node << 12) | cpu, for lsl (vvar.h) */
	GDT_ENTRIES
};
#define KERNEL_CS (GDT_KERNEL_CODE * 8)
#define KERNEL_DS (GDT_KERNEL_DATA * 8)
#define USER_DS	  (GDT_USER_DATA * 8 + 3)
#define USER_CS	  (GDT_USER_CODE * 8 + 3)
#define TSS_SEL	  (GDT_TSS * 8)

/* Interrupt stack table slots (1-based, as the IDT gate encodes them). */
enum { IST_DOUBLE_FAULT = 1, IST_NMI = 2, IST_MACHINE_CHECK = 3, IST_COUNT = 3 };

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct task;
struct profile_cpu;

struct cpu {
	struct cpu *self;     /* %gs:0, this_cpu() */
	u64 user_rsp;	      /* syscall entry: the user stack pointer */
	u64 kernel_rsp;	      /* top of the running task's kernel stack */
	struct task *current; /* the task running here */
	struct task *idle;    /* runs when nothing else can */
	union {
		struct {
			bool need_resched;	 /* switch tasks before returning to user mode */
			bool spinlocks_recorded; /* lockdebug holds records of spinlocks here */
		};
		u16 exit_work; /* either: exit_to_user's one test (entry.c) */
	};
	struct mm *active_mm; /* the address space loaded in CR3 (NULL: the kernel's) */
	u32 id;		      /* 0 .. ncpus-1, 0 = boot CPU */
	u32 apic_id;
	u64 gdt[GDT_ENTRIES] __aligned(16);
	struct tss tss __aligned(16);
	struct expected_trap *expected_trap; /* armed by a self-test, see traps.h */
	u32 pagefault_disabled; /* nonzero: a uaccess fault fails, never sleeps (uaccess.h) */
	bool in_nmi;	    /* running the NMI handler: NMIs blocked until its iretq (traps.c) */
	u64 ticks;	    /* local timer interrupts */
	u64 irqs;	    /* interrupts taken, all vectors */
	u32 timer_nmi_rate; /* LAPIC timer NMIs per second; 0: the timer is the tick (lapic.h) */
	u32 tick_credit;    /* NMI mode: hz per NMI, one tick each time it reaches the rate */
	u64 next_tick_tsc;  /* highres: when the next tick is due (TSC); tickless: the keep-alive */
	bool tick_stopped;  /* idle with its tick stopped (kernel/time/tick.c) */
	u64 next_event_tsc; /* highres: the deadline the one-shot timer counts to; 0: not counting */
	struct profile_cpu *profile; /* the sampling profiler's buffer and state, or NULL */
	bool online;
	u64 hw_dr7;   /* DR7 as loaded for the running task; 0: no breakpoints (debugreg.c) */
	bool tsd;     /* CR4.TSD as loaded for the running task (tsc_mode.h) */
	int ap_start; /* kernel/x86/smp.c: whether the AP or the boot CPU's give-up came first */
};

/* this_cpu() is one load of %gs:0: self stays the first field. */
BUILD_BUG_ON(offsetof(struct cpu, self) != 0);

extern struct cpu *cpus[MAX_CPUS];
extern unsigned ncpus;

static inline struct cpu *
this_cpu(void)
{
	struct cpu *c;
	__asm__ __volatile__("movq %%gs:0, %0" : "=r"(c));
	return c;
}

static inline bool
this_cpu_is_boot(void)
{
	return this_cpu()->id == 0;
}

/* Sets up and loads the boot CPU's GDT, TSS (with IST stacks), GS base and the IDT. */
void cpu_init_boot(void);
/* A struct cpu for an application processor, with its interrupt stacks; NULL if out of memory. */
struct cpu *cpu_alloc(u32 id, u32 apic_id);
/* Loads c's descriptor tables and GS base on the CPU running this (an AP's first steps). */
void cpu_init_ap(struct cpu *c);
/* How user mode learns its CPU number here: an enum vgetcpu_mode (kernel/vdso/vvar.h). */
int cpu_vgetcpu_mode(void);

#endif

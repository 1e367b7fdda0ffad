/*
 * vvar.h - the timekeeping data the kernel shares read-only with user mode.
 *
 * The vDSO (user/vdso/) and the legacy vsyscall page read the clocks from
 * this page without entering the kernel; the kernel's timekeeping core
 * (kernel/time/timekeeping.c) is its only writer. This header is included by
 * both sides, so it depends on nothing but fixed-size integer types.
 *
 * Where user mode finds it: the vvar area is two pages directly below the
 * code that reads it - [HPET registers][vvar_data][code...] - both in each
 * process (the "[vvar]" mapping just below "[vdso]") and at the fixed
 * kernel-half addresses Linux 3.x used for the legacy vsyscall page
 * (VVAR_FIXED_ADDR just below VSYSCALL_ADDR). So the same position-
 * independent clock code reads its data at "my image start - 4096" in both.
 *
 * Reading a clock (the sequence counter protocol, as Linux's vsyscall_gtod_data):
 *   do { s = seq; (retry while odd); rmb; cycles = read vclock; copy base;
 *        rmb; } while (seq != s);
 *   ns = base[id].snsec + ((cycles - cycle_last) & mask) * mult;
 *   time = base[id].sec + (ns >> shift) / 1e9, nsec = (ns >> shift) % 1e9
 * The writer makes seq odd, writes, makes it even (with write barriers).
 * Coarse clocks (REALTIME_COARSE, MONOTONIC_COARSE) are base[id] as is:
 * plain nanoseconds, not shifted, not advanced by the counter.
 */
#ifndef REWIND_VVAR_H
#define REWIND_VVAR_H

#define VSYSCALL_ADDR	     0xffffffffff600000ul /* the legacy vsyscall page */
#define VVAR_FIXED_ADDR	     0xffffffffff5ff000ul /* vvar_data, fixed (Linux 3.x VVAR_ADDRESS) */
#define VVAR_HPET_FIXED_ADDR 0xffffffffff5fe000ul /* the HPET registers, fixed */
#define VVAR_PAGES	     2			  /* [HPET][vvar_data] below the code */
/*
 * Permanent aliases of the two vsyscall images that run code, where a
 * thread caught inside the page by a switch of vsyscall= finishes its call
 * (kernel/vdso/vsyscall.c). The legacy alias has its own [HPET][vvar_data]
 * below it, as the position-independent clock code expects.
 */
#define VSYSCALL_LEGACY_ALIAS 0xffffffffff603000ul /* HPET at -2 pages, vvar_data at -1 */
#define VSYSCALL_NATIVE_ALIAS 0xffffffffff604000ul /* the syscall stubs, executable */
#define VVAR_HPET_COUNTER     0xf0 /* main counter register offset in the HPET page */

/* How user mode reads the counter the kernel's clocksource uses. */
enum vclock_mode {
	VCLOCK_NONE = 0, /* not readable from user mode: make the system call */
	VCLOCK_TSC = 1,	 /* rdtsc (after a fence), clamped to cycle_last */
	VCLOCK_HPET = 2, /* 32-bit HPET main counter in the HPET page */
};

/* How __vdso_getcpu finds the CPU number. */
enum vgetcpu_mode {
	VGETCPU_NONE = 0,   /* make the system call */
	VGETCPU_RDPID = 1,  /* rdpid: TSC_AUX, without reading the TSC */
	VGETCPU_RDTSCP = 2, /* rdtscp: TSC_AUX in ecx */
	VGETCPU_LSL = 3,    /* lsl on the per-CPU GDT segment VGETCPU_SELECTOR */
};

/* TSC_AUX and the per-CPU segment limit both hold (node << 12) | cpu. */
#define VGETCPU_CPU_MASK 0xfff

/* Indexed by clock id (Linux's numbering); the ones the vDSO answers itself. */
#define VVAR_CLOCK_REALTIME	    0
#define VVAR_CLOCK_MONOTONIC	    1
#define VVAR_CLOCK_MONOTONIC_RAW    4
#define VVAR_CLOCK_REALTIME_COARSE  5
#define VVAR_CLOCK_MONOTONIC_COARSE 6
#define VVAR_CLOCK_BOOTTIME	    7
#define VVAR_NCLOCKS		    8
#define VVAR_HRES_CLOCKS	    ((1u << 0) | (1u << 1) | (1u << 4) | (1u << 7))
#define VVAR_COARSE_CLOCKS	    ((1u << 5) | (1u << 6))

struct vvar_timestamp {
	unsigned long long sec;
	unsigned long long snsec; /* nanoseconds << shift (coarse clocks: plain ns) */
};

struct vvar_data {
	unsigned int seq;	       /* odd while the kernel updates the rest */
	int vclock_mode;	       /* enum vclock_mode */
	unsigned long long cycle_last; /* counter value at the last update */
	unsigned long long mask;       /* counter width */
	unsigned int mult, shift;      /* cycles -> ns: (cycles * mult) >> shift */
	struct vvar_timestamp base[VVAR_NCLOCKS];
	int tz_minuteswest, tz_dsttime;	  /* settimeofday's timezone, as gettimeofday reports it */
	unsigned long long hres_res_ns;	  /* clock_getres of the high-resolution clocks */
	unsigned long long coarse_res_ns; /* ... and of the coarse ones (the tick) */
	int getcpu_mode;		  /* enum vgetcpu_mode */
};

/* The selector whose segment limit is (node << 12) | cpu, for lsl (GDT index 9, DPL 3). */
#define VGETCPU_SELECTOR 0x4b

#ifndef __VDSO__
/* Kernel side (kernel/vdso/vvar.c): the one page, allocated at boot. */
#include "kernel/lib/types.h"

extern struct vvar_data *vvar;	   /* the kernel's (writable) view */
extern phys_addr_t vvar_phys;	   /* the page, for mapping into user mode */
extern phys_addr_t vvar_hpet_phys; /* the HPET's register page, or 0 if there is none */

void vvar_init(void);
#endif

#endif

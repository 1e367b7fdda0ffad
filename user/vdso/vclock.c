/*
 * vclock.c - reading the clocks and the CPU number in user mode, from the
 * page the kernel shares read-only (kernel/vdso/vvar.h): the code of the vDSO,
 * and also of the legacy vsyscall page in vsyscall=legacy.
 *
 * The same object is linked twice (user/vdso/vdso.mk): as the vDSO shared
 * object, which exports the __vdso_* names below, and at the fixed address
 * of the vsyscall page, with vclock_gettimeofday, vclock_time and
 * vclock_getcpu at the entries 0x000, 0x400, 0x800. Both linker scripts put
 * vvar_data_page one page below the image and vvar_hpet_page two pages
 * below; the code reaches them RIP-relatively, so it runs unchanged at
 * either place and needs no relocation.
 *
 * Whatever the page cannot answer - a clock the kernel's counter cannot be
 * read for in user mode (VCLOCK_NONE), a page never filled in (seq 0), an
 * unknown or CPU-time clock, no fast getcpu - goes to the real system call,
 * with Linux's convention: the result is the call's raw return, -errno.
 *
 * tests/hosted/vclock_bench.c also compiles this file into a host program,
 * with a page it fills itself, to time this code on real silicon.
 */
#include "kernel/vdso/vvar.h"
#include "uapi/time.h" /* the Linux layouts: this code sees no libc headers */
#include "uapi/unistd.h"
#include "kernel/time/time64.h"

typedef unsigned long long u64;

/*
 * Defined by the linker scripts, relative to the image (vvar.h's layout).
 * Not declared const although user mode only reads them: the compiler
 * would take a const object for unchanging and keep its fields in
 * registers across the sequence loop, mixing two updates.
 */
#define HIDDEN __attribute__((visibility("hidden")))
extern struct vvar_data vvar_data_page HIDDEN;
extern unsigned char vvar_hpet_page[4096] HIDDEN;

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
/* x86 does not reorder loads with loads: keeping the compiler in order is enough. */
#define read_barrier() __asm__ __volatile__("" ::: "memory")

static long
syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(nr), "D"(a), "S"(b)
			     : "rcx", "r11", "memory");
	return ret;
}

static long
syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(nr), "D"(a), "S"(b), "d"(c)
			     : "rcx", "r11", "memory");
	return ret;
}

/* The sequence count to check against; 0 means the kernel never filled the page. */
static unsigned
read_begin(const struct vvar_data *v)
{
	unsigned seq;

	while ((seq = READ_ONCE(v->seq)) & 1)
		__asm__ __volatile__("pause");
	read_barrier();
	return seq;
}

static int
read_retry(const struct vvar_data *v, unsigned seq)
{
	read_barrier();
	return READ_ONCE(v->seq) != seq;
}

/*
 * rdtsc may run ahead of earlier loads; the fence keeps it after the
 * sequence read. (Not rdtscp, which Linux 6.1 patches in where the CPU has
 * it: on this project's AMD host it cost 2-3 ns more than lfence; rdtsc -
 * tests/hosted/vclock_bench measures it.) A TSC slightly behind the CPU that last updated the page
 * must not make time go backwards, hence the clamp to cycle_last.
 */
static u64
read_tsc(const struct vvar_data *v)
{
	unsigned lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	u64 now = (u64)hi << 32 | lo, last = v->cycle_last;
	return now >= last ? now : last;
}

static u64
read_hpet(void)
{
	return READ_ONCE(*(const unsigned *)(vvar_hpet_page + VVAR_HPET_COUNTER));
}

/*
 * A high-resolution clock from the counter; -1 when user mode cannot read
 * the counter. Inlined into its callers: a call and a return are two more
 * indirect branches on the hot path (each a lookup under TCG).
 */
static inline __attribute__((always_inline)) int
read_hres(unsigned id, struct kernel_timespec *ts)
{
	const struct vvar_data *v = &vvar_data_page;
	u64 sec, ns, cycles;
	unsigned seq;

	do {
		seq = read_begin(v);
		int mode = READ_ONCE(v->vclock_mode);
		if (mode == VCLOCK_TSC)
			cycles = read_tsc(v);
		else if (mode == VCLOCK_HPET)
			cycles = read_hpet();
		else
			return -1;
		sec = v->base[id].sec;
		ns = (v->base[id].snsec + ((cycles - v->cycle_last) & v->mask) * v->mult) >>
		     v->shift;
	} while (read_retry(v, seq));
	ts->tv_sec = (long)(sec + ns / NSEC_PER_SEC);
	ts->tv_nsec = (long)(ns % NSEC_PER_SEC);
	return 0;
}

/* A coarse clock: the time of the last tick, as the kernel stored it; -1 if the page is empty. */
static int
read_coarse(unsigned id, struct kernel_timespec *ts)
{
	const struct vvar_data *v = &vvar_data_page;
	u64 sec, ns;
	unsigned seq;

	do {
		seq = read_begin(v);
		if (seq == 0)
			return -1;
		sec = v->base[id].sec;
		ns = v->base[id].snsec;
	} while (read_retry(v, seq));
	ts->tv_sec = (long)sec;
	ts->tv_nsec = (long)ns;
	return 0;
}

static int
is_clock(unsigned id, unsigned set)
{
	return id < VVAR_NCLOCKS && (set & (1u << id));
}

int
vclock_gettime(int clock, struct kernel_timespec *ts)
{
	unsigned id = (unsigned)clock;

	if (is_clock(id, VVAR_HRES_CLOCKS) && read_hres(id, ts) == 0)
		return 0;
	if (is_clock(id, VVAR_COARSE_CLOCKS) && read_coarse(id, ts) == 0)
		return 0;
	return (int)syscall2(__NR_clock_gettime, clock, (long)ts);
}

int
vclock_gettimeofday(struct kernel_timeval *tv, struct kernel_timezone *tz)
{
	const struct vvar_data *v = &vvar_data_page;
	struct kernel_timespec ts;

	if (READ_ONCE(v->seq) == 0 || (tv && read_hres(VVAR_CLOCK_REALTIME, &ts) != 0))
		return (int)syscall2(__NR_gettimeofday, (long)tv, (long)tz);
	if (tv) {
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	if (tz) {
		tz->tz_minuteswest = v->tz_minuteswest;
		tz->tz_dsttime = v->tz_dsttime;
	}
	return 0;
}

/* The seconds of the last tick: one load, no sequence loop (a torn read cannot happen to one word). */
long
vclock_time(long *t)
{
	const struct vvar_data *v = &vvar_data_page;

	if (READ_ONCE(v->seq) == 0)
		return syscall2(__NR_time, (long)t, 0);
	long sec = (long)READ_ONCE(v->base[VVAR_CLOCK_REALTIME].sec);
	if (t)
		*t = sec;
	return sec;
}

int
vclock_getres(int clock, struct kernel_timespec *res)
{
	const struct vvar_data *v = &vvar_data_page;
	unsigned id = (unsigned)clock;
	int hres = is_clock(id, VVAR_HRES_CLOCKS), coarse = is_clock(id, VVAR_COARSE_CLOCKS);

	if (READ_ONCE(v->seq) == 0 || !(hres || coarse))
		return (int)syscall2(__NR_clock_getres, clock, (long)res);
	if (res) {
		res->tv_sec = 0;
		res->tv_nsec = (long)(hres ? v->hres_res_ns : v->coarse_res_ns);
	}
	return 0;
}

/* TSC_AUX and the per-CPU segment limit both hold (node << 12) | cpu (vvar.h). */
long
vclock_getcpu(unsigned *cpu, unsigned *node, void *unused_cache)
{
	unsigned long p;

	switch (READ_ONCE(vvar_data_page.getcpu_mode)) {
	case VGETCPU_RDPID:
		__asm__ __volatile__("rdpid %0" : "=r"(p));
		break;
	case VGETCPU_RDTSCP: {
		unsigned aux;
		__asm__ __volatile__("rdtscp" : "=c"(aux) : : "eax", "edx");
		p = aux;
		break;
	}
	case VGETCPU_LSL:
		__asm__ __volatile__("lsl %1, %k0" : "=r"(p) : "r"(VGETCPU_SELECTOR));
		break;
	default:
		return syscall3(__NR_getcpu, (long)cpu, (long)node, (long)unused_cache);
	}
	if (cpu)
		*cpu = (unsigned)(p & VGETCPU_CPU_MASK);
	if (node)
		*node = (unsigned)(p >> 12);
	return 0;
}

#ifndef VCLOCK_HOSTED /* tests/hosted/ links this code into a host program: no exports there */
/*
 * The vDSO's exported names (version LINUX_2.6, user/vdso/vdso.map), with
 * the weak unprefixed aliases Linux has. Nothing here calls them, so they
 * need no PLT and the image no relocation.
 */
#define VDSO_EXPORT(name, target) \
	__typeof__(target) name __attribute__((alias(#target), visibility("default")))
#define VDSO_WEAK_EXPORT(name, target) \
	__typeof__(target) name __attribute__((weak, alias(#target), visibility("default")))

VDSO_EXPORT(__vdso_clock_gettime, vclock_gettime);
VDSO_EXPORT(__vdso_gettimeofday, vclock_gettimeofday);
VDSO_EXPORT(__vdso_time, vclock_time);
VDSO_EXPORT(__vdso_getcpu, vclock_getcpu);
VDSO_EXPORT(__vdso_clock_getres, vclock_getres);
VDSO_WEAK_EXPORT(clock_gettime, vclock_gettime);
VDSO_WEAK_EXPORT(gettimeofday, vclock_gettimeofday);
VDSO_WEAK_EXPORT(time, vclock_time);
VDSO_WEAK_EXPORT(getcpu, vclock_getcpu);
VDSO_WEAK_EXPORT(clock_getres, vclock_getres);
#endif

/*
 * vsyscalltests - the vDSO and the legacy vsyscall page, from user mode.
 *
 * Every way of asking the time or the CPU - the system call, the vDSO
 * function found through AT_SYSINFO_EHDR, the fixed vsyscall entry - must
 * give the same answers, never going backwards from one route to the next;
 * musl itself must use the vDSO; and on rewind each vsyscall= mode, set at
 * run time through /proc/sys/rewind/vsyscall, must behave as Linux's did
 * (permissions in /proc/self/maps, which uses work, which give SIGSEGV).
 * The mode is put back after every test.
 *
 * The same binary runs on the build host's Linux, where the mode tests
 * are skipped (no knob to switch) and the rest must pass too.
 */
#define _GNU_SOURCE
#include "lib/clock_routes.h"
#include "lib/procfile.h"
#include "lib/testing.h"
#include "lib/vdso.h"

#include <errno.h>
#include <setjmp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <time.h>
#include <unistd.h>

#define VSYSCALL_PAGE 0xffffffffff600000ul
#define SAMPLES	      200

/* The knobs the tests switch, and their values when the suite started (restored after each test). */
static struct saved_knob {
	const char *name;
	char value[32];
} saved_knobs[] = { { "vsyscall", "" }, { "clocksource", "" } };

/* ---- helpers ----------------------------------------------------------------- */

/* Sets the knob and checks that the kernel took the value (a refused one leaves the old). */
static void
set_knob(const char *name, const char *value)
{
	char now[64];

	if (knob_write(name, value) != 0)
		fail("writing %s to /proc/sys/rewind/%s failed: %s", value, name, strerror(errno));
	if (knob_read(name, now, sizeof(now)) != 0)
		fail("cannot read /proc/sys/rewind/%s back", name);
	if (strcmp(now, value) != 0)
		fail("/proc/sys/rewind/%s reads '%s' after writing '%s'", name, now, value);
}

static void
set_mode(const char *mode)
{
	set_knob("vsyscall", mode);
}

static void
require_rewind(void)
{
	if (!on_rewind())
		skip("no /proc/sys/rewind: the vsyscall mode cannot be switched here (not rewind)");
}

/* The line of /proc/self/maps naming name (e.g. "[vdso]") into line; 0, or -1 if absent. */
static int
maps_line(const char *name, char *line, size_t size)
{
	static char maps[65536];

	if (read_text_file("/proc/self/maps", maps, sizeof(maps)) < 0)
		fail("cannot read /proc/self/maps");
	for (char *l = maps; *l;) {
		char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		if (len > strlen(name) && memcmp(l + len - strlen(name), name, strlen(name)) == 0) {
			snprintf(line, size, "%.*s", (int)len, l);
			return 0;
		}
		l += len + (end ? 1 : 0);
	}
	return -1;
}

static int
run_in_child(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = xfork();
	if (pid == 0) {
		fn();
		_exit(0);
	}
	return wait_status(pid);
}

static void
expect_child(void (*fn)(void), int sig, const char *what)
{
	int status = run_in_child(fn);

	if (sig)
		expect_signaled(status, sig, what);
	else
		expect_exited(status, 0, what);
}

static long long
ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ll + ts->tv_nsec;
}

static long long
tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000ll + tv->tv_usec;
}

static void
pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	CHECK_OK(sched_setaffinity(0, sizeof(set), &set));
}

/*
 * Calls fn(a, b) with every register the C ABI makes callee-saved (rbx,
 * rbp, r12-r15) holding a pattern, and returns a bit for each that came
 * back different (bit 0 rbx, 1 rbp, 2 r12 ... 5 r15); *ret gets rax.
 */
long checked_call(void *fn, long a, long b, long *ret);
__asm__(".text\n"
	".globl checked_call\n"
	"checked_call:\n"
	"	push %rbx\n	push %rbp\n	push %r12\n	push %r13\n	push %r14\n	push %r15\n"
	"	push %rcx\n" /* ret, and 16-byte stack alignment for the call */
	"	mov %rdi, %rax\n	mov %rsi, %rdi\n	mov %rdx, %rsi\n"
	"	movabs $0x1111111111111111, %rbx\n	movabs $0x2222222222222222, %rbp\n"
	"	movabs $0x3333333333333333, %r12\n	movabs $0x4444444444444444, %r13\n"
	"	movabs $0x5555555555555555, %r14\n	movabs $0x6666666666666666, %r15\n"
	"	call *%rax\n"
	"	pop %rcx\n	mov %rax, (%rcx)\n	xor %eax, %eax\n"
	"	movabs $0x1111111111111111, %rdx\n	cmp %rdx, %rbx\n	setne %cl\n	or %cl, %al\n"
	"	movabs $0x2222222222222222, %rdx\n	cmp %rdx, %rbp\n	setne %cl\n	shl $1, %cl\n	or %cl, %al\n"
	"	movabs $0x3333333333333333, %rdx\n	cmp %rdx, %r12\n	setne %cl\n	shl $2, %cl\n	or %cl, %al\n"
	"	movabs $0x4444444444444444, %rdx\n	cmp %rdx, %r13\n	setne %cl\n	shl $3, %cl\n	or %cl, %al\n"
	"	movabs $0x5555555555555555, %rdx\n	cmp %rdx, %r14\n	setne %cl\n	shl $4, %cl\n	or %cl, %al\n"
	"	movabs $0x6666666666666666, %rdx\n	cmp %rdx, %r15\n	setne %cl\n	shl $5, %cl\n	or %cl, %al\n"
	"	pop %r15\n	pop %r14\n	pop %r13\n	pop %r12\n	pop %rbp\n	pop %rbx\n"
	"	ret\n");

/*
 * Calls gettimeofday(tv, NULL) through the vsyscall page with rcx and r11
 * holding a pattern and gives back what they held on the return, and the
 * address the call returned to. sysret takes rip from rcx and rflags from
 * r11, so a trap that leaves by sysret must have put them there; iret
 * restores both from the frame, untouched.
 */
void vsyscall_rcx_r11(void *tv, unsigned long out[3]);
__asm__(".text\n"
	".globl vsyscall_rcx_r11\n"
	"vsyscall_rcx_r11:\n"
	"	push %rsi\n" /* out, and 16-byte stack alignment for the call */
	"	xor %esi, %esi\n"
	"	movabs $0x7777777777777777, %rcx\n	movabs $0x8888888888888888, %r11\n"
	"	movabs $0xffffffffff600000, %rax\n"
	"	call *%rax\n"
	"1:	pop %rsi\n"
	"	mov %rcx, (%rsi)\n	mov %r11, 8(%rsi)\n	lea 1b(%rip), %rax\n	mov %rax, 16(%rsi)\n"
	"	ret\n");

/* A trap leaves by sysret in trap-sysret (docs/seeds.md, seed 001's fix), by iret in trap. */
TEST(trap_sysret_returns_by_sysret)
{
	static const struct {
		const char *mode;
		bool by_sysret;
	} ways[] = { { "trap", false }, { "trap-sysret", true } };
	struct timeval tv;
	unsigned long out[3];

	require_rewind();
	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		set_mode(ways[i].mode);
		vsyscall_rcx_r11(&tv, out);
		if (ways[i].by_sysret &&
		    (out[0] != out[2] || (out[1] & 0x202) != 0x202 || out[1] >> 32 != 0))
			fail("vsyscall=%s: rcx %#lx r11 %#lx after the call, want the return "
			     "address %#lx and the user rflags (IF set): the trap did not leave "
			     "by sysret",
			     ways[i].mode, out[0], out[1], out[2]);
		if (!ways[i].by_sysret &&
		    (out[0] != 0x7777777777777777ul || out[1] != 0x8888888888888888ul))
			fail("vsyscall=%s: rcx %#lx r11 %#lx after the call, want them as they "
			     "were (iret restores every register)",
			     ways[i].mode, out[0], out[1]);
	}
}

/* ---- the vDSO ------------------------------------------------------------------- */

TEST(vdso_announced)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	char line[256], want[32];

	CHECK(base != 0);
	CHECK_EQ(memcmp((const void *)base, "\177ELF", 4), 0);
	if (maps_line("[vdso]", line, sizeof(line)) < 0)
		fail("no [vdso] line in /proc/self/maps");
	snprintf(want, sizeof(want), "%lx-", base);
	if (strncmp(line, want, strlen(want)) != 0 || !strstr(line, " r-xp "))
		fail("[vdso] line '%s', want it at %#lx, r-xp", line, base);
	if (maps_line("[vvar]", line, sizeof(line)) < 0 || !strstr(line, " r--p "))
		fail("no read-only [vvar] line in /proc/self/maps");
	if (on_rewind()) { /* rewind's layout: exactly two vvar pages right below the code */
		unsigned long start, end;
		CHECK_EQ(sscanf(line, "%lx-%lx", &start, &end), 2);
		if (end != base || end - start != 2 * 4096)
			fail("[vvar] is %#lx-%#lx, want the two pages below %#lx", start, end,
			     base);
	}
}

TEST(vdso_symbols)
{
	static const char *const names[] = {
		"__vdso_clock_gettime",
		"__vdso_gettimeofday",
		"__vdso_time",
		"__vdso_getcpu",
		"__vdso_clock_getres",
		"clock_gettime",
		"gettimeofday",
		"time",
		"getcpu",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!vdso_sym(names[i]))
			fail("the vDSO has no %s of version LINUX_2.6", names[i]);
	CHECK_EQ(vdso_sym("__vdso_nonexistent"), NULL);
	CHECK_EQ(vdso_sym("__vdso_time"), vdso_sym("time"));
}

static void
call_clock_gettime_without_vdso(void)
{
	struct timespec ts;
	unsigned long base = getauxval(AT_SYSINFO_EHDR);

	clock_gettime(CLOCK_MONOTONIC, &ts); /* musl finds and remembers the vDSO function */
	if (munmap((void *)base, 4096) != 0)
		_exit(EXIT_SKIP);
	clock_gettime(CLOCK_MONOTONIC, &ts); /* through the vDSO: now a jump to nowhere */
	_exit(3);
}

/* musl's clock_gettime must use the vDSO: with the vDSO unmapped it can only crash. */
TEST(musl_uses_vdso)
{
	int status = run_in_child(call_clock_gettime_without_vdso);

	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP)
		skip("this kernel refuses munmap of [vdso] (Linux 6.15+ seals the system mappings)");
	expect_signaled(status, SIGSEGV, "clock_gettime after munmap of [vdso]");
}

static void
use_vdso_after_dontneed(void)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	time_fn vtime = (time_fn)vdso_sym("__vdso_time");

	if (madvise((void *)base, 4096, MADV_DONTNEED) != 0)
		_exit(2);
	_exit(vtime(NULL) > 0 ? 0 : 3);
}

/* The mappings are shared kernel pages: not writable, [vvar] not executable; they survive fork and madvise. */
TEST(vdso_special_mappings)
{
	char line[256];
	unsigned long start, end;

	if (maps_line("[vvar]", line, sizeof(line)) < 0 ||
	    sscanf(line, "%lx-%lx", &start, &end) != 2)
		fail("no [vvar] line");
	CHECK_ERR(EACCES, mprotect((void *)start, end - start, PROT_READ | PROT_WRITE));
	CHECK_ERR(EACCES, mprotect((void *)start, end - start,
				   PROT_READ | PROT_EXEC)); /* data, never code */
	if (on_rewind()) /* Linux lets the vDSO be made writable (copy on write), rewind does not */
		CHECK_ERR(EACCES, mprotect((void *)getauxval(AT_SYSINFO_EHDR), 4096,
					   PROT_READ | PROT_WRITE | PROT_EXEC));
	expect_child(use_vdso_after_dontneed, 0, "the vDSO after fork and MADV_DONTNEED");
}

/* ---- every route agrees ------------------------------------------------------------ */

static const clockid_t clocks[] = {
	CLOCK_REALTIME, CLOCK_MONOTONIC,       CLOCK_MONOTONIC_RAW,
	CLOCK_BOOTTIME, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE,
};

static int
is_coarse(clockid_t c)
{
	return c == CLOCK_REALTIME_COARSE || c == CLOCK_MONOTONIC_COARSE;
}

/* syscall, vDSO, syscall, vDSO ...: each reading at least the one before (coarse: within a tick). */
TEST(clock_gettime_routes_agree)
{
	struct clock_routes sys = clock_routes_get(ROUTE_SYSCALL),
			    vdso = clock_routes_get(ROUTE_VDSO);

	CHECK(vdso.clock_gettime != NULL);
	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		struct timespec res, t[4];
		CHECK_OK(clock_getres(clocks[c], &res));
		long long slack = is_coarse(clocks[c]) ? ts_ns(&res) : 0;
		for (int i = 0; i < SAMPLES; i++) {
			CHECK_EQ(sys.clock_gettime(clocks[c], &t[0]), 0);
			CHECK_EQ(vdso.clock_gettime(clocks[c], &t[1]), 0);
			CHECK_EQ(sys.clock_gettime(clocks[c], &t[2]), 0);
			CHECK_EQ(vdso.clock_gettime(clocks[c], &t[3]), 0);
			for (int k = 1; k < 4; k++)
				if (ts_ns(&t[k]) + slack < ts_ns(&t[k - 1]))
					fail("clock %d went back from %lld to %lld ns (route %s after %s)",
					     (int)clocks[c], ts_ns(&t[k - 1]), ts_ns(&t[k]),
					     k % 2 ? "vdso" : "syscall",
					     k % 2 ? "syscall" : "vdso");
		}
	}
}

TEST(clock_getres_routes_agree)
{
	typedef int (*getres_fn)(clockid_t, struct timespec *);
	getres_fn vgetres = (getres_fn)vdso_sym("__vdso_clock_getres");

	CHECK(vgetres != NULL);
	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		struct timespec a, b;
		CHECK_OK(clock_getres(clocks[c], &a));
		CHECK_EQ(vgetres(clocks[c], &b), 0);
		if (ts_ns(&a) != ts_ns(&b))
			fail("clock %d: resolution %lld ns by syscall, %lld ns by the vDSO",
			     (int)clocks[c], ts_ns(&a), ts_ns(&b));
	}
	CHECK_EQ(vgetres(12345, &(struct timespec){ 0 }), -EINVAL);
}

/* The routes this kernel offers now: syscall, vDSO, and the vsyscall page when it is usable. */
static int
available_routes(struct clock_routes *r)
{
	int n = 0;

	for (int i = 0; i < NROUTES; i++) {
		r[n] = clock_routes_get((enum clock_route)i);
		if (r[n].gettimeofday)
			n++;
	}
	return n;
}

TEST(gettimeofday_routes_agree)
{
	struct clock_routes r[NROUTES];
	int n = available_routes(r);

	CHECK(n >= 2);
	for (int i = 0; i < SAMPLES; i++) {
		struct timeval tv[NROUTES + 1];
		struct timezone tz[2];
		for (int k = 0; k <= n; k++) /* A, B, C, A */
			CHECK_EQ(r[k % n].gettimeofday(&tv[k], k < 2 ? &tz[k] : NULL), 0);
		for (int k = 1; k <= n; k++)
			if (tv_us(&tv[k]) < tv_us(&tv[k - 1]))
				fail("gettimeofday went back from %lld to %lld us (%s after %s)",
				     tv_us(&tv[k - 1]), tv_us(&tv[k]),
				     clock_route_name((enum clock_route)(k % n)),
				     clock_route_name((enum clock_route)(k - 1)));
		CHECK(tz[0].tz_minuteswest == tz[1].tz_minuteswest &&
		      tz[0].tz_dsttime == tz[1].tz_dsttime);
	}
}

/* time() is the seconds of the last tick: within a second of gettimeofday, never going back. */
TEST(time_routes_agree)
{
	struct clock_routes r[NROUTES];
	int n = available_routes(r);

	for (int i = 0; i < SAMPLES; i++) {
		time_t t[NROUTES + 1], stored = 0;
		struct timeval tv;
		for (int k = 0; k <= n; k++)
			t[k] = r[k % n].time(k == 1 ? &stored : NULL);
		CHECK_EQ(stored, t[1]);
		gettimeofday(&tv, NULL);
		for (int k = 1; k <= n; k++)
			if (t[k] < t[k - 1])
				fail("time went back from %ld to %ld (%s after %s)", (long)t[k - 1],
				     (long)t[k], clock_route_name((enum clock_route)(k % n)),
				     clock_route_name((enum clock_route)(k - 1)));
		if (tv.tv_sec < t[n] || tv.tv_sec > t[n] + 1)
			fail("time says %ld, gettimeofday %ld", (long)t[n], (long)tv.tv_sec);
	}
}

TEST(getcpu_routes_agree)
{
	struct clock_routes r[NROUTES];
	int n = available_routes(r);
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);

	for (int cpu = 0; cpu < ncpus && cpu < 64; cpu++) {
		pin_to(cpu);
		for (int k = 0; k < n; k++) {
			unsigned got = ~0u, node = ~0u;
			CHECK_EQ(r[k].getcpu(&got, &node, NULL), 0);
			if (got != (unsigned)cpu || node != 0)
				fail("getcpu by %s says cpu %u node %u, pinned to cpu %d node 0",
				     clock_route_name((enum clock_route)k), got, node, cpu);
			CHECK_EQ(r[k].getcpu(NULL, NULL, NULL), 0);
		}
	}
}

/* Whatever a route does inside, the registers its caller keeps must come back. */
TEST(callee_saved_registers_kept)
{
	struct clock_routes r[NROUTES];
	int n = available_routes(r);

	for (int k = 0; k < n; k++) {
		struct timeval tv;
		unsigned cpu;
		long ret;
		void *fns[] = { (void *)r[k].gettimeofday, (void *)r[k].time, (void *)r[k].getcpu };
		long args[] = { (long)&tv, 0, (long)&cpu };
		for (int f = 0; f < 3; f++) {
			long changed = checked_call(fns[f], args[f], 0, &ret);
			if (changed)
				fail("route %s, function %d: callee-saved registers changed (mask %#lx)",
				     clock_route_name((enum clock_route)k), f, changed);
			CHECK(f == 1 ? ret > 0 : ret == 0);
		}
	}
}

/* ---- the vsyscall page in each mode (rewind) ------------------------------------------ */

struct mode_expect {
	const char *mode;
	const char *perms;		  /* in /proc/self/maps, or NULL: no line */
	int read_sig;			  /* reading the page: 0 works, else this signal */
	int call_sig;			  /* calling gettimeofday */
	int misaligned_sig;		  /* calling 0xffffffffff600001; -1: not checked */
	int bad_pointer_sig;		  /* gettimeofday((void *)1, 0); -1: not checked */
	const unsigned char *first_bytes; /* of the page, when readable and known */
};

static const unsigned char syscall_stub[] = { 0xb8, 0x60, 0, 0, 0, 0x0f, 0x05, 0xc3 };
static const unsigned char int_cc[] = { 0xcd, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc };

/*
 * In the trap modes the page between entries is int3, as Linux 3.0's was, so
 * a misaligned call ends in SIGTRAP there; the #PF modes give SIGSEGV.
 */
static const struct mode_expect modes[] = {
	{ "legacy", "r-xp", 0, 0, -1, -1, NULL },
	{ "trap", "r-xp", 0, 0, SIGTRAP, SIGSEGV, int_cc },
	{ "trap-sysret", "r-xp", 0, 0, SIGTRAP, SIGSEGV, int_cc },
	{ "native", "r-xp", 0, 0, -1, -1, syscall_stub },
	{ "emulate", "r--p", 0, 0, SIGSEGV, SIGSEGV, syscall_stub },
	{ "xonly", "--xp", SIGSEGV, 0, SIGSEGV, SIGSEGV, NULL },
	{ "none", NULL, SIGSEGV, SIGSEGV, SIGSEGV, -1, NULL },
};

static const struct mode_expect *current_expect;

static void
read_page(void)
{
	const volatile unsigned char *page = (const unsigned char *)VSYSCALL_PAGE;
	const unsigned char *want = current_expect->first_bytes;

	for (int i = 0; i < 8; i++)
		if (want && page[i] != want[i])
			_exit(10 + i);
	_exit(page[0x400] == 0 ? 9 : 0); /* every image has code or int3 at the time entry */
}

static void
call_page(void)
{
	gettimeofday_fn gtod = (gettimeofday_fn)VSYSCALL_PAGE;
	struct timeval a, b;
	struct timespec coarse;

	/*
	 * time() is the coarse clock (the last tick's, as Linux's): it lags
	 * gettimeofday by however long ago the tick was, which a loaded host
	 * stretches past a second boundary. So it is compared with the coarse
	 * clock read before, which it may not fall behind.
	 */
	clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
	gettimeofday(&a, NULL);
	if (gtod(&b, NULL) != 0 || tv_us(&b) < tv_us(&a))
		_exit(2);
	_exit(((time_fn)(VSYSCALL_PAGE + 0x400))(NULL) >= coarse.tv_sec ? 0 : 3);
}

static void
call_misaligned(void)
{
	((gettimeofday_fn)(VSYSCALL_PAGE + 1))(NULL, NULL);
	_exit(0);
}

static void
call_bad_pointer(void)
{
	((gettimeofday_fn)VSYSCALL_PAGE)((struct timeval *)1, NULL);
	_exit(0);
}

static void
check_mode(const struct mode_expect *e)
{
	char line[256], what[96];

	set_mode(e->mode);
	current_expect = e;
	int shown = maps_line("[vsyscall]", line, sizeof(line)) == 0;
	if (!e->perms && shown)
		fail("vsyscall=%s: /proc/self/maps shows '%s', want no line", e->mode, line);
	if (e->perms && (!shown || strncmp(line, "ffffffffff600000-ffffffffff601000 ", 34) != 0 ||
			 strncmp(line + 34, e->perms, 4) != 0))
		fail("vsyscall=%s: maps line '%s', want ffffffffff600000-ffffffffff601000 %s",
		     e->mode, shown ? line : "(none)", e->perms);
	snprintf(what, sizeof(what), "vsyscall=%s: reading the page", e->mode);
	expect_child(read_page, e->read_sig, what);
	snprintf(what, sizeof(what), "vsyscall=%s: calling gettimeofday and time", e->mode);
	expect_child(call_page, e->call_sig, what);
	if (e->misaligned_sig >= 0) {
		snprintf(what, sizeof(what), "vsyscall=%s: calling 0xffffffffff600001", e->mode);
		expect_child(call_misaligned, e->misaligned_sig, what);
	}
	if (e->bad_pointer_sig >= 0) {
		snprintf(what, sizeof(what), "vsyscall=%s: gettimeofday((void *)1, 0)", e->mode);
		expect_child(call_bad_pointer, e->bad_pointer_sig, what);
	}
}

TEST(vsyscall_modes)
{
	require_rewind();
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		check_mode(&modes[i]);
}

/* ---- the siginfo of a bad call ------------------------------------------------- */

static sigjmp_buf segv_return;
static siginfo_t segv_info;
static unsigned long long segv_trapno, segv_err;

static void
record_segv(int sig, siginfo_t *info, void *ucontext)
{
	const ucontext_t *uc = ucontext;

	(void)sig;
	segv_info = *info;
	segv_trapno = uc->uc_mcontext.gregs[REG_TRAPNO];
	segv_err = uc->uc_mcontext.gregs[REG_ERR];
	siglongjmp(segv_return, 1);
}

/* Calls gettimeofday through the page with tv; whether a SIGSEGV came (recorded above). */
static int
segv_from_call(unsigned long entry, struct timeval *tv)
{
	struct sigaction sa = { .sa_sigaction = record_segv, .sa_flags = SA_SIGINFO | SA_NODEFER };
	struct sigaction old;

	memset(&segv_info, 0, sizeof(segv_info));
	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(segv_return, 1) == 0)
		((gettimeofday_fn)entry)(tv, NULL);
	sigaction(SIGSEGV, &old, NULL);
	return segv_info.si_signo == SIGSEGV;
}

/*
 * Linux 3.2+: a bad output pointer in the #PF modes is reported as the page
 * fault the real vsyscall would have taken - si_addr the pointer, trap 14,
 * error 6 (user write); a call with the page gone (none) faults at the entry.
 */
TEST(vsyscall_bad_call_siginfo)
{
	static const char *const fault_modes[] = { "emulate", "xonly" };
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	require_rewind();
	CHECK(ro != MAP_FAILED);
	for (size_t i = 0; i < sizeof(fault_modes) / sizeof(fault_modes[0]); i++) {
		set_mode(fault_modes[i]);
		if (!segv_from_call(VSYSCALL_PAGE, ro))
			fail("vsyscall=%s: gettimeofday into a read-only page returned",
			     fault_modes[i]);
		if (segv_info.si_signo != SIGSEGV || segv_info.si_addr != ro || segv_trapno != 14 ||
		    segv_err != 6)
			fail("vsyscall=%s: siginfo addr %p (want %p), trapno %llu err %llu (want 14, 6)",
			     fault_modes[i], segv_info.si_addr, ro, segv_trapno, segv_err);
	}
	set_mode("none");
	if (!segv_from_call(VSYSCALL_PAGE, NULL) || segv_info.si_addr != (void *)VSYSCALL_PAGE)
		fail("vsyscall=none: calling the page gave si_addr %p, want %#lx",
		     segv_info.si_addr, VSYSCALL_PAGE);
	munmap(ro, 4096);
}

/* A call whose return address is not canonical: returning there must not fault in the kernel. */
static void
call_with_noncanonical_return(void)
{
	/* gettimeofday(NULL, NULL): a good call, so only the return can go wrong */
	__asm__ __volatile__(
		"xor %%edi, %%edi\n\t"
		"xor %%esi, %%esi\n\t"
		"movabs $0x8000000000001234, %%rax\n\t"
		"push %%rax\n\t"
		"movabs $0xffffffffff600000, %%rax\n\t"
		"jmp *%%rax" ::
			: "rax", "rdi", "rsi", "memory");
	_exit(0);
}

/*
 * The emulation pops the caller's return address from user memory; iretq to
 * a non-canonical one would take its #GP in ring 0. The caller gets SIGSEGV.
 */
TEST(vsyscall_noncanonical_return)
{
	static const char *const emulating[] = { "trap", "trap-sysret", "emulate", "xonly" };
	char what[96];

	require_rewind();
	for (size_t i = 0; i < sizeof(emulating) / sizeof(emulating[0]); i++) {
		set_mode(emulating[i]);
		snprintf(what, sizeof(what), "vsyscall=%s: returning to 0x8000000000001234",
			 emulating[i]);
		expect_child(call_with_noncanonical_return, SIGSEGV, what);
	}
}

static void
ignore_signal(int sig)
{
	(void)sig;
}

/*
 * Calls the three entries until *stop is set (shared memory), with a
 * SIGALRM each millisecond so that handlers also interrupt it inside the
 * page; exits 0 if every result was right, 1 + the check that failed.
 */
static void
call_page_until(volatile int *stop)
{
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } };
	struct timeval tv, last = { 0, 0 };
	unsigned cpu;

	signal(SIGALRM, ignore_signal);
	setitimer(ITIMER_REAL, &every_ms, NULL);
	while (!*stop) {
		if (((gettimeofday_fn)VSYSCALL_PAGE)(&tv, NULL) != 0 || tv.tv_usec >= 1000000)
			_exit(1);
		if (tv.tv_sec < last.tv_sec)
			_exit(2);
		last = tv;
		time_t now = ((time_fn)(VSYSCALL_PAGE + 0x400))(NULL);
		if (now < tv.tv_sec - 1 || now > tv.tv_sec + 1)
			_exit(3);
		if (((getcpu_fn)(VSYSCALL_PAGE + 0x800))(&cpu, NULL, NULL) != 0 || cpu >= 1024)
			_exit(4);
	}
	_exit(0);
}

/*
 * Switching vsyscall= while processes run inside the page (in legacy's
 * code, at a native stub's syscall or ret, in a signal handler that
 * interrupted either) kills none of them and gives each call its right
 * result (docs/robustness.md, review 2 row 12: SIGTRAP before). On Linux, which has no knob,
 * the callers run unswitched.
 */
TEST(vsyscall_switch_under_callers)
{
	static const char *const cycle[] = {
		"legacy",      "native",  "legacy", "trap",  "native",
		"trap-sysret", "emulate", "legacy", "xonly", "native"
	};
	enum { CALLERS = 2, SWITCHES = 100 };
	volatile int *stop =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t callers[CALLERS];
	char line[256];

	if (maps_line("[vsyscall]", line, sizeof(line)) != 0)
		skip("no vsyscall page here");
	CHECK(stop != MAP_FAILED);
	*stop = 0;
	if (on_rewind())
		set_mode("legacy");
	fflush(NULL);
	for (int i = 0; i < CALLERS; i++) {
		callers[i] = xfork();
		if (callers[i] == 0)
			call_page_until(stop);
	}
	for (int i = 0; i < SWITCHES; i++) {
		if (on_rewind())
			set_mode(cycle[i % (sizeof(cycle) / sizeof(cycle[0]))]);
		usleep(2000);
	}
	*stop = 1;
	for (int i = 0; i < CALLERS; i++)
		expect_exited(wait_status(callers[i]), 0, "a process calling the page throughout");
}

/* Each mode also passes the agreement and register tests above. */
TEST(vsyscall_modes_agree)
{
	static void (*const checks[])(void) = {
		test_gettimeofday_routes_agree,
		test_time_routes_agree,
		test_getcpu_routes_agree,
		test_callee_saved_registers_kept,
	};

	require_rewind();
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		set_mode(modes[i].mode);
		for (size_t k = 0; k < sizeof(checks) / sizeof(checks[0]); k++)
			checks[k]();
	}
}

/*
 * Switches the clocks to another counter: the timekeeper's next tick takes
 * it, or sets the knob back when that counter is not available here.
 */
static void
use_clocksource(const char *name)
{
	char now[32];

	set_knob("clocksource", name);
	usleep(100000);
	if (knob_read("clocksource", now, sizeof(now)) != 0 || strcmp(now, name) != 0)
		skip("clocksource %s is not available here", name);
}

/* With the HPET as the clocksource the vDSO and the legacy page read its counter page instead. */
TEST(hpet_routes_agree)
{
	static const char *const hpet_modes[] = { "legacy", "emulate" };

	require_rewind();
	use_clocksource("hpet");
	for (size_t i = 0; i < sizeof(hpet_modes) / sizeof(hpet_modes[0]); i++) {
		set_mode(hpet_modes[i]);
		test_clock_gettime_routes_agree();
		test_gettimeofday_routes_agree();
	}
}

/* The host's mode, whatever it is: the page's maps line as Linux prints it, and calls work. */
TEST(vsyscall_page_here)
{
	char line[256];

	if (maps_line("[vsyscall]", line, sizeof(line)) < 0)
		skip("no [vsyscall] line: vsyscall=none here");
	if (strncmp(line, "ffffffffff600000-ffffffffff601000 ", 34) != 0 ||
	    strcmp(line + 34 + 5, "00000000 00:00 0                  [vsyscall]") != 0)
		fail("maps line '%s' is not as Linux prints it", line);
	expect_child(call_page, 0, "calling the vsyscall page");
}

/* In the runner, after each test: the knobs as the suite found them (fail() would end the runner). */
static void
restore_knobs(const char *test)
{
	for (size_t i = 0; i < sizeof(saved_knobs) / sizeof(saved_knobs[0]); i++) {
		struct saved_knob *k = &saved_knobs[i];
		char now[32];
		if (k->value[0] && knob_read(k->name, now, sizeof(now)) == 0 &&
		    strcmp(now, k->value) != 0 && knob_write(k->name, k->value) != 0)
			fprintf(stderr, "vsyscalltests: could not restore %s=%s after %s: %s\n",
				k->name, k->value, test, strerror(errno));
	}
}

int
main(int argc, char **argv)
{
	struct test_hooks hooks = { .finish = restore_knobs };

	for (size_t i = 0; i < sizeof(saved_knobs) / sizeof(saved_knobs[0]); i++)
		if (knob_read(saved_knobs[i].name, saved_knobs[i].value,
			      sizeof(saved_knobs[i].value)) != 0)
			saved_knobs[i].value[0] = '\0';
	return test_run_all("vsyscalltests", argc - 1, argv + 1, &hooks);
}

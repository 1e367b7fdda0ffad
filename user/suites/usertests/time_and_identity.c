/*
 * time_and_identity.c - usertests: clocks and sleeps, getrandom, uname,
 * the auxiliary vector the kernel gives a new program, the group ids and
 * the file-system ids; alarm's far seconds, STICKY_TIMEOUTS and
 * arch_prctl's CPUID mode; sysinfo's load average.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/personality.h>
#include <sys/random.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <grp.h>
#include <limits.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/prctl.h" /* ARCH_GET_CPUID, ARCH_SET_CPUID: musl names neither */

TEST(clocks)
{
	struct timespec a, b, c, res;
	struct timeval tv;
	time_t t;

	for (int i = 0; i < 1000; i++) {
		CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &a));
		CHECK_OK(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b)); /* not the vDSO */
		CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &c));
		CHECK(a.tv_nsec >= 0 && a.tv_nsec < 1000000000 && b.tv_nsec < 1000000000);
		CHECK(a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec));
		CHECK(b.tv_sec < c.tv_sec || (b.tv_sec == c.tv_sec && b.tv_nsec <= c.tv_nsec));
	}
	/*
	 * gettimeofday agrees with CLOCK_REALTIME, which it lies between. time()
	 * is, in glibc, the coarse clock's second, the last tick's (on Linux too); in
	 * musl, CLOCK_REALTIME's: either way not before a coarse read made
	 * first, nor after CLOCK_REALTIME read after. Not "within a second of
	 * CLOCK_REALTIME": a vCPU the host stalls for a second takes no tick.
	 */
	CHECK_OK(clock_gettime(CLOCK_REALTIME_COARSE, &b));
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &a));
	CHECK_OK(gettimeofday(&tv, NULL));
	t = time(NULL);
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &c));
	CHECK(tv.tv_usec >= 0 && tv.tv_usec < 1000000);
	CHECK(tv_us(tv) >= a.tv_sec * 1000000LL + a.tv_nsec / 1000);
	CHECK(tv_us(tv) <= c.tv_sec * 1000000LL + c.tv_nsec / 1000);
	CHECK(t >= b.tv_sec && t <= c.tv_sec);
	CHECK_OK(clock_getres(CLOCK_MONOTONIC, &res));
	CHECK(res.tv_sec == 0 && res.tv_nsec > 0);
	CHECK_ERR(EINVAL, syscall(SYS_clock_gettime, 12345, &a));
	CHECK_ERR(EINVAL, syscall(SYS_clock_getres, 12345, &a));
}

/*
 * adjtimex's query: the state is the machine's (synchronized or not), but
 * the tick, the tolerance and the time are fixed by the ABI or measurable.
 */
TEST(adjtimex_query)
{
	struct timex tx = { 0 };
	struct timespec before, after;

	CHECK_OK(clock_gettime(CLOCK_REALTIME, &before));
	long state = CHECK_OK(syscall(SYS_adjtimex, &tx));
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &after));
	CHECK(state >= TIME_OK && state <= TIME_ERROR);
	CHECK(tx.tick == 10000 && tx.tolerance == 500 << 16);
	CHECK(tx.time.tv_sec >= before.tv_sec && tx.time.tv_sec <= after.tv_sec);
	tx.modes = ADJ_OFFSET_SS_READ;
	CHECK_OK(syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx));
	tx.modes = 0;
	CHECK_ERR(EOPNOTSUPP, syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, &tx));
	CHECK_ERR(EOPNOTSUPP, syscall(SYS_clock_adjtime, CLOCK_PROCESS_CPUTIME_ID, &tx));
	CHECK_ERR(EINVAL, syscall(SYS_clock_adjtime, 10, &tx));
	CHECK_ERR(EINVAL, syscall(SYS_clock_adjtime, 12345, &tx));
	CHECK_ERR(EFAULT, syscall(SYS_clock_adjtime, CLOCK_REALTIME, (void *)1));
	CHECK_ERR(EFAULT, syscall(SYS_adjtimex, (void *)1));
	/* Checked before anything would change (root may change the rest; not tried here). */
	tx.modes = ADJ_TICK;
	tx.tick = 1;
	CHECK_ERR(geteuid() ? EPERM : EINVAL, syscall(SYS_adjtimex, &tx));
}

/* CLOCK_TAI runs ahead of REALTIME by the TAI offset, which is never negative. */
TEST(clock_tai)
{
	struct timespec real, tai;

	CHECK_OK(clock_gettime(CLOCK_REALTIME, &real));
	CHECK_OK(clock_gettime(CLOCK_TAI, &tai));
	CHECK(tai.tv_sec >= real.tv_sec);
	CHECK_OK(clock_getres(CLOCK_TAI, &tai));
}

TEST(nanosleep)
{
	struct timespec ts = { 0, 20 * 1000000 }, bad = { 0, 1000000000 }, neg = { -1, 0 };
	long long t0 = mono_ns();
	struct timespec until;

	CHECK_OK(nanosleep(&ts, NULL));
	CHECK(mono_ns() - t0 >= 20 * 1000000LL);
	CHECK_ERR(EINVAL, syscall(SYS_nanosleep, &bad, NULL));
	CHECK_ERR(EINVAL, syscall(SYS_nanosleep, &neg, NULL));
	/* clock_nanosleep to an absolute time: it is that time, or later, after. */
	CHECK_OK(clock_gettime(CLOCK_MONOTONIC, &until));
	until.tv_nsec += 20 * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	CHECK_OK(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL));
	CHECK(mono_ns() >= until.tv_sec * 1000000000LL + until.tv_nsec);
	/* A time already past returns at once. */
	CHECK_OK(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL));
	CHECK_OK(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &(struct timespec){ 0, 1000 },
			 NULL));
	CHECK_ERR(EINVAL, syscall(SYS_clock_nanosleep, 12345, 0, &ts, NULL));
	CHECK_ERR(EINVAL, syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &bad, NULL));
	/* Clocks without timers: Linux says EOPNOTSUPP (a thread's CPU clock too, whatever the manual says). */
	CHECK_ERR(EOPNOTSUPP, syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC_RAW, 0,
				      &(struct timespec){ 0, 1000 }, NULL));
	CHECK_ERR(EOPNOTSUPP, syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC_COARSE, 0,
				      &(struct timespec){ 0, 1000 }, NULL));
	CHECK_ERR(EOPNOTSUPP, syscall(SYS_clock_nanosleep, CLOCK_THREAD_CPUTIME_ID, 0,
				      &(struct timespec){ 0, 1000 }, NULL));
}

/*
 * alarm answers the whole seconds that were left, rounded to the nearest:
 * a far alarm read back at once is the same number, however far.
 */
TEST(alarm_reads_back_far_seconds)
{
	static const unsigned far[] = { INT_MAX, UINT_MAX / 2, UINT_MAX / 4, 1000000 };

	for (size_t i = 0; i < sizeof(far) / sizeof(far[0]); i++) {
		CHECK_EQ(alarm(far[i]), 0);
		CHECK_EQ(alarm(0), far[i]);
	}
}

/*
 * With STICKY_TIMEOUTS select and pselect6 leave the caller's timeout as it
 * was (the raw calls: musl's select passes the kernel a copy).
 */
TEST(sticky_timeouts_keep_the_timeout)
{
	struct timeval tv = { 0, 10 };
	struct timespec ts = { 0, 10000 };

	CHECK_OK(personality(PER_LINUX | STICKY_TIMEOUTS));
	CHECK_EQ(syscall(SYS_select, 0, NULL, NULL, NULL, &tv), 0);
	CHECK(tv.tv_sec == 0 && tv.tv_usec == 10);
	CHECK_EQ(syscall(SYS_pselect6, 0, NULL, NULL, NULL, &ts, NULL), 0);
	CHECK(ts.tv_sec == 0 && ts.tv_nsec == 10000);
	CHECK_OK(personality(PER_LINUX));
	CHECK_EQ(syscall(SYS_select, 0, NULL, NULL, NULL, &tv), 0);
	CHECK(tv.tv_sec == 0 && tv.tv_usec == 0);
}

/*
 * arch_prctl's CPUID mode: CPUID works (1) until ARCH_SET_CPUID turns on
 * faulting, which a CPU without the cpuid_fault feature refuses, ENODEV
 * (rewind never offers it; Linux under KVM may).
 */
TEST(arch_prctl_cpuid_mode)
{
	CHECK_EQ(syscall(SYS_arch_prctl, ARCH_GET_CPUID, 0), 1);
	if (syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1) == 0)
		skip("this CPU has cpuid_fault");
	CHECK_ERR(ENODEV, syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0));
	CHECK_EQ(syscall(SYS_arch_prctl, ARCH_GET_CPUID, 0), 1);
}

TEST(getrandom)
{
	unsigned char a[256], b[256];

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	CHECK_EQ(getrandom(a, sizeof(a), 0), sizeof(a));
	CHECK_EQ(getrandom(b, sizeof(b), GRND_NONBLOCK), sizeof(b));
	CHECK(!all_bytes(a, sizeof(a), 0));
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	CHECK_EQ(getrandom(a, 0, 0), 0);
	CHECK_ERR(EINVAL, syscall(SYS_getrandom, a, 16, 0x1000));
}

TEST(uname)
{
	struct utsname u;

	CHECK_OK(uname(&u));
	CHECK(u.sysname[0] && u.release[0] && u.version[0]);
	CHECK_EQ(strcmp(u.machine, "x86_64"), 0);
	/* The release starts N.N.N, as programs parsing it (LTP's tst_kvercmp) expect. */
	unsigned major, minor, patch;
	int used = 0;
	CHECK(sscanf(u.release, "%u.%u.%u%n", &major, &minor, &patch, &used) == 3 && used > 0);
	CHECK(u.release[used] == '\0' || u.release[used] == '-' || u.release[used] == '+');
	CHECK(major >= 3); /* older than any kernel a current libc would run on */
}

/* /proc/loadavg's three figures (two decimals), or false. */
static bool
read_loadavg(double load[3])
{
	FILE *f = fopen("/proc/loadavg", "r");
	bool ok = f && fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) == 3;

	if (f)
		fclose(f);
	return ok;
}

/* sysinfo's loads are /proc/loadavg's averages, in 16-bit fixed point. */
TEST(sysinfo_loads_are_the_load_average)
{
	double before[3], after[3];
	struct sysinfo si;

	CHECK(read_loadavg(before));
	CHECK_OK(sysinfo(&si));
	CHECK(read_loadavg(after));
	for (int i = 0; i < 3; i++) {
		double load = (double)si.loads[i] / (1 << SI_LOAD_SHIFT);
		double low = before[i] < after[i] ? before[i] : after[i];
		double high = before[i] < after[i] ? after[i] : before[i];
		/* A sample may fall between the reads; /proc rounds to hundredths. */
		CHECK(load >= low - 0.01 && load <= high + 0.01);
	}
}

/* The auxiliary vector the kernel put on our initial stack. */
TEST(auxv)
{
	unsigned char *random = (unsigned char *)getauxval(AT_RANDOM);

	CHECK_EQ(getauxval(AT_PAGESZ), PAGE);
	CHECK(getauxval(AT_PHDR) != 0);
	CHECK_EQ(getauxval(AT_PHENT), sizeof(Elf64_Phdr));
	CHECK(getauxval(AT_PHNUM) > 0);
	CHECK(getauxval(AT_ENTRY) != 0);
	CHECK(getauxval(AT_UID) == getuid() && getauxval(AT_EUID) == geteuid());
	CHECK(getauxval(AT_GID) == getgid() && getauxval(AT_EGID) == getegid());
	CHECK(random != NULL && !all_bytes(random, 16, 0));
	/* AT_PHDR points at our own program headers: the first is in memory. */
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	int loads = 0;

	for (unsigned long i = 0; i < getauxval(AT_PHNUM); i++)
		loads += ph[i].p_type == PT_LOAD;
	CHECK(loads > 0);
}

/* Root with no supplementary groups once setgroups has emptied the list (rewind's from the start). */
TEST(groups)
{
	gid_t list[4];

	int n = getgroups(0, NULL);
	CHECK(n >= 0);
	if (on_rewind())
		CHECK_EQ(n, 0);
	CHECK_ERR(EINVAL, getgroups(-1, list));
	CHECK_OK(setgroups(0, NULL));
	CHECK(getgroups(0, NULL) == 0 && getgroups(4, list) == 0);
	CHECK_ERR(EINVAL, syscall(SYS_setgroups, -1L, list));
	CHECK_ERR(EINVAL, syscall(SYS_setgroups, 65537L, list));
}

/* The Gid line of /proc/self/status equals "real effective saved effective". */
static void
check_status_gids(gid_t real, gid_t effective, gid_t saved)
{
	char text[4096], want[80];
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	CHECK(n > 0);
	close(fd);
	text[n] = '\0';
	snprintf(want, sizeof(want), "\nGid:\t%u\t%u\t%u\t%u\n", real, effective, saved, effective);
	CHECK(strstr(text, want) != NULL);
}

static void
check_gids(gid_t real, gid_t effective, gid_t saved)
{
	gid_t r, e, s;

	CHECK_OK(getresgid(&r, &e, &s));
	CHECK(r == real && e == effective && s == saved);
	CHECK(getgid() == real && getegid() == effective);
	check_status_gids(real, effective, saved);
}

/*
 * Group ids follow the user ids' rules: root sets any, a process without
 * root only ids it holds; setregid's saved id follows a new effective one.
 */
TEST(group_ids)
{
	gid_t r, e;

	if (geteuid() != 0)
		skip("needs root");
	CHECK_OK(setresgid(10, 20, 30));
	check_gids(10, 20, 30);
	CHECK_OK(setregid(-1, 40)); /* an effective id other than the real one: saved follows */
	check_gids(10, 40, 40);
	CHECK_OK(setgid(50)); /* root: all three */
	check_gids(50, 50, 50);
	CHECK_OK(setresgid(10, 20, 30));
	CHECK_ERR(EFAULT, syscall(SYS_getresgid, &r, &e, (gid_t *)1));
	CHECK_OK(setuid(65534)); /* give up root; the group ids stay */
	check_gids(10, 20, 30);
	CHECK_ERR(EPERM, setgid(40));
	CHECK_ERR(EPERM, setresgid(-1, 0, -1));
	CHECK_ERR(EPERM,
		  setregid(30, -1)); /* the real id may become only the effective or real one */
	CHECK_OK(setgid(30));	     /* the saved id may become the effective one */
	check_gids(10, 30, 30);
	CHECK_OK(setresgid(-1, 10, -1));
	check_gids(10, 10, 30);
	CHECK_OK(setregid(10, 30)); /* real set: saved follows the effective */
	check_gids(10, 30, 30);
	CHECK_ERR(EINVAL, setgid(-1));
}

/* The Uid line of /proc/self/status ends with the file-system uid fs. */
static void
check_status_fsuid(uid_t fs)
{
	char text[4096], want[40];
	int fd = CHECK_OK(open("/proc/self/status", O_RDONLY));
	ssize_t n = read(fd, text, sizeof(text) - 1);

	CHECK(n > 0);
	close(fd);
	text[n] = '\0';
	char *uid_line = strstr(text, "\nUid:");
	CHECK(uid_line != NULL);
	snprintf(want, sizeof(want), "\t%u\n", fs);
	CHECK(strncmp(strchr(uid_line + 1, '\n') - strlen(want) + 1, want, strlen(want)) == 0);
}

static void
fs_id_checks(void)
{
	int fd = CHECK_OK(open("roots_secret", O_CREAT | O_WRONLY, 0600));

	close(fd);
	CHECK_EQ(syscall(SYS_setfsuid, -1), 0); /* -1 only asks */
	CHECK_EQ(syscall(SYS_setfsuid, 65534), 0);
	CHECK_EQ(syscall(SYS_setfsuid, -1), 65534);
	check_status_fsuid(65534);
	CHECK_ERR(EACCES, open("roots_secret", O_RDONLY)); /* checked as nobody: no root override */
	CHECK_EQ(syscall(SYS_setfsgid, 4242), 0);
	CHECK_EQ(syscall(SYS_setfsgid, -1), 4242);
	CHECK_OK(setresuid(0, 0, 0)); /* every set*id call makes the fs id the effective one */
	CHECK_EQ(syscall(SYS_setfsuid, -1), 0);
	close(CHECK_OK(open("roots_secret", O_RDONLY)));
	CHECK_OK(setresgid(65534, 65534, 65534));
	CHECK_OK(setresuid(65534, 65534, 65534));
	CHECK_EQ(syscall(SYS_setfsuid, 0), 65534); /* not one it holds: refused, old id answered */
	CHECK_EQ(syscall(SYS_setfsuid, -1), 65534);
	CHECK_EQ(syscall(SYS_setfsgid, 0), 65534);
	CHECK_EQ(syscall(SYS_setfsgid, -1), 65534);
}

/* setfsuid and setfsgid: the ids files are checked with, which follow the effective ones. */
TEST(fs_ids)
{
	if (geteuid() != 0)
		skip("needs root");
	pid_t pid = xfork();
	if (pid == 0) {
		fs_id_checks();
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the setfsuid child");
}

/*
 * capabilities.c - usertests: a process's capability sets (capabilities(7)).
 * capset's rules, that root without a capability is refused what that
 * capability grants (each in a forked child, so the suite keeps root's),
 * how uid changes and execve move the sets, prctl's bounding-set, ambient,
 * keepcaps and securebits options, and /proc's view of them. They need
 * root, and pass on Linux as on rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/capability.h" /* musl has no <linux/capability.h> */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAP_BIT(cap) (1ull << (cap))

/* One process's sets, 64 bits each. */
struct cap_sets {
	unsigned long long effective, permitted, inheritable;
};

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root");
}

static struct cap_sets
get_caps(void)
{
	struct kernel_cap_header hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct kernel_cap_data data[2];

	CHECK_OK(syscall(SYS_capget, &hdr, data));
	return (struct cap_sets){
		(unsigned long long)data[1].effective << 32 | data[0].effective,
		(unsigned long long)data[1].permitted << 32 | data[0].permitted,
		(unsigned long long)data[1].inheritable << 32 | data[0].inheritable,
	};
}

static long
set_caps(struct cap_sets c)
{
	struct kernel_cap_header hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct kernel_cap_data data[2] = {
		{ (unsigned)c.effective, (unsigned)c.permitted, (unsigned)c.inheritable },
		{ (unsigned)(c.effective >> 32), (unsigned)(c.permitted >> 32),
		  (unsigned)(c.inheritable >> 32) },
	};

	return syscall(SYS_capset, &hdr, data);
}

/* Takes caps out of the effective set only: they stay permitted, so they may come back. */
static void
lower_effective(unsigned long long caps)
{
	struct cap_sets c = get_caps();

	c.effective &= ~caps;
	CHECK_OK(set_caps(c));
}

/* Runs check in a child of root's; it must exit 0. */
static void
in_child(void (*check)(void), const char *what)
{
	pid_t pid = xfork();

	if (pid == 0) {
		check();
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, what);
}

static void
capset_checks(void)
{
	struct cap_sets c = get_caps();
	struct kernel_cap_header hdr = { 0, 0 };

	CHECK(c.permitted & CAP_BIT(CAP_CHOWN));
	CHECK_EQ(c.effective, c.permitted); /* root's */
	struct cap_sets wider = c;
	wider.effective = c.permitted | CAP_BIT(63);
	CHECK_OK(set_caps(wider)); /* bits past the last capability are ignored */
	CHECK_ERR(EINVAL, syscall(SYS_capset, &hdr, NULL));
	CHECK_EQ(hdr.version, _LINUX_CAPABILITY_VERSION_3);
	hdr.pid = getppid();
	CHECK_ERR(EPERM, syscall(SYS_capset, &hdr, NULL)); /* only one's own sets */
	CHECK_ERR(EFAULT, syscall(SYS_capset, (void *)8, NULL));

	/* Out of the permitted set for good: no raising it back, even by root. */
	c.permitted &= ~CAP_BIT(CAP_SYS_TIME);
	c.effective &= ~CAP_BIT(CAP_SYS_TIME);
	CHECK_OK(set_caps(c));
	struct cap_sets back = c;
	back.permitted |= CAP_BIT(CAP_SYS_TIME);
	CHECK_ERR(EPERM, set_caps(back));
	back = c;
	back.effective |= CAP_BIT(CAP_SYS_TIME); /* effective within permitted */
	CHECK_ERR(EPERM, set_caps(back));
	CHECK_EQ(get_caps().permitted, c.permitted);

	/* Version 1 moves the low 32 capabilities only: the others are dropped. */
	struct kernel_cap_header v1 = { _LINUX_CAPABILITY_VERSION_1, 0 };
	struct kernel_cap_data low = { (unsigned)c.effective, (unsigned)c.permitted, 0 };
	CHECK_OK(syscall(SYS_capset, &v1, &low));
	CHECK_EQ(get_caps().permitted >> 32, 0);
}

TEST(capset_narrows_the_sets)
{
	need_root();
	in_child(capset_checks, "capset in a child");
}

static void
chown_checks(void)
{
	int fd = CHECK_OK(open("f", O_CREAT | O_RDWR, 0644));

	lower_effective(CAP_BIT(CAP_CHOWN));
	CHECK_ERR(EPERM, fchown(fd, NOBODY_ID, -1));
	struct cap_sets c = get_caps();
	c.effective |= CAP_BIT(CAP_CHOWN); /* still permitted: it comes back */
	CHECK_OK(set_caps(c));
	CHECK_OK(fchown(fd, NOBODY_ID, -1));
	close(fd);
}

/* Root without CAP_CHOWN owns no more than anyone else. */
TEST(root_without_cap_chown_is_refused)
{
	need_root();
	in_child(chown_checks, "chown without CAP_CHOWN");
}

static void
dac_checks(void)
{
	char buf[4];

	close(CHECK_OK(open("secret", O_CREAT | O_WRONLY, 0)));
	CHECK_OK(chown("secret", NOBODY_ID, NOBODY_ID));
	close(CHECK_OK(open("secret", O_RDWR))); /* CAP_DAC_OVERRIDE */
	lower_effective(CAP_BIT(CAP_DAC_OVERRIDE));
	int fd = CHECK_OK(open("secret", O_RDONLY)); /* CAP_DAC_READ_SEARCH reads */
	CHECK_OK(read(fd, buf, sizeof(buf)));
	close(fd);
	CHECK_ERR(EACCES, open("secret", O_WRONLY));
	lower_effective(CAP_BIT(CAP_DAC_READ_SEARCH));
	CHECK_ERR(EACCES, open("secret", O_RDONLY));
	CHECK_OK(access("secret", R_OK)); /* access asks as the real uid 0: its permitted set */
	CHECK_ERR(EACCES, faccessat(AT_FDCWD, "secret", R_OK, AT_EACCESS)); /* not the effective */
}

/* The permission bits bind root without CAP_DAC_OVERRIDE; CAP_DAC_READ_SEARCH still reads. */
TEST(root_without_dac_override_is_refused)
{
	need_root();
	in_child(dac_checks, "opens without the DAC capabilities");
}

static void
kill_checks(void)
{
	int ready[2];
	char c;

	CHECK_OK(pipe(ready));
	pid_t victim = xfork();
	if (victim == 0) {
		CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		CHECK_EQ(write(ready[1], "r", 1), 1);
		for (;;)
			pause();
	}
	CHECK_EQ(read(ready[0], &c, 1), 1); /* nobody's from now on */
	lower_effective(CAP_BIT(CAP_KILL));
	CHECK_ERR(EPERM, kill(victim, SIGKILL));
	struct cap_sets caps = get_caps();
	caps.effective |= CAP_BIT(CAP_KILL);
	CHECK_OK(set_caps(caps));
	CHECK_OK(kill(victim, SIGKILL));
	expect_signaled(wait_status(victim), SIGKILL, "nobody's process, killed with CAP_KILL");
}

/* Signalling another user's process is CAP_KILL's, not uid 0's. */
TEST(root_without_cap_kill_is_refused)
{
	need_root();
	in_child(kill_checks, "kill without CAP_KILL");
}

static void
setuid_keepcaps_checks(void)
{
	CHECK_EQ(prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0), 0);
	CHECK_ERR(EINVAL, prctl(PR_SET_KEEPCAPS, 2, 0, 0, 0));
	CHECK_OK(prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	CHECK_EQ(prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0), 1);
	unsigned long long permitted = get_caps().permitted;
	CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
	struct cap_sets c = get_caps();
	CHECK_EQ(c.permitted, permitted); /* kept */
	CHECK_EQ(c.effective, 0);	  /* but not effective: the euid left 0 */
	c.effective = CAP_BIT(CAP_SETUID);
	CHECK_OK(set_caps(c));
	CHECK_OK(setresuid(1, 1, 1)); /* CAP_SETUID without uid 0 */
}

/* PR_SET_KEEPCAPS: leaving uid 0 keeps the permitted set, empties the effective one. */
TEST(setuid_with_keepcaps_keeps_the_permitted_set)
{
	need_root();
	in_child(setuid_keepcaps_checks, "setuid with keepcaps");
}

static void
fsuid_checks(void)
{
	close(CHECK_OK(open("rootfile", O_CREAT | O_WRONLY, 0600)));
	setfsuid(NOBODY_ID);
	struct cap_sets c = get_caps();
	CHECK(!(c.effective & (CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_DAC_OVERRIDE))));
	CHECK(c.permitted & CAP_BIT(CAP_CHOWN));
	CHECK(c.effective & CAP_BIT(CAP_SYS_ADMIN)); /* only the file-system ones go */
	CHECK_ERR(EACCES, open("rootfile", O_RDONLY));
	CHECK_ERR(EPERM, chown("rootfile", NOBODY_ID, -1));
	setfsuid(0);
	CHECK(get_caps().effective & CAP_BIT(CAP_CHOWN));
	CHECK_OK(chown("rootfile", NOBODY_ID, -1));
}

/* Root with a non-zero fsuid loses every file-system capability, and gets them back at fsuid 0. */
TEST(fsuid_change_drops_the_file_capabilities)
{
	need_root();
	in_child(fsuid_checks, "setfsuid away from 0");
}

static void
bounding_checks(void)
{
	char *argv[] = { "usertests", "--helper", "caps", NULL, NULL };
	char want[32];
	long last = (long)read_number("/proc/sys/kernel/cap_last_cap");

	CHECK_EQ(prctl(PR_CAPBSET_READ, CAP_CHOWN, 0, 0, 0), 1);
	CHECK_EQ(prctl(PR_CAPBSET_READ, last, 0, 0, 0), 1);
	CHECK_ERR(EINVAL, prctl(PR_CAPBSET_READ, last + 1, 0, 0, 0));
	CHECK_OK(prctl(PR_CAPBSET_DROP, CAP_SYS_TIME, 0, 0, 0));
	CHECK_EQ(prctl(PR_CAPBSET_READ, CAP_SYS_TIME, 0, 0, 0), 0);
	struct cap_sets c = get_caps();
	CHECK(c.permitted & CAP_BIT(CAP_SYS_TIME)); /* the bounding set limits what execve grants */
	c.inheritable = CAP_BIT(CAP_SYS_TIME);	    /* and what may be inheritable */
	CHECK_ERR(EPERM, set_caps(c));
	lower_effective(CAP_BIT(CAP_SETPCAP));
	CHECK_ERR(EPERM, prctl(PR_CAPBSET_DROP, CAP_CHOWN, 0, 0, 0));
	snprintf(want, sizeof(want), "%llx", get_caps().permitted & ~CAP_BIT(CAP_SYS_TIME));
	argv[3] = want;
	exec_helper(argv);
}

/* Root's execve grants its bounding set, permitted and effective: a dropped capability stays out. */
TEST(exec_grants_root_the_bounding_set)
{
	need_root();
	in_child(bounding_checks, "execve after PR_CAPBSET_DROP");
}

static void
ambient_checks(void)
{
	char *argv[] = { "usertests", "--helper", "caps", NULL, NULL };
	char want[32];

	/* Not inheritable: not ambient either. */
	CHECK_ERR(EPERM, prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0));
	CHECK_ERR(EINVAL, prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 1, 0, 0));
	CHECK_ERR(EINVAL, prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 999, 0, 0));
	CHECK_ERR(EINVAL, prctl(PR_CAP_AMBIENT, 99, CAP_KILL, 0, 0));
	/* Become nobody, keeping the permitted set (leaving uid 0 empties the ambient one). */
	CHECK_OK(prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
	struct cap_sets c = get_caps();
	c.inheritable = CAP_BIT(CAP_KILL) | CAP_BIT(CAP_CHOWN);
	CHECK_OK(set_caps(c));
	CHECK_OK(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0));
	CHECK_OK(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_CHOWN, 0, 0));
	CHECK_EQ(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_KILL, 0, 0), 1);
	CHECK_OK(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, CAP_CHOWN, 0, 0));
	CHECK_EQ(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_CHOWN, 0, 0), 0);
	/* A user other than root keeps only its ambient set across execve. */
	snprintf(want, sizeof(want), "%llx", CAP_BIT(CAP_KILL));
	argv[3] = want;
	exec_helper(argv);
}

/* PR_CAP_AMBIENT: what is permitted and inheritable may be ambient, and execve grants it. */
TEST(ambient_capabilities_survive_exec)
{
	need_root();
	in_child(ambient_checks, "execve with an ambient capability");
}

static void
securebits_checks(void)
{
	CHECK_EQ(prctl(PR_GET_SECUREBITS, 0, 0, 0, 0), 0);
	CHECK_ERR(EPERM, prctl(PR_SET_SECUREBITS, 1 << 20, 0, 0, 0)); /* no such bit */
	CHECK_OK(prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_KEEP_CAPS_LOCKED, 0, 0, 0));
	CHECK_EQ(prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0), 1);
	CHECK_ERR(EPERM, prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0)); /* locked */
	CHECK_ERR(EPERM, prctl(PR_SET_SECUREBITS, 0, 0, 0, 0));
}

/* PR_SET_SECUREBITS: a locked bit stays as it is. */
TEST(securebits_lock)
{
	need_root();
	in_child(securebits_checks, "securebits");
}

/* Whether /proc/self/status has line (a whole line, its newline left out). */
static bool
status_has(const char *line)
{
	static char buf[4096];
	char want[80];
	int fd = CHECK_OK(open("/proc/self/status", O_RDONLY));
	ssize_t n = CHECK_OK(read(fd, buf, sizeof(buf) - 1));

	close(fd);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "\n%s\n", line);
	return strstr(buf, want) != NULL;
}

/* /proc/<pid>/status shows the five sets as capget does. */
TEST(proc_status_shows_the_capability_sets)
{
	struct cap_sets c = get_caps();
	char line[64];

	snprintf(line, sizeof(line), "CapInh:\t%016llx", c.inheritable);
	CHECK(status_has(line));
	snprintf(line, sizeof(line), "CapPrm:\t%016llx", c.permitted);
	CHECK(status_has(line));
	snprintf(line, sizeof(line), "CapEff:\t%016llx", c.effective);
	CHECK(status_has(line));
	CHECK(status_has("CapAmb:\t0000000000000000"));
}

/* The helper side: its permitted and effective sets are both want (hexadecimal). */
int
helper_caps(const char *want)
{
	struct cap_sets c = get_caps();
	unsigned long long w = strtoull(want, NULL, 16);

	if (c.permitted != w || c.effective != w)
		fail("caps after execve: permitted %llx, effective %llx, want %llx", c.permitted,
		     c.effective, w);
	return 0;
}

/*
 * privilege.c - usertests: what a process that gave up root may not do to
 * root's files, processes and machine (review 2's findings, and the audit
 * of docs/robustness.md): truncate a file it may not write, reboot, set
 * the clock, inspect, read the memory of or re-pin another user's process, keep using a
 * kernel control root opened, link a file it holds only as an O_PATH
 * handle, chroot. Each check runs as nobody (as_nobody), so the tests need
 * root to start with, and pass on Linux as on rewind.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/timex.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* reboot(2)'s numbers (<linux/reboot.h>, which the suite's libc does not bring). */
#define REBOOT_MAGIC1	 0xfee1dead
#define REBOOT_MAGIC2	 672274793
#define REBOOT_POWER_OFF 0x4321fedc
#define REBOOT_CAD_ON	 0x89abcdef
#define REBOOT_RESTART	 0x01234567

static void
need_root(void)
{
	if (geteuid() != 0)
		skip("needs root");
}

/* A 0644 (or mode) file of root's in a directory nobody may write in, by absolute path. */
static const char *
roots_file(const char *name, mode_t mode)
{
	static char cwd[PATH_MAX];

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(chmod(cwd, 0755));
	const char *path = path_under(cwd, name);
	close(create_file(path, "root's data", 11, mode));
	CHECK_OK(chmod(path, mode));
	return path;
}

static int path_fd = -1; /* root's O_PATH handle on the file, inherited by the checks */

static void
truncate_checks(const char *path)
{
	struct stat st;

	CHECK_ERR(EACCES, truncate(path, 0));
	int fd = CHECK_OK(open(path, O_RDONLY));
	CHECK_ERR(EINVAL, ftruncate(fd, 0)); /* not open for writing */
	close(fd);
	CHECK_ERR(EBADF, ftruncate(path_fd, 0));
	/* Raw calls: musl's fchmod and fchown retry an O_PATH fd by its /proc/self/fd name. */
	CHECK_ERR(EBADF, syscall(SYS_fchmod, path_fd, 0666));
	CHECK_ERR(EBADF, syscall(SYS_fchown, path_fd, NOBODY_ID, NOBODY_ID));
	CHECK_OK(stat(path, &st));
	CHECK(st.st_size == 11 && (st.st_mode & 0777) == 0644 && st.st_uid == 0);
}

/* truncate(2) by name asks write permission (Linux's vfs_truncate); ftruncate an fd open for writing. */
TEST(truncate_needs_write_permission)
{
	need_root();
	const char *path = roots_file("roots", 0644);
	path_fd = CHECK_OK(open(path, O_PATH));
	as_nobody(truncate_checks, path);
	CHECK_OK(truncate(path, 0)); /* root's own: still fine */
}

static void
machine_checks(const char *unused)
{
	struct timespec now;
	struct timeval tv;
	struct timezone tz = { 0, 0 };

	(void)unused;
	CHECK_ERR(EPERM, syscall(SYS_reboot, REBOOT_MAGIC1, REBOOT_MAGIC2, REBOOT_POWER_OFF, NULL));
	CHECK_ERR(EPERM, syscall(SYS_reboot, REBOOT_MAGIC1, REBOOT_MAGIC2, REBOOT_CAD_ON, NULL));
	CHECK_ERR(EPERM, syscall(SYS_reboot, 0, 0, REBOOT_RESTART, NULL)); /* asked first */
	CHECK_OK(clock_gettime(CLOCK_REALTIME, &now));
	CHECK_ERR(EPERM, syscall(SYS_clock_settime, CLOCK_REALTIME, &now));
	CHECK_OK(gettimeofday(&tv, NULL));
	CHECK_ERR(EPERM, syscall(SYS_settimeofday, &tv, NULL));
	CHECK_ERR(EPERM, syscall(SYS_settimeofday, NULL, &tz));
	struct timex tx = { .modes = ADJ_FREQUENCY };
	CHECK_ERR(EPERM, syscall(SYS_adjtimex, &tx));
	CHECK_ERR(EPERM, syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx));
	tx.modes = 0;
	CHECK_OK(syscall(SYS_adjtimex, &tx)); /* reading is anyone's */
	tv.tv_usec = -1; /* the value is checked before the privilege, as Linux does */
	CHECK_ERR(EINVAL, syscall(SYS_settimeofday, &tv, NULL));
}

/* reboot (CAP_SYS_BOOT), clock_settime, settimeofday and adjtimex's changes (CAP_SYS_TIME) are root's. */
TEST(reboot_and_clock_need_root)
{
	need_root();
	as_nobody(machine_checks, NULL);
}

/* A process of root's sleeping for the checks to aim at, and one of nobody's. */
static pid_t roots_process, nobodys_process;

static void
expect_link_refused(pid_t pid, const char *name)
{
	char path[64], target[PATH_MAX];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	CHECK_ERR(EACCES, readlink(path, target, sizeof(target)));
	CHECK_ERR(EACCES, open(path, O_RDONLY));
}

static void
expect_open_refused(pid_t pid, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	CHECK_ERR(EACCES, open(path, O_RDONLY));
}

static void
expect_readable(pid_t pid)
{
	char path[64], target[PATH_MAX];

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	CHECK(readlink(path, target, sizeof(target)) > 0);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	close(CHECK_OK(open(path, O_RDONLY)));
}

/* Field n (from 1) of /proc/<pid>/stat, counted after the command's closing parenthesis. */
static unsigned long
stat_field(pid_t pid, int n)
{
	char path[64], text[1024];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = CHECK_OK(open(path, O_RDONLY));
	ssize_t len = read(fd, text, sizeof(text) - 1);
	close(fd);
	CHECK(len > 0);
	text[len > 0 ? len : 0] = '\0';
	char *p = strrchr(text, ')');
	CHECK(p != NULL);
	for (int field = 2; p && field < n; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoul(p + 1, NULL, 10) : 0;
}

/* Another user's layout in stat: start and end of code 1, the stack and fields 45-51 0. */
static void
expect_layout_hidden(pid_t pid)
{
	CHECK(stat_field(pid, 26) == 1 && stat_field(pid, 27) == 1);
	CHECK_EQ(stat_field(pid, 28), 0);
	for (int n = 45; n <= 51; n++)
		CHECK_EQ(stat_field(pid, n), 0);
}

static void
inspect_checks(const char *unused)
{
	static const char *const links[] = { "cwd", "root", "exe" };

	(void)unused;
	CHECK_OK(prctl(PR_SET_DUMPABLE, 1)); /* no excuse of its own */
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		expect_link_refused(roots_process, links[i]);
	expect_open_refused(roots_process, "maps");
	expect_open_refused(roots_process, "environ");
	expect_open_refused(roots_process, "fd");
	expect_layout_hidden(roots_process);
	CHECK(stat_field(getpid(), 26) > 1 && stat_field(getpid(), 28) > 0); /* its own it sees */
	/* Its own files, and those of its own dumpable process, it may see. */
	expect_readable(getpid());
	nobodys_process = xfork();
	if (nobodys_process == 0) {
		pause();
		_exit(0);
	}
	expect_readable(nobodys_process);
	kill(nobodys_process, SIGKILL);
	wait_status(nobodys_process);
	/* Not dumpable, its own process is out of reach too. */
	nobodys_process = xfork();
	if (nobodys_process == 0) {
		prctl(PR_SET_DUMPABLE, 0);
		pause();
		_exit(0);
	}
	wait_until_asleep(nobodys_process);
	expect_link_refused(nobodys_process, "cwd");
	expect_open_refused(nobodys_process, "maps");
	kill(nobodys_process, SIGKILL);
	wait_status(nobodys_process);
}

static pid_t
sleeper(void)
{
	pid_t pid = xfork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

static void
stop_sleeper(pid_t pid)
{
	kill(pid, SIGKILL);
	wait_status(pid);
}

/*
 * /proc/<pid>/{cwd,root,exe,maps,environ,fd} of another user's process
 * are EACCES (Linux's ptrace_may_access, PTRACE_MODE_READ_FSCREDS), and of
 * one's own when it is not dumpable; its stat hides where its code, stack
 * and arguments lie.
 */
TEST(proc_pid_needs_inspect_permission)
{
	need_root();
	roots_process = sleeper();
	as_nobody(inspect_checks, NULL);
	expect_readable(roots_process); /* root reads everyone's */
	stop_sleeper(roots_process);
}

static void
affinity_checks(const char *unused)
{
	cpu_set_t set;

	(void)unused;
	CPU_ZERO(&set);
	CHECK_OK(sched_getaffinity(roots_process, sizeof(set), &set)); /* reading is anyone's */
	CHECK_ERR(EPERM, sched_setaffinity(roots_process, sizeof(set), &set));
	CHECK_OK(sched_setaffinity(0, sizeof(set), &set));
	pid_t mine = sleeper();
	CHECK_OK(sched_setaffinity(mine, sizeof(set), &set));
	stop_sleeper(mine);
}

/* sched_setaffinity of another user's process is EPERM (Linux's check_same_owner, CAP_SYS_NICE). */
TEST(sched_setaffinity_needs_the_same_owner)
{
	need_root();
	roots_process = sleeper();
	as_nobody(affinity_checks, NULL);
	stop_sleeper(roots_process);
}

static int control_fd = -1; /* a kernel control root opened for writing */
static char control_value[256];

static void
control_checks(const char *unused)
{
	(void)unused;
	CHECK_ERR(EPERM, write(control_fd, control_value, strlen(control_value)));
}

/*
 * A kernel control opened by root for writing refuses a write once the
 * writer is no longer root (Linux's proc_sys_call_handler checks at every
 * write): one of rewind's knobs, or a sysctl on Linux. The current value
 * is written back, so that a wrong answer changes nothing.
 */
TEST(proc_control_write_checks_the_writer)
{
	const char *control =
		on_rewind() ? "/proc/sys/rewind/vsyscall" : "/proc/sys/kernel/domainname";

	need_root();
	int fd = CHECK_OK(open(control, O_RDONLY));
	ssize_t n = read(fd, control_value, sizeof(control_value) - 1);
	close(fd);
	CHECK(n > 0);
	control_value[n] = '\0';
	control_value[strcspn(control_value, "\n")] = '\0';
	control_fd = CHECK_OK(open(control, O_WRONLY));
	as_nobody(control_checks, NULL);
	CHECK_EQ(write(control_fd, control_value, strlen(control_value)),
		 (ssize_t)strlen(control_value));
	close(control_fd);
}

static void
link_checks(const char *name)
{
	CHECK_ERR(ENOENT, linkat(path_fd, "", AT_FDCWD, name, AT_EMPTY_PATH));
	CHECK_ERR(ENOENT, access(name, F_OK));
}

/*
 * linkat(fd, "", AT_EMPTY_PATH) gives a name to the file open on fd: only
 * root may (CAP_DAC_READ_SEARCH), else an O_PATH handle on root's 0600
 * file would become a name nobody could open by its other path.
 */
TEST(linkat_empty_path_needs_privilege)
{
	char cwd[PATH_MAX];

	need_root();
	const char *path = roots_file("secret", 0600);
	path_fd = CHECK_OK(open(path, O_PATH));
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(chmod(cwd, 0777));
	const char *stolen = path_under(cwd, "stolen");
	as_nobody(link_checks, stolen);
	CHECK_OK(linkat(path_fd, "", AT_FDCWD, stolen, AT_EMPTY_PATH)); /* root may */
	CHECK_OK(unlink(stolen));
}

static int locked_dir_fd = -1; /* root's 0700 directory, open */

static void
owner_checks(const char *path)
{
	CHECK_ERR(EPERM, open(path, O_RDONLY | O_NOATIME));
	int fd = CHECK_OK(open(path, O_RDONLY));
	CHECK_ERR(EPERM, fcntl(fd, F_SETFL, O_NOATIME));
	close(fd);
	close(create_file("mine", "m", 1, 0644)); /* its own file: fine */
	fd = CHECK_OK(open("mine", O_RDONLY | O_NOATIME));
	CHECK_OK(fcntl(fd, F_SETFL, 0));
	close(fd);
	CHECK_OK(unlink("mine"));
	CHECK_ERR(EPERM, syscall(SYS_setgroups, 0, NULL));
	CHECK_ERR(EPERM, mknod("null", S_IFCHR | 0666, makedev(1, 3))); /* CAP_MKNOD */
	CHECK_ERR(EACCES, fchdir(locked_dir_fd));
	if (isatty(0)) {
		CHECK_OK(setsid()); /* the terminal is no longer its own */
		CHECK_ERR(EPERM, ioctl(0, TIOCSTI, "x"));
	}
}

/*
 * Found by the audit (docs/robustness.md): O_NOATIME at open and by
 * F_SETFL is the file's owner's (CAP_FOWNER); setgroups is root's even for
 * the empty list (CAP_SETGID); device nodes are root's (CAP_MKNOD); fchdir
 * asks search permission as chdir;
 * TIOCSTI types only into one's own controlling terminal (CAP_SYS_ADMIN).
 */
TEST(owner_and_root_only_calls)
{
	char cwd[PATH_MAX];

	need_root();
	const char *path = roots_file("roots", 0644);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(mkdir("locked", 0700));
	locked_dir_fd = CHECK_OK(open("locked", O_RDONLY | O_DIRECTORY));
	CHECK_OK(chmod(cwd, 0777));
	as_nobody(owner_checks, path);
	CHECK_OK(rmdir("locked"));
}

static void
chroot_refused(const char *dir)
{
	CHECK_ERR(EPERM, chroot(dir));	      /* CAP_SYS_CHROOT */
	CHECK_ERR(ENOENT, chroot("missing")); /* the path's own errors come first */
}

/* getcwd's own answer (libc's wrapper refuses a path that is not absolute). */
static const char *
kernel_getcwd(void)
{
	static char buf[PATH_MAX];

	return syscall(SYS_getcwd, buf, sizeof(buf)) > 0 ? buf : "";
}

static void
chrooted_child(ino_t marker)
{
	struct stat st;

	CHECK_OK(chroot("jail"));
	/* The cwd stays where it was, outside the new root, and getcwd says so. */
	CHECK(strncmp(kernel_getcwd(), "(unreachable)/", 14) == 0);
	CHECK_OK(chdir("/"));
	CHECK(strcmp(kernel_getcwd(), "/") == 0);
	CHECK_OK(stat("/marker", &st));
	CHECK_EQ(st.st_ino, marker);
	CHECK_OK(stat("/../../marker", &st)); /* ".." stops at the root */
	CHECK_EQ(st.st_ino, marker);
	CHECK_OK(chdir("sub"));
	CHECK(strcmp(kernel_getcwd(), "/sub") == 0);
	CHECK_OK(stat("../marker", &st));
	CHECK_EQ(st.st_ino, marker);
	_exit(0);
}

/*
 * chroot (LTP's chroot01-04): "/" and ".." stop at the new root for the
 * process and the children it makes, not for its parent; the path's
 * errors come before the privilege check.
 */
TEST(chroot_confines_paths)
{
	char cwd[PATH_MAX];
	struct stat st;

	need_root();
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_OK(chmod(cwd, 0777));
	CHECK_OK(mkdir("jail", 0755));
	CHECK_OK(mkdir("jail/sub", 0755));
	close(CHECK_OK(open("jail/marker", O_CREAT | O_WRONLY, 0644)));
	close(CHECK_OK(open("plain", O_CREAT | O_WRONLY, 0644)));
	CHECK_OK(stat("jail/marker", &st));
	CHECK_ERR(ENOTDIR, chroot("plain"));
	CHECK_ERR(EFAULT, syscall(SYS_chroot, (void *)8));
	as_nobody(chroot_refused, "jail");
	pid_t pid = xfork();
	if (pid == 0)
		chrooted_child(st.st_ino);
	expect_exited(wait_status(pid), 0, "the chrooted child");
	CHECK_OK(access("plain", F_OK)); /* the parent's root is its own */
	CHECK_OK(unlink("plain"));
	CHECK_OK(unlink("jail/marker"));
	CHECK_OK(rmdir("jail/sub"));
	CHECK_OK(rmdir("jail"));
}

static void
read_of_root_refused(const char *arg)
{
	pid_t root_pid = (pid_t)atol(arg);
	char buf[8];
	struct iovec local = { buf, sizeof(buf) }, remote = { &local, sizeof(buf) };

	CHECK_ERR(EPERM, process_vm_readv(root_pid, &local, 1, &remote, 1, 0));
	CHECK_ERR(EPERM, process_vm_writev(root_pid, &local, 1, &remote, 1, 0));
}

/* Another user's memory is a tracer's (ptrace_may_access, PTRACE_MODE_ATTACH_REALCREDS). */
TEST(process_vm_readv_needs_attach_permission)
{
	char pid[16];

	if (geteuid() != 0)
		skip("needs root to become nobody");
	snprintf(pid, sizeof(pid), "%d", getpid());
	as_nobody(read_of_root_refused, pid);
}

static void
stray_symlink(const char *path)
{
	CHECK_OK(symlink("nowhere", path));
}

/*
 * A name nobody makes in a directory everyone may write (/tmp, sticky)
 * stays after its maker exits, inode, dentry and target text, until
 * someone removes it: the objects issue 24's leak check counted after a
 * fuzzer storm were such a symlink (docs/trinity.md), not a leak.
 */
TEST(nobodys_symlink_in_tmp_outlives_it)
{
	char path[64];
	struct stat st;

	need_root();
	snprintf(path, sizeof(path), "/tmp/usertests-stray.%d", (int)getpid());
	as_nobody(stray_symlink, path);
	CHECK_OK(lstat(path, &st));
	CHECK(S_ISLNK(st.st_mode) && st.st_uid == NOBODY_ID && st.st_size == 7);
	CHECK_OK(unlink(path));
	CHECK_ERR(ENOENT, lstat(path, &st));
}

/*
 * leases.c - usertests: file leases (fcntl F_SETLEASE, F_GETLEASE), as
 * Linux has them: who may take which lease, and the break - a conflicting
 * open by another process signals the holder and waits until the holder
 * gives way or lease-break-time passes.
 *
 * The holder blocks its break signal and takes it with sigwaitinfo, so
 * that a test waits for the mechanism (the signal says the opener is
 * inside open) rather than for a time. The opener is a child that reports
 * through a pipe once its open returned.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define LEASE_BREAK_TIME "/proc/sys/fs/lease-break-time"

/* path opened read-only, with nothing else of it open: a read lease is possible. */
static int
quiet_file(const char *path)
{
	CHECK_OK(close(create_file(path, "data", 4, 0644)));
	return (int)CHECK_OK(open(path, O_RDONLY));
}

TEST(lease_rules)
{
	int rd = quiet_file("f");

	CHECK_EQ(fcntl(rd, F_GETLEASE), F_UNLCK);
	CHECK_ERR(EINVAL, fcntl(rd, F_SETLEASE, 7));
	CHECK_ERR(EAGAIN, fcntl(rd, F_SETLEASE, F_UNLCK)); /* none to give up */
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_RDLCK);
	/* A write lease: no other open of the file anywhere; this one is the only one. */
	CHECK_OK(fcntl(rd, F_SETLEASE, F_WRLCK));
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_WRLCK);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK)); /* down again */
	int dup_fd = (int)CHECK_OK(dup(rd));
	CHECK_EQ(fcntl(dup_fd, F_GETLEASE), F_RDLCK); /* the description's lease */
	CHECK_OK(fcntl(dup_fd, F_SETLEASE, F_UNLCK));
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_UNLCK);
	CHECK_OK(close(dup_fd));
	/* Another description (no lease on it) forbids a write lease, not a read one. */
	int other = (int)CHECK_OK(open("f", O_RDONLY));
	CHECK_ERR(EAGAIN, fcntl(rd, F_SETLEASE, F_WRLCK));
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	CHECK_OK(fcntl(other, F_SETLEASE, F_RDLCK)); /* read leases share */
	CHECK_ERR(EAGAIN, fcntl(other, F_SETLEASE, F_WRLCK));
	CHECK_OK(close(other)); /* its lease goes with the description */
	/* A writer anywhere - this process too - forbids a read lease. */
	CHECK_OK(fcntl(rd, F_SETLEASE, F_UNLCK));
	int rw = (int)CHECK_OK(open("f", O_RDWR));
	CHECK_ERR(EAGAIN, fcntl(rd, F_SETLEASE, F_RDLCK));
	CHECK_ERR(EAGAIN, fcntl(rw, F_SETLEASE, F_RDLCK));
	CHECK_ERR(EAGAIN, fcntl(rw, F_SETLEASE, F_WRLCK)); /* rd is open too */
	CHECK_OK(close(rd));
	CHECK_OK(fcntl(rw, F_SETLEASE, F_WRLCK)); /* its own writing is no conflict */
	CHECK_OK(fcntl(rw, F_SETLEASE, F_UNLCK));
	/* Regular files only. */
	int dir = (int)CHECK_OK(open(".", O_RDONLY | O_DIRECTORY));
	CHECK_ERR(EINVAL, fcntl(dir, F_SETLEASE, F_RDLCK));
	CHECK_ERR(EBADF, fcntl(12345, F_SETLEASE, F_RDLCK));
}

static void
lease_on_others_file(const char *path)
{
	int fd = (int)CHECK_OK(open(path, O_RDONLY));

	CHECK_ERR(EACCES, fcntl(fd, F_SETLEASE, F_RDLCK)); /* not its owner, no CAP_LEASE */
	CHECK_EQ(fcntl(fd, F_GETLEASE), F_UNLCK);
}

TEST(lease_only_for_the_owner)
{
	char path[PATH_MAX];

	CHECK_OK(close(quiet_file("f")));
	CHECK(realpath("f", path) != NULL);
	CHECK_OK(chmod(".", 0755));
	as_nobody(lease_on_others_file, path);
}

/* ---- breaking ---------------------------------------------------------------------- */

static siginfo_t
wait_signal(int sig)
{
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK_EQ(sigwaitinfo(&set, &si), sig);
	return si;
}

/*
 * A child that opens path with flags (or truncates it: flags -1) and then
 * writes the result, 0 or an errno, to the pipe; its pid, the pipe's
 * read end in *done.
 */
static pid_t
opener(const char *path, int flags, int *done)
{
	int p[2];

	CHECK_OK(pipe2(p, O_NONBLOCK));
	pid_t pid = xfork();
	if (pid == 0) {
		int ok = flags == -1 ? truncate(path, 0) : open(path, flags);
		int result = ok < 0 ? errno : 0;
		CHECK_EQ(write(p[1], &result, sizeof(result)), (ssize_t)sizeof(result));
		_exit(0);
	}
	CHECK_OK(close(p[1]));
	*done = p[0];
	return pid;
}

/* The opener's answer, once it has one. */
static int
opener_result(pid_t pid, int done)
{
	int result;

	CHECK_OK(fcntl(done, F_SETFL, 0));
	CHECK_EQ(read(done, &result, sizeof(result)), (ssize_t)sizeof(result));
	expect_exit(pid, 0, "the opener");
	CHECK_OK(close(done));
	return result;
}

/* The opener has not got past open: it waits for the holder. */
static void
expect_still_waiting(int done)
{
	int result;

	CHECK_ERR(EAGAIN, read(done, &result, sizeof(result)));
}

TEST(lease_break_by_writer_waits_for_release)
{
	int rd = quiet_file("f"), done;

	block_signal(SIGIO);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	pid_t pid = opener("f", O_WRONLY, &done);
	siginfo_t si = wait_signal(SIGIO); /* the opener is inside open now */
	CHECK_EQ(si.si_signo, SIGIO);
	expect_still_waiting(done);
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_UNLCK); /* what it is being broken to */
	CHECK_OK(fcntl(rd, F_SETLEASE, F_UNLCK));
	CHECK_EQ(opener_result(pid, done), 0);
	/* The writer is gone; a new read lease is possible again. */
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
}

TEST(lease_break_by_reader_waits_for_downgrade)
{
	int rd = quiet_file("f"), done;

	block_signal(SIGIO);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_WRLCK));
	pid_t pid = opener("f", O_RDONLY, &done);
	wait_signal(SIGIO);
	expect_still_waiting(done);
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_RDLCK); /* a reader only needs it downgraded */
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	CHECK_EQ(opener_result(pid, done), 0);
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_RDLCK);
}

TEST(lease_readers_do_not_break_a_read_lease)
{
	int rd = quiet_file("f"), done;

	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	pid_t pid = opener("f", O_RDONLY | O_NONBLOCK, &done);
	CHECK_EQ(opener_result(pid, done), 0);
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_RDLCK);
}

TEST(lease_break_nonblocking_opener)
{
	int rd = quiet_file("f"), done;

	block_signal(SIGIO);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	pid_t pid = opener("f", O_RDWR | O_NONBLOCK, &done);
	CHECK_EQ(opener_result(pid, done), EWOULDBLOCK);
	wait_signal(SIGIO); /* the break was started all the same */
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_UNLCK);
	CHECK_OK(close(rd)); /* closing gives the lease up too */
	pid = opener("f", O_RDWR | O_NONBLOCK, &done);
	CHECK_EQ(opener_result(pid, done), 0);
}

TEST(lease_break_by_truncate)
{
	int rd = quiet_file("f"), done;

	block_signal(SIGIO);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	pid_t pid = opener("f", -1, &done);
	wait_signal(SIGIO);
	expect_still_waiting(done);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_UNLCK));
	CHECK_EQ(opener_result(pid, done), 0);
	struct stat st;
	CHECK_OK(stat("f", &st));
	CHECK_EQ(st.st_size, 0);
}

/* F_SETSIG's signal comes with POLL_MSG and the lease's fd, as Linux's send_sigio. */
TEST(lease_break_sends_f_setsig_signal)
{
	int rd = quiet_file("f"), done, sig = SIGRTMIN + 1;

	block_signal(sig);
	CHECK_OK(fcntl(rd, F_SETSIG, sig));
	CHECK_EQ(fcntl(rd, F_GETSIG), sig);
	CHECK_ERR(EINVAL, fcntl(rd, F_SETSIG, 65));
	CHECK_OK(fcntl(rd, F_SETLEASE, F_WRLCK));
	pid_t pid = opener("f", O_RDONLY, &done);
	siginfo_t si = wait_signal(sig);
	CHECK_EQ(si.si_code, POLL_MSG);
	CHECK_EQ(si.si_fd, rd);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_UNLCK));
	CHECK_EQ(opener_result(pid, done), 0);
}

/* A holder that never answers loses its lease after lease-break-time. */
TEST(lease_break_times_out)
{
	int rd = quiet_file("f"), done;
	unsigned long saved = read_number(LEASE_BREAK_TIME);

	CHECK_EQ(saved, 45ul);
	block_signal(SIGIO);
	write_number(LEASE_BREAK_TIME, 1);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	pid_t pid = opener("f", O_WRONLY, &done);
	wait_signal(SIGIO);
	int result = opener_result(pid, done); /* the open goes ahead once the time is up */
	write_number(LEASE_BREAK_TIME, saved);
	CHECK_EQ(result, 0);
	CHECK_EQ(fcntl(rd, F_GETLEASE), F_UNLCK);
	CHECK_ERR(EAGAIN, fcntl(rd, F_SETLEASE, F_UNLCK)); /* it is gone */
}

TEST(proc_locks_lists_leases)
{
	int rd = quiet_file("f"), done;
	char lines[4][128], want[128];
	struct stat st;

	CHECK_OK(fstat(rd, &st));
	block_signal(SIGIO);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_RDLCK));
	CHECK_EQ(proc_locks_of(rd, lines, 4, NULL), 1);
	snprintf(want, sizeof(want), "LEASE  ACTIVE    READ %d %02x:%02x:%lu 0 EOF\n", getpid(),
		 major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
	CHECK_EQ(strcmp(lines[0], want), 0);
	pid_t pid = opener("f", O_WRONLY, &done);
	wait_signal(SIGIO);
	CHECK_EQ(proc_locks_of(rd, lines, 4, NULL), 1);
	CHECK(strncmp(lines[0], "LEASE  BREAKING  UNLCK ", 23) == 0);
	/* The opener waits for it: a "->" line with its number, no inode (a breaker has no file). */
	snprintf(want, sizeof(want), "%d: -> LEASE  BREAKER   WRITE %d <none>:0 0 EOF\n",
		 proc_lock_number(rd), pid);
	wait_for_proc_locks_line(want);
	CHECK_OK(fcntl(rd, F_SETLEASE, F_UNLCK));
	CHECK_EQ(opener_result(pid, done), 0);
	CHECK_EQ(proc_locks_of(rd, lines, 4, NULL), 0);
}

/*
 * file_locks.c - usertests: the locks owned by an open file description
 * rather than a process: flock(2) and fcntl's OFD record locks
 * (F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW). POSIX record locks, owned by
 * the process, are tested in fds.c; /proc/locks, which lists all three
 * kinds, here.
 *
 * Each open() makes a description of its own, so one process with two
 * opens of a file plays two owners; dup and fork share one description,
 * hence one owner.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static int
open_rw(const char *path)
{
	return (int)CHECK_OK(open(path, O_RDWR));
}

/* Whether a LOCK_NB request on fd is refused for another's lock, as it must be here. */
#define CHECK_FLOCK_BUSY(fd, op) CHECK_ERR(EWOULDBLOCK, flock((fd), (op) | LOCK_NB))

/* ---- flock(2) ------------------------------------------------------------------- */

TEST(flock_conflicts_between_opens)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");

	CHECK_OK(flock(a, LOCK_SH));
	CHECK_OK(flock(b, LOCK_SH | LOCK_NB)); /* shared locks share */
	CHECK_OK(flock(b, LOCK_UN));
	CHECK_OK(flock(a, LOCK_EX)); /* converts a's own: b holds nothing now */
	/* The same process, another description: another owner. */
	CHECK_FLOCK_BUSY(b, LOCK_SH);
	CHECK_FLOCK_BUSY(b, LOCK_EX);
	CHECK_OK(flock(a, LOCK_EX | LOCK_NB)); /* its own lock again: no conflict */
	CHECK_OK(flock(a, LOCK_UN));
	CHECK_OK(flock(b, LOCK_EX | LOCK_NB));
	CHECK_FLOCK_BUSY(a, LOCK_SH);
	CHECK_OK(flock(b, LOCK_UN | LOCK_NB));
	CHECK_OK(flock(a, LOCK_UN)); /* unlocking what is not held is no error */
}

static int
child_takes_whole_file_record_lock(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	return fcntl(fd, F_SETLK, &fl) == 0 ? 0 : 1;
}

/* flock locks and record locks never meet, as on Linux. */
TEST(flock_independent_of_record_locks)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");
	struct flock ofd = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	CHECK_OK(flock(a, LOCK_EX));
	CHECK_OK(fcntl(b, F_OFD_SETLK, &ofd)); /* another description: not in a's way */
	ofd.l_type = F_UNLCK;
	CHECK_OK(fcntl(b, F_OFD_SETLK, &ofd));
	pid_t pid = xfork();
	if (pid == 0)
		_exit(child_takes_whole_file_record_lock(b));
	expect_exit(pid, 0, "a POSIX lock under another's flock");
}

static int
child_shares_parent_flock(int fd)
{
	int own = open("f", O_RDONLY);

	if (flock(fd, LOCK_EX | LOCK_NB) != 0) /* the inherited description holds it */
		return 1;
	if (own < 0 || flock(own, LOCK_SH | LOCK_NB) != -1 || errno != EWOULDBLOCK)
		return 2;
	return flock(fd, LOCK_UN) == 0 ? 0 : 3; /* the parent's lock too: it is the same one */
}

TEST(flock_shared_by_dup_and_fork)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");
	int d = (int)CHECK_OK(dup(a));

	CHECK_OK(flock(a, LOCK_EX));
	CHECK_OK(flock(d, LOCK_EX | LOCK_NB));
	CHECK_FLOCK_BUSY(b, LOCK_SH);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(child_shares_parent_flock(a));
	expect_exit(pid, 0, "the child on the shared description");
	CHECK_OK(flock(b, LOCK_EX | LOCK_NB)); /* the child's unlock was the parent's */
}

TEST(flock_released_on_last_close)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");
	int d = (int)CHECK_OK(dup(a));
	int p[2];
	char c;

	CHECK_OK(flock(a, LOCK_EX));
	close(a);
	CHECK_FLOCK_BUSY(b, LOCK_SH); /* d still refers to the description */
	close(open_rw("f"));	      /* closing another description of the file: nothing */
	CHECK_FLOCK_BUSY(b, LOCK_SH);
	close(d);
	CHECK_OK(flock(b, LOCK_EX | LOCK_NB));
	CHECK_OK(flock(b, LOCK_UN));

	/* A child that inherited the description keeps the lock after the parent closes it. */
	a = open_rw("f");
	CHECK_OK(flock(a, LOCK_EX));
	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		close(p[1]);
		_exit(read(p[0], &c, 1) == 0 ? 0 : 1); /* until the parent closes its end */
	}
	close(p[0]);
	close(a);
	CHECK_FLOCK_BUSY(b, LOCK_SH);
	close(p[1]);
	expect_exit(pid, 0, "the last holder of the description");
	CHECK_OK(flock(b, LOCK_EX | LOCK_NB)); /* its exit dropped the last reference */
}

/* Converting drops the old lock before taking the new one, as Linux: a refused upgrade loses it. */
TEST(flock_conversion_not_atomic)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");

	CHECK_OK(flock(a, LOCK_SH));
	CHECK_OK(flock(b, LOCK_SH));
	CHECK_FLOCK_BUSY(b, LOCK_EX);	       /* a's shared lock is in the way ... */
	CHECK_OK(flock(a, LOCK_EX | LOCK_NB)); /* ... and b's is gone */
	CHECK_OK(flock(a, LOCK_SH));	       /* down again */
	CHECK_OK(flock(b, LOCK_SH | LOCK_NB));
}

static void
unlock_flock(long fd)
{
	flock((int)fd, LOCK_UN);
}

TEST(flock_waits_and_wakes)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");

	CHECK_OK(flock(a, LOCK_EX));
	pid_t pid = run_later(unlock_flock, a); /* the child shares a: its unlock is ours */
	CHECK_OK(flock(b, LOCK_EX));		/* sleeps until then */
	expect_exit(pid, 0, "the unlocker");
	CHECK_FLOCK_BUSY(a, LOCK_SH);
}

static void
on_alarm(int sig)
{
	(void)sig;
}

TEST(flock_interrupted_by_signal)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	struct itimerval it = { .it_value = { 0, 50 * 1000 } };

	CHECK_OK(sigaction(SIGALRM, &sa, NULL));
	CHECK_OK(flock(a, LOCK_EX));
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	CHECK_ERR(EINTR, flock(b, LOCK_SH));
	CHECK_OK(flock(a, LOCK_UN));
	CHECK_OK(flock(a, LOCK_EX | LOCK_NB)); /* the interrupted request left nothing */
}

TEST(flock_bad_fd_and_operation)
{
	int fd = create_file("f", "x", 1, 0644);
	int path = (int)CHECK_OK(open("f", O_PATH));

	CHECK_ERR(EBADF, flock(-1, LOCK_SH));
	CHECK_ERR(EBADF, flock(1000, LOCK_EX));
	CHECK_ERR(EBADF, flock(path, LOCK_SH)); /* O_PATH: no description to lock with */
	CHECK_ERR(EINVAL, flock(fd, 0));
	CHECK_ERR(EINVAL, flock(fd, LOCK_NB));
	CHECK_ERR(EINVAL, flock(fd, LOCK_SH | LOCK_EX));
	CHECK_ERR(EINVAL, flock(fd, LOCK_SH | LOCK_UN));
	CHECK_ERR(EINVAL, flock(fd, 16));
	CHECK_ERR(EINVAL, flock(-1, 0)); /* the operation is checked first, as Linux */
}

/* ---- OFD record locks -------------------------------------------------------------- */

TEST(ofd_lock_conflicts_in_one_process)
{
	int a = create_file("f", "0123456789", 10, 0644), b = open_rw("f");
	int d = (int)CHECK_OK(dup(a));

	CHECK_OK(record_lock(a, F_OFD_SETLK, F_WRLCK, 0, 10));
	CHECK_ERR(EAGAIN, record_lock(b, F_OFD_SETLK, F_RDLCK, 5, 1));
	CHECK_OK(record_lock(b, F_OFD_SETLK, F_RDLCK, 10, 5)); /* past a's range */
	CHECK_OK(record_lock(d, F_OFD_SETLK, F_WRLCK, 0, 5));  /* the same description: a's own */
	struct flock fl = record_lock_query(b, F_OFD_GETLK, F_WRLCK, 0, 0);
	CHECK(fl.l_type == F_WRLCK && fl.l_start == 0 && fl.l_len == 10 && fl.l_pid == -1);
	CHECK_EQ(record_lock_query(a, F_OFD_GETLK, F_WRLCK, 0, 10).l_type,
		 F_UNLCK); /* its own lock is no conflict */
	/* This process's POSIX locks are another owner: they meet the OFD locks of both. */
	CHECK_ERR(EAGAIN, record_lock(b, F_SETLK, F_WRLCK, 3, 1));
	fl = record_lock_query(a, F_GETLK, F_WRLCK, 12, 1);
	CHECK(fl.l_type == F_RDLCK && fl.l_start == 10 && fl.l_len == 5 && fl.l_pid == -1);
	CHECK_OK(record_lock(a, F_OFD_SETLK, F_UNLCK, 0, 0));
	CHECK_OK(record_lock(b, F_SETLK, F_RDLCK, 3, 1)); /* shared with b's read lock */
	CHECK_ERR(EAGAIN, record_lock(a, F_OFD_SETLK, F_WRLCK, 0, 0));
}

static int
child_meets_parent_ofd_lock(int fd)
{
	struct flock fl = record_lock_query(fd, F_GETLK, F_WRLCK, 0, 0);

	if (fl.l_type != F_WRLCK || fl.l_start != 0 || fl.l_len != 10 || fl.l_pid != -1)
		return 1;
	return record_lock(fd, F_SETLK, F_RDLCK, 9, 1) == -1 && errno == EAGAIN ? 0 : 2;
}

TEST(ofd_lock_vs_posix_lock_of_another_process)
{
	int fd = create_file("f", "0123456789", 10, 0644), own = open_rw("f");
	int p[2];
	char c;

	/* A child's POSIX lock is in the way of our OFD locks, and F_OFD_GETLK names its pid. */
	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		close(p[0]);
		if (record_lock(fd, F_SETLK, F_WRLCK, 5, 5) != 0)
			_exit(1);
		close(p[1]); /* "locked": the parent's read sees the end */
		pause();
		_exit(0);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 0);
	close(p[0]);
	CHECK_ERR(EAGAIN, record_lock(own, F_OFD_SETLK, F_RDLCK, 0, 6));
	struct flock fl = record_lock_query(own, F_OFD_GETLK, F_WRLCK, 0, 0);
	CHECK(fl.l_type == F_WRLCK && fl.l_start == 5 && fl.l_len == 5 && fl.l_pid == pid);
	CHECK_OK(kill(pid, SIGKILL));
	waitpid(pid, NULL, 0);
	/* And the other way: our OFD lock is in the way of a child's POSIX lock. */
	CHECK_OK(record_lock(own, F_OFD_SETLK, F_WRLCK, 0, 10));
	pid = xfork();
	if (pid == 0)
		_exit(child_meets_parent_ofd_lock(fd));
	expect_exit(pid, 0, "the child meeting an OFD lock");
}

TEST(ofd_lock_pid_must_be_zero)
{
	int fd = create_file("f", "x", 1, 0644);
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_pid = 1 };

	CHECK_ERR(EINVAL, fcntl(fd, F_OFD_SETLK, &fl));
	CHECK_ERR(EINVAL, fcntl(fd, F_OFD_SETLKW, &fl));
	CHECK_ERR(EINVAL, fcntl(fd, F_OFD_GETLK, &fl));
	fl.l_type = F_UNLCK;
	CHECK_ERR(EINVAL, fcntl(fd, F_OFD_SETLK, &fl));
	fl.l_type = F_WRLCK;
	CHECK_OK(fcntl(fd, F_SETLK, &fl)); /* a POSIX lock ignores l_pid */
	fl.l_pid = 0;
	CHECK_ERR(EAGAIN, fcntl(fd, F_OFD_SETLK, &fl)); /* and meets this description's OFD ones */
}

TEST(ofd_lock_close_rules)
{
	int a = create_file("f", "x", 1, 0644), b = open_rw("f");
	int d = (int)CHECK_OK(dup(a));

	CHECK_OK(record_lock(a, F_OFD_SETLK, F_WRLCK, 0, 0));
	close(open_rw("f")); /* a POSIX lock would go with this close; an OFD lock stays */
	CHECK_ERR(EAGAIN, record_lock(b, F_OFD_SETLK, F_RDLCK, 0, 0));
	close(a);
	CHECK_ERR(EAGAIN, record_lock(b, F_OFD_SETLK, F_RDLCK, 0, 0)); /* d holds it still */
	close(d);
	CHECK_OK(record_lock(b, F_OFD_SETLK, F_WRLCK, 0, 0));
}

static void
unlock_ofd(long fd)
{
	record_lock((int)fd, F_OFD_SETLK, F_UNLCK, 0, 0);
}

TEST(ofd_setlkw_waits_and_wakes)
{
	int a = create_file("f", "0123456789", 10, 0644), b = open_rw("f");

	CHECK_OK(record_lock(a, F_OFD_SETLK, F_WRLCK, 0, 10));
	pid_t pid = run_later(unlock_ofd, a);			/* a shared description: ours */
	CHECK_OK(record_lock(b, F_OFD_SETLKW, F_WRLCK, 5, 10)); /* sleeps until then */
	expect_exit(pid, 0, "the unlocker");
	CHECK_ERR(EAGAIN, record_lock(a, F_OFD_SETLK, F_RDLCK, 9, 1));
}

/* ---- /proc/locks ----------------------------------------------------------------- */

/*
 * How many lines of /proc/locks are about fd's file; the last one's text
 * after its "N: " into out, and fd's " MAJ:MIN:INO " into key.
 */
static int
proc_locks_about(int fd, char *key, size_t key_size, char *out, size_t size)
{
	char line[256];
	struct stat st;
	int found = 0;

	CHECK_OK(fstat(fd, &st));
	snprintf(key, key_size, " %02x:%02x:%lu ", major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	FILE *f = fopen("/proc/locks", "r");
	CHECK(f != NULL);
	for (int n = 1; fgets(line, sizeof(line), f); n++) {
		char *text = strstr(line, ": ");
		if (!text || atoi(line) != n)
			fail("line %d of /proc/locks is '%s'", n, line);
		if (strstr(line, key)) {
			found++;
			snprintf(out, size, "%s", text + 2);
		}
	}
	fclose(f);
	return found;
}

/* fd's file has exactly one lock, and /proc/locks shows it as want, its "%s" fd's key. */
static void
expect_proc_lock(int fd, const char *want_fmt, int pid)
{
	char key[64], text[256], want[256];

	if (proc_locks_about(fd, key, sizeof(key), text, sizeof(text)) != 1)
		fail("not one line of /proc/locks about%s", key);
	snprintf(want, sizeof(want), want_fmt, pid, key);
	if (strcmp(text, want) != 0)
		fail("/proc/locks says '%s', want '%s'", text, want);
}

TEST(proc_locks_lists_every_kind)
{
	char key[64], text[256];
	int posix = create_file("posix", "x", 1, 0644), ofd = create_file("ofd", "x", 1, 0644);
	int whole = create_file("flock", "x", 1, 0644);

	CHECK_OK(record_lock(posix, F_SETLK, F_WRLCK, 5, 0));
	expect_proc_lock(posix, "POSIX  ADVISORY  WRITE %d%s5 EOF\n", getpid());
	CHECK_OK(record_lock(ofd, F_OFD_SETLK, F_RDLCK, 10, 10));
	expect_proc_lock(ofd, "OFDLCK ADVISORY  READ %d%s10 19\n", -1);
	CHECK_OK(flock(whole, LOCK_EX));
	expect_proc_lock(whole, "FLOCK  ADVISORY  WRITE %d%s0 EOF\n", getpid());
	/* A lock that goes leaves the list. */
	CHECK_OK(record_lock(posix, F_SETLK, F_UNLCK, 0, 0));
	CHECK(proc_locks_about(posix, key, sizeof(key), text, sizeof(text)) == 0);
	CHECK_OK(flock(whole, LOCK_UN));
	CHECK(proc_locks_about(whole, key, sizeof(key), text, sizeof(text)) == 0);
	CHECK(proc_locks_about(ofd, key, sizeof(key), text, sizeof(text)) == 1);
}

/* ---- the per-user bound ----------------------------------------------------------- */

#define LOCKS_KNOB "/proc/sys/rewind/locks_user_max"
#define LOCK_LIMIT 8

/*
 * As nobody at a limit of LOCK_LIMIT locks: record locks of both kinds and
 * flock count alike; past the limit a lock is ENOLCK, and so is an unlock
 * that would cut a lock in two (it needs one more), while one that only
 * trims a lock or drops locks needs none; dropped locks make room again.
 */
static void
locks_up_to_the_limit(const char *path)
{
	int fd = open_rw(path), other = open_rw(path);

	for (int i = 0; i < LOCK_LIMIT - 2; i++) /* [4i, 4i + 2]: apart, never merged */
		CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 4 * i, 3));
	CHECK_OK(record_lock(other, F_OFD_SETLK, F_RDLCK, 100, 1));
	CHECK_OK(flock(other, LOCK_SH));
	CHECK_ERR(ENOLCK, record_lock(fd, F_SETLK, F_WRLCK, 200, 1));
	CHECK_ERR(ENOLCK, record_lock(other, F_OFD_SETLK, F_RDLCK, 300, 1));
	CHECK_ERR(ENOLCK, record_lock(fd, F_SETLK, F_UNLCK, 1, 1)); /* would split [0, 2] */
	CHECK_OK(record_lock(fd, F_SETLK, F_UNLCK, 0, 1));	    /* trims it to [1, 2] */
	CHECK_OK(record_lock(fd, F_SETLK, F_UNLCK, 0, 0));	    /* drops every POSIX lock */
	for (int i = 0; i < LOCK_LIMIT - 2; i++)
		CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 4 * i, 3));
	CHECK_ERR(ENOLCK, record_lock(fd, F_SETLK, F_WRLCK, 200, 1));
	CHECK_OK(close(other)); /* its OFD and flock locks go with it */
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 200, 1));
}

/*
 * rewind bounds each user's file locks (knob locks_user_max; root exempt),
 * as it bounds pipe pages, so that one user cannot take the kernel's
 * memory with them; Linux has no such count and bounds lock memory by the
 * memory cgroup alone, so this runs on rewind only.
 */
TEST(file_locks_bounded_per_user)
{
	char path[64];

	if (geteuid() != 0)
		skip("needs root");
	if (access(LOCKS_KNOB, W_OK) != 0)
		skip("no %s: Linux bounds lock memory by its memory cgroup only", LOCKS_KNOB);
	snprintf(path, sizeof(path), "/tmp/locks_bound_%d", getpid());
	make_file(path, "", 0);
	CHECK_OK(chmod(path, 0666));
	unsigned long old = read_number(LOCKS_KNOB);
	write_number(LOCKS_KNOB, LOCK_LIMIT);
	pid_t pid = xfork();
	if (pid == 0) {
		int fd = open_rw(path);
		for (int i = 0; i < 2 * LOCK_LIMIT;
		     i++) /* root is not bounded, nor counted for nobody */
			CHECK_OK(record_lock(fd, F_SETLK, F_RDLCK, 1000 + 2 * i, 1));
		as_nobody(locks_up_to_the_limit, path);
		_exit(0);
	}
	int status = wait_status(pid);
	write_number(LOCKS_KNOB, old);
	expect_exited(status, 0, "locks up to the limit");
	CHECK_OK(unlink(path));
}

static int
child_waits_for_record_lock(int fd)
{
	return record_lock(fd, F_SETLKW, F_WRLCK, 0, 0) == 0 ? 0 : 1;
}

/* A blocked request shows as "-> " after the lock it waits for, with that lock's number. */
TEST(proc_locks_shows_waiters)
{
	int fd = create_file("f", "x", 1, 0644);
	char want[128];
	struct stat st;

	CHECK_OK(fstat(fd, &st));
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 0));
	pid_t pid = xfork();
	if (pid == 0)
		_exit(child_waits_for_record_lock(fd));
	snprintf(want, sizeof(want), "%d: -> POSIX  ADVISORY  WRITE %d %02x:%02x:%lu 0 EOF\n",
		 proc_lock_number(fd), pid, major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	wait_for_proc_locks_line(want);
	CHECK_OK(record_lock(fd, F_SETLK, F_UNLCK, 0, 0));
	expect_exit(pid, 0, "the waiter");
}

/*
 * fds.c - usertests: file descriptors themselves: dup, fcntl, what every
 * call answers for a bad fd, the terminal ioctls (on files, pipes and
 * the console), close_range, and fcntl's POSIX record locks.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/close_range.h" /* musl has no <linux/close_range.h> */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

TEST(dup)
{
	int fd = create_file("f", "", 0, 0644), g, d;

	d = CHECK_OK(dup(fd));
	CHECK(d != fd);
	CHECK_EQ(write(d, "abc", 3), 3);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 3); /* one shared offset */
	close(d);
	g = CHECK_OK(open("f", O_RDONLY));
	CHECK_EQ(g, d); /* the lowest free number */
	CHECK_EQ(dup2(fd, 50), 50);
	CHECK_EQ(lseek(50, 0, SEEK_CUR), 3);
	CHECK_EQ(dup2(fd, fd), fd);
	CHECK_EQ(dup2(fd, g), g); /* closes what g was */
	CHECK_EQ(write(g, "d", 1), 1);
	CHECK_EQ(syscall(SYS_dup3, fd, 51, O_CLOEXEC), 51);
	CHECK_EQ(fcntl(51, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(fcntl(50, F_GETFD), 0);
	/* Raw calls: musl answers these two itself, or uses dup2 without flags. */
	CHECK_ERR(EINVAL, syscall(SYS_dup3, fd, fd, 0));
	CHECK_ERR(EINVAL, syscall(SYS_dup3, fd, 52, 0x1));
	CHECK_ERR(EBADF, dup(-1));
	CHECK_ERR(EBADF, dup(999));
	CHECK_ERR(EBADF, dup2(999, 53));
	CHECK_ERR(EBADF, dup2(fd, -1));
	CHECK_ERR(EBADF, dup2(fd, 1 << 30));
	CHECK_ERR(EBADF, close(-1));
}

static int thread_fd;

static void *
close_in_unshared_table(void *arg)
{
	(void)arg;
	return (void *)syscall(SYS_close_range, thread_fd, thread_fd, CLOSE_RANGE_UNSHARE);
}

/*
 * close_range (LTP's close_range01-02): a range closed at once, free numbers
 * in it no error; CLOSE_RANGE_CLOEXEC marks instead; CLOSE_RANGE_UNSHARE
 * closes in the calling thread's own copy of the table only.
 */
TEST(close_range)
{
	int fds[4];
	pthread_t thread;
	void *ret;

	for (int i = 0; i < 4; i++)
		fds[i] = CHECK_OK(dup(0));
	CHECK_OK(close(fds[1]));
	CHECK_OK(syscall(SYS_close_range, fds[0], fds[2], 0));
	CHECK_ERR(EBADF, fcntl(fds[0], F_GETFD));
	CHECK_ERR(EBADF, fcntl(fds[2], F_GETFD));
	CHECK_OK(fcntl(fds[3], F_GETFD));
	CHECK_OK(syscall(SYS_close_range, fds[3], ~0U, CLOSE_RANGE_CLOEXEC));
	CHECK_EQ(fcntl(fds[3], F_GETFD), FD_CLOEXEC);
	CHECK_ERR(EINVAL, syscall(SYS_close_range, 5, 4, 0));
	CHECK_ERR(EINVAL, syscall(SYS_close_range, 3, 4, 1));
	thread_fd = fds[3];
	CHECK_EQ(pthread_create(&thread, NULL, close_in_unshared_table, NULL), 0);
	CHECK_EQ(pthread_join(thread, &ret), 0);
	CHECK_EQ((long)ret, 0);
	CHECK_OK(fcntl(fds[3], F_GETFD)); /* still open in the table this thread kept */
	CHECK_OK(syscall(SYS_close_range, fds[3], fds[3], 0));
	CHECK_ERR(EBADF, fcntl(fds[3], F_GETFD));
}

TEST(fcntl)
{
	int fd = create_file("f", "", 0, 0644), p[2], d;
	char c;

	CHECK_EQ((fcntl(fd, F_GETFL) & O_ACCMODE), O_RDWR);
	CHECK_EQ(fcntl(fd, F_GETFD), 0);
	CHECK_OK(fcntl(fd, F_SETFD, FD_CLOEXEC));
	CHECK_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	CHECK_OK(fcntl(fd, F_SETFL, O_APPEND | O_RDONLY)); /* the access mode stays */
	CHECK_EQ((fcntl(fd, F_GETFL) & (O_ACCMODE | O_APPEND)), (O_RDWR | O_APPEND));
	d = CHECK_OK(fcntl(fd, F_DUPFD, 60));
	CHECK(d >= 60 && fcntl(d, F_GETFD) == 0);
	d = CHECK_OK(fcntl(fd, F_DUPFD_CLOEXEC, 70));
	CHECK(d >= 70 && fcntl(d, F_GETFD) == FD_CLOEXEC);
	CHECK_OK(pipe(p));
	CHECK_OK(fcntl(p[0], F_SETFL, O_NONBLOCK));
	CHECK(fcntl(p[0], F_GETFL) & O_NONBLOCK);
	CHECK_ERR(EAGAIN, read(p[0], &c, 1));
	CHECK_ERR(EINVAL, fcntl(fd, 9999));
	CHECK_ERR(EBADF, fcntl(999, F_GETFD));
	CHECK_ERR(EINVAL, fcntl(fd, F_DUPFD, -1));
}

TEST(ebadf)
{
	char buf[8];
	struct stat st;
	int closed = create_file("f", "", 0, 0644);

	close(closed);
	int bad[] = { -1, 999, closed, 1 << 20 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd = bad[i];

		CHECK_ERR(EBADF, read(fd, buf, 1));
		CHECK_ERR(EBADF, write(fd, buf, 1));
		CHECK_ERR(EBADF, pread(fd, buf, 1, 0));
		CHECK_ERR(EBADF, pwrite(fd, buf, 1, 0));
		CHECK_ERR(EBADF, close(fd));
		CHECK_ERR(EBADF, syscall(SYS_fstat, fd, &st));
		CHECK_ERR(EBADF, lseek(fd, 0, SEEK_SET));
		CHECK_ERR(EBADF, fsync(fd));
		CHECK_ERR(EBADF, ioctl(fd, TCGETS, buf));
		CHECK_ERR(EBADF, syscall(SYS_getdents64, fd, buf, sizeof(buf)));
		CHECK_ERR(EBADF, syscall(SYS_newfstatat, fd, "x", &st, 0));
	}
}

/* === terminals ============================================================ */

TEST(ioctl_not_a_tty)
{
	struct termios t;
	struct winsize w;
	int fd = create_file("f", "", 0, 0644), p[2];
	int null = CHECK_OK(open("/dev/null", O_RDWR));

	CHECK_OK(pipe(p));
	CHECK_ERR(ENOTTY, ioctl(fd, TCGETS, &t));
	CHECK_ERR(ENOTTY, ioctl(fd, TIOCGWINSZ, &w));
	CHECK_ERR(ENOTTY, ioctl(p[0], TCGETS, &t));
	CHECK_ERR(ENOTTY, ioctl(null, TCGETS, &t));
	CHECK_ERR(EBADF, ioctl(999, TCGETS, &t));
}

/* The console: stdin, stdout or stderr when it is a terminal (always on rewind). */
static int
console_fd(void)
{
	struct termios t;

	for (int fd = 0; fd < 3; fd++)
		if (ioctl(fd, TCGETS, &t) == 0)
			return fd;
	if (on_rewind())
		return CHECK_OK(open("/dev/console", O_RDWR));
	skip("no terminal on fds 0-2");
}

TEST(ioctl_console)
{
	int fd = console_fd();
	struct termios t;
	struct winsize w;
	struct pollfd f = { .fd = fd, .events = POLLOUT };

	CHECK_OK(ioctl(fd, TCGETS, &t));
	CHECK_OK(ioctl(fd, TIOCGWINSZ, &w));
	for (unsigned i = 0; i < NBAD; i++) {
		CHECK_ERR(EFAULT, syscall(SYS_ioctl, fd, TCGETS, bad_addrs[i]));
		CHECK_ERR(EFAULT, syscall(SYS_ioctl, fd, TIOCGWINSZ, bad_addrs[i]));
	}
	CHECK_ERR(ENOTTY, ioctl(fd, 0x5401ff, &t));
	CHECK(poll(&f, 1, 0) == 1 && (f.revents & POLLOUT));
}

/* ---- POSIX record locks ------------------------------------------------------------- */

/* Runs fn(fd) in a child (a process of its own: its own lock owner); its exit status. */
static int
in_child(int fd, int (*fn)(int fd))
{
	pid_t pid = xfork();

	if (pid == 0)
		_exit(fn(fd));
	int status = wait_status(pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

static int
child_sees_write_lock(int fd)
{
	struct flock fl = record_lock_query(fd, F_GETLK, F_RDLCK, 5, 1);

	if (fl.l_type != F_WRLCK || fl.l_start != 0 || fl.l_len != 10 || fl.l_pid != getppid())
		return 1;
	if (record_lock(fd, F_SETLK, F_RDLCK, 9, 5) != -1 || (errno != EAGAIN && errno != EACCES))
		return 2;
	if (record_lock(fd, F_SETLK, F_WRLCK, 10, 5) != 0) /* past the parent's range */
		return 3;
	/* to the end of the file: nobody there */
	fl = record_lock_query(fd, F_GETLK, F_WRLCK, 20, 0);
	return fl.l_type == F_UNLCK ? 0 : 4;
}

static int
child_shares_read_lock(int fd)
{
	if (record_lock(fd, F_SETLK, F_RDLCK, 0, 10) != 0)
		return 1;
	return record_lock(fd, F_SETLK, F_WRLCK, 0, 1) == -1 && errno == EAGAIN ? 0 : 2;
}

TEST(fcntl_lock_conflicts)
{
	int fd = create_file("lock_f", "0123456789", 10, 0644);

	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 10));
	/* Our own locks are never in our way. */
	CHECK_EQ(record_lock_query(fd, F_GETLK, F_WRLCK, 0, 10).l_type, F_UNLCK);
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 10));
	CHECK_EQ(in_child(fd, child_sees_write_lock), 0);
	/* Shared locks share; an exclusive one of another process is refused. */
	CHECK_OK(record_lock(fd, F_SETLK, F_RDLCK, 0, 10)); /* converts ours in place */
	CHECK_EQ(in_child(fd, child_shares_read_lock), 0);
	close(fd);
}

static int
child_probe_middle(int fd)
{
	/* The parent holds [0,40) and [60,100) after unlocking the middle of [0,100). */
	struct flock fl = record_lock_query(fd, F_GETLK, F_WRLCK, 40, 20);
	if (fl.l_type != F_UNLCK)
		return 1;
	fl = record_lock_query(fd, F_GETLK, F_WRLCK, 50, 50);
	if (fl.l_type != F_WRLCK || fl.l_start != 60 || fl.l_len != 40)
		return 2;
	fl = record_lock_query(fd, F_GETLK, F_WRLCK, 0, 41);
	if (fl.l_type != F_WRLCK || fl.l_start != 0 || fl.l_len != 40)
		return 3;
	return 0;
}

static int
child_probe_merged(int fd)
{
	struct flock fl = record_lock_query(fd, F_GETLK, F_WRLCK, 99, 1);

	/* [0,40) + [40,60) + [60,100): one lock again, and l_len 0 means "to the end". */
	if (fl.l_type != F_WRLCK || fl.l_start != 0 || fl.l_len != 100)
		return 1;
	fl = record_lock_query(fd, F_GETLK, F_WRLCK, 1000, 1);
	return fl.l_type == F_RDLCK && fl.l_start == 200 && fl.l_len == 0 ? 0 : 2;
}

static int
child_probe_neg(int fd)
{
	struct flock fl = record_lock_query(fd, F_GETLK, F_WRLCK, 0, 0);

	return fl.l_type == F_WRLCK && fl.l_start == 25 && fl.l_len == 5 ? 0 : 1;
}

static int
child_probe_lowest(int fd)
{
	/* The parent locked [20,30) then [0,10): F_GETLK names the lower one first. */
	struct flock fl = record_lock_query(fd, F_GETLK, F_WRLCK, 0, 0);

	return fl.l_type == F_RDLCK && fl.l_start == 0 && fl.l_len == 10 ? 0 : 1;
}

/* Of one owner's locks in the way, F_GETLK reports the lowest, whatever order they came in. */
TEST(fcntl_lock_reports_lowest)
{
	int fd = create_file("lock_o", "", 0, 0644);

	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 20, 10));
	CHECK_OK(record_lock(fd, F_SETLK, F_RDLCK, 0, 10));
	CHECK_EQ(in_child(fd, child_probe_lowest), 0);
	close(fd);
}

TEST(fcntl_lock_split_merge)
{
	int fd = create_file("lock_s", "", 0, 0644);

	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 100));
	CHECK_OK(record_lock(fd, F_SETLK, F_UNLCK, 40, 20));
	CHECK_EQ(in_child(fd, child_probe_middle), 0);
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 40, 20));
	CHECK_OK(record_lock(fd, F_SETLK, F_RDLCK, 200, 0));
	CHECK_EQ(in_child(fd, child_probe_merged), 0);
	/* SEEK_CUR and SEEK_END count from the offset and the size; a negative length goes back. */
	CHECK_EQ(lseek(fd, 0, SEEK_END), 0);
	CHECK_OK(record_lock(fd, F_SETLK, F_UNLCK, 0, 0));
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_CUR, .l_start = 10, .l_len = -5 };
	CHECK_OK(lseek(fd, 20, SEEK_SET));
	CHECK_OK(fcntl(fd, F_SETLK, &fl)); /* bytes [25, 30) */
	CHECK_EQ(in_child(fd, child_probe_neg), 0);
	close(fd);
}

static int
child_locks_all(int fd)
{
	return record_lock(fd, F_SETLK, F_WRLCK, 0, 0) == 0 ? 0 : 1;
}

/* Closing any descriptor of the file drops the process's locks on it; so does exit. */
TEST(fcntl_lock_close_exit)
{
	int fd = create_file("lock_c", "x", 1, 0644);
	int other = open("lock_c", O_RDONLY);

	CHECK_OK(other);
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 0));
	CHECK_EQ(in_child(fd, child_locks_all), 1);
	close(other); /* another descriptor, even one that took no lock */
	CHECK_EQ(in_child(fd, child_locks_all), 0);
	/* A child's locks go when it exits: the parent can take them after. */
	pid_t pid = xfork();
	if (pid == 0) {
		if (record_lock(fd, F_SETLK, F_WRLCK, 0, 0) != 0)
			_exit(1);
		_exit(0);
	}
	expect_exit(pid, 0, "locker");
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 0));
	/* Locks are not inherited by fork. */
	CHECK_EQ(in_child(fd, child_locks_all), 1);
	close(fd);
}

/*
 * A child that takes a write lock on [start, start + len) of fd, then runs
 * then(fd) and exits with its status (1 if the lock failed); returns once
 * the child holds the lock.
 */
static pid_t
fork_holder(int fd, off_t start, off_t len, int (*then)(int fd))
{
	int p[2];
	char c;

	CHECK_OK(pipe(p));
	pid_t pid = xfork();
	if (pid == 0) {
		if (record_lock(fd, F_SETLK, F_WRLCK, start, len) != 0)
			_exit(1);
		write(p[1], "l", 1);
		_exit(then(fd));
	}
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[0]);
	close(p[1]);
	return pid;
}

/* Set by the holder just before it unlocks: shared with the test's process. */
static volatile int *lock_released;

/* Unlocks once the parent sleeps in its F_SETLKW, marking the moment. */
static int
unlock_when_parent_waits(int fd)
{
	wait_until_asleep(getppid());
	*lock_released = 1;
	return record_lock(fd, F_SETLK, F_UNLCK, 0, 0) == 0 ? 0 : 2;
}

static int
wait_for_byte0(int fd)
{
	return record_lock(fd, F_SETLKW, F_WRLCK, 0, 1) == 0 ? 0 : 2;
}

static int
hold_forever(int fd)
{
	(void)fd;
	pause();
	return 0;
}

/* F_SETLKW sleeps until the lock in its way goes. */
TEST(fcntl_lock_wait)
{
	int fd = create_file("lock_w", "x", 1, 0644);
	lock_released = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(lock_released != MAP_FAILED);
	pid_t pid = fork_holder(fd, 0, 0, unlock_when_parent_waits);

	CHECK_OK(record_lock(fd, F_SETLKW, F_WRLCK, 0, 0));
	int released = *lock_released;
	expect_exit(pid, 0, "holder");
	CHECK_EQ(released, 1); /* granted only after the holder let go */
	close(fd);
}

static int holder_gate = -1; /* the holder below unlocks when a byte comes */

static int
unlock_on_gate(int fd)
{
	char c;

	if (read(holder_gate, &c, 1) != 1)
		return 3;
	return record_lock(fd, F_SETLK, F_UNLCK, 0, 0) == 0 ? 0 : 2;
}

struct setlkw_call {
	int fd;
	pid_t tid; /* set once the thread runs */
	int ret, err;
};

static void *
setlkw_in_thread(void *arg)
{
	struct setlkw_call *c = arg;

	c->tid = (pid_t)syscall(SYS_gettid);
	c->ret = record_lock(c->fd, F_SETLKW, F_WRLCK, 0, 0);
	c->err = errno;
	return NULL;
}

/*
 * A thread waits in F_SETLKW while another closes the fd: the lock, once
 * granted, is undone and the call fails with EBADF, else it would outlive
 * the close that should have dropped it, and the process (docs/robustness.md, review 2 row 6).
 */
TEST(fcntl_lock_closed_while_waiting)
{
	int fd = create_file("lock_c", "x", 1, 0644), gate[2];
	struct setlkw_call call = { .fd = fd, .tid = 0 };
	pthread_t thread;

	CHECK_OK(pipe(gate));
	holder_gate = gate[0];
	pid_t holder = fork_holder(fd, 0, 0, unlock_on_gate);
	CHECK_EQ(pthread_create(&thread, NULL, setlkw_in_thread, &call), 0);
	while (!__atomic_load_n(&call.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	/*
	 * Time to reach its F_SETLKW (/proc/<tid>/stat is not rewind's yet); a
	 * close before it would give EBADF too, only not through the undo.
	 */
	struct timespec nap = { 0, 200 * 1000000 };
	nanosleep(&nap, NULL);
	CHECK_OK(close(fd));
	CHECK_EQ(write(gate[1], "u", 1), 1);
	CHECK_EQ(pthread_join(thread, NULL), 0);
	if (call.ret != -1 || call.err != EBADF)
		fail("F_SETLKW on an fd closed meanwhile: %d (%s), want EBADF", call.ret,
		     errname(call.err));
	expect_exit(holder, 0, "holder");
	fd = open("lock_c", O_RDWR);
	CHECK_OK(fd);
	CHECK_EQ(in_child(fd, child_locks_all), 0); /* nobody holds it */
	close(fd);
}

/* Two processes each waiting for the other's lock: the second to ask gets EDEADLK. */
TEST(fcntl_lock_deadlock)
{
	int fd = create_file("lock_d", "xx", 2, 0644);

	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 1)); /* we hold byte 0 */
	/* It holds byte 1 and waits for byte 0. */
	pid_t pid = fork_holder(fd, 1, 1, wait_for_byte0);
	wait_until_asleep(pid); /* in its F_SETLKW */
	CHECK_ERR(EDEADLK, record_lock(fd, F_SETLKW, F_WRLCK, 1, 1));
	CHECK_OK(record_lock(fd, F_SETLK, F_UNLCK, 0, 1)); /* lets it through */
	expect_exit(pid, 0, "waiter");
	close(fd);
}

static void
on_alarm_lock(int sig)
{
	(void)sig;
}

TEST(fcntl_lock_eintr_and_errors)
{
	int fd = create_file("lock_e", "x", 1, 0644);
	pid_t pid = fork_holder(fd, 0, 0, hold_forever);
	struct sigaction sa = { .sa_handler = on_alarm_lock };
	CHECK_OK(sigaction(SIGALRM, &sa, NULL));
	/*
	 * Every 30 ms, not once: on a loaded host a single alarm may fire
	 * before F_SETLKW sleeps, and the wait would then never end.
	 */
	struct itimerval it = { { 0, 30000 }, { 0, 30000 } }, off = { 0 };
	CHECK_OK(setitimer(ITIMER_REAL, &it, NULL));
	CHECK_ERR(EINTR, record_lock(fd, F_SETLKW, F_WRLCK, 0, 0));
	CHECK_OK(setitimer(ITIMER_REAL, &off, NULL));
	CHECK_ERR(EAGAIN, record_lock(fd, F_SETLK, F_RDLCK, 0, 0));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 0, 0)); /* a killed holder's locks go too */
	/* The open mode must allow the lock's kind. */
	int rd = open("lock_e", O_RDONLY), wr = open("lock_e", O_WRONLY);
	CHECK_OK(rd);
	CHECK_OK(wr);
	CHECK_ERR(EBADF, record_lock(rd, F_SETLK, F_WRLCK, 0, 0));
	CHECK_ERR(EBADF, record_lock(wr, F_SETLK, F_RDLCK, 0, 0));
	CHECK_OK(record_lock(rd, F_SETLK, F_UNLCK, 0, 0));
	/* Bad records. */
	CHECK_ERR(EINVAL, record_lock(fd, F_SETLK, 7, 0, 0));
	CHECK_ERR(EINVAL, record_lock(fd, F_SETLK, F_WRLCK, -1, 1));
	CHECK_ERR(EINVAL, record_lock(fd, F_SETLK, F_WRLCK, 2, -3));
	struct flock fl = { .l_type = F_WRLCK, .l_whence = 9 };
	CHECK_ERR(EINVAL, fcntl(fd, F_SETLK, &fl));
	fl = (struct flock){ .l_type = F_UNLCK, .l_whence = SEEK_SET };
	CHECK_ERR(EINVAL, fcntl(fd, F_GETLK, &fl));
	CHECK_ERR(EFAULT, syscall(SYS_fcntl, fd, F_SETLK, bad_addrs[0]));
	CHECK_ERR(EFAULT, syscall(SYS_fcntl, fd, F_GETLK, bad_addrs[0]));
	CHECK_ERR(EBADF, record_lock(-1, F_SETLK, F_WRLCK, 0, 0));
	int path = open("lock_e", O_PATH);
	CHECK_OK(path);
	CHECK_ERR(EBADF, record_lock(path, F_SETLK, F_UNLCK, 0, 0));
	close(fd);
}

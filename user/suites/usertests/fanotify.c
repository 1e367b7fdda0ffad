/*
 * fanotify.c - usertests: fanotify as Linux 6.1 has it for a listener
 * that gets file descriptors. The calls' errors and their privilege;
 * each event kind on a marked file, a directory's children
 * (FAN_EVENT_ON_CHILD) and the directory itself (FAN_ONDIR); mount and
 * filesystem marks; ignored masks and FAN_MARK_IGNORED_SURV_MODIFY;
 * merging, FIONREAD, poll and the overflow event; permission events
 * allowed, denied, and allowed when the group closes unanswered.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD ((int)sizeof(struct fanotify_event_metadata))

/* fanotify needs CAP_SYS_ADMIN: the tests are root's. */
static void
need_admin(void)
{
	if (geteuid() != 0)
		skip("needs root");
}

/* A new group of class (and flags), its events' files opened read-only. */
static int
group(unsigned flags)
{
	need_admin();
	return CHECK_OK(fanotify_init(flags | FAN_NONBLOCK, O_RDONLY));
}

/* Reads one event from fd (non-blocking: one must be queued); closes its fd unless keep_fd. */
static struct fanotify_event_metadata
next_event(int fd, bool keep_fd)
{
	struct fanotify_event_metadata md;

	CHECK_EQ(read(fd, &md, sizeof(md)), RECORD);
	CHECK_EQ(md.event_len, (unsigned)RECORD);
	CHECK_EQ(md.vers, FANOTIFY_METADATA_VERSION);
	CHECK_EQ(md.metadata_len, RECORD);
	if (md.fd >= 0 && !keep_fd)
		close(md.fd);
	return md;
}

/* Nothing is queued on fd. */
static void
no_event(int fd)
{
	struct fanotify_event_metadata md;

	CHECK_ERR(EAGAIN, read(fd, &md, sizeof(md)));
}

/* Opens path with flags and closes it at once. */
static void
touch_open(const char *path, int flags)
{
	close(CHECK_OK(open(path, flags)));
}

/* Whether fd is open on the same file as path. */
static bool
same_file(int fd, const char *path)
{
	struct stat a, b;

	CHECK_OK(fstat(fd, &a));
	CHECK_OK(stat(path, &b));
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* ---- the calls' errors ------------------------------------------------------ */

TEST(fanotify_init_errors)
{
	need_admin();
	CHECK_ERR(EINVAL, fanotify_init(0x80000000u, O_RDONLY));
	CHECK_ERR(EINVAL, fanotify_init(FAN_CLASS_NOTIF, O_ACCMODE));
	CHECK_ERR(EINVAL, fanotify_init(FAN_CLASS_NOTIF, O_RDONLY | O_CREAT));
	int fd = CHECK_OK(fanotify_init(FAN_CLASS_NOTIF, O_RDONLY));
	CHECK_EQ(fcntl(fd, F_GETFD), 0);
	CHECK_EQ(fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK), O_RDWR);
	close(fd);
	fd = CHECK_OK(fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDWR));
	CHECK_EQ(fcntl(fd, F_GETFD), FD_CLOEXEC);
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
}

TEST(fanotify_mark_errors)
{
	int fd = group(FAN_CLASS_NOTIF);
	int pipes[2];

	make_file("f", "", 0);
	CHECK_OK(pipe(pipes));
	CHECK_ERR(EBADF, fanotify_mark(-1, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(pipes[0], FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_ADD, 0, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL,
		  fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_REMOVE, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(fd, 0, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_ADD, 1ull << 32 | FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_ADD, FAN_Q_OVERFLOW, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MOUNT | FAN_MARK_FILESYSTEM,
					FAN_OPEN, AT_FDCWD, "."));
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_FLUSH | FAN_MARK_ONLYDIR, 0, AT_FDCWD, "."));
	/* Permission events need a content class; the name events need a fid group. */
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, "f"));
	CHECK_ERR(EINVAL, fanotify_mark(fd, FAN_MARK_ADD, FAN_CREATE, AT_FDCWD, "."));
	CHECK_ERR(ENOTDIR,
		  fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_ONLYDIR, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(ENOENT, fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, "absent"));
	CHECK_ERR(ENOENT, fanotify_mark(fd, FAN_MARK_REMOVE, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(EBADF, fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, 1000, NULL));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_REMOVE, FAN_OPEN, AT_FDCWD, "f"));
	CHECK_ERR(ENOENT, fanotify_mark(fd, FAN_MARK_REMOVE, FAN_OPEN, AT_FDCWD, "f"));
	/* A mark by fd when the path is NULL. */
	int f = CHECK_OK(open("f", O_RDONLY));
	CHECK_ERR(ENOTDIR, fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_ONLYDIR, FAN_OPEN, f, NULL));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_CLOSE_NOWRITE, f, NULL));
	close(f);
	CHECK(next_event(fd, false).mask == FAN_CLOSE_NOWRITE);
	/* A content group's permission mark on proc: refused, as its opens could deadlock. */
	int content = CHECK_OK(fanotify_init(FAN_CLASS_CONTENT, O_RDONLY));
	CHECK_ERR(EINVAL,
		  fanotify_mark(content, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, "/proc/self/stat"));
	close(content);
}

static void
unprivileged_calls(const char *path)
{
	CHECK_ERR(EPERM, fanotify_init(FAN_CLASS_NOTIF, O_RDONLY));
	CHECK_ERR(EPERM, fanotify_init(FAN_CLASS_CONTENT, O_RDONLY));
	CHECK_ERR(EPERM, fanotify_init(FAN_CLASS_NOTIF | FAN_UNLIMITED_QUEUE, O_RDONLY));
	(void)path;
}

/* Groups that get file descriptors are CAP_SYS_ADMIN's, as in Linux 6.1. */
TEST(fanotify_needs_cap_sys_admin)
{
	need_admin();
	as_nobody(unprivileged_calls, NULL);
}

/* ---- events ---------------------------------------------------------------- */

/* Each event kind on a marked file, merged into one record until read; the fd and pid. */
TEST(fanotify_file_events)
{
	int fd = group(FAN_CLASS_NOTIF);
	char c;

	make_file("f", "x", 1);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_ACCESS | FAN_MODIFY | FAN_CLOSE | FAN_OPEN,
			       AT_FDCWD, "f"));
	int f = CHECK_OK(open("f", O_RDWR));
	CHECK_EQ(read(f, &c, 1), 1);
	struct fanotify_event_metadata md = next_event(fd, true);
	CHECK_EQ(md.mask, FAN_OPEN | FAN_ACCESS);
	CHECK_EQ(md.pid, getpid());
	CHECK(same_file(md.fd, "f"));
	CHECK_EQ(fcntl(md.fd, F_GETFL) & O_ACCMODE, O_RDONLY);
	close(md.fd);
	no_event(fd); /* the listener's own use of its fd made none */
	CHECK_EQ(write(f, "y", 1), 1);
	CHECK_EQ(write(f, "z", 1), 1);
	close(f);
	CHECK_EQ(next_event(fd, false).mask, FAN_MODIFY | FAN_CLOSE_WRITE);
	touch_open("f", O_RDONLY);
	CHECK_EQ(next_event(fd, false).mask, FAN_OPEN | FAN_CLOSE_NOWRITE);
	no_event(fd);
	close(fd);
}

/* FAN_OPEN_EXEC: execve's open of the program. */
TEST(fanotify_open_exec)
{
	int fd = group(FAN_CLASS_NOTIF);

	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_EXEC, AT_FDCWD, self_path));
	pid_t pid = xfork();
	if (pid == 0) {
		char *argv[] = { NULL, "--helper", "exit", "0", NULL };
		exec_helper(argv);
	}
	expect_exited(wait_status(pid), 0, "this program run to exit 0");
	struct fanotify_event_metadata md = next_event(fd, false);
	CHECK_EQ(md.mask, FAN_OPEN_EXEC);
	CHECK_EQ(md.pid, pid);
	close(fd);
}

/* A directory's mark hears its children with FAN_EVENT_ON_CHILD, itself with FAN_ONDIR. */
TEST(fanotify_directory_marks)
{
	int fd = group(FAN_CLASS_NOTIF);

	CHECK_OK(mkdir("d", 0755));
	CHECK_OK(mkdir("d/sub", 0755));
	make_file("d/f", "", 0);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, "d"));
	touch_open("d/f", O_RDONLY);
	touch_open("d", O_RDONLY | O_DIRECTORY);
	no_event(fd); /* neither children nor the directory itself yet */
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_EVENT_ON_CHILD, AT_FDCWD, "d"));
	touch_open("d/f", O_RDONLY);
	struct fanotify_event_metadata md = next_event(fd, true);
	CHECK_EQ(md.mask, FAN_OPEN);
	CHECK(same_file(md.fd, "d/f"));
	close(md.fd);
	touch_open("d/sub", O_RDONLY | O_DIRECTORY);
	no_event(fd); /* a child directory needs FAN_ONDIR too */
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_ONDIR, AT_FDCWD, "d"));
	touch_open("d", O_RDONLY | O_DIRECTORY);
	md = next_event(fd, true);
	CHECK_EQ(md.mask, FAN_OPEN); /* FAN_ONDIR is not reported to an fd group */
	CHECK(same_file(md.fd, "d"));
	close(md.fd);
	touch_open("d/sub", O_RDONLY | O_DIRECTORY);
	CHECK_EQ(next_event(fd, false).mask, FAN_OPEN);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_REMOVE, FAN_EVENT_ON_CHILD, AT_FDCWD, "d"));
	touch_open("d/f", O_RDONLY);
	no_event(fd);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_FLUSH, 0, AT_FDCWD, "d"));
	touch_open("d", O_RDONLY | O_DIRECTORY);
	no_event(fd);
	close(fd);
}

/* Mount and filesystem marks hear every file of a tmpfs mounted here, and nothing else. */
TEST(fanotify_mount_and_filesystem_marks)
{
	char dir[64];
	int fd = group(FAN_CLASS_NOTIF);

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(mount("none", dir, "tmpfs", 0, NULL));
	make_file(path_under(dir, "f"), "", 0);
	make_file("outside", "", 0);
	static const unsigned types[] = { FAN_MARK_MOUNT, FAN_MARK_FILESYSTEM };
	for (int i = 0; i < 2; i++) {
		CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD | types[i], FAN_OPEN, AT_FDCWD, dir));
		touch_open("outside", O_RDONLY);
		no_event(fd);
		touch_open(path_under(dir, "f"), O_RDONLY);
		struct fanotify_event_metadata md = next_event(fd, true);
		CHECK_EQ(md.mask, FAN_OPEN);
		CHECK(same_file(md.fd, path_under(dir, "f")));
		close(md.fd);
		CHECK_OK(fanotify_mark(fd, FAN_MARK_FLUSH | types[i], 0, AT_FDCWD, dir));
		touch_open(path_under(dir, "f"), O_RDONLY);
		no_event(fd);
	}
	close(fd);
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

/* An ignored mask suppresses its events; a write clears it unless it survives modify. */
TEST(fanotify_ignored_mask)
{
	int fd = group(FAN_CLASS_NOTIF);

	make_file("f", "", 0);
	make_file("g", "", 0);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN | FAN_CLOSE | FAN_EVENT_ON_CHILD,
			       AT_FDCWD, "."));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_IGNORED_MASK, FAN_OPEN | FAN_CLOSE_WRITE,
			       AT_FDCWD, "f"));
	CHECK_OK(fanotify_mark(fd,
			       FAN_MARK_ADD | FAN_MARK_IGNORED_MASK | FAN_MARK_IGNORED_SURV_MODIFY,
			       FAN_OPEN | FAN_CLOSE_WRITE, AT_FDCWD, "g"));
	touch_open("f", O_RDONLY);
	CHECK_EQ(next_event(fd, false).mask, FAN_CLOSE_NOWRITE);
	int f = CHECK_OK(open("f", O_WRONLY));
	CHECK_EQ(write(f, "x", 1), 1); /* clears f's ignored mask */
	close(f);
	CHECK_EQ(next_event(fd, false).mask, FAN_CLOSE_WRITE);
	touch_open("f", O_RDONLY);
	CHECK_EQ(next_event(fd, false).mask, FAN_OPEN | FAN_CLOSE_NOWRITE);
	int g = CHECK_OK(open("g", O_WRONLY));
	CHECK_EQ(write(g, "x", 1), 1); /* g's survives */
	close(g);
	no_event(fd);
	close(fd);
}

/* FIONREAD counts the queued records' bytes; poll says readable. */
TEST(fanotify_fionread_and_poll)
{
	int fd = group(FAN_CLASS_NOTIF);
	int n = -1;

	make_file("f", "", 0);
	make_file("g", "", 0);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN | FAN_EVENT_ON_CHILD, AT_FDCWD, "."));
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 0), 0);
	CHECK_OK(ioctl(fd, FIONREAD, &n));
	CHECK_EQ(n, 0);
	touch_open("f", O_RDONLY);
	touch_open("g", O_RDONLY);
	CHECK_EQ(poll(&p, 1, 0), 1);
	CHECK_EQ(p.revents, POLLIN);
	CHECK_OK(ioctl(fd, FIONREAD, &n));
	CHECK_EQ(n, 2 * RECORD);
	char small[RECORD - 1];
	CHECK_ERR(EINVAL, read(fd, small, sizeof(small)));
	struct fanotify_event_metadata two[2];
	CHECK_EQ(read(fd, two, sizeof(two)), 2 * RECORD);
	close(two[0].fd);
	close(two[1].fd);
	close(fd);
}

/* Past 16384 queued events, one FAN_Q_OVERFLOW without fd ends the queue. */
TEST(fanotify_queue_overflow)
{
	int fd = group(FAN_CLASS_NOTIF);
	enum { QUEUE = 16384 };
	char name[32];

	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_CLOSE_WRITE | FAN_EVENT_ON_CHILD, AT_FDCWD,
			       "."));
	for (int i = 0; i <= QUEUE; i++) {
		snprintf(name, sizeof(name), "%d", i);
		close(CHECK_OK(open(name, O_WRONLY | O_CREAT, 0644)));
	}
	int n = 0;
	CHECK_OK(ioctl(fd, FIONREAD, &n));
	CHECK_EQ(n, (QUEUE + 1) * RECORD);
	for (int i = 0; i < QUEUE; i++)
		CHECK_EQ(next_event(fd, false).mask, FAN_CLOSE_WRITE);
	struct fanotify_event_metadata md = next_event(fd, false);
	CHECK_EQ(md.mask, FAN_Q_OVERFLOW);
	CHECK_EQ(md.fd, FAN_NOFD);
	no_event(fd);
	close(fd);
}

/* ---- permission events -------------------------------------------------------- */

/*
 * A child that opens path: its exit code is 0 or the open's errno. It
 * closes its copy of the group first: the group's last close must be the
 * test's.
 */
static pid_t
opener(int group_fd, const char *path)
{
	pid_t pid = xfork();

	if (pid == 0) {
		close(group_fd);
		int f = open(path, O_RDONLY);
		_exit(f < 0 ? errno : 0);
	}
	return pid;
}

/* Waits until an event is queued on fd. */
static void
wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	CHECK_EQ(poll(&p, 1, 10000), 1);
}

/* Waits for the permission event of pid and answers it. */
static void
answer(int fd, pid_t pid, unsigned mask, unsigned response)
{
	struct fanotify_event_metadata md;

	wait_readable(fd);
	CHECK_EQ(read(fd, &md, sizeof(md)), RECORD);
	CHECK_EQ(md.mask, mask);
	CHECK_EQ(md.pid, pid);
	struct fanotify_response r = { .fd = md.fd, .response = response };
	CHECK_EQ(write(fd, &r, sizeof(r)), (ssize_t)sizeof(r));
	CHECK_ERR(ENOENT, write(fd, &r, sizeof(r))); /* answered already */
	close(md.fd);
}

/* FAN_OPEN_PERM and FAN_ACCESS_PERM wait for the listener: FAN_DENY is EPERM, FAN_ALLOW goes on. */
TEST(fanotify_permission_allow_deny)
{
	need_admin();
	int fd = CHECK_OK(fanotify_init(FAN_CLASS_CONTENT, O_RDONLY));
	char c;

	make_file("f", "x", 1);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, "f"));
	pid_t pid = opener(fd, "f");
	answer(fd, pid, FAN_OPEN_PERM, FAN_DENY);
	expect_exited(wait_status(pid), EPERM, "the denied open");
	pid = opener(fd, "f");
	answer(fd, pid, FAN_OPEN_PERM, FAN_ALLOW);
	expect_exited(wait_status(pid), 0, "the allowed open");
	struct fanotify_response bad = { .fd = 0, .response = 3 };
	CHECK_ERR(EINVAL, write(fd, &bad, sizeof(bad)));
	CHECK_ERR(EINVAL, write(fd, &bad, sizeof(bad) - 1));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_REMOVE, FAN_OPEN_PERM, AT_FDCWD, "f"));

	int before = CHECK_OK(open("f", O_RDONLY));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_ACCESS_PERM, AT_FDCWD, "f"));
	CHECK_EQ(read(before, &c, 1), 1); /* opened while no permission mark was: never asks */
	close(before);
	int f = CHECK_OK(open("f", O_RDONLY));
	pid = xfork();
	if (pid == 0) {
		close(fd);
		_exit(read(f, &c, 1) < 0 ? errno : 0);
	}
	answer(fd, pid, FAN_ACCESS_PERM, FAN_DENY);
	expect_exited(wait_status(pid), EPERM, "the denied read");
	close(f);
	close(fd);
}

/* A group closed with a task waiting on its permission event lets the task go on. */
TEST(fanotify_permission_waiter_released_on_close)
{
	need_admin();
	int fd = CHECK_OK(fanotify_init(FAN_CLASS_CONTENT, O_RDONLY));

	make_file("f", "", 0);
	make_file("g", "", 0);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, "f"));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, "g"));
	pid_t read_one = opener(fd, "f"); /* its event read, not answered */
	struct fanotify_event_metadata md;
	CHECK_EQ(read(fd, &md, sizeof(md)), RECORD);
	CHECK_EQ(md.pid, read_one);
	pid_t queued_one = opener(fd, "g"); /* its event still queued */
	wait_readable(fd);
	close(md.fd);
	close(fd);
	expect_exited(wait_status(read_one), 0, "the open whose event was read");
	expect_exited(wait_status(queued_one), 0, "the open whose event was queued");
}

/* A task killed while it waits for an answer goes; the group stays usable. */
TEST(fanotify_permission_waiter_killed)
{
	need_admin();
	int fd = CHECK_OK(fanotify_init(FAN_CLASS_CONTENT | FAN_NONBLOCK, O_RDONLY));

	make_file("f", "", 0);
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, "f"));
	pid_t pid = opener(fd, "f");
	wait_readable(fd); /* its event is queued: it waits */
	CHECK_OK(kill(pid, SIGKILL));
	expect_signaled(wait_status(pid), SIGKILL, "the waiting opener");
	struct fanotify_event_metadata md;
	ssize_t n = read(fd, &md, sizeof(md)); /* Linux may still queue it: answering is harmless */
	if (n == RECORD) {
		struct fanotify_response r = { .fd = md.fd, .response = FAN_ALLOW };
		write(fd, &r, sizeof(r));
		close(md.fd);
	}
	pid = opener(fd, "f");
	answer(fd, pid, FAN_OPEN_PERM, FAN_ALLOW);
	expect_exited(wait_status(pid), 0, "the next open");
	close(fd);
}

/* ---- /proc ---------------------------------------------------------------- */

/* The group's line and each mark's in /proc/self/fdinfo, as Linux's fanotify_show_fdinfo. */
TEST(fanotify_fdinfo_shows_marks)
{
	int fd = group(FAN_CLASS_NOTIF);
	char path[64], text[1024], want[128];
	struct stat st;

	make_file("f", "", 0);
	CHECK_OK(stat("f", &st));
	CHECK_OK(fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN | FAN_CLOSE_WRITE, AT_FDCWD, "f"));
	CHECK_OK(fanotify_mark(fd,
			       FAN_MARK_ADD | FAN_MARK_IGNORED_MASK | FAN_MARK_IGNORED_SURV_MODIFY,
			       FAN_MODIFY, AT_FDCWD, "f"));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	int f = CHECK_OK(open(path, O_RDONLY));
	ssize_t n = CHECK_OK(read(f, text, sizeof(text) - 1));
	text[n] = '\0';
	close(f);
	/*
	 * O_LARGEFILE joins event_f_flags on 64-bit, as Linux's force_o_largefile: the
	 * kernel's value, 0100000, as glibc defines O_LARGEFILE as 0 on x86-64.
	 */
	snprintf(want, sizeof(want), "fanotify flags:%x event-flags:%x\n", FAN_NONBLOCK, 0100000);
	CHECK(strstr(text, want) != NULL);
	snprintf(want, sizeof(want), "fanotify ino:%lx sdev:%x mflags:%x mask:%x ignored_mask:%x",
		 (unsigned long)st.st_ino, (unsigned)(major(st.st_dev) << 20 | minor(st.st_dev)),
		 FAN_MARK_IGNORED_SURV_MODIFY, FAN_OPEN | FAN_CLOSE_WRITE, FAN_MODIFY);
	if (!strstr(text, want))
		fail("no line \"%s\" in:\n%s", want, text);
	close(fd);
}

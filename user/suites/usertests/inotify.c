/*
 * inotify.c - usertests: inotify as Linux has it. The calls' errors; each
 * event on a watched file and on a watched directory's children, with
 * names, IN_ISDIR and the move cookie; IN_DELETE_SELF, IN_MOVE_SELF and
 * IN_IGNORED; the flags IN_ONESHOT, IN_MASK_ADD, IN_MASK_CREATE,
 * IN_EXCL_UNLINK, IN_ONLYDIR, IN_DONT_FOLLOW; reading whole events,
 * coalescing, FIONREAD, blocking and poll/epoll readiness, and the
 * overflow event at max_queued_events; a watch's line in /proc fdinfo.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* An event a test expects. */
struct want {
	int wd;
	unsigned mask;
	const char *name; /* "" for none */
};

/* One event as read. */
struct seen {
	int wd;
	unsigned mask;
	const char *name;
	unsigned cookie;
};

#define MAX_SEEN 16

/* Reads every queued event of the non-blocking fd into ev (names into names). */
static int
read_events(int fd, struct seen *ev, char names[][NAME_MAX + 1])
{
	char buf[4096] __attribute__((aligned(8)));
	int n = 0;

	for (;;) {
		ssize_t len = read(fd, buf, sizeof(buf));
		if (len < 0) {
			if (errno != EAGAIN)
				fail("read: %s", errname(errno));
			return n;
		}
		for (char *p = buf; p < buf + len; n++) {
			struct inotify_event *e = (struct inotify_event *)p;
			if (n == MAX_SEEN)
				fail("more than %d events", MAX_SEEN);
			CHECK(e->len % sizeof(struct inotify_event) == 0);
			snprintf(names[n], NAME_MAX + 1, "%s", e->len ? e->name : "");
			ev[n] = (struct seen){ e->wd, e->mask, names[n], e->cookie };
			p += sizeof(*e) + e->len;
		}
	}
}

/* The events queued on fd are exactly want[0..n), in order; got gets them. */
static void
expect_events(int fd, const struct want *want, int n, struct seen *got)
{
	static char names[MAX_SEEN][NAME_MAX + 1];
	int k = read_events(fd, got, names);

	for (int i = 0; i < k || i < n; i++) {
		if (i < k && i < n && got[i].wd == want[i].wd && got[i].mask == want[i].mask &&
		    strcmp(got[i].name, want[i].name) == 0)
			continue;
		if (i >= k)
			fail("event %d of %d missing: wd %d mask %#x '%s'", i, n, want[i].wd,
			     want[i].mask, want[i].name);
		fail("event %d is wd %d mask %#x '%s', want %s%d %#x '%s'", i, got[i].wd,
		     got[i].mask, got[i].name, i < n ? "wd " : "nothing (", i < n ? want[i].wd : k,
		     i < n ? want[i].mask : 0, i < n ? want[i].name : ")");
	}
}

#define EXPECT_EVENTS(fd, ...)                                                    \
	do {                                                                      \
		const struct want want_[] = { __VA_ARGS__ };                      \
		struct seen got_[MAX_SEEN];                                       \
		expect_events(fd, want_, sizeof(want_) / sizeof(want_[0]), got_); \
	} while (0)
#define EXPECT_NO_EVENTS(fd)                      \
	do {                                      \
		struct seen got_[MAX_SEEN];       \
		expect_events(fd, NULL, 0, got_); \
	} while (0)

static int
watcher(void)
{
	return CHECK_OK(inotify_init1(IN_NONBLOCK));
}

static void
open_close(const char *path, int flags)
{
	CHECK_OK(close(CHECK_OK(open(path, flags))));
}

/* ---- the calls ------------------------------------------------------------ */

TEST(inotify_init_flags)
{
	char link[64], target[64];

	CHECK_ERR(EINVAL, inotify_init1(IN_NONBLOCK << 1));
	CHECK_ERR(EINVAL, inotify_init1(O_RDWR));
	int fd = CHECK_OK(syscall(SYS_inotify_init));
	CHECK(fcntl(fd, F_GETFD) == 0);
	CHECK((fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) == O_RDONLY);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = CHECK_OK(readlink(link, target, sizeof(target) - 1));
	target[n] = '\0';
	CHECK(strcmp(target, "anon_inode:inotify") == 0);
	fd = CHECK_OK(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC);
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	char buf[64];
	CHECK_ERR(EAGAIN, read(fd, buf, sizeof(buf)));
	CHECK_ERR(EBADF, write(fd, buf, 1)); /* open for reading only */
}

TEST(inotify_add_watch_errors)
{
	int fd = watcher(), pipes[2];

	make_file("f", "", 0);
	CHECK_OK(pipe(pipes));
	CHECK_ERR(EBADF, inotify_add_watch(-1, "f", IN_OPEN));
	CHECK_ERR(EBADF, inotify_add_watch(999, "f", IN_OPEN));
	CHECK_ERR(EINVAL, inotify_add_watch(pipes[0], "f", IN_OPEN));
	CHECK_ERR(EINVAL, inotify_add_watch(fd, "f", 0));
	CHECK_ERR(EINVAL, inotify_add_watch(fd, "f", IN_OPEN | IN_MASK_ADD | IN_MASK_CREATE));
	CHECK_ERR(ENOENT, inotify_add_watch(fd, "missing", IN_OPEN));
	CHECK_ERR(EFAULT, inotify_add_watch(fd, (const char *)bad_addrs[0], IN_OPEN));
	CHECK_ERR(ENOTDIR, inotify_add_watch(fd, "f", IN_OPEN | IN_ONLYDIR));
	int wd = CHECK_OK(inotify_add_watch(fd, "f", IN_OPEN));
	CHECK(wd >= 1);
	CHECK_ERR(EEXIST, inotify_add_watch(fd, "f", IN_OPEN | IN_MASK_CREATE));
	CHECK(inotify_add_watch(fd, "f", IN_CLOSE) == wd); /* the same inode: the same wd */
	CHECK_OK(link("f", "g"));
	CHECK(inotify_add_watch(fd, "g", IN_CLOSE) == wd); /* another name of it too */
	int dwd = CHECK_OK(inotify_add_watch(fd, ".", IN_CREATE | IN_ONLYDIR));
	CHECK(dwd != wd);
	CHECK_ERR(EBADF, inotify_rm_watch(-1, wd));
	CHECK_ERR(EINVAL, inotify_rm_watch(pipes[0], wd));
	CHECK_ERR(EINVAL, inotify_rm_watch(fd, dwd + 100));
	CHECK_OK(inotify_rm_watch(fd, wd));
	CHECK_ERR(EINVAL, inotify_rm_watch(fd, wd));
	EXPECT_EVENTS(fd, { wd, IN_IGNORED, "" });
}

static void
watch_unreadable(const char *path)
{
	int fd = watcher();

	CHECK_ERR(EACCES, inotify_add_watch(fd, path, IN_OPEN));
}

TEST(inotify_add_watch_needs_read_permission)
{
	char path[64];

	if (geteuid() != 0)
		skip("needs root");
	snprintf(path, sizeof(path), "/tmp/inotify_%d", getpid());
	make_file(path, "", 0);
	CHECK_OK(chmod(path, 0200)); /* root's, and only writable */
	as_nobody(watch_unreadable, path);
	CHECK_OK(unlink(path));
}

/* ---- events --------------------------------------------------------------- */

TEST(inotify_file_events)
{
	int fd = watcher();
	char c;

	make_file("f", "x", 1);
	int wd = CHECK_OK(inotify_add_watch(fd, "f", IN_ALL_EVENTS));
	int f = CHECK_OK(open("f", O_RDWR));
	CHECK(read(f, &c, 1) == 1);
	CHECK(write(f, "y", 1) == 1);
	CHECK(write(f, "z", 1) == 1); /* the same event again: coalesced */
	CHECK_OK(fchmod(f, 0600));
	CHECK_OK(ftruncate(f, 0));
	CHECK_OK(close(f));
	EXPECT_EVENTS(fd, { wd, IN_OPEN, "" }, { wd, IN_ACCESS, "" }, { wd, IN_MODIFY, "" },
		      { wd, IN_ATTRIB, "" }, { wd, IN_MODIFY, "" }, { wd, IN_CLOSE_WRITE, "" });
	open_close("f", O_RDONLY);
	CHECK_OK(chown("f", geteuid(), (gid_t)-1));
	CHECK_OK(utimensat(AT_FDCWD, "f", NULL, 0));
	CHECK_OK(truncate("f", 5));
	EXPECT_EVENTS(fd, { wd, IN_OPEN, "" }, { wd, IN_CLOSE_NOWRITE, "" }, { wd, IN_ATTRIB, "" },
		      { wd, IN_MODIFY, "" });
	/* Only what the mask asks for. */
	CHECK(inotify_add_watch(fd, "f", IN_CLOSE_NOWRITE) == wd);
	open_close("f", O_RDWR);
	open_close("f", O_RDONLY);
	EXPECT_EVENTS(fd, { wd, IN_CLOSE_NOWRITE, "" });
}

TEST(inotify_directory_events)
{
	int fd = watcher();

	int wd = CHECK_OK(inotify_add_watch(fd, ".", IN_ALL_EVENTS & ~IN_ACCESS));
	int f = CHECK_OK(open("f", O_CREAT | O_WRONLY, 0644));
	CHECK(write(f, "y", 1) == 1);
	CHECK_OK(close(f));
	CHECK_OK(mkdir("sub", 0755));
	CHECK_OK(mknod("fifo", S_IFIFO | 0644, 0));
	CHECK_OK(symlink("f", "sym"));
	EXPECT_EVENTS(fd, { wd, IN_CREATE, "f" }, { wd, IN_OPEN, "f" }, { wd, IN_MODIFY, "f" },
		      { wd, IN_CLOSE_WRITE, "f" }, { wd, IN_CREATE | IN_ISDIR, "sub" },
		      { wd, IN_CREATE, "fifo" }, { wd, IN_CREATE, "sym" });
	CHECK_OK(link("f", "hard"));
	CHECK_OK(unlink("hard"));
	CHECK_OK(rmdir("sub"));
	open_close(".", O_RDONLY | O_DIRECTORY);
	EXPECT_EVENTS(fd, { wd, IN_CREATE, "hard" }, { wd, IN_DELETE, "hard" },
		      { wd, IN_DELETE | IN_ISDIR, "sub" }, { wd, IN_OPEN | IN_ISDIR, "" },
		      { wd, IN_CLOSE_NOWRITE | IN_ISDIR, "" });
}

TEST(inotify_moves_share_a_cookie)
{
	int fd = watcher();
	struct seen got[MAX_SEEN];

	CHECK_OK(mkdir("a", 0755));
	CHECK_OK(mkdir("b", 0755));
	make_file("a/f", "", 0);
	int wa = CHECK_OK(inotify_add_watch(fd, "a", IN_MOVE));
	int wb = CHECK_OK(inotify_add_watch(fd, "b", IN_MOVE));
	CHECK_OK(rename("a/f", "b/g"));
	const struct want want[] = { { wa, IN_MOVED_FROM, "f" }, { wb, IN_MOVED_TO, "g" } };
	expect_events(fd, want, 2, got);
	CHECK(got[0].cookie != 0 && got[0].cookie == got[1].cookie);
	unsigned first_cookie = got[0].cookie;
	CHECK_OK(rename("b/g", "b/h"));
	expect_events(fd,
		      (const struct want[]){ { wb, IN_MOVED_FROM, "g" }, { wb, IN_MOVED_TO, "h" } },
		      2, got);
	CHECK(got[0].cookie == got[1].cookie && got[0].cookie != first_cookie);
	CHECK_OK(mkdir("a/d", 0755));
	CHECK_OK(rename("a/d", "b/d"));
	EXPECT_EVENTS(fd, { wa, IN_MOVED_FROM | IN_ISDIR, "d" },
		      { wb, IN_MOVED_TO | IN_ISDIR, "d" });
}

TEST(inotify_self_events)
{
	int fd = watcher();

	make_file("f", "", 0);
	CHECK_OK(mkdir("d", 0755));
	int wf = CHECK_OK(inotify_add_watch(fd, "f", IN_ALL_EVENTS));
	int wd = CHECK_OK(inotify_add_watch(fd, "d", IN_ALL_EVENTS));
	CHECK_OK(rename("f", "g"));
	CHECK_OK(rename("d", "e"));
	EXPECT_EVENTS(fd, { wf, IN_MOVE_SELF, "" }, { wd, IN_MOVE_SELF, "" });
	CHECK_OK(unlink("g"));
	CHECK_OK(rmdir("e"));
	EXPECT_EVENTS(fd, { wf, IN_ATTRIB, "" }, { wf, IN_DELETE_SELF, "" }, { wf, IN_IGNORED, "" },
		      { wd, IN_DELETE_SELF, "" }, { wd, IN_IGNORED, "" });
	CHECK_ERR(EINVAL, inotify_rm_watch(fd, wf));
}

TEST(inotify_unlink_keeping_other_names)
{
	int fd = watcher();

	make_file("f", "", 0);
	make_file("victim", "", 0);
	CHECK_OK(link("f", "g"));
	int wf = CHECK_OK(inotify_add_watch(fd, "f", IN_ATTRIB | IN_DELETE_SELF));
	int wv = CHECK_OK(inotify_add_watch(fd, "victim", IN_DELETE_SELF));
	CHECK_OK(unlink("g")); /* a link count change, not a deletion */
	CHECK_OK(rename("f", "victim"));
	EXPECT_EVENTS(fd, { wf, IN_ATTRIB, "" }, { wv, IN_DELETE_SELF, "" },
		      { wv, IN_IGNORED, "" });
}

/* ---- flags ---------------------------------------------------------------- */

TEST(inotify_oneshot)
{
	int fd = watcher();

	make_file("f", "", 0);
	int wd = CHECK_OK(inotify_add_watch(fd, "f", IN_OPEN | IN_CLOSE | IN_ONESHOT));
	open_close("f", O_RDONLY);
	EXPECT_EVENTS(fd, { wd, IN_OPEN, "" }, { wd, IN_IGNORED, "" });
	CHECK_ERR(EINVAL, inotify_rm_watch(fd, wd));
	int again = CHECK_OK(inotify_add_watch(fd, "f", IN_OPEN));
	CHECK(again != wd);
}

TEST(inotify_mask_add_and_replace)
{
	int fd = watcher();

	make_file("f", "", 0);
	int wd = CHECK_OK(inotify_add_watch(fd, "f", IN_OPEN));
	CHECK(inotify_add_watch(fd, "f", IN_CLOSE_NOWRITE | IN_MASK_ADD) == wd);
	open_close("f", O_RDONLY);
	EXPECT_EVENTS(fd, { wd, IN_OPEN, "" }, { wd, IN_CLOSE_NOWRITE, "" });
	CHECK(inotify_add_watch(fd, "f", IN_CLOSE_NOWRITE) == wd); /* replaced */
	open_close("f", O_RDONLY);
	EXPECT_EVENTS(fd, { wd, IN_CLOSE_NOWRITE, "" });
}

TEST(inotify_excl_unlink)
{
	int fd = watcher();

	make_file("kept", "", 0);
	make_file("gone", "", 0);
	int keep = CHECK_OK(open("kept", O_WRONLY));
	int gone = CHECK_OK(open("gone", O_WRONLY));
	int wd = CHECK_OK(inotify_add_watch(fd, ".", IN_MODIFY | IN_EXCL_UNLINK));
	CHECK_OK(unlink("kept"));
	CHECK_OK(unlink("gone"));
	CHECK(write(gone, "x", 1) == 1); /* unlinked: not the directory's any more */
	EXPECT_NO_EVENTS(fd);
	CHECK(inotify_add_watch(fd, ".", IN_MODIFY) == wd);
	CHECK(write(keep, "x", 1) == 1);
	EXPECT_EVENTS(fd, { wd, IN_MODIFY, "kept" });
}

TEST(inotify_dont_follow)
{
	int fd = watcher();

	make_file("f", "", 0);
	CHECK_OK(symlink("f", "link"));
	int wf = CHECK_OK(inotify_add_watch(fd, "link", IN_ATTRIB));
	int wl = CHECK_OK(inotify_add_watch(fd, "link", IN_ATTRIB | IN_DONT_FOLLOW));
	CHECK(wf != wl);
	CHECK(inotify_add_watch(fd, "f", IN_ATTRIB) == wf);
	CHECK_ERR(ENOTDIR, inotify_add_watch(fd, "link", IN_ATTRIB | IN_ONLYDIR));
}

/* ---- reading -------------------------------------------------------------- */

TEST(inotify_read_whole_events)
{
	int fd = watcher(), queued = -1;
	char buf[256] __attribute__((aligned(8)));

	int wd = CHECK_OK(inotify_add_watch(fd, ".", IN_CREATE));
	make_file("abc", "", 0);
	make_file("0123456789abcdefX", "", 0); /* 17 bytes and a NUL: 32 of name */
	size_t first = sizeof(struct inotify_event) + 16,
	       second = sizeof(struct inotify_event) + 32;
	CHECK_OK(ioctl(fd, FIONREAD, &queued));
	CHECK(queued == (int)(first + second));
	CHECK_ERR(EINVAL, read(fd, buf, 0));
	CHECK_ERR(EINVAL, read(fd, buf, first - 1));
	CHECK(read(fd, buf, first + second - 1) == (ssize_t)first); /* the second waits */
	struct inotify_event *e = (struct inotify_event *)buf;
	CHECK(e->wd == wd && e->mask == IN_CREATE && e->len == 16 && strcmp(e->name, "abc") == 0);
	CHECK(all_bytes(e->name + 3, 13, 0)); /* NUL-padded */
	CHECK(read(fd, buf, sizeof(buf)) == (ssize_t)second);
	CHECK(e->len == 32 && strcmp(e->name, "0123456789abcdefX") == 0);
	CHECK_OK(ioctl(fd, FIONREAD, &queued));
	CHECK(queued == 0);
}

static void
make_later_file(long arg __attribute__((unused)))
{
	make_file("later", "", 0);
}

TEST(inotify_read_blocks_and_polls)
{
	int fd = CHECK_OK(inotify_init1(0));
	int ep = CHECK_OK(epoll_create1(0));
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[256] __attribute__((aligned(8)));

	int wd = CHECK_OK(inotify_add_watch(fd, ".", IN_CREATE));
	CHECK_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0);
	pid_t pid = run_later(make_later_file, 0);
	CHECK(read(fd, buf, sizeof(buf)) > 0); /* slept until the child made it */
	expect_exit(pid, 0, "creator");
	struct inotify_event *e = (struct inotify_event *)buf;
	CHECK(e->wd == wd && strcmp(e->name, "later") == 0);
	make_file("now", "", 0);
	CHECK(poll(&p, 1, 0) == 1 && p.revents == POLLIN);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 1 && ev.data.fd == fd);
	CHECK(read(fd, buf, sizeof(buf)) > 0);
	CHECK(poll(&p, 1, 0) == 0);
}

TEST(inotify_queue_overflow)
{
	unsigned long max = read_number("/proc/sys/fs/inotify/max_queued_events");
	char buf[4096] __attribute__((aligned(8)));
	int fd = watcher();

	make_file("f", "", 0);
	int wd = CHECK_OK(inotify_add_watch(fd, "f", IN_OPEN | IN_CLOSE));
	for (unsigned long i = 0; i < max / 2 + 1; i++)
		open_close("f", O_RDONLY); /* OPEN, CLOSE_NOWRITE, ...: none coalesce */
	unsigned long n = 0;
	for (;;) {
		ssize_t len = read(fd, buf, sizeof(buf));
		if (len < 0)
			break;
		for (char *p = buf; p < buf + len; n++) {
			struct inotify_event *e = (struct inotify_event *)p;
			if (n < max)
				CHECK(e->wd == wd &&
				      e->mask == (n % 2 ? IN_CLOSE_NOWRITE : IN_OPEN));
			else
				CHECK(n == max && e->wd == -1 && e->mask == IN_Q_OVERFLOW);
			p += sizeof(*e) + e->len;
		}
	}
	CHECK(errno == EAGAIN && n == max + 1);
}

TEST(inotify_limits_in_proc)
{
	CHECK(read_number("/proc/sys/fs/inotify/max_queued_events") == 16384);
	CHECK(read_number("/proc/sys/fs/inotify/max_user_instances") > 0);
	CHECK(read_number("/proc/sys/fs/inotify/max_user_watches") > 0);
}

/* /proc/self/fdinfo/N shows each watch: its wd, inode and the mask kept, flags included. */
TEST(inotify_fdinfo_shows_watches)
{
	int fd = watcher();
	unsigned mask = IN_MODIFY | IN_ONESHOT | IN_EXCL_UNLINK;
	char path[64], text[1024];
	struct stat st;

	make_file("f", "", 0);
	CHECK_OK(stat("f", &st));
	int wd = CHECK_OK(inotify_add_watch(fd, "f", mask));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	CHECK_OK(read_text_file(path, text, sizeof(text)));
	const char *line = strstr(text, "inotify wd:");
	unsigned got_wd, got_dev, got_mask;
	unsigned long got_ino;
	if (!line || sscanf(line, "inotify wd:%x ino:%lx sdev:%x mask:%x", &got_wd, &got_ino,
			    &got_dev, &got_mask) != 4)
		fail("no watch line in fdinfo: '%s'", text);
	CHECK_EQ(got_wd, (unsigned)wd);
	CHECK_EQ(got_ino, (unsigned long)st.st_ino);
	CHECK_EQ(got_mask, mask);
}

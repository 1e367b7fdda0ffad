/*
 * helpers.c - the helpers the files of usertests share (see usertests.h).
 */
#define _GNU_SOURCE /* setresuid */
#include "usertests.h"

#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "lib/procfile.h"

const unsigned long bad_addrs[NBAD] = {
	1,
	0x0000800000000000UL,
	0xffff800000000000UL,
	0xffffffff80000000UL,
};

void
sibling(const char *name, char *path, size_t size)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", self_path);
	snprintf(path, size, "%s/%s", dirname(dir), name);
}

int
create_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = CHECK_OK(open(path, O_RDWR | O_CREAT | O_TRUNC, mode));

	if (len)
		CHECK_EQ(write(fd, data, len), (ssize_t)len);
	return fd;
}

void
make_file(const char *path, const void *data, size_t len)
{
	close(create_file(path, data, len, 0644));
}

const char *
path_under(const char *dir, const char *name)
{
	static char paths[4][PATH_MAX];
	static unsigned turn;
	char *p = paths[turn++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

void
fill_pattern(unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + seed + (i >> 12));
}

bool
has_pattern(const unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 7 + seed + (i >> 12)))
			return false;
	return true;
}

bool
all_bytes(const void *p, size_t len, unsigned char c)
{
	for (size_t i = 0; i < len; i++)
		if (((const unsigned char *)p)[i] != c)
			return false;
	return true;
}

long long
tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

void
block_signal(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	CHECK_OK(sigprocmask(SIG_BLOCK, &set, NULL));
}

void
as_nobody(void (*check)(const char *), const char *arg)
{
	pid_t pid = xfork();

	if (pid == 0) {
		CHECK_OK(setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		CHECK_OK(setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID));
		check(arg);
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the checks as nobody");
}

long
kernel_objects(const char *kind)
{
	static char text[1024], name[32];
	unsigned long n;
	int used, fd = open("/proc/objects", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return -1;
	text[len] = '\0';
	for (const char *p = text; sscanf(p, "%31s %lu\n%n", name, &n, &used) == 2; p += used)
		if (strcmp(name, kind) == 0)
			return (long)n;
	return -1;
}

long
meminfo(const char *key)
{
	char text[8192];
	long n = -1;

	CHECK_OK(read_text_file("/proc/meminfo", text, sizeof(text)));
	const char *line = strstr(text, key);
	if (line)
		sscanf(line + strlen(key), " %ld", &n);
	return n;
}

pid_t
run_later(void (*action)(long arg), long arg)
{
	pid_t pid = xfork();

	if (pid == 0) {
		struct timespec ts = { 0, 50 * 1000000 };

		nanosleep(&ts, NULL);
		action(arg);
		_exit(0);
	}
	return pid;
}

static void
write_w(long fd)
{
	write((int)fd, "w", 1);
}

pid_t
write_later(int fd)
{
	return run_later(write_w, fd);
}

unsigned long
read_number(const char *path)
{
	char buf[32] = "";
	int fd = (int)CHECK_OK(open(path, O_RDONLY));

	CHECK(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	return strtoul(buf, NULL, 10);
}

void
write_number(const char *path, unsigned long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu\n", n);
	int fd = (int)CHECK_OK(open(path, O_WRONLY));

	CHECK_EQ(write(fd, buf, (size_t)len), len);
	close(fd);
}

void __attribute__((noreturn)) hog_memory(void)
{
	for (;;) {
		char *p = mmap(NULL, 16 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p == MAP_FAILED)
			_exit(3); /* not what should run out: the test fails instead of hanging */
		for (size_t i = 0; i < 16 << 20; i += PAGE)
			p[i] = 1;
	}
}

int
record_lock(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &fl);
}

struct flock
record_lock_query(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };

	CHECK_OK(fcntl(fd, cmd, &fl));
	return fl;
}

ssize_t
send_control(int s, int type, const void *data, size_t len)
{
	union {
		char buf[CMSG_SPACE(64)];
		struct cmsghdr align;
	} u = { 0 };
	struct iovec iov = { "F", 1 };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = CMSG_SPACE(len) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(c), data, len);
	return sendmsg(s, &m, MSG_NOSIGNAL);
}

ssize_t
send_fd(int s, int fd)
{
	return send_control(s, SCM_RIGHTS, &fd, sizeof(fd));
}

int
recv_fd(int s, int *fd, size_t controllen, int flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} u;
	char c;
	struct iovec iov = { &c, 1 };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = controllen
	};

	CHECK_EQ(recvmsg(s, &m, flags), 1);
	*fd = -1;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(h), sizeof(int));
	return m.msg_flags;
}

int
proc_locks_of(int fd, char lines[][128], int max, int *first)
{
	char line[256], key[64];
	struct stat st;
	int found = 0;

	CHECK_OK(fstat(fd, &st));
	snprintf(key, sizeof(key), " %02x:%02x:%lu ", major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	FILE *f = fopen("/proc/locks", "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f) && found < max) {
		if (!strstr(line, key))
			continue;
		if (!found && first)
			*first = atoi(line);
		snprintf(lines[found++], 128, "%s", strstr(line, ": ") + 2);
	}
	fclose(f);
	return found;
}

int
proc_lock_number(int fd)
{
	char lines[1][128];
	int id = 0;

	CHECK_EQ(proc_locks_of(fd, lines, 1, &id), 1);
	return id;
}

void
wait_for_proc_locks_line(const char *want)
{
	struct timespec ms = { 0, 1000 * 1000 };
	char line[256];

	for (int tries = 0; tries < 10000; tries++) {
		bool found = false;
		FILE *f = fopen("/proc/locks", "r");
		CHECK(f != NULL);
		while (!found && fgets(line, sizeof(line), f))
			found = strcmp(line, want) == 0;
		fclose(f);
		if (found)
			return;
		nanosleep(&ms, NULL);
	}
	fail("no line '%s' in /proc/locks", want);
}

/*
 * Resident pages, as close to the mapping at p as can be seen. Linux: the
 * Rss smaps counts for the area holding p by walking the page table, exact (0
 * when none is there; statm's counters are per-CPU there and lag behind).
 * rewind has no smaps; its statm is exact, for the whole process.
 */
long
resident_pages(const void *p)
{
	char line[256];
	unsigned long start, end, at = (unsigned long)p;
	long kb = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f) {
		unsigned long size, resident;
		f = fopen("/proc/self/statm", "r");
		CHECK(f != NULL);
		CHECK_EQ(fscanf(f, "%lu %lu", &size, &resident), 2);
		fclose(f);
		return (long)resident;
	}
	/* The area holding p: Linux may have merged p's mapping with a neighbour. */
	bool in_area = false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			in_area = start <= at && at < end;
		else if (in_area && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb * 1024 / PAGE;
}

void
root_scratch_dir(char *dir, size_t size)
{
	if (geteuid() != 0)
		skip("needs root (mount)");
	snprintf(dir, size, "/tmp/usertests.XXXXXX"); /* mkdtemp's template: it fills in the Xs */
	CHECK(mkdtemp(dir) != NULL);
}

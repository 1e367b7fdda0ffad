/*
 * exhaustion.c - usertests: running out of memory hurts only the one who
 * asked for too much. A full RAM file system answers ENOSPC while every
 * other process goes on (and unlink gives the room back); a process that
 * takes all memory is the one the out-of-memory killer ends, while its
 * parent and a bystander live.
 *
 * Both need a small file system or a small machine, which they make or
 * look for: on rewind the RAM file system is shrunk through its knob
 * (/proc/sys/rewind/ramfs_size, as tmpfs's size=), on Linux a 1 MiB tmpfs
 * is mounted (root only); the memory hog runs only where RAM is at most
 * 2 GiB (rewind's VMs), never on a big host. And what the killer weighs
 * beside resident pages, as /proc/self/oom_score shows it.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#define KNOB "/proc/sys/rewind/ramfs_size"
#define ROOM (1024 * 1024) /* what the tests leave free in the file system */

static void
write_text(const char *path, const char *text)
{
	int fd = CHECK_OK(open(path, O_WRONLY));

	CHECK_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static unsigned long long
free_bytes(const char *dir)
{
	struct statfs st;

	CHECK_OK(statfs(dir, &st));
	return (unsigned long long)st.f_bfree * st.f_bsize;
}

/* Fills dir's file system through one file; what was written before ENOSPC. */
static unsigned long long
fill(const char *path)
{
	static char chunk[64 * 1024];
	unsigned long long total = 0;
	int fd = CHECK_OK(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	ssize_t n;

	memset(chunk, 0x5a, sizeof(chunk));
	while ((n = write(fd, chunk, sizeof(chunk))) > 0)
		total += (unsigned long long)n;
	CHECK(n < 0 && errno == ENOSPC);
	close(fd);
	return total;
}

/* With dir's file system full: it refuses more, others work, unlink gives the room back. */
static void
check_full_file_system(const char *dir)
{
	char path[PATH_MAX], other[PATH_MAX];
	int fds[2];

	snprintf(path, sizeof(path), "%s/filler", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	unsigned long long written = fill(path);
	CHECK(written >= ROOM / 2 && written <= 2 * ROOM);
	/* Full: a new file can be made (no data), but not given data. */
	int fd = CHECK_OK(open(other, O_WRONLY | O_CREAT, 0644));
	CHECK_ERR(ENOSPC, write(fd, "x", 1));
	CHECK_OK(close(fd));
	/* The rest of the system does not notice: memory, pipes, processes. */
	char *p = map_anon(4 * ROOM, PROT_READ | PROT_WRITE);
	memset(p, 1, 4 * ROOM);
	CHECK_OK(pipe(fds));
	CHECK_EQ(write(fds[1], p, 4096), 4096);
	pid_t pid = xfork();
	if (pid == 0)
		_exit(7);
	expect_exit(pid, 7, "a child while the file system is full");
	/* Unlink and close never need room; the space comes back. */
	unsigned long long before = free_bytes(dir);
	CHECK_OK(unlink(path));
	CHECK_OK(unlink(other));
	CHECK(free_bytes(dir) >= before + written / 2);
	fd = CHECK_OK(open(path, O_WRONLY | O_CREAT, 0644));
	CHECK_EQ(write(fd, p, 4096), 4096);
	CHECK_OK(close(fd));
	CHECK_OK(unlink(path));
}

/* rewind: the knob set to what is in use plus ROOM, in a child; the parent puts it back. */
static void
fill_rewind_ramfs(void)
{
	char old[64], size[64];
	struct statfs st;
	int fd = CHECK_OK(open(KNOB, O_RDONLY));
	ssize_t n = read(fd, old, sizeof(old) - 1);

	close(fd);
	CHECK(n > 0);
	old[n] = '\0';
	old[strcspn(old, "\n")] = '\0'; /* the value; a comment follows */
	CHECK_OK(statfs(".", &st));
	unsigned long long used = (unsigned long long)(st.f_blocks - st.f_bfree) * st.f_bsize;
	snprintf(size, sizeof(size), "%llu\n", (used + ROOM) / 1024);
	write_text(KNOB, size);
	pid_t pid = xfork();
	if (pid == 0) {
		check_full_file_system(".");
		_exit(0);
	}
	int status = wait_status(pid);
	write_text(KNOB, old);
	expect_exited(status, 0, "filling the RAM file system");
}

TEST(ramfs_full_enospc)
{
	if (access(KNOB, W_OK) == 0) {
		fill_rewind_ramfs();
		return;
	}
	if (geteuid() != 0)
		skip("not root: cannot mount a small tmpfs");
	CHECK_OK(mkdir("small", 0755));
	if (mount("tmpfs", "small", "tmpfs", 0, "size=1m") != 0)
		skip("cannot mount a tmpfs here (%s)", errname(errno));
	pid_t pid = xfork();
	if (pid == 0) {
		check_full_file_system("small");
		_exit(0);
	}
	int status = wait_status(pid);
	CHECK_OK(umount("small"));
	expect_exited(status, 0, "filling a 1 MiB tmpfs");
}

TEST(oom_kills_the_hog)
{
	struct sysinfo si;
	int ping[2], pong[2];
	char c;

	CHECK_OK(sysinfo(&si));
	if ((unsigned long long)si.totalram * si.mem_unit > (2ull << 30))
		skip("more than 2 GiB of RAM: not exhausting this machine");
	CHECK_OK(pipe(ping));
	CHECK_OK(pipe(pong));
	/* A bystander with a little memory of its own, to answer afterwards. */
	pid_t bystander = xfork();
	if (bystander == 0) {
		char *mine = map_anon(ROOM, PROT_READ | PROT_WRITE);
		memset(mine, 3, ROOM);
		if (read(ping[0], &c, 1) == 1 && all_bytes(mine, ROOM, 3))
			(void)!write(pong[1], "y", 1);
		_exit(0);
	}
	pid_t hog = xfork();
	if (hog == 0)
		hog_memory();
	expect_signaled(wait_status(hog), SIGKILL, "the memory hog");
	CHECK_EQ(write(ping[1], "?", 1), 1);
	CHECK(read(pong[0], &c, 1) == 1 && c == 'y');
	expect_exit(bystander, 0, "the bystander");
}

/* ---- what the OOM killer weighs ------------------------------------------------- */

#define KERNEL_THREADS 400
#define HELD_PIPES     160
#define LOCK_FILES     40
#define LOCKS_EACH     1000

static unsigned long
own_oom_score(void)
{
	return read_number("/proc/self/oom_score");
}

/* Points of oom_score that pages more of a process's weight make (Linux's proc_oom_score). */
static unsigned long
points_of(unsigned long pages)
{
	struct sysinfo si;

	CHECK_OK(sysinfo(&si));
	unsigned long total = (unsigned long)((unsigned long long)si.totalram * si.mem_unit / PAGE);
	return pages * 1000 / total * 2 / 3;
}

/* On rewind, oom_score rose by at least what pages of kernel memory weigh (a point of slack). */
static void
check_weighed(unsigned long before, unsigned long pages, const char *what)
{
	unsigned long after = own_oom_score(), want = points_of(pages);

	if (access("/proc/sys/rewind", F_OK) != 0)
		return; /* Linux's badness counts neither: memory cgroups weigh them */
	if (after + 1 < before + want)
		fail("oom_score %lu -> %lu with %s: want a rise of at least %lu", before, after,
		     what, want);
}

static void *
wait_for_eof(void *fd)
{
	char c;

	(void)!read((int)(long)fd, &c, 1);
	return NULL;
}

/*
 * rewind's OOM killer weighs a process's resident pages and the kernel
 * memory it caused: pipe buffers, threads' kernel stacks, file locks.
 * /proc/self/oom_score (Linux's scale) shows each rise. Linux weighs
 * resident pages, swap and page tables only, and charges the rest to the
 * memory cgroup, so on Linux the file is only read.
 */
TEST(oom_score_weighs_kernel_memory)
{
	int gate[2], p[2];
	pthread_t threads[KERNEL_THREADS];
	char path[64];

	unsigned long before = own_oom_score();
	CHECK(before <= 2000);
	for (int i = 0; i < HELD_PIPES; i++)
		CHECK_OK(pipe(p));
	check_weighed(before, HELD_PIPES * 16, "64 KiB pipes");

	before = own_oom_score();
	CHECK_OK(pipe(gate));
	for (int i = 0; i < KERNEL_THREADS; i++)
		CHECK_EQ(pthread_create(&threads[i], NULL, wait_for_eof, (void *)(long)gate[0]), 0);
	check_weighed(before, KERNEL_THREADS * 4, "threads' 16 KiB kernel stacks");
	close(gate[1]);
	for (int i = 0; i < KERNEL_THREADS; i++)
		CHECK_EQ(pthread_join(threads[i], NULL), 0);

	before = own_oom_score();
	for (int f = 0; f < LOCK_FILES; f++) {
		snprintf(path, sizeof(path), "locked%d", f);
		int fd = create_file(path, "", 0, 0644);
		for (int i = 0; i < LOCKS_EACH; i++)
			CHECK_OK(record_lock(fd, F_SETLK, F_WRLCK, 2 * i, 1));
	}
	check_weighed(before, LOCK_FILES * LOCKS_EACH * 64 / PAGE, "file locks of 64 bytes");
}

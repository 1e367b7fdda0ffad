/*
 * mapped_times.c - usertests: a store through a shared file mapping is a
 * change of the file's contents, so it stamps the file's mtime and ctime
 * (POSIX: "marked for update" between the store and the next msync; Linux
 * and rewind stamp them at the write fault, mm/fault.c's dirty_shared_page),
 * while a read through a shared mapping and a store into a private copy
 * change nothing the file shows.
 */
#include "usertests.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (2 * PAGE)
#define PAST	   1000000000 /* 2001: older than any stamp the kernel gives now */

static bool
later(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

/* fd's mtime and ctime are still those of before. */
static void
check_stamps_kept(int fd, const struct stat *before)
{
	struct stat now;

	CHECK_OK(fstat(fd, &now));
	CHECK(!later(now.st_mtim, before->st_mtim) && !later(before->st_mtim, now.st_mtim));
	CHECK(!later(now.st_ctim, before->st_ctim) && !later(before->st_ctim, now.st_ctim));
}

/*
 * Waits until the clock file stamps come from (the coarse wall clock, a
 * tick's resolution) has passed t, so that a stamp taken from now on is
 * later than t whatever the tick length.
 */
static void
wait_clock_past(struct timespec t)
{
	struct timespec now;

	for (;;) {
		CHECK_OK(clock_gettime(CLOCK_REALTIME_COARSE, &now));
		if (later(now, t))
			return;
		usleep(1000);
	}
}

/* A file of FILE_BYTES bytes of 'a', its mtime set far back; open read-write, stat in *st. */
static int
old_file(const char *name, struct stat *st)
{
	static char data[FILE_BYTES];
	const struct timespec past[2] = { { PAST, 0 }, { PAST, 0 } };

	memset(data, 'a', sizeof(data));
	int fd = create_file(name, data, sizeof(data), 0644);
	CHECK_OK(futimens(fd, past));
	CHECK_OK(fstat(fd, st));
	CHECK_EQ(st->st_mtim.tv_sec, PAST);
	wait_clock_past(st->st_ctim); /* a new ctime is told apart from the futimens one */
	return fd;
}

/*
 * The first store into a fresh shared mapping is a write fault on a page
 * of the file: its mtime and ctime move to now, seen after msync and
 * after munmap, and read() sees the byte.
 */
TEST(shared_mapping_write_stamps_mtime_and_ctime)
{
	struct stat before, after;
	int fd = old_file("mt_shared", &before);
	char *p = mmap(NULL, FILE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char c;

	CHECK(p != MAP_FAILED);
	p[PAGE] = 'x';
	CHECK_OK(msync(p, FILE_BYTES, MS_SYNC));
	CHECK_OK(fstat(fd, &after));
	CHECK(later(after.st_mtim, before.st_mtim));
	CHECK(later(after.st_ctim, before.st_ctim));
	CHECK_OK(munmap(p, FILE_BYTES));
	CHECK_OK(fstat(fd, &after));
	CHECK(later(after.st_mtim, before.st_mtim));
	CHECK_EQ(pread(fd, &c, 1, PAGE), 1);
	CHECK_EQ(c, 'x');
	close(fd);
}

/* Reading through a shared writable mapping changes neither stamp. */
TEST(shared_mapping_read_keeps_mtime_and_ctime)
{
	struct stat before;
	int fd = old_file("mt_read", &before);
	char *p = mmap(NULL, FILE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	CHECK(p != MAP_FAILED);
	CHECK_EQ(((volatile char *)p)[0], 'a');
	CHECK_EQ(((volatile char *)p)[PAGE], 'a');
	CHECK_OK(munmap(p, FILE_BYTES));
	check_stamps_kept(fd, &before);
	close(fd);
}

/* A store into a private mapping goes to a copy: the file, its data and stamps stay. */
TEST(private_mapping_write_keeps_mtime)
{
	struct stat before;
	int fd = old_file("mt_private", &before);
	char *p = mmap(NULL, FILE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char c;

	CHECK(p != MAP_FAILED);
	p[0] = 'x';
	CHECK_EQ(pread(fd, &c, 1, 0), 1);
	CHECK_EQ(c, 'a');
	CHECK_OK(munmap(p, FILE_BYTES));
	check_stamps_kept(fd, &before);
	close(fd);
}

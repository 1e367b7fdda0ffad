/*
 * mmap_edges.c - usertests: mmap's argument checks in Linux's order (an
 * unaligned offset, then the descriptor, then the length),
 * MAP_SHARED_VALIDATE refusing flags a file cannot honour, MAP_LOCKED
 * (counted in VmLck, its pages brought in, MS_INVALIDATE refused on it),
 * and a shared mapping of /dev/zero opened read-only never becoming
 * writable.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* VmLck of /proc/self/status, in kB; -1 if it cannot be read. */
static long
locked_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int
make_page_file(void)
{
	char page[PAGE];

	memset(page, 'a', sizeof(page));
	return create_file("page", page, sizeof(page), 0644);
}

TEST(mmap_checks_the_descriptor_before_the_length)
{
	int fd = make_page_file();

	CHECK_OK(close(fd));
	CHECK(mmap(NULL, 0, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EBADF);
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 1) == MAP_FAILED && errno == EINVAL);
	CHECK(mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
	      errno == EINVAL);
}

TEST(mmap_shared_validate_refuses_unknown_flags)
{
	int fd = make_page_file();
	const int unknown = 1 << 10; /* no MAP_ flag on x86-64 */
	void *p;

	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | unknown, fd, 0);
	CHECK(p == MAP_FAILED && errno == EOPNOTSUPP);
	/* MAP_SHARED ignores what it does not know, as it always did. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED | unknown, fd, 0);
	CHECK(p != MAP_FAILED);
	CHECK_OK(munmap(p, PAGE));
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_POPULATE, fd, 0);
	CHECK(p != MAP_FAILED);
	CHECK_OK(munmap(p, PAGE));
	CHECK_OK(close(fd));
}

TEST(map_locked_is_locked_and_resident)
{
	int fd = make_page_file();
	long before = locked_kb();
	unsigned char resident[4];

	CHECK(before >= 0);
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	CHECK(p != MAP_FAILED);
	CHECK_EQ(locked_kb(), before + 4 * PAGE / 1024);
	CHECK_OK(mincore(p, 4 * PAGE, resident));
	for (int i = 0; i < 4; i++)
		CHECK(resident[i] & 1);
	/* Locked pages are not dropped: MS_INVALIDATE over them is EBUSY, until munlock. */
	char *f = mmap(NULL, PAGE, PROT_READ, MAP_SHARED | MAP_LOCKED, fd, 0);
	CHECK(f != MAP_FAILED);
	CHECK_ERR(EBUSY, msync(f, PAGE, MS_INVALIDATE));
	CHECK_OK(msync(f, PAGE, MS_SYNC));
	CHECK_OK(munlock(f, PAGE));
	CHECK_OK(msync(f, PAGE, MS_INVALIDATE));
	CHECK_OK(munmap(f, PAGE));
	CHECK_OK(munmap(p, 4 * PAGE));
	CHECK_EQ(locked_kb(), before);
	CHECK_OK(close(fd));
}

TEST(read_only_dev_zero_never_becomes_writable)
{
	int fd = CHECK_OK(open("/dev/zero", O_RDONLY));
	void *shared = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	void *private = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0);

	CHECK(shared != MAP_FAILED && private != MAP_FAILED);
	CHECK_ERR(EACCES, mprotect(shared, PAGE, PROT_READ | PROT_WRITE));
	CHECK_OK(mprotect(private, PAGE, PROT_READ | PROT_WRITE)); /* a private copy is ours */
	CHECK(mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EACCES);
	CHECK_OK(munmap(shared, PAGE));
	CHECK_OK(munmap(private, PAGE));
	CHECK_OK(close(fd));
}

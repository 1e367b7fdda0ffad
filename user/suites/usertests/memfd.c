/*
 * memfd.c - usertests: memfd_create(2), its flags, name and errors, and
 * the seals fcntl puts on its files (F_ADD_SEALS, F_GET_SEALS): what each
 * seal refuses to write, truncate and mmap, and when a seal cannot be
 * added at all.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int
memfd(const char *name, unsigned flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

/* A sealable memfd of size bytes. */
static int
sealable_memfd(off_t size)
{
	int fd = (int)CHECK_OK(memfd("sealed", MFD_ALLOW_SEALING));

	CHECK_OK(ftruncate(fd, size));
	return fd;
}

static void
expect_seals(int fd, int want)
{
	int seals = (int)CHECK_OK(fcntl(fd, F_GET_SEALS));

	if (seals != want)
		fail("seals are %#x, want %#x", seals, want);
}

TEST(memfd_create_file)
{
	char buf[8], link[64], target[64];
	struct stat st;
	int fd = (int)CHECK_OK(memfd("test", 0));

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = CHECK_OK(readlink(link, target, sizeof(target) - 1));
	target[n] = '\0';
	if (strcmp(target, "/memfd:test (deleted)") != 0)
		fail("the link reads '%s'", target);
	CHECK_OK(fstat(fd, &st));
	CHECK(S_ISREG(st.st_mode) && st.st_size == 0);
	CHECK((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR && fcntl(fd, F_GETFD) == 0);
	CHECK(write(fd, "memory", 6) == 6);
	CHECK(pread(fd, buf, sizeof(buf), 0) == 6 && memcmp(buf, "memory", 6) == 0);
	/* Another open of it by its /proc link is the same file. */
	int again = (int)CHECK_OK(open(link, O_RDONLY));
	CHECK(read(again, buf, sizeof(buf)) == 6);
	fd = (int)CHECK_OK(memfd("", MFD_CLOEXEC));
	CHECK(fcntl(fd, F_GETFD) == FD_CLOEXEC);
}

TEST(memfd_create_errors)
{
	char name[252];

	CHECK_ERR(EINVAL, memfd("x", 0x100));
	CHECK_ERR(EFAULT, memfd(NULL, 0));
	for (int i = 0; i < NBAD; i++)
		CHECK_ERR(EFAULT, memfd((const char *)bad_addrs[i], 0));
	/* NAME_MAX less "memfd:": 249 bytes fit, 250 do not. */
	memset(name, 'n', sizeof(name));
	name[249] = '\0';
	CHECK_OK(memfd(name, 0));
	name[249] = 'n';
	name[250] = '\0';
	CHECK_ERR(EINVAL, memfd(name, 0));
}

TEST(memfd_seals_allowed_or_not)
{
	int p[2], fd = (int)CHECK_OK(memfd("unsealable", 0));
	char link[64];

	/* Without MFD_ALLOW_SEALING the file is born sealed against more seals. */
	expect_seals(fd, F_SEAL_SEAL);
	CHECK_ERR(EPERM, fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	/* Files that are not memfds take no seals. */
	CHECK_OK(pipe(p));
	CHECK_ERR(EINVAL, fcntl(p[0], F_GET_SEALS));
	CHECK_ERR(EINVAL, fcntl(p[1], F_ADD_SEALS, F_SEAL_WRITE));
	fd = sealable_memfd(0);
	expect_seals(fd, 0);
	CHECK_ERR(EINVAL, fcntl(fd, F_ADD_SEALS, 0x100));
	/* Sealing asks for a descriptor open for writing. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	int ro = (int)CHECK_OK(open(link, O_RDONLY));
	CHECK_ERR(EPERM, fcntl(ro, F_ADD_SEALS, F_SEAL_GROW));
	expect_seals(ro, 0);
	/* Seals add up; F_SEAL_SEAL ends the adding. */
	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK));
	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SEAL));
	expect_seals(ro, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	CHECK_ERR(EPERM, fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	CHECK_ERR(EPERM, fcntl(fd, F_ADD_SEALS, 0));
}

TEST(memfd_seal_shrink)
{
	int fd = sealable_memfd(4 * PAGE);

	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK));
	CHECK_ERR(EPERM, ftruncate(fd, PAGE));
	CHECK_ERR(EPERM, ftruncate(fd, 0));
	CHECK_OK(ftruncate(fd, 4 * PAGE));
	CHECK_OK(ftruncate(fd, 8 * PAGE));
	CHECK(pwrite(fd, "x", 1, 9 * PAGE) == 1);
}

TEST(memfd_seal_grow)
{
	static char buf[2 * PAGE];
	struct stat st;
	int fd = sealable_memfd(4 * PAGE);

	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW));
	CHECK_ERR(EPERM, ftruncate(fd, 5 * PAGE));
	CHECK_OK(ftruncate(fd, 3 * PAGE));
	CHECK_ERR(EPERM, ftruncate(fd, 4 * PAGE));
	CHECK(pwrite(fd, buf, PAGE, 0) == PAGE);
	/* A write that would run past the end stores the pages within it, as Linux. */
	CHECK(pwrite(fd, buf, sizeof(buf), 2 * PAGE) == PAGE);
	CHECK(pwrite(fd, buf, 10, 3 * PAGE - 5) == 5);
	CHECK_ERR(EPERM, pwrite(fd, buf, 1, 3 * PAGE));
	CHECK_OK(fstat(fd, &st));
	CHECK(st.st_size == 3 * PAGE);
}

TEST(memfd_seal_write)
{
	int fd = sealable_memfd(PAGE);
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	CHECK(p != MAP_FAILED);
	/* A shared mapping that could still write is in the way. */
	CHECK_ERR(EBUSY, fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	expect_seals(fd, 0);
	p[0] = 'm';
	CHECK_OK(munmap(p, PAGE));
	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	CHECK_ERR(EPERM, write(fd, "x", 1));
	CHECK_ERR(EPERM, pwrite(fd, "x", 1, 0));
	CHECK_ERR(EPERM, mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, fd, 0));
	/* Reading it stays, shared or private; a private copy may be written. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED && p[0] == 'm');
	CHECK_ERR(EACCES, mprotect(p, PAGE, PROT_READ | PROT_WRITE));
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(p != MAP_FAILED);
	p[0] = 'p';
	/* Its length may still change: that takes the shrink and grow seals. */
	CHECK_OK(ftruncate(fd, 2 * PAGE));
}

TEST(memfd_seal_future_write)
{
	char c;
	int fd = sealable_memfd(PAGE);
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	CHECK(p != MAP_FAILED);
	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE));
	/* The mapping made before still writes; nothing made after may. */
	p[0] = 'f';
	CHECK(pread(fd, &c, 1, 0) == 1 && c == 'f');
	CHECK_ERR(EPERM, write(fd, "x", 1));
	CHECK_ERR(EPERM, mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
	CHECK_ERR(EBUSY, fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	CHECK_OK(munmap(p, PAGE));
	CHECK_OK(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SEAL));
	expect_seals(fd, F_SEAL_FUTURE_WRITE | F_SEAL_WRITE | F_SEAL_SEAL);
}

/*
 * madvise_remove.c - usertests: madvise(MADV_REMOVE) punches a hole in the
 * file behind a writable shared mapping (a memfd, shared anonymous memory),
 * as fallocate(FALLOC_FL_PUNCH_HOLE) would: the range reads as zeros
 * through the mapping and the file, the file keeps its size; Linux's
 * errnos for the mappings it refuses.
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

/* A memfd of npages pages of byte c, mapped with prot and type at *map. */
static int
mapped_memfd(int npages, char c, int prot, int type, char **map)
{
	int fd = (int)CHECK_OK(syscall(SYS_memfd_create, "remove", 0));
	char page[PAGE];

	memset(page, c, PAGE);
	for (int i = 0; i < npages; i++)
		CHECK_EQ(write(fd, page, PAGE), PAGE);
	*map = mmap(NULL, (size_t)npages * PAGE, prot, type, fd, 0);
	CHECK(*map != MAP_FAILED);
	return fd;
}

TEST(madvise_remove_punches_file)
{
	char *p, page[PAGE];
	int fd = mapped_memfd(3, 'q', PROT_READ | PROT_WRITE, MAP_SHARED, &p);
	struct stat st;

	CHECK_OK(madvise(p + PAGE, PAGE, MADV_REMOVE));
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	CHECK(all_bytes(p, PAGE, 'q') && all_bytes(p + 2 * PAGE, PAGE, 'q'));
	CHECK_EQ(pread(fd, page, PAGE, PAGE), PAGE);
	CHECK(all_bytes(page, PAGE, 0));
	CHECK_OK(fstat(fd, &st));
	CHECK_EQ(st.st_size, 3 * PAGE); /* the size stays */
	p[PAGE] = 'n';			/* the hole fills again when written */
	CHECK_EQ(pread(fd, page, 1, PAGE), 1);
	CHECK(page[0] == 'n');
	munmap(p, 3 * PAGE);
	close(fd);
}

TEST(madvise_remove_shared_anonymous)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	memset(p, 'z', 2 * PAGE);
	pid_t child = xfork();
	if (child == 0)
		_exit(madvise(p, PAGE, MADV_REMOVE) == 0 ? 0 : 1);
	expect_exit(child, 0, "the child removes the first page");
	CHECK(all_bytes(p, PAGE, 0) && all_bytes(p + PAGE, PAGE, 'z')); /* the parent sees it */
	munmap(p, 2 * PAGE);
}

/*
 * What counts is whether the mapping could be made writable (Linux's
 * VM_MAYWRITE): a read-only shared mapping of a file opened for writing
 * may punch, one of a file opened read-only may not.
 */
TEST(madvise_remove_errors)
{
	char *shared_ro, *private, path[64];
	int fd1 = mapped_memfd(1, 'a', PROT_READ, MAP_SHARED, &shared_ro);
	int fd2 = mapped_memfd(1, 'a', PROT_READ | PROT_WRITE, MAP_PRIVATE, &private);
	char *anon = map_anon(PAGE, PROT_READ | PROT_WRITE);

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd1);
	int rdonly = (int)CHECK_OK(open(path, O_RDONLY));
	char *readonly_file = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, rdonly, 0);
	CHECK(readonly_file != MAP_FAILED);
	CHECK_ERR(EINVAL, madvise(anon, PAGE, MADV_REMOVE)); /* no file */
	CHECK_ERR(EACCES, madvise(private, PAGE, MADV_REMOVE));
	CHECK_ERR(EACCES, madvise(readonly_file, PAGE, MADV_REMOVE));
	CHECK(all_bytes(private, PAGE, 'a') && all_bytes(readonly_file, PAGE, 'a'));
	CHECK_OK(madvise(shared_ro, PAGE, MADV_REMOVE));
	CHECK(all_bytes(shared_ro, PAGE, 0));
	munmap(readonly_file, PAGE);
	munmap(shared_ro, PAGE);
	munmap(private, PAGE);
	munmap(anon, PAGE);
	close(rdonly);
	close(fd1);
	close(fd2);
}

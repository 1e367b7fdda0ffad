/*
 * remap_file_pages.c - usertests: remap_file_pages(2) as Linux emulates it
 * since 4.0 (an mmap of the file's pages over part of a shared mapping),
 * its argument checks, and its use on a System V segment removed while
 * attached.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "sysv.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static long
remap_pages(void *start, size_t size, long prot, size_t pgoff, long flags)
{
	return syscall(SYS_remap_file_pages, start, size, prot, pgoff, flags);
}

/* A memfd of npages pages, page i filled with 'a' + i. */
static int
lettered_memfd(int npages)
{
	int fd = (int)CHECK_OK(syscall(SYS_memfd_create, "remap", 0));
	char page[PAGE];

	for (int i = 0; i < npages; i++) {
		memset(page, 'a' + i, PAGE);
		CHECK_EQ(write(fd, page, PAGE), PAGE);
	}
	return fd;
}

TEST(remap_file_pages_shows_other_file_pages)
{
	int fd = lettered_memfd(4);
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char c;

	CHECK(p != MAP_FAILED);
	CHECK_OK(remap_pages(p, 2 * PAGE, 0, 2, 0));
	CHECK(p[0] == 'c' && p[PAGE] == 'd' && p[2 * PAGE] == 'c' && p[3 * PAGE] == 'd');
	p[1] = 'X'; /* reaches file page 2, which p + 2 * PAGE maps too */
	CHECK_EQ(pread(fd, &c, 1, 2 * PAGE + 1), 1);
	CHECK(c == 'X' && p[2 * PAGE + 1] == 'X');
	/* An unaligned start and size are rounded down, as Linux does. */
	CHECK_OK(remap_pages(p + 10, PAGE + 10, 0, 0, 0));
	CHECK(p[0] == 'a' && p[PAGE] == 'd');
	munmap(p, 4 * PAGE);
	close(fd);
}

TEST(remap_file_pages_errors)
{
	int fd = lettered_memfd(4);
	char *shared = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	char *private = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	char *anon = map_anon(PAGE, PROT_READ | PROT_WRITE);

	CHECK(shared != MAP_FAILED && private != MAP_FAILED);
	CHECK_ERR(EINVAL, remap_pages(shared, PAGE, PROT_READ, 1, 0)); /* prot must be 0 */
	CHECK_ERR(EINVAL, remap_pages(shared, 0, 0, 1, 0));
	CHECK_ERR(EINVAL, remap_pages(shared, PAGE, 0, ~0ul, 0)); /* pgoff wraps */
	CHECK_ERR(EINVAL, remap_pages(private, PAGE, 0, 1, 0));
	CHECK_ERR(EINVAL, remap_pages(anon, PAGE, 0, 1, 0));
	CHECK_ERR(EINVAL, remap_pages(shared, 3 * PAGE, 0, 1, 0)); /* past the mapping */
	CHECK_ERR(EINVAL, remap_pages(NULL, PAGE, 0, 1, 0));
	CHECK(shared[0] == 'a' && shared[PAGE] == 'b'); /* nothing changed */
	munmap(shared, 2 * PAGE);
	munmap(private, 2 * PAGE);
	munmap(anon, PAGE);
	close(fd);
}

/* Shared anonymous memory is a file too: its pages can be shuffled the same way. */
TEST(remap_file_pages_shared_anonymous)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	p[0] = 'a';
	p[PAGE] = 'b';
	CHECK_OK(remap_pages(p, PAGE, 0, 1, 0));
	CHECK(p[0] == 'b');
	munmap(p, 2 * PAGE);
}

/* A segment removed while attached: remapping keeps it, the last unmap frees it. */
TEST(remap_file_pages_sysv_segment_after_rmid)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, 2 * PAGE, 0600));
	char *p = (char *)CHECK_OK(sysv_shmat(id, NULL, 0));

	p[0] = 'a';
	p[PAGE] = 'b';
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
	CHECK_OK(remap_pages(p, PAGE, 0, 1, 0));
	CHECK(p[0] == 'b' && p[PAGE] == 'b');
	CHECK_OK(munmap(p, 2 * PAGE)); /* not shmdt: the first area no longer starts the segment */
	CHECK_ERR(EINVAL, sysv_shmctl(id, IPC_RMID, NULL)); /* gone now */
}

/*
 * Over the last area of a removed segment the remap is refused, as Linux's
 * shm_mmap refuses a segment destroyed by the unmap: the range is left
 * unmapped and the segment is gone (shmctl05's race, made deterministic).
 */
TEST(remap_file_pages_sysv_last_area_of_removed_segment)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, PAGE, 0600));
	char *p = (char *)CHECK_OK(sysv_shmat(id, NULL, 0));

	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
	CHECK_ERR(EINVAL, remap_pages(p, PAGE, 0, 0, 0));
	CHECK_ERR(ENOMEM, msync(p, PAGE, MS_ASYNC)); /* unmapped */
	CHECK_ERR(EINVAL, sysv_shmctl(id, IPC_RMID, NULL));
}

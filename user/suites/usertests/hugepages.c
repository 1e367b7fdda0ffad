/*
 * hugepages.c - usertests: huge pages (hugetlb): the pool root sizes
 * (vm.nr_hugepages and its /sys and /proc/meminfo views), MAP_HUGETLB
 * mappings (2 MiB alignment, zeroed first touch, the reservation mmap
 * takes, ENOMEM when the pool cannot back them), copy on write of a
 * private huge page across fork and sharing of a shared one (SIGBUS when
 * the pool has no page for the copy), munmap and
 * mprotect refusing to split a huge page, memfd_create's MFD_HUGETLB
 * files and a hugetlbfs mount's. Each test sets the pool for a child that runs the checks and puts
 * the old size back after, pass or fail: the host's setting is left as
 * it was.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HUGE_SIZE     (2ul << 20)
#define NR_HUGEPAGES  "/proc/sys/vm/nr_hugepages"
#define SYS_HUGEPAGES "/sys/kernel/mm/hugepages/hugepages-2048kB/"

/* Runs body in a child with a pool of pages huge pages, then restores the pool as it was. */
static void
with_pool(unsigned long pages, void (*body)(void))
{
	unsigned long old = read_number(NR_HUGEPAGES);

	write_number(NR_HUGEPAGES, pages);
	if (read_number(NR_HUGEPAGES) != pages) {
		write_number(NR_HUGEPAGES, old);
		skip("no memory for a pool of %lu huge pages", pages);
	}
	pid_t pid = xfork();
	if (pid == 0) {
		body();
		_exit(0);
	}
	int status = wait_status(pid);
	write_number(NR_HUGEPAGES, old);
	expect_exited(status, 0, "the checks with the pool set");
}

static void *
map_huge(size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
}

static void
pool_views_agree(void)
{
	CHECK_EQ(read_number(NR_HUGEPAGES), 3ul);
	CHECK_EQ(read_number(SYS_HUGEPAGES "nr_hugepages"), 3ul);
	CHECK_EQ(read_number(SYS_HUGEPAGES "free_hugepages"), 3ul);
	CHECK_EQ(read_number(SYS_HUGEPAGES "resv_hugepages"), 0ul);
	CHECK_EQ(read_number(SYS_HUGEPAGES "surplus_hugepages"), 0ul);
	CHECK_EQ(meminfo("HugePages_Total:"), 3);
	CHECK_EQ(meminfo("HugePages_Free:"), 3);
	CHECK_EQ(meminfo("Hugepagesize:"), 2048);
	/* The /sys name sets it too. */
	write_number(SYS_HUGEPAGES "nr_hugepages", 1);
	CHECK_EQ(read_number(NR_HUGEPAGES), 1ul);
	CHECK_EQ(meminfo("HugePages_Total:"), 1);
}

TEST(hugepages_pool_sizing)
{
	with_pool(3, pool_views_agree);
}

static void
fault_zeroed_pages(void)
{
	unsigned char *p = map_huge(HUGE_SIZE + 1, MAP_PRIVATE); /* rounded up to two */

	CHECK(p != MAP_FAILED);
	CHECK_EQ((unsigned long)p % HUGE_SIZE, 0ul);
	CHECK_EQ(meminfo("HugePages_Rsvd:"), 2); /* promised, not yet taken */
	CHECK_EQ(meminfo("HugePages_Free:"), 2);
	CHECK(all_bytes(p, 2 * HUGE_SIZE, 0));
	fill_pattern(p, 2 * HUGE_SIZE, 26);
	CHECK(has_pattern(p, 2 * HUGE_SIZE, 26));
	CHECK_EQ(meminfo("HugePages_Rsvd:"), 0);
	CHECK_EQ(meminfo("HugePages_Free:"), 0);
	CHECK_OK(munmap(p, 2 * HUGE_SIZE));
	CHECK_EQ(meminfo("HugePages_Free:"), 2);
}

TEST(hugepages_map_hugetlb_fault)
{
	with_pool(2, fault_zeroed_pages);
}

static void
fork_copies_private_shares_shared(void)
{
	unsigned char *priv = map_huge(HUGE_SIZE, MAP_PRIVATE);
	unsigned char *shared = map_huge(HUGE_SIZE, MAP_SHARED);

	CHECK(priv != MAP_FAILED && shared != MAP_FAILED);
	priv[100] = 1;
	shared[100] = 1;
	pid_t pid = xfork();
	if (pid == 0) {
		CHECK_EQ(priv[100], 1);
		priv[100] = 2;	 /* a copy of its own: the pool's third page */
		shared[100] = 2; /* the parent's page */
		CHECK_EQ(priv[100], 2);
		_exit(0);
	}
	expect_exited(wait_status(pid), 0, "the child");
	CHECK_EQ(priv[100], 1);
	CHECK_EQ(shared[100], 2);
	CHECK_EQ(meminfo("HugePages_Free:"), 1); /* the child's copy went back */
	priv[200] = 3;				 /* the parent's page is its own again: no copy */
	CHECK_EQ(meminfo("HugePages_Free:"), 1);
}

TEST(hugepages_fork_cow)
{
	with_pool(3, fork_copies_private_shares_shared);
}

/* The child's copy has no page to come from: SIGBUS, not an out-of-memory kill (Linux's too). */
static void
cow_without_a_page(void)
{
	unsigned char *p = map_huge(HUGE_SIZE, MAP_PRIVATE);

	CHECK(p != MAP_FAILED);
	p[0] = 1;
	pid_t pid = xfork();
	if (pid == 0) {
		p[0] = 2;
		_exit(0);
	}
	expect_signaled(wait_status(pid), SIGBUS, "the child writing");
	CHECK_EQ(p[0], 1);
}

TEST(hugepages_cow_without_pool_page_is_sigbus)
{
	with_pool(1, cow_without_a_page);
}

static void
no_split(void)
{
	unsigned char *p = map_huge(2 * HUGE_SIZE, MAP_PRIVATE);

	CHECK(p != MAP_FAILED);
	p[0] = 1;
	CHECK_ERR(EINVAL, munmap(p, HUGE_SIZE / 4));
	CHECK_ERR(EINVAL, munmap(p + 4096, HUGE_SIZE));
	CHECK_ERR(EINVAL, mprotect(p, 4096, PROT_READ));
	CHECK_EQ(p[0], 1);
	CHECK_ERR(EINVAL, mmap(p + 4096, HUGE_SIZE, PROT_READ,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED, -1, 0));
	CHECK_ERR(EINVAL,
		  mmap(NULL, HUGE_SIZE, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (16 << MAP_HUGE_SHIFT), -1, 0));
	/* Whole huge pages: the second goes, the first stays. */
	CHECK_OK(mprotect(p, HUGE_SIZE, PROT_READ));
	CHECK_EQ(p[0], 1);
	CHECK_OK(munmap(p + HUGE_SIZE, HUGE_SIZE));
	CHECK_EQ(meminfo("HugePages_Free:"), 1);
	CHECK_EQ(meminfo("HugePages_Rsvd:"), 0);
}

TEST(hugepages_munmap_alignment)
{
	with_pool(2, no_split);
}

/* memfd_create's huge page sizes go where mmap's do (Linux's HUGETLB_FLAG_ENCODE_SHIFT). */
static int
memfd(const char *name, unsigned flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

static void
memfd_huge_file(void)
{
	int fd = (int)CHECK_OK(memfd("huge", MFD_HUGETLB));
	char buf[4] = "abc";

	CHECK_ERR(EINVAL, write(fd, buf, 3));
	CHECK_ERR(EINVAL, ftruncate(fd, HUGE_SIZE / 2));
	CHECK_OK(ftruncate(fd, HUGE_SIZE));
	unsigned char *p = mmap(NULL, HUGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	memcpy(p + HUGE_SIZE - 3, "xyz", 3);
	CHECK_EQ(pread(fd, buf, 3, HUGE_SIZE - 3), 3);
	CHECK(!memcmp(buf, "xyz", 3));
	/* A second mapping sees the same page. */
	unsigned char *q = mmap(NULL, HUGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(q != MAP_FAILED);
	CHECK(!memcmp(q + HUGE_SIZE - 3, "xyz", 3));
	CHECK_EQ(meminfo("HugePages_Free:"), 1);
	CHECK_OK(munmap(p, HUGE_SIZE));
	CHECK_OK(munmap(q, HUGE_SIZE));
	CHECK_EQ(meminfo("HugePages_Free:"), 1); /* the file keeps it */
	CHECK_OK(close(fd));
	CHECK_EQ(meminfo("HugePages_Free:"), 2);
	/* Sizes there is no pool of: 64 KiB; 1 GiB unless this machine has one. */
	CHECK_ERR(ENODEV, memfd("huge", MFD_HUGETLB | (16u << MAP_HUGE_SHIFT)));
	if (access("/sys/kernel/mm/hugepages/hugepages-1048576kB", F_OK))
		CHECK_ERR(ENODEV, memfd("huge", MFD_HUGETLB | (30u << MAP_HUGE_SHIFT)));
	CHECK_ERR(EINVAL, memfd("huge", 21u << MAP_HUGE_SHIFT));
}

TEST(hugepages_memfd)
{
	with_pool(2, memfd_huge_file);
}

static void
reservations_run_out(void)
{
	CHECK_ERR(ENOMEM, map_huge(2 * HUGE_SIZE, MAP_PRIVATE));
	void *one = map_huge(HUGE_SIZE, MAP_PRIVATE);
	CHECK(one != MAP_FAILED);
	/* The pool's only page is promised to the first mapping, untouched or not. */
	CHECK_ERR(ENOMEM, map_huge(HUGE_SIZE, MAP_SHARED));
	CHECK_OK(munmap(one, HUGE_SIZE));
	CHECK_EQ(meminfo("HugePages_Rsvd:"), 0);
	one = map_huge(HUGE_SIZE, MAP_SHARED);
	CHECK(one != MAP_FAILED);
}

static void
empty_pool(void)
{
	CHECK_ERR(ENOMEM, map_huge(HUGE_SIZE, MAP_PRIVATE));
	CHECK_ERR(ENOMEM, map_huge(HUGE_SIZE, MAP_SHARED));
}

TEST(hugepages_enomem_when_pool_empty)
{
	with_pool(0, empty_pool);
	with_pool(1, reservations_run_out);
}

/* A file on a hugetlbfs mount: fallocate gives it pages, a mapping sees them, unlink frees them. */
static void
hugetlbfs_file(void)
{
	char dir[64], path[96];
	unsigned char buf[2];

	root_scratch_dir(dir, sizeof(dir));
	CHECK_OK(mount("none", dir, "hugetlbfs", 0, "pagesize=2M"));
	snprintf(path, sizeof(path), "%s/f", dir);
	int fd = (int)CHECK_OK(open(path, O_RDWR | O_CREAT, 0600));
	CHECK_ERR(EINVAL, ftruncate(fd, 4096));
	CHECK_OK(fallocate(fd, 0, 0, HUGE_SIZE));
	CHECK_EQ(lseek(fd, 0, SEEK_END), (off_t)HUGE_SIZE);
	CHECK_EQ(meminfo("HugePages_Free:"), 1);
	unsigned char *p = mmap(NULL, HUGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	CHECK_EQ(meminfo("HugePages_Free:"), 1); /* the page fallocate made */
	p[HUGE_SIZE - 1] = 7;
	CHECK_EQ(pread(fd, buf, 2, HUGE_SIZE - 2), 2);
	CHECK(buf[0] == 0 && buf[1] == 7);
	CHECK_OK(munmap(p, HUGE_SIZE));
	CHECK_OK(close(fd));
	CHECK_OK(unlink(path));
	CHECK_EQ(meminfo("HugePages_Free:"), 2);
	CHECK_OK(umount(dir));
	CHECK_OK(rmdir(dir));
}

TEST(hugepages_hugetlbfs_mount)
{
	with_pool(2, hugetlbfs_file);
}

static void
cannot_set_pool(const char *path)
{
	CHECK_ERR(EACCES, open(path, O_WRONLY));
}

TEST(hugepages_nobody_cannot_set_pool)
{
	as_nobody(cannot_set_pool, NR_HUGEPAGES);
	as_nobody(cannot_set_pool, SYS_HUGEPAGES "nr_hugepages");
}

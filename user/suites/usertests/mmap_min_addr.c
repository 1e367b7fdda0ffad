/*
 * mmap_min_addr.c - usertests: the ends of the user address space. Below
 * vm.mmap_min_addr (/proc/sys/vm/mmap_min_addr: 65536 on Debian, 4096 on
 * some hosts, so the tests read it) a mapping is placed only with
 * CAP_SYS_RAWIO - mmap MAP_FIXED and MAP_FIXED_NOREPLACE, mremap
 * MREMAP_FIXED and a MREMAP_DONTUNMAP hint, shmat at an address or one
 * SHM_RND rounds down to 0 all give a user EPERM and root the mapping -
 * while a plain mmap hint below it is moved up to it. At the top, user
 * space ends at 0x7ffffffff000, one page below the canonical hole, where
 * Linux's TASK_SIZE_MAX ends it.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MIN_ADDR_PATH "/proc/sys/vm/mmap_min_addr"
/* Linux's TASK_SIZE_MAX on x86-64 with 4-level paging: 2^47 less one page. */
#define TASK_SIZE_MAX 0x7ffffffff000ul

/* The highest page below vm.mmap_min_addr (0 when that is one page or less). */
static unsigned long
low_page(void)
{
	unsigned long min = read_number(MIN_ADDR_PATH);

	return min > PAGE ? (min - 1) & ~(unsigned long)(PAGE - 1) : 0;
}

/*
 * A page mapped at addr with MAP_FIXED or MAP_FIXED_NOREPLACE (how). The
 * system call itself: musl's mmap turns EPERM at address 0 without
 * MAP_FIXED into ENOMEM.
 */
static void *
map_fixed_at(unsigned long addr, int how)
{
	return (void *)syscall(SYS_mmap, addr, PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | how, -1, 0);
}

/* A user's MAP_FIXED, MAP_FIXED_NOREPLACE and mremap moves below the limit: EPERM, nothing moved. */
static void
low_mappings_refused(const char *unused)
{
	unsigned long low = low_page();
	char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);

	(void)unused;
	CHECK(map_fixed_at(low, MAP_FIXED) == MAP_FAILED && errno == EPERM);
	CHECK(map_fixed_at(low, MAP_FIXED_NOREPLACE) == MAP_FAILED && errno == EPERM);
	CHECK(map_fixed_at(0, MAP_FIXED) == MAP_FAILED && errno == EPERM);
	*p = 'x';
	CHECK(mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)low) == MAP_FAILED &&
	      errno == EPERM);
	/* The hint through the system call itself: musl's mremap passes one only with MREMAP_FIXED. */
	if (low) /* a hint of 0 is no hint */
		CHECK_ERR(EPERM, syscall(SYS_mremap, p, PAGE, PAGE,
					 MREMAP_MAYMOVE | MREMAP_DONTUNMAP, low));
	CHECK_EQ(*p, 'x'); /* still where it was */
	CHECK_OK(munmap(p, PAGE));
}

TEST(mmap_min_addr_refuses_low_mappings_to_users)
{
	if (getuid() != 0)
		skip("needs root to become nobody");
	as_nobody(low_mappings_refused, NULL);
}

TEST(mmap_min_addr_lets_root_map_low)
{
	unsigned long low = low_page();

	if (getuid() != 0)
		skip("needs root (CAP_SYS_RAWIO)");
	char *p = map_fixed_at(low, MAP_FIXED_NOREPLACE);
	CHECK(p == (char *)low);
	p[PAGE - 1] = 'x';
	char *q = mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)(low + PAGE));
	CHECK(q == (char *)(low + PAGE));
	CHECK_EQ(q[PAGE - 1], 'x');
	CHECK_OK(munmap(q, PAGE));
}

/* A hint below the limit is moved up to it (Linux's round_hint_to_min), for root too. */
TEST(mmap_hint_below_min_addr_moves_up)
{
	unsigned long min = read_number(MIN_ADDR_PATH);

	if (min <= PAGE || min > (1ul << 30))
		skip("vm.mmap_min_addr %lu leaves no hint below it to move", min);
	char *want = (char *)((min + PAGE - 1) & ~(unsigned long)(PAGE - 1));
	bool free_there = msync(want, PAGE, MS_ASYNC) != 0 && errno == ENOMEM;
	char *p = mmap((void *)PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	/* At the limit when that page is free, else wherever the search puts it: never below. */
	CHECK(free_there ? p == want : p > want);
	CHECK_OK(munmap(p, PAGE));
}

/* shmat at a low address, or one SHM_RND rounds down to 0: EPERM for a user. */
static void
low_attaches_refused(const char *id_text)
{
	int id = atoi(id_text);
	unsigned long low = low_page();

	CHECK(shmat(id, (void *)(PAGE / 2), SHM_RND) == (void *)-1 && errno == EPERM);
	if (low) {
		CHECK(shmat(id, (void *)low, 0) == (void *)-1 && errno == EPERM);
		CHECK(shmat(id, (void *)(low + 1), SHM_RND) == (void *)-1 && errno == EPERM);
	}
	/* Unaligned without SHM_RND is EINVAL first, as before. */
	CHECK(shmat(id, (void *)(low + 1), 0) == (void *)-1 && errno == EINVAL);
}

TEST(shmat_below_min_addr_refused_to_users)
{
	char id_text[16];

	if (getuid() != 0)
		skip("needs root to become nobody");
	int id = shmget(IPC_PRIVATE, PAGE, IPC_CREAT | 0666);
	CHECK(id >= 0);
	snprintf(id_text, sizeof(id_text), "%d", id);
	as_nobody(low_attaches_refused, id_text);
	/* Root's attach rounded down to 0 is a mapping at 0. */
	void *at = shmat(id, (void *)(PAGE / 2), SHM_RND);
	CHECK(at == NULL);
	CHECK_OK(shmdt(at));
	CHECK_OK(shmctl(id, IPC_RMID, NULL));
}

static void
knob_closed(const char *unused)
{
	(void)unused;
	CHECK_ERR(EACCES, open(MIN_ADDR_PATH, O_WRONLY));
}

TEST(mmap_min_addr_knob_is_roots)
{
	struct stat st;

	CHECK_OK(stat(MIN_ADDR_PATH, &st));
	CHECK_EQ(st.st_mode & 07777, 0644);
	CHECK_EQ(st.st_uid, 0);
	if (getuid() != 0)
		skip("needs root to become nobody");
	as_nobody(knob_closed, NULL);
	unsigned long min = read_number(MIN_ADDR_PATH);
	write_number(MIN_ADDR_PATH, min); /* root may set it: the same value back */
	CHECK_EQ(read_number(MIN_ADDR_PATH), min);
}

/*
 * The last canonical page is not user space: a fixed mapping or a move
 * there is refused (mmap and shmat ENOMEM, mremap EINVAL).
 */
TEST(user_space_ends_below_the_last_canonical_page)
{
	void *beyond = map_fixed_at(1ul << 47, MAP_FIXED_NOREPLACE);

	if (beyond != MAP_FAILED) {
		CHECK_OK(munmap(beyond, PAGE));
		skip("5-level paging: user space goes on to 2^56");
	}
	char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);
	CHECK(map_fixed_at(TASK_SIZE_MAX, MAP_FIXED) == MAP_FAILED && errno == ENOMEM);
	CHECK(map_fixed_at(TASK_SIZE_MAX, MAP_FIXED_NOREPLACE) == MAP_FAILED && errno == ENOMEM);
	CHECK(mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)TASK_SIZE_MAX) ==
		      MAP_FAILED &&
	      errno == EINVAL);
	int id = shmget(IPC_PRIVATE, PAGE, IPC_CREAT | 0600);
	CHECK(id >= 0);
	CHECK(shmat(id, (void *)TASK_SIZE_MAX, 0) == (void *)-1 && errno == ENOMEM);
	CHECK_OK(shmctl(id, IPC_RMID, NULL));
	/* The page below it is user space: taken or free, never out of range. */
	void *below = map_fixed_at(TASK_SIZE_MAX - PAGE, MAP_FIXED_NOREPLACE);
	CHECK(below == (void *)(TASK_SIZE_MAX - PAGE) || (below == MAP_FAILED && errno == EEXIST));
	if (below != MAP_FAILED)
		CHECK_OK(munmap(below, PAGE));
	CHECK_OK(munmap(p, PAGE));
}

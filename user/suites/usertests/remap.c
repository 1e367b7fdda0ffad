/*
 * remap.c - usertests: mremap. Shrinking, growing in place, moving
 * (MREMAP_MAYMOVE, MREMAP_FIXED, MREMAP_DONTUNMAP) with the pages moved,
 * not copied, Linux's errnos and the limits growth asks. The call is made
 * raw: libc's wrapper checks lengths itself.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static long
remap(void *old, size_t old_len, size_t new_len, long flags, void *new_addr)
{
	return syscall(SYS_mremap, old, old_len, new_len, flags, new_addr);
}

/* Whether [p, p + len) is free: a mapping that must not replace anything fits there. */
static bool
range_free(void *p, size_t len)
{
	void *q = mmap(p, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (q == MAP_FAILED)
		return false;
	munmap(q, len);
	return q == p;
}

/* npages of private anonymous memory followed by a PROT_NONE page, so it cannot grow in place. */
static unsigned char *
map_fenced(size_t npages)
{
	unsigned char *p = map_anon((npages + 1) * PAGE, PROT_READ | PROT_WRITE);

	CHECK_OK(mprotect(p + npages * PAGE, PAGE, PROT_NONE));
	return p;
}

TEST(mremap_shrink)
{
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(p, 4 * PAGE, 1);
	CHECK_EQ(remap(p, 4 * PAGE, 2 * PAGE + 1, 0, NULL), (long)p); /* lengths round up */
	CHECK(has_pattern(p, PAGE, 1));
	CHECK(range_free(p + 3 * PAGE, PAGE) && !range_free(p + 2 * PAGE, PAGE));
	CHECK_EQ(remap(p, 3 * PAGE, 3 * PAGE, 0, NULL), (long)p); /* the same size: nothing */
	CHECK_OK(munmap(p, 3 * PAGE));
}

TEST(mremap_grow_in_place)
{
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(p, 2 * PAGE, 2);
	CHECK_OK(munmap(p + 2 * PAGE, 2 * PAGE));
	CHECK_EQ(remap(p, 2 * PAGE, 4 * PAGE, 0, NULL), (long)p);
	CHECK(has_pattern(p, 2 * PAGE, 2));
	CHECK(all_bytes(p + 2 * PAGE, 2 * PAGE, 0)); /* new memory: zeros, writable */
	p[4 * PAGE - 1] = 7;
	CHECK_OK(munmap(p, 4 * PAGE));
}

/* Blocked growth fails without MREMAP_MAYMOVE and moves with it, data and all. */
TEST(mremap_maymove)
{
	unsigned char *p = map_fenced(2);

	fill_pattern(p, 2 * PAGE, 3);
	CHECK_ERR(ENOMEM, remap(p, 2 * PAGE, 4 * PAGE, 0, NULL));
	CHECK(has_pattern(p, 2 * PAGE, 3)); /* untouched */
	long q = remap(p, 2 * PAGE, 8 * PAGE, MREMAP_MAYMOVE, NULL);
	CHECK(q > 0 && q != (long)p);
	unsigned char *n = (unsigned char *)q;
	CHECK(has_pattern(n, 2 * PAGE, 3));
	CHECK(all_bytes(n + 2 * PAGE, 6 * PAGE, 0));
	CHECK(range_free(p, 2 * PAGE));
	CHECK_OK(munmap(n, 8 * PAGE));
	CHECK_OK(munmap(p + 2 * PAGE, PAGE));
}

/*
 * A move carries the pages themselves: shared memory stays shared with a
 * child that still has it at the old address, and touching the moved
 * pages takes no page fault.
 */
TEST(mremap_moves_pages_not_copies)
{
	const size_t pages = 64;
	unsigned char *shared =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int go[2], done[2];
	char c;

	CHECK(shared != MAP_FAILED);
	memset(shared, 1, 2 * PAGE);
	CHECK_OK(pipe(go));
	CHECK_OK(pipe(done));
	pid_t pid = xfork();
	if (pid == 0) {
		read(go[0], &c, 1);
		c = shared[PAGE + 5]; /* what the parent wrote through the new address */
		write(done[1], &c, 1);
		_exit(0);
	}
	long q = remap(shared, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		       (char *)map_anon(4 * PAGE, PROT_READ) + PAGE);
	CHECK(q > 0 && q != (long)shared);
	((unsigned char *)q)[PAGE + 5] = 42;
	CHECK_EQ(write(go[1], "g", 1), 1);
	CHECK(read(done[0], &c, 1) == 1 && c == 42);
	expect_exit(pid, 0, "child");

	unsigned char *p = map_fenced(pages);
	struct rusage before, after;
	memset(p, 9, pages * PAGE);
	q = remap(p, pages * PAGE, 2 * pages * PAGE, MREMAP_MAYMOVE, NULL);
	CHECK(q > 0 && q != (long)p);
	CHECK_OK(getrusage(RUSAGE_SELF, &before));
	unsigned sum = 0;
	for (size_t i = 0; i < pages; i++)
		sum += ((volatile unsigned char *)q)[i * PAGE];
	CHECK_OK(getrusage(RUSAGE_SELF, &after));
	CHECK_EQ(sum, 9 * pages);
	CHECK(after.ru_minflt - before.ru_minflt < (long)pages / 4);
}

/* MREMAP_FIXED replaces what was at the target, only over the new length. */
TEST(mremap_fixed)
{
	unsigned char *a = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	unsigned char *b = map_anon(3 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(a, 2 * PAGE, 4);
	memset(b, 'b', 3 * PAGE);
	CHECK_EQ(remap(a, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, b), (long)b);
	CHECK(has_pattern(b, 2 * PAGE, 4));
	CHECK(all_bytes(b + 2 * PAGE, PAGE, 'b'));
	CHECK(range_free(a, 2 * PAGE));
	/* Moving and shrinking at once: the tail is dropped first. */
	CHECK_EQ(remap(b, 2 * PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, a), (long)a);
	CHECK(has_pattern(a, PAGE, 4));
	CHECK(range_free(b, 2 * PAGE));
	CHECK_OK(munmap(a, PAGE));
	CHECK_OK(munmap(b + 2 * PAGE, PAGE));
}

/* MREMAP_DONTUNMAP moves the pages and leaves the old range mapped, empty. */
TEST(mremap_dontunmap)
{
	unsigned char *a = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(a, 2 * PAGE, 5);
	long q = remap(a, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	CHECK(q > 0 && q != (long)a);
	CHECK(has_pattern((unsigned char *)q, 2 * PAGE, 5));
	CHECK(!range_free(a, 2 * PAGE));
	CHECK(all_bytes(a, 2 * PAGE, 0)); /* fresh zero pages on the next touch */
	CHECK_OK(munmap(a, 2 * PAGE));
	CHECK_OK(munmap((void *)q, 2 * PAGE));
}

/* A moved file mapping keeps its file offsets, and a shared one still writes the file. */
TEST(mremap_file_mapping)
{
	unsigned char data[3 * PAGE], back[PAGE];
	int fd = create_file("f", NULL, 0, 0644);

	fill_pattern(data, sizeof(data), 6);
	CHECK_EQ(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	unsigned char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	CHECK_EQ(p[0], data[0]); /* the first page is present before the move */
	long q = remap(p + PAGE, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		       (char *)map_anon(2 * PAGE, PROT_NONE));
	CHECK(q > 0);
	unsigned char *n = (unsigned char *)q;
	CHECK_EQ(memcmp(n, data + PAGE, 2 * PAGE), 0);
	n[PAGE] = 0x5a; /* file offset 2 pages */
	CHECK(pread(fd, back, PAGE, 2 * PAGE) == PAGE && back[0] == 0x5a);
	CHECK(memcmp(p, data, PAGE) == 0 && range_free(p + PAGE, 2 * PAGE));
	close(fd);
}

TEST(mremap_errors)
{
	unsigned char *p = map_fenced(2); /* an area of its own: the fence is another */
	unsigned char *hole = map_anon(PAGE, PROT_READ);

	CHECK_OK(munmap(hole, PAGE));
	CHECK_ERR(EINVAL, remap(p, PAGE, PAGE, 8, NULL));		 /* unknown flag */
	CHECK_ERR(EINVAL, remap(p, PAGE, PAGE, MREMAP_FIXED, hole));	 /* FIXED alone */
	CHECK_ERR(EINVAL, remap(p, PAGE, PAGE, MREMAP_DONTUNMAP, NULL)); /* no MAYMOVE */
	CHECK_ERR(EINVAL, remap(p, PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL));
	CHECK_ERR(EINVAL, remap(p + 1, PAGE, PAGE, 0, NULL));	    /* unaligned */
	CHECK_ERR(EINVAL, remap(p, PAGE, 0, 0, NULL));		    /* nothing left */
	CHECK_ERR(EINVAL, remap(p, 0, PAGE, MREMAP_MAYMOVE, NULL)); /* private copy */
	CHECK_ERR(EINVAL, remap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, hole + 1));
	CHECK_ERR(EINVAL, remap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p + PAGE));
	CHECK_ERR(EFAULT, remap(hole, PAGE, 2 * PAGE, MREMAP_MAYMOVE, NULL));  /* not mapped */
	CHECK_ERR(EFAULT, remap(p, 3 * PAGE, 4 * PAGE, MREMAP_MAYMOVE, NULL)); /* past the area */
	CHECK_ERR(EFAULT, remap(hole, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p));
	/* An old range that wraps: its end passes the overlap check, yet nothing may move. */
	CHECK_ERR(EINVAL, remap(p, (size_t)-PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, hole));
	CHECK(all_bytes(p, 2 * PAGE, 0)); /* none of it touched p */
	CHECK_OK(munmap(p, 3 * PAGE));
}

/*
 * A new length reaching past user space is refused: Linux 6.1 finds no
 * room to grow into and none to move to (ENOMEM); newer Linux (6.18 on
 * the host) checks the length first (EINVAL).
 */
static bool
refused_as_too_long(long ret)
{
	int err = errno; /* on_rewind's access() sets its own */

	return ret == -1 && (err == ENOMEM || (err == EINVAL && !on_rewind()));
}

/*
 * Growth by 2^64 - PAGE wraps: the tail page's new end would be p + PAGE,
 * in place or moved, and the head page's move would need a range longer
 * than user space. Each is refused and the area keeps all its pages.
 */
TEST(mremap_growth_that_wraps_is_refused)
{
	unsigned char *p = map_anon(3 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(p, 3 * PAGE, 7);
	CHECK(refused_as_too_long(remap(p + 2 * PAGE, PAGE, (size_t)-PAGE, 0, NULL)));
	CHECK(refused_as_too_long(remap(p + 2 * PAGE, PAGE, (size_t)-PAGE, MREMAP_MAYMOVE, NULL)));
	CHECK(refused_as_too_long(remap(p, PAGE, (size_t)-PAGE, MREMAP_MAYMOVE, NULL)));
	CHECK(refused_as_too_long(remap(p, 3 * PAGE, 1ul << 48, MREMAP_MAYMOVE, NULL)));
	CHECK(has_pattern(p, 3 * PAGE, 7));
	for (int i = 0; i < 3; i++)
		CHECK(!range_free(p + i * PAGE, PAGE));
	CHECK_OK(munmap(p, 3 * PAGE));
}

/* Touches `pages` pages and grows the last by 2^64 - (pages - 2) pages: its end wraps to p + PAGE. */
static void
touch_and_wrap(long pages)
{
	unsigned char *p = map_anon((size_t)pages * PAGE, PROT_READ | PROT_WRITE);

	memset(p, 1, (size_t)pages * PAGE);
	remap(p + (pages - 1) * PAGE, PAGE, (size_t)(2 - pages) * PAGE, 0, NULL);
}

/*
 * What a wrapping growth once did (issue 24's leak, docs/long-runs.md):
 * taken as an end, it moved the area's end down below its pages, which
 * stayed mapped in no area, and the end of the process lost them (63 of
 * these 64). Here a process that does it ends, and rewind's /proc/objects
 * must not count its pages in use after (not a figure Linux shows).
 */
TEST(mremap_wrapped_growth_leaves_no_page_behind)
{
	const long pages = 64;

	if (kernel_objects("pages") < 0)
		skip("no /proc/objects (rewind's)");
	expect_exit(run_later(touch_and_wrap, pages), 0, "a first round, to warm up");
	long before = kernel_objects("pages");
	expect_exit(run_later(touch_and_wrap, pages), 0, "the round counted");
	long after = kernel_objects("pages");
	if (after >= before + pages / 2)
		fail("%ld pages in use before the process, %ld after it ended", before, after);
}

/* The process's own figure `key` of /proc/self/status, in bytes. */
static unsigned long long
status_bytes(const char *key)
{
	char status[4096];
	unsigned long long kib = 0;

	CHECK(read_text_file("/proc/self/status", status, sizeof(status)) > 0);
	CHECK_EQ(field_ull(status, key, &kib), 0);
	return kib * 1024;
}

/*
 * Growth asks the limits mmap asks (Linux's vma_to_resize): set 8 MiB
 * above what the process maps, RLIMIT_AS refuses 16 MiB more, in place
 * (where there is room), moved, or as a 16 MiB MREMAP_DONTUNMAP leaving
 * its old range mapped, and RLIMIT_DATA refuses 16 MiB more of private
 * writable memory but not of read-only memory; 1 MiB fits each time.
 */
TEST(mremap_growth_within_rlimit_as_and_data)
{
	enum { MIB = 1 << 20 };
	unsigned char *p = map_fenced(1), *ro = map_anon(16 * MIB, PROT_READ);
	unsigned char *kept = map_anon(16 * MIB, PROT_READ | PROT_WRITE);
	struct rlimit as, data;

	CHECK_OK(munmap(ro + PAGE, 16 * MIB - PAGE)); /* room for ro to grow in place */

	CHECK_OK(getrlimit(RLIMIT_AS, &as));
	CHECK_OK(getrlimit(RLIMIT_DATA, &data));
	as.rlim_cur = status_bytes("VmSize") + 8 * MIB;
	CHECK_OK(setrlimit(RLIMIT_AS, &as));
	CHECK_ERR(ENOMEM, remap(p, PAGE, 16 * MIB, MREMAP_MAYMOVE, NULL));
	CHECK_ERR(ENOMEM, remap(ro, PAGE, 16 * MIB, 0, NULL));
	CHECK_ERR(ENOMEM, remap(ro, PAGE, 16 * MIB, MREMAP_MAYMOVE, NULL));
	/* MREMAP_DONTUNMAP leaves the old range mapped: all of it is growth. */
	CHECK_ERR(ENOMEM, remap(kept, 16 * MIB, 16 * MIB, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL));
	p = (unsigned char *)CHECK_OK(remap(p, PAGE, MIB, MREMAP_MAYMOVE, NULL));
	as.rlim_cur = RLIM_INFINITY;
	CHECK_OK(setrlimit(RLIMIT_AS, &as));

	data.rlim_cur = status_bytes("VmData") + 8 * MIB;
	CHECK_OK(setrlimit(RLIMIT_DATA, &data));
	CHECK_ERR(ENOMEM, remap(p, MIB, 17 * MIB, MREMAP_MAYMOVE, NULL));
	ro = (unsigned char *)CHECK_OK(remap(ro, PAGE, 16 * MIB, MREMAP_MAYMOVE, NULL));
	p = (unsigned char *)CHECK_OK(remap(p, MIB, 2 * MIB, MREMAP_MAYMOVE, NULL));
	CHECK_OK(munmap(p, 2 * MIB));
	CHECK_OK(munmap(ro, 16 * MIB));
	CHECK_OK(munmap(kept, 16 * MIB));
}

static void
grow_locked_memory(const char *unused)
{
	struct rlimit lock = { 64 * 1024, 64 * 1024 };
	unsigned char *p;

	(void)unused;
	CHECK_OK(setrlimit(RLIMIT_MEMLOCK, &lock));
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED,
		 -1, 0);
	CHECK(p != MAP_FAILED);
	CHECK_ERR(EAGAIN, remap(p, 4 * PAGE, 32 * PAGE, MREMAP_MAYMOVE, NULL));
	CHECK_OK(remap(p, 4 * PAGE, 8 * PAGE, MREMAP_MAYMOVE, NULL));
}

/*
 * A locked area grows only within RLIMIT_MEMLOCK (Linux's
 * mlock_future_check: EAGAIN), for a process without CAP_IPC_LOCK: 16 KiB
 * locked under a limit of 64 KiB may become 32 KiB, not 128 KiB.
 */
TEST(mremap_growth_of_locked_memory_within_rlimit_memlock)
{
	if (geteuid() != 0)
		skip("needs root to become another user");
	as_nobody(grow_locked_memory, NULL);
}

/*
 * memory.c - usertests: brk, anonymous and file mappings, munmap and
 * mprotect splitting a mapping, shared anonymous memory across fork,
 * madvise, msync, malloc, a deep stack, pages the kernel faults in for a
 * system call, mincore (anonymous pages once touched, file pages in the
 * page cache), and unmapped memory counted free again.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(brk)
{
	unsigned long cur = syscall(SYS_brk, 0), want = cur + 3 * PAGE + 5;
	unsigned char *p = (unsigned char *)cur;

	CHECK(cur != 0);
	/* musl's malloc counts on brk() answering exactly the address asked for. */
	CHECK_EQ((unsigned long)syscall(SYS_brk, want), want);
	memset(p, 0xab, 3 * PAGE + 5);
	CHECK_EQ((unsigned long)syscall(SYS_brk, cur), cur);
	CHECK_EQ((unsigned long)syscall(SYS_brk, want), want);
	/* Shrinking freed the whole pages; they come back zeroed. */
	unsigned long whole = (cur + PAGE - 1) & ~(unsigned long)(PAGE - 1);

	CHECK(all_bytes((unsigned char *)whole, want - whole, 0));
	CHECK_EQ((unsigned long)syscall(SYS_brk, cur), cur);
	/* A request it cannot grant leaves the break where it was. */
	CHECK_EQ((unsigned long)syscall(SYS_brk, 1), cur);
	CHECK_EQ((unsigned long)syscall(SYS_brk, 0xffff800000000000UL), cur);
	CHECK_EQ((unsigned long)syscall(SYS_brk, 0), cur);
}

static unsigned char *unmapped_page;

static void
touch_unmapped(void)
{
	(void)*(volatile unsigned char *)unmapped_page;
}

static void
write_unmapped(void)
{
	*(volatile unsigned char *)unmapped_page = 1;
}

TEST(mmap_anon)
{
	enum { LEN = 16 * PAGE };
	unsigned char *p = map_anon(LEN, PROT_READ | PROT_WRITE);

	CHECK_EQ(((unsigned long)p & (PAGE - 1)), 0);
	CHECK(all_bytes(p, LEN, 0));
	fill_pattern(p, LEN, 5);
	CHECK(has_pattern(p, LEN, 5));
	CHECK_OK(munmap(p, LEN));
	unmapped_page = p + 5 * PAGE;
	expect_killed(touch_unmapped, SIGSEGV, "read after munmap");
	/* The same range mapped again is fresh zeroed memory. */
	CHECK_EQ(mmap(p, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		      0),
		 p);
	CHECK(all_bytes(p, LEN, 0));
}

/*
 * Shared anonymous memory (and a shared mapping of /dev/zero) is one set of
 * pages for every process that inherits it, pages first touched after the
 * fork included: a write on either side is seen on the other.
 */
static void
expect_shared_after_fork(volatile unsigned char *m, const char *what)
{
	CHECK(m[0] == 0 && m[PAGE] == 0);
	m[0] = 1; /* touched before the fork; m[PAGE] is not */
	pid_t pid = xfork();
	if (pid == 0) {
		m[0] = 2;
		m[PAGE] = 3; /* the first touch of that page, in the child */
		_exit(0);
	}
	expect_exit(pid, 0, what);
	if (m[0] != 2 || m[PAGE] != 3)
		fail("%s: the parent sees %d and %d, want the child's 2 and 3", what, m[0],
		     m[PAGE]);
	pid = xfork();
	if (pid == 0)
		_exit(m[PAGE] == 3 && m[2 * PAGE] == 0 ? 0 : 1);
	expect_exit(pid, 0, what);
}

TEST(mmap_shared_anonymous_across_fork)
{
	unsigned char *m =
		mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	expect_shared_after_fork(m, "MAP_SHARED | MAP_ANONYMOUS");
	CHECK_OK(munmap(m, 3 * PAGE));

	int zero = CHECK_OK(open("/dev/zero", O_RDWR));
	m = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, zero, 0);
	close(zero);
	CHECK(m != MAP_FAILED);
	expect_shared_after_fork(m, "MAP_SHARED of /dev/zero");
	CHECK_OK(munmap(m, 3 * PAGE));

	/* Anyone may have it, not only who may create files in / (the file has no name). */
	if (getuid() == 0) {
		pid_t pid = xfork();
		if (pid == 0) {
			if (setuid(65534) != 0)
				_exit(2);
			void *n = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
			_exit(n == MAP_FAILED ? 1 : 0);
		}
		expect_exit(pid, 0, "an unprivileged process's shared anonymous mapping");
	}
}

/* Splitting one mapping with munmap and mprotect, then filling the hole again. */
TEST(mmap_split)
{
	static unsigned char ref[4 * PAGE];
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	fill_pattern(ref, 4 * PAGE, 9);
	memcpy(p, ref, 4 * PAGE);
	CHECK_OK(munmap(p + PAGE, PAGE));
	unmapped_page = p + PAGE;
	expect_killed(touch_unmapped, SIGSEGV, "read of the unmapped middle page");
	CHECK_EQ(memcmp(p, ref, PAGE), 0);
	CHECK_OK(mprotect(p + 2 * PAGE, PAGE, PROT_READ));
	unmapped_page = p + 2 * PAGE;
	expect_killed(write_unmapped, SIGSEGV, "write to the read-only page");
	CHECK_EQ(memcmp(p + 2 * PAGE, ref + 2 * PAGE, 2 * PAGE), 0);
	CHECK_OK(mprotect(p + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	p[2 * PAGE] = 1;
	CHECK_EQ(mmap(p + PAGE, PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
		 p + PAGE);
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	CHECK_EQ(memcmp(p + 3 * PAGE, ref + 3 * PAGE, PAGE), 0);
	CHECK_OK(munmap(p, 4 * PAGE));
}

TEST(mprotect)
{
	unsigned char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	p[0] = 7;
	CHECK_OK(mprotect(p, PAGE, PROT_NONE));
	unmapped_page = p;
	expect_killed(touch_unmapped, SIGSEGV, "read of a PROT_NONE page");
	CHECK_OK(mprotect(p, PAGE, PROT_READ));
	CHECK_EQ(p[0], 7);
	CHECK_ERR(EINVAL, syscall(SYS_mprotect, p + 1, PAGE, PROT_READ)); /* musl would round it */
	CHECK_ERR(EINVAL, syscall(SYS_mprotect, p, PAGE, 0x100));
	CHECK_OK(munmap(p + PAGE, PAGE));
	CHECK_ERR(ENOMEM, mprotect(p + PAGE, PAGE, PROT_READ));
}

/* Code written to memory runs once the page is made executable. */
TEST(mmap_exec)
{
	static const unsigned char code[] = { 0xb8, 42, 0, 0, 0, 0xc3 }; /* mov $42,%eax; ret */
	unsigned char *p = map_anon(PAGE, PROT_READ | PROT_WRITE);

	memcpy(p, code, sizeof(code));
	CHECK_OK(mprotect(p, PAGE, PROT_READ | PROT_EXEC));
	CHECK_EQ(((int (*)(void))p)(), 42);
}

TEST(madvise_dontneed)
{
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE), *f;
	unsigned char data[2 * PAGE];
	int fd;

	memset(p, 0x5a, 4 * PAGE);
	CHECK_OK(madvise(p + PAGE, 2 * PAGE, MADV_DONTNEED));
	CHECK(p[0] == 0x5a && p[3 * PAGE] == 0x5a);
	CHECK(all_bytes(p + PAGE, 2 * PAGE, 0));
	/* A private file mapping drops its copies and shows the file again. */
	memset(data, 'd', sizeof(data));
	fd = create_file("f", data, sizeof(data), 0644);
	f = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(f != MAP_FAILED);
	memset(f, 'w', 2 * PAGE);
	CHECK_OK(madvise(f, 2 * PAGE, MADV_DONTNEED));
	CHECK(all_bytes(f, 2 * PAGE, 'd'));
	CHECK_ERR(EINVAL, madvise(p + 1, PAGE, MADV_DONTNEED));
	CHECK_ERR(EINVAL, madvise(p, PAGE, 12345));
}

/* MemFree in kB, and sysinfo's freeram, read right after it, agreeing with it. */
static long
memfree_kb(void)
{
	enum { AGREE_KB = 16 << 10 }; /* others allocate between the two readings */
	long kb = meminfo("MemFree:");
	struct sysinfo si;

	CHECK_OK(sysinfo(&si));
	long si_kb = (long)(si.freeram * si.mem_unit / 1024);
	CHECK(si_kb < kb + AGREE_KB && kb < si_kb + AGREE_KB);
	return kb;
}

/*
 * Memory a process touched and unmapped is free again for every count. On
 * rewind, where nothing else runs, MemFree falls by the 64 MiB region
 * touched and comes back at munmap to within a few pages, and so do
 * /proc/objects' pages in use: the pages the kernel keeps on its per-CPU
 * free lists count as free. Linux does not count those in MemFree (since
 * 6.7 it grows the lists to many MiB: this host's MemFree hardly moves),
 * so there only MemFree and sysinfo's freeram are held to agree.
 */
TEST(munmap_gives_the_pages_back_to_memfree)
{
	enum { LEN = 64 << 20, SLACK_PAGES = 64 };
	long free_kb = memfree_kb(), used = kernel_objects("pages");

	unsigned char *p = map_anon(LEN, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < LEN; i += PAGE)
		p[i] = 1;
	long touched_kb = memfree_kb();
	CHECK_OK(munmap(p, LEN));
	long freed_kb = memfree_kb();
	if (!on_rewind())
		return;
	CHECK(free_kb - touched_kb >= LEN / 1024 - SLACK_PAGES * PAGE / 1024);
	CHECK(freed_kb + SLACK_PAGES * PAGE / 1024 >= free_kb);
	CHECK(kernel_objects("pages") <= used + SLACK_PAGES);
}

TEST(mmap_file)
{
	enum { LEN = 3 * PAGE + 100 };
	static unsigned char data[LEN], back[LEN];
	unsigned char *m, *w;
	int fd;

	fill_pattern(data, LEN, 11);
	fd = create_file("f", data, LEN, 0644);
	m = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(m != MAP_FAILED);
	CHECK_EQ(memcmp(m, data, LEN), 0);
	CHECK(all_bytes(m + LEN, 4 * PAGE - LEN, 0)); /* past EOF in the last page */
	/* An offset maps from that page of the file on. */
	w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, PAGE);
	CHECK(w != MAP_FAILED);
	CHECK_EQ(memcmp(w, data + PAGE, PAGE), 0);
	/* Private writes stay private: the file and other mappings keep the data. */
	memset(w, 0, PAGE);
	CHECK_EQ(memcmp(m + PAGE, data + PAGE, PAGE), 0);
	CHECK_EQ(pread(fd, back, LEN, 0), LEN);
	CHECK_EQ(memcmp(back, data, LEN), 0);
	/* A shared read-only mapping sees later writes through the file. */
	unsigned char *s = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);

	CHECK(s != MAP_FAILED);
	CHECK_EQ(pwrite(fd, "new", 3, 10), 3);
	CHECK_EQ(memcmp(s + 10, "new", 3), 0);
	CHECK_OK(munmap(m, 4 * PAGE));
	CHECK_OK(munmap(w, PAGE));
	CHECK_OK(munmap(s, PAGE));
}

TEST(mmap_errors)
{
	int fd = create_file("f", "data", 4, 0644), wfd, rfd;
	void *p = map_anon(PAGE, PROT_READ);

	wfd = CHECK_OK(open("f", O_WRONLY));
	rfd = CHECK_OK(open("f", O_RDONLY));
	/* Raw calls: musl checks the offset and length itself. */
	CHECK_ERR(EINVAL,
		  syscall(SYS_mmap, NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	CHECK_ERR(EINVAL, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0));
	CHECK_ERR(EINVAL, syscall(SYS_mmap, 0x10000001, PAGE, PROT_READ,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	CHECK_ERR(EINVAL, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 100));
	CHECK_ERR(EBADF, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, -1, 0));
	CHECK_ERR(EBADF, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, 999, 0));
	CHECK_ERR(EACCES, syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_PRIVATE, wfd, 0));
	CHECK_ERR(EACCES,
		  syscall(SYS_mmap, NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0));
	CHECK_ERR(ENOMEM, syscall(SYS_mmap, NULL, 1UL << 62, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0));
	CHECK_ERR(ENOMEM, syscall(SYS_mmap, 0xffff800000000000UL, PAGE, PROT_READ,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	CHECK_ERR(EINVAL, munmap((char *)p + 1, PAGE));
	CHECK_ERR(EINVAL, munmap(p, 0));
}

/*
 * A shared mapping of a file opened read-only can never become writable:
 * writes would reach a file the process may not write (Linux: VM_MAYWRITE,
 * EACCES). A private one may: its writes stay in the process.
 */
TEST(mprotect_shared_readonly_file)
{
	int rfd, fd = create_file("f", "data", 4, 0644);
	char buf[4];

	close(fd);
	rfd = CHECK_OK(open("f", O_RDONLY));
	CHECK_ERR(EACCES, mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0));
	char *shared = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, rfd, 0);
	CHECK(shared != MAP_FAILED && memcmp(shared, "data", 4) == 0);
	CHECK_ERR(EACCES, mprotect(shared, PAGE, PROT_READ | PROT_WRITE));
	CHECK_ERR(EACCES, mprotect(shared, PAGE, PROT_WRITE));
	CHECK_OK(mprotect(shared, PAGE, PROT_NONE)); /* taking rights away is fine */
	CHECK_ERR(EACCES, mprotect(shared, PAGE, PROT_READ | PROT_WRITE));
	CHECK_OK(mprotect(shared, PAGE, PROT_READ));
	CHECK_EQ(memcmp(shared, "data", 4), 0);
	char *priv = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, rfd, 0);
	CHECK(priv != MAP_FAILED);
	CHECK_OK(mprotect(priv, PAGE, PROT_READ | PROT_WRITE));
	memcpy(priv, "priv", 4);
	CHECK(pread(rfd, buf, 4, 0) == 4 && memcmp(buf, "data", 4) == 0);
	CHECK_EQ(memcmp(shared, "data", 4), 0);
}

/*
 * A hint is only a hint: one that does not fit below the top of user space
 * (even where addr + len wraps past 2^64) gives some other user address,
 * never a kernel one. MAP_FIXED there, or lengths that wrap when rounded
 * up, fail.
 */
TEST(mmap_huge_hints)
{
	static const unsigned long hints[] = { 0xfffffffffffff000UL, 0xffff800000000000UL,
					       0x00007ffffffff000UL, 0x0000800000000000UL,
					       0x8000000000000000UL };
	static const unsigned long lens[] = { PAGE, 2 * PAGE, 1UL << 30 };

	for (unsigned i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		for (unsigned j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			long r = syscall(SYS_mmap, hints[i], lens[j], PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (r < 0 && r > -4096)
				fail("hint %#lx len %#lx: mmap failed with %s", hints[i], lens[j],
				     errname((int)-r));
			unsigned long a = (unsigned long)r;
			if (a >= 0x0000800000000000UL || a + lens[j] > 0x0000800000000000UL)
				fail("hint %#lx len %#lx: mapped at %#lx, outside user space",
				     hints[i], lens[j], a);
			*(volatile char *)a = 1; /* usable */
			CHECK_OK(munmap((void *)a, lens[j]));
			if (hints[i] >= 0x0000800000000000UL) /* (Linux's top is one page lower) */
				CHECK_ERR(ENOMEM,
					  syscall(SYS_mmap, hints[i], lens[j], PROT_READ,
						  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
		}
	}
	/* Lengths that wrap to zero or past the top when rounded to pages. */
	CHECK_ERR(ENOMEM,
		  syscall(SYS_mmap, 0, ~0UL, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	CHECK_ERR(ENOMEM, syscall(SYS_mmap, 0, ~0UL - PAGE + 2, PROT_READ,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	CHECK_ERR(ENOMEM, syscall(SYS_mmap, 0x10000, ~0UL - 0xffff, PROT_READ,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
}

/* msync: a shared file mapping's stores are the file's, before and after; its checks. */
TEST(msync_file)
{
	char buf[8];
	int fd = create_file("msync_f", NULL, 0, 0644);

	CHECK_OK(ftruncate(fd, 2 * PAGE));
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	memcpy(p + PAGE, "synced", 6);
	CHECK_OK(msync(p, 2 * PAGE, MS_SYNC));
	CHECK(pread(fd, buf, 6, PAGE) == 6 && memcmp(buf, "synced", 6) == 0);
	CHECK_OK(msync(p, 1, MS_ASYNC)); /* the length is rounded up to pages */
	CHECK_OK(msync(p + PAGE, PAGE, MS_INVALIDATE));
	CHECK_OK(msync(p, PAGE, MS_SYNC | MS_INVALIDATE));
	CHECK_OK(msync(p, 0, MS_SYNC));
	CHECK_OK(msync(p, 2 * PAGE, 0)); /* no flag at all is MS_ASYNC's behaviour */
	CHECK_EQ(p[PAGE], 's');
	munmap(p, 2 * PAGE);
	close(fd);
}

static volatile char *truncated_map; /* touched by the child that must die of SIGBUS */

static void
touch_truncated_map(void)
{
	(void)truncated_map[0];
}

/*
 * Truncation takes the file's pages out of every shared mapping, this
 * process's and a fork child's: past the end an access is SIGBUS, not the
 * old data; after the file grows again the mapping and the file are the
 * same bytes both ways (docs/robustness.md, review 2 row 7).
 */
TEST(truncate_unmaps_shared_pages)
{
	char buf[4];
	int fd = create_file("trunc_map", NULL, 0, 0644);
	int go[2];

	CHECK_OK(ftruncate(fd, 2 * PAGE));
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	memcpy(p, "old", 3);
	memcpy(p + PAGE, "old", 3);
	CHECK_OK(pipe(go));
	pid_t child = xfork();
	if (child == 0) { /* its mapping was filled before the truncation */
		close(go[1]);
		if (read(go[0], buf, 1) != 1)
			_exit(2);
		_exit(p[PAGE] == 'o' ? 3 : 0);
	}
	close(go[0]);
	CHECK_OK(ftruncate(fd, 0));
	CHECK_EQ(write(go[1], "g", 1), 1);
	expect_signaled(wait_status(child), SIGBUS, "the fork child's old page past the end");
	truncated_map = p;
	expect_killed(touch_truncated_map, SIGBUS, "a mapped page past the end");

	CHECK_OK(ftruncate(fd, 2 * PAGE));
	CHECK(all_bytes(p, 2 * PAGE, 0)); /* a hole again, not the old data */
	memcpy(p + PAGE, "new", 3);
	CHECK(pread(fd, buf, 3, PAGE) == 3 && memcmp(buf, "new", 3) == 0);
	CHECK_EQ(pwrite(fd, "fil", 3, 0), 3);
	CHECK_EQ(memcmp(p, "fil", 3), 0);
	munmap(p, 2 * PAGE);
	close(fd);
}

TEST(msync_errors)
{
	char *p = map_anon(3 * PAGE, PROT_READ | PROT_WRITE);

	CHECK_OK(msync(p, 3 * PAGE, MS_SYNC)); /* anonymous memory: nothing to do */
	CHECK_ERR(EINVAL, msync(p + 1, PAGE, MS_SYNC));
	CHECK_ERR(EINVAL, msync(p, PAGE, MS_SYNC | MS_ASYNC));
	CHECK_ERR(EINVAL, msync(p, PAGE, 8));
	CHECK_ERR(EINVAL, msync(p + 1, 0, MS_SYNC)); /* checked before the length */
	/* A hole anywhere in the range: ENOMEM, whatever the flags. */
	CHECK_OK(munmap(p + PAGE, PAGE));
	CHECK_ERR(ENOMEM, msync(p, 3 * PAGE, MS_SYNC));
	CHECK_ERR(ENOMEM, msync(p, 3 * PAGE, MS_ASYNC));
	CHECK_ERR(ENOMEM, msync(p, 3 * PAGE, MS_INVALIDATE));
	CHECK_ERR(ENOMEM, msync(p + PAGE, PAGE, MS_SYNC));
	CHECK_ERR(ENOMEM, msync(p + PAGE, 2 * PAGE, MS_SYNC));
	CHECK_ERR(ENOMEM, msync(p, 2 * PAGE, MS_SYNC));
	CHECK_OK(msync(p + 2 * PAGE, PAGE, MS_SYNC));
	CHECK_ERR(ENOMEM, syscall(SYS_msync, 0x100000000000UL, PAGE, MS_SYNC));
	CHECK_ERR(ENOMEM, syscall(SYS_msync, (unsigned long)p, -2UL * PAGE, MS_SYNC));
	munmap(p, 3 * PAGE);
}

TEST(malloc)
{
	enum { BIG = 16 << 20, N = 2000 };
	unsigned char *big = malloc(BIG);
	static unsigned char *small[N];

	CHECK(big != NULL);
	fill_pattern(big, BIG, 3);
	for (int i = 0; i < N; i++) {
		small[i] = malloc(1 + i % 300);
		CHECK(small[i] != NULL);
		memset(small[i], i & 0xff, 1 + i % 300);
	}
	for (int i = 0; i < N; i++) {
		CHECK(all_bytes(small[i], 1 + i % 300, i & 0xff));
		free(small[i]);
	}
	CHECK(has_pattern(big, BIG, 3));
	free(big);
}

/* Linux gives a process megabytes of stack; programs count on it. */
static int
use_stack(int kib)
{
	volatile char frame[1024];

	frame[0] = (char)kib;
	frame[sizeof(frame) - 1] = 1;
	return kib ? use_stack(kib - 1) + frame[0] - (char)kib : frame[0];
}

TEST(stack_1mib)
{
	CHECK_EQ(use_stack(1024), 0);
}

/* The kernel itself faults in untouched pages that a system call writes or reads. */
TEST(syscall_demand_paging)
{
	enum { LEN = 4 * PAGE };
	static unsigned char data[LEN];
	unsigned char *p = map_anon(LEN, PROT_READ | PROT_WRITE);
	unsigned char *q = map_anon(LEN, PROT_READ | PROT_WRITE);
	int fd;

	fill_pattern(data, LEN, 13);
	fd = create_file("f", data, LEN, 0644);
	CHECK_EQ(pread(fd, p, LEN, 0), LEN);
	CHECK_EQ(memcmp(p, data, LEN), 0);
	CHECK_EQ(pwrite(fd, q, LEN, 0), LEN); /* q was never touched: zeros */
	CHECK_EQ(pread(fd, p, LEN, 0), LEN);
	CHECK(all_bytes(p, LEN, 0));
}

/* Maps and touches mb MiB of fresh anonymous memory; returns it. */
static char *
touch_mib(size_t mb)
{
	char *p = mmap(NULL, mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	for (size_t off = 0; off < mb << 20; off += 4096)
		p[off] = 1;
	return p;
}

static long
maxrss_kb(int who)
{
	struct rusage ru;

	CHECK_OK(getrusage(who, &ru));
	return ru.ru_maxrss;
}

/* ru_maxrss is the high-water mark of the resident set: it covers what was touched and stays. */
TEST(getrusage_maxrss)
{
	char *p = touch_mib(16);
	long peak = maxrss_kb(RUSAGE_SELF);

	CHECK(peak >= 16 << 10);
	CHECK(maxrss_kb(RUSAGE_THREAD) >= 16 << 10);
	CHECK_OK(munmap(p, 16 << 20));
	CHECK(maxrss_kb(RUSAGE_SELF) >= peak);

	pid_t pid = xfork();
	if (pid == 0) {
		touch_mib(32);
		_exit(0);
	}
	struct rusage ru;
	int status;
	CHECK_OK(wait4(pid, &status, 0, &ru));
	CHECK(ru.ru_maxrss >= 32 << 10);
	CHECK(maxrss_kb(RUSAGE_CHILDREN) >= 32 << 10);
}

/* Advice newer than musl's headers (Linux 5.14 and 5.18). */
#define ADVICE_POPULATE_READ   22
#define ADVICE_POPULATE_WRITE  23
#define ADVICE_DONTNEED_LOCKED 24

/* A child's verdict on the area at p after fork: 0 absent, 1 there with its data, 2 there but zero. */
static int
seen_by_child(const unsigned char *p)
{
	pid_t pid = xfork();

	if (pid == 0) {
		if (madvise((void *)p, PAGE, MADV_NORMAL) < 0)
			_exit(errno == ENOMEM ? 0 : 9);
		_exit(p[0] == 0x5a ? 1 : p[0] == 0 ? 2 : 9);
	}
	int status = wait_status(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) != 9);
	return WEXITSTATUS(status);
}

TEST(madvise_advice)
{
	static const int accepted[] = {
		MADV_NORMAL,	 MADV_RANDOM,	       MADV_SEQUENTIAL,
		MADV_WILLNEED,	 MADV_HUGEPAGE,	       MADV_NOHUGEPAGE,
		MADV_DONTDUMP,	 MADV_DODUMP,	       MADV_COLD,
		MADV_PAGEOUT,	 ADVICE_POPULATE_READ, ADVICE_POPULATE_WRITE,
		MADV_KEEPONFORK, MADV_DOFORK,	       MADV_FREE
	};
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	memset(p, 0x5a, 4 * PAGE);
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++)
		if (madvise(p, 4 * PAGE, accepted[i]) < 0)
			fail("madvise(%d) failed with %s", accepted[i], errname(errno));
	memset(p, 0x5a, 4 * PAGE); /* MADV_FREE may have taken the data: written again, it stays */
	CHECK_ERR(EINVAL, madvise(p, PAGE, 12345));
	CHECK_ERR(EINVAL, madvise(p, PAGE, -1));
	/* The advice reaches the mapped parts; a hole makes it ENOMEM. */
	CHECK_OK(munmap(p + PAGE, PAGE));
	CHECK_ERR(ENOMEM, madvise(p, 3 * PAGE, MADV_NORMAL));
	CHECK_ERR(ENOMEM, madvise(p, 3 * PAGE, ADVICE_POPULATE_READ));

	/* What fork gives a child: nothing with DONTFORK, zeros with WIPEONFORK. */
	CHECK_EQ(seen_by_child(p), 1);
	CHECK_OK(madvise(p, PAGE, MADV_DONTFORK));
	CHECK_EQ(seen_by_child(p), 0);
	CHECK_OK(madvise(p, PAGE, MADV_DOFORK));
	CHECK_OK(madvise(p, PAGE, MADV_WIPEONFORK));
	CHECK_EQ(seen_by_child(p), 2);
	CHECK_EQ(p[0], 0x5a);
	CHECK_OK(madvise(p, PAGE, MADV_KEEPONFORK));
	CHECK_EQ(seen_by_child(p), 1);

	/* Refused where they do not fit: file pages, read-only pages. */
	unsigned char data[PAGE];
	memset(data, 'd', sizeof(data));
	int fd = create_file("f", data, sizeof(data), 0644);
	unsigned char *f = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(f != MAP_FAILED);
	CHECK_ERR(EINVAL, madvise(f, PAGE, MADV_FREE));
	CHECK_ERR(EINVAL, madvise(f, PAGE, MADV_WIPEONFORK));
	CHECK_ERR(EINVAL, madvise(f, PAGE, ADVICE_POPULATE_WRITE));
	CHECK_OK(madvise(f, PAGE, ADVICE_POPULATE_READ));
	CHECK_EQ(f[0], 'd');
}

TEST(mlock_family)
{
	unsigned char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	CHECK_OK(mlock(p + 1, 2 * PAGE)); /* any address: the pages it touches */
	CHECK_OK(munlock(p, 4 * PAGE));
	CHECK_OK(syscall(SYS_mlock2, p, PAGE, MLOCK_ONFAULT));
	CHECK_ERR(EINVAL, syscall(SYS_mlock2, p, PAGE, 2));
	/* Locked pages may not be dropped, except by ADVICE_DONTNEED_LOCKED. */
	CHECK_OK(mlock(p, PAGE));
	CHECK_ERR(EINVAL, madvise(p, PAGE, MADV_DONTNEED));
	CHECK_ERR(EINVAL, madvise(p, PAGE, MADV_COLD));
	CHECK_OK(madvise(p, PAGE, ADVICE_DONTNEED_LOCKED));
	CHECK_OK(munlockall());
	CHECK_OK(madvise(p, PAGE, MADV_DONTNEED));

	CHECK_OK(munmap(p + 3 * PAGE, PAGE));
	CHECK_ERR(ENOMEM, mlock(p, 4 * PAGE));
	CHECK_ERR(ENOMEM, munlock(p + 3 * PAGE, PAGE));
	CHECK_ERR(EINVAL, mlock(p, -PAGE));
	CHECK_ERR(EINVAL, mlockall(0));
	CHECK_ERR(EINVAL, mlockall(MCL_ONFAULT));
	CHECK_ERR(EINVAL, mlockall(8));
	CHECK_OK(mlockall(MCL_CURRENT | MCL_FUTURE));
	CHECK_OK(munlockall());
}

static void
mlock_unprivileged(void)
{
	unsigned char *p =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rlimit one_page = { PAGE, PAGE }, none = { 0, 0 };

	if (p == MAP_FAILED || setrlimit(RLIMIT_MEMLOCK, &one_page) || setuid(65534))
		_exit(10);
	if (mlock(p, 2 * PAGE) != -1 || errno != ENOMEM)
		_exit(11);
	if (mlock(p, PAGE) || mlock(p, PAGE)) /* locking a locked page again costs nothing */
		_exit(12);
	if (mlockall(MCL_CURRENT) != -1 || errno != ENOMEM)
		_exit(13);
	if (munlock(p, PAGE) || setrlimit(RLIMIT_MEMLOCK, &none))
		_exit(14);
	if (mlock(p, PAGE) != -1 || errno != EPERM)
		_exit(15);
	_exit(0);
}

TEST(mlock_limit)
{
	if (geteuid() != 0)
		skip("needs root to become another user");
	pid_t pid = xfork();

	if (pid == 0)
		mlock_unprivileged();
	expect_exited(wait_status(pid), 0, "RLIMIT_MEMLOCK for an unprivileged process");
}

/* mincore's bit 0 for each of the n pages at p, as a string of '0' and '1'. */
static void
expect_resident(void *p, size_t n, const char *want)
{
	unsigned char vec[16];
	char got[17];

	CHECK_OK(mincore(p, n * PAGE, vec));
	for (size_t i = 0; i < n; i++)
		got[i] = '0' + (vec[i] & 1);
	got[n] = '\0';
	if (strcmp(got, want) != 0)
		fail("mincore says %s, want %s", got, want);
}

TEST(mincore_errors)
{
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char vec[3];

	CHECK(p != MAP_FAILED);
	CHECK_ERR(EINVAL, mincore(p + 1, PAGE, vec));
	CHECK_ERR(EFAULT, mincore(p, PAGE, (unsigned char *)8));
	CHECK_ERR(ENOMEM, mincore(p, (size_t)1 << 62, vec)); /* past user space */
	CHECK_OK(munmap(p + PAGE, PAGE));
	CHECK_ERR(ENOMEM, mincore(p, 3 * PAGE, vec)); /* a hole */
	CHECK_OK(mincore(p, 0, vec));
	CHECK_OK(munmap(p, 3 * PAGE));
}

TEST(mincore_anonymous_pages_once_touched)
{
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	expect_resident(p, 4, "0000");
	p[0] = 1;
	p[2 * PAGE + 7] = 1;
	expect_resident(p, 4, "1010");
	CHECK_OK(mprotect(p, 4 * PAGE, PROT_NONE)); /* kept, only not accessible */
	expect_resident(p, 4, "1010");
	CHECK_OK(munmap(p, 4 * PAGE));
}

/* A file mapping's pages are resident when the page cache has them, touched or not. */
TEST(mincore_file_pages_in_the_page_cache)
{
	const char *path = "mincore_file";
	char page[PAGE];
	int fd = CHECK_OK(open(path, O_RDWR | O_CREAT | O_TRUNC, 0600));

	memset(page, 'x', sizeof(page));
	CHECK_EQ(pwrite(fd, page, PAGE, 0), PAGE);
	CHECK_EQ(pwrite(fd, page, PAGE, 2 * PAGE), PAGE);
	CHECK_OK(ftruncate(fd, 4 * PAGE));
	char *p = mmap(NULL, 4 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	expect_resident(p, 4, "1010");
	CHECK_OK(munmap(p, 4 * PAGE));
	close(fd);
	CHECK_OK(unlink(path));
}

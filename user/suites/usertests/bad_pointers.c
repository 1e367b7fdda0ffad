/*
 * bad_pointers.c - usertests: system calls given pointers the user may not
 * use (unmapped, non-canonical, the kernel's, or without the needed
 * permission) fail with EFAULT and change nothing; a write() whose buffer
 * turns bad part-way writes what came before, to the byte.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "lib/procfile.h"

TEST(efault_read_write)
{
	int fd = create_file("f", "0123456789", 10, 0644), p[2];
	unsigned char *ro = map_anon(PAGE, PROT_READ), *none = map_anon(PAGE, PROT_NONE);

	CHECK_OK(pipe(p));
	CHECK_EQ(write(p[1], "abc", 3), 3);
	for (unsigned i = 0; i < NBAD; i++) {
		void *bad = (void *)bad_addrs[i];

		CHECK_ERR(EFAULT, syscall(SYS_pread64, fd, bad, 4, 0));
		CHECK_ERR(EFAULT, syscall(SYS_pwrite64, fd, bad, 4, 0));
		CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
		CHECK_ERR(EFAULT, syscall(SYS_read, fd, bad, 4));
		CHECK_ERR(EFAULT, syscall(SYS_write, fd, bad, 4));
		CHECK_ERR(EFAULT, syscall(SYS_read, p[0], bad, 1));
		CHECK_ERR(EFAULT, syscall(SYS_write, p[1], bad, 1));
	}
	/* Mapped is not enough: the page must allow the access. */
	CHECK_ERR(EFAULT, syscall(SYS_pread64, fd, ro, 4, 0));
	CHECK_ERR(EFAULT, syscall(SYS_pwrite64, fd, none, 4, 0));
	/* Nothing was written through the bad pointers, and the pipe kept its data. */
	char buf[16];

	CHECK(pread(fd, buf, 16, 0) == 10 && memcmp(buf, "0123456789", 10) == 0);
	CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "abc", 3) == 0);
}

/*
 * PROT_NONE takes pages away from the kernel's user copies too, not only
 * from user mode: pages that were present when the protection went keep
 * their contents but fail every copy with EFAULT until it comes back.
 */
TEST(efault_prot_none_present_pages)
{
	unsigned char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	int fd = create_file("f", "0123456789", 10, 0644), pp[2];
	struct iovec iov = { p + PAGE - 2, 4 };
	char buf[4];

	CHECK_OK(pipe(pp));
	fill_pattern(p, 2 * PAGE, 7); /* both pages present */
	CHECK_OK(mprotect(p, 2 * PAGE, PROT_NONE));
	CHECK_ERR(EFAULT, write(pp[1], p, 1));
	CHECK_ERR(EFAULT, pwrite(fd, p + PAGE, 4, 0));
	CHECK_ERR(EFAULT, writev(pp[1], &iov, 1));
	CHECK_EQ(write(pp[1], "abcd", 4), 4);
	CHECK_ERR(EFAULT, read(pp[0], p, 4));
	CHECK(read(pp[0], buf, 4) == 4 && memcmp(buf, "abcd", 4) == 0);
	CHECK_ERR(EFAULT, pread(fd, p, 4, 0));
	CHECK_ERR(EFAULT, syscall(SYS_getcwd, p, 64));
	CHECK_OK(mprotect(p, PAGE, PROT_READ | PROT_WRITE));
	CHECK_OK(mprotect(p + PAGE, PAGE, PROT_READ));
	CHECK(has_pattern(p, 2 * PAGE, 7)); /* the pages were kept all along */
	CHECK(pread(fd, buf, 4, 0) == 4 && memcmp(buf, "0123", 4) == 0);
}

TEST(efault_paths)
{
	mkdir("d", 0755);
	make_file("f", "", 0);
	for (unsigned i = 0; i < NBAD; i++) {
		unsigned long bad = bad_addrs[i];

		CHECK_ERR(EFAULT, syscall(SYS_open, bad, O_RDONLY));
		CHECK_ERR(EFAULT, syscall(SYS_openat, AT_FDCWD, bad, O_RDONLY));
		CHECK_ERR(EFAULT, syscall(SYS_creat, bad, 0644));
		CHECK_ERR(EFAULT, syscall(SYS_stat, bad, &(struct stat){ 0 }));
		CHECK_ERR(EFAULT, syscall(SYS_lstat, bad, &(struct stat){ 0 }));
		CHECK_ERR(EFAULT, syscall(SYS_newfstatat, AT_FDCWD, bad, &(struct stat){ 0 }, 0));
		CHECK_ERR(EFAULT, syscall(SYS_mkdir, bad, 0755));
		CHECK_ERR(EFAULT, syscall(SYS_rmdir, bad));
		CHECK_ERR(EFAULT, syscall(SYS_unlink, bad));
		CHECK_ERR(EFAULT, syscall(SYS_chdir, bad));
		CHECK_ERR(EFAULT, syscall(SYS_access, bad, F_OK));
		CHECK_ERR(EFAULT, syscall(SYS_rename, bad, "g"));
		CHECK_ERR(EFAULT, syscall(SYS_rename, "f", bad));
	}
	/* A name that runs into unmapped memory without its NUL. */
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);

	CHECK_OK(munmap(p + PAGE, PAGE));
	memset(p, 'a', PAGE);
	CHECK_ERR(EFAULT, syscall(SYS_open, p + PAGE - 10, O_RDONLY));
}

TEST(efault_structs)
{
	int fd = create_file("f", "x", 1, 0644), p[2];
	int dir = CHECK_OK(open(".", O_RDONLY | O_DIRECTORY));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (unsigned i = 0; i < NBAD; i++) {
		unsigned long bad = bad_addrs[i];

		CHECK_ERR(EFAULT, syscall(SYS_fstat, fd, bad));
		CHECK_ERR(EFAULT, syscall(SYS_stat, "f", bad));
		CHECK_ERR(EFAULT, syscall(SYS_newfstatat, AT_FDCWD, "f", bad, 0));
		CHECK_ERR(EFAULT, syscall(SYS_uname, bad));
		CHECK_ERR(EFAULT, syscall(SYS_clock_gettime, CLOCK_MONOTONIC, bad));
		CHECK_ERR(EFAULT, syscall(SYS_clock_getres, CLOCK_MONOTONIC, bad));
		CHECK_ERR(EFAULT, syscall(SYS_gettimeofday, bad, NULL));
		CHECK_ERR(EFAULT, syscall(SYS_nanosleep, bad, NULL));
		CHECK_ERR(EFAULT, syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, bad, NULL));
		CHECK_ERR(EFAULT, syscall(SYS_getrandom, bad, 16, 0));
		CHECK_ERR(EFAULT, syscall(SYS_pipe2, bad, 0));
		CHECK_ERR(EFAULT, syscall(SYS_pipe, bad));
		CHECK_ERR(EFAULT, syscall(SYS_getcwd, bad, 256));
		CHECK_ERR(EFAULT, syscall(SYS_poll, bad, 1, 0));
		CHECK_ERR(EFAULT, syscall(SYS_readv, fd, bad, 1));
		CHECK_ERR(EFAULT, syscall(SYS_writev, fd, bad, 1));
		CHECK_ERR(EFAULT, syscall(SYS_getdents64, dir, bad, 4096));
		CHECK_EQ(lseek(fd, 0, SEEK_SET), 0); /* at EOF nothing would be copied */
		CHECK_ERR(EFAULT, syscall(SYS_readv, fd, &(struct iovec){ (void *)bad, 1 }, 1));
		CHECK_ERR(EFAULT, syscall(SYS_writev, fd, &(struct iovec){ (void *)bad, 1 }, 1));
	}
	/* Something that succeeds with a good struct, for contrast. */
	CHECK_OK(syscall(SYS_poll, &pfd, 1, 0));
	CHECK_OK(syscall(SYS_pipe2, p, 0));
}

/*
 * One policy's worth of write_stops_at_the_fault: a buffer of two good
 * pages and a third PROT_NONE one, written from several offsets of the
 * buffer and the file, so that the fault lands inside the page-cache copy
 * and inside its 64-byte blocks, quadwords and byte tail.
 */
static void
writes_into_a_bad_page(const char *policy)
{
	unsigned char *p = map_anon(3 * PAGE, PROT_READ | PROT_WRITE);
	unsigned char back[3 * PAGE];
	static const struct {
		size_t src, len;
		off_t at;
	} cases[] = {
		{ 0, 3 * PAGE, 0 },	     /* page-aligned on both sides */
		{ 0, 3 * PAGE, 100 },	     /* the fault falls inside a page-cache copy */
		{ 3, 2 * PAGE, 0 },	     /* a misaligned source: the last quadword straddles */
		{ 2 * PAGE - 10, 300, 7 },   /* 10 good bytes: the byte tail faults */
		{ 2 * PAGE - 200, 256, 64 }, /* inside the 64-byte blocks */
		{ 2 * PAGE - 100, 4096, 0 }, /* a chunk of a page ('large' goes non-temporal) */
	};

	fill_pattern(p, 2 * PAGE, 5);
	CHECK_OK(mprotect(p + 2 * PAGE, PAGE, PROT_NONE));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t good = 2 * PAGE - cases[i].src;
		int fd = create_file("w", "", 0, 0644);

		CHECK_EQ(lseek(fd, cases[i].at, SEEK_SET), cases[i].at);
		ssize_t n = write(fd, p + cases[i].src, cases[i].len);
		if (n != (ssize_t)good)
			fail("copy_nocache=%s case %zu: write gave %zd, want %zu", policy, i, n,
			     good);
		CHECK_EQ(lseek(fd, 0, SEEK_CUR), cases[i].at + (off_t)good);
		CHECK_EQ(pread(fd, back, sizeof(back), 0), cases[i].at + (ssize_t)good);
		CHECK(all_bytes(back, (size_t)cases[i].at, 0));
		CHECK_EQ(memcmp(back + cases[i].at, p + cases[i].src, good), 0);
		close(fd);
	}
	/* A buffer bad from its first byte: EFAULT, and the file is left as it was. */
	int fd = create_file("w", "abc", 3, 0644);

	CHECK_ERR(EFAULT, write(fd, p + 2 * PAGE, 10));
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 3);
	CHECK(pread(fd, back, sizeof(back), 0) == 3 && memcmp(back, "abc", 3) == 0);
	close(fd);
	CHECK_OK(munmap(p, 3 * PAGE));
}

/* Under each copy_nocache policy on rewind; once (Linux's own copies) elsewhere. */
TEST(write_stops_at_the_fault)
{
	static const char *const policies[] = { "never", "large", "always" };
	char old[32];

	if (!on_rewind()) {
		writes_into_a_bad_page("(Linux)");
		return;
	}
	CHECK_OK(knob_read("copy_nocache", old, sizeof(old)));
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		CHECK_OK(knob_write("copy_nocache", policies[i]));
		writes_into_a_bad_page(policies[i]);
	}
	CHECK_OK(knob_write("copy_nocache", old));
}

/*
 * zero_page.c - usertests: reading private anonymous memory never written
 * maps the shared zero page (Linux's do_anonymous_page on a read fault,
 * rewind's mm/zero_page.h): the reads see zeroes and cost no memory, and
 * the first write anywhere - a store, after mprotect, in a fork child,
 * through process_vm_writev - gets the writer a private page of its own
 * while every other reader still sees zeroes. mlock gives real pages,
 * mincore calls the page resident, MADV_DONTNEED and mremap handle it.
 */
#define _GNU_SOURCE /* mremap, process_vm_writev */
#include "usertests.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define READ_PAGES 1000 /* the figure issue 30 asks for */

/* Reads one byte of each page (faulting in the zero page), checking it is 0. */
static void
read_each_page(const volatile char *p, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		CHECK_EQ(p[i * PAGE], 0);
}

TEST(zero_page_read_then_write_sees_own_data)
{
	char *p = map_anon(4 * PAGE, PROT_READ | PROT_WRITE);

	read_each_page(p, 4);
	CHECK(all_bytes(p, 4 * PAGE, 0));
	fill_pattern((unsigned char *)p + PAGE, PAGE, 30);
	CHECK(has_pattern((unsigned char *)p + PAGE, PAGE, 30));
	/* The pages still on the zero page (and so the zero page itself) stay zero. */
	CHECK(all_bytes(p, PAGE, 0));
	CHECK(all_bytes(p + 2 * PAGE, 2 * PAGE, 0));
	char *q = map_anon(PAGE, PROT_READ);
	read_each_page(q, 1);
	CHECK(all_bytes(q, PAGE, 0));
	CHECK_OK(munmap(q, PAGE));
	CHECK_OK(munmap(p, 4 * PAGE));
}

/* Reading 1000 untouched pages makes none resident; writing them makes them all resident. */
TEST(zero_page_reads_do_not_grow_rss)
{
	char *p = map_anon(READ_PAGES * PAGE, PROT_READ | PROT_WRITE);

	resident_pages(p); /* stdio's buffers resident before the first figure */
	long before = resident_pages(p);
	read_each_page(p, READ_PAGES);
	long after_reads = resident_pages(p);
	CHECK(after_reads - before < READ_PAGES / 10); /* rewind's figure is the process's */
	for (size_t i = 0; i < READ_PAGES; i++)
		p[i * PAGE] = 1;
	CHECK(resident_pages(p) - before >= READ_PAGES);
	CHECK_OK(munmap(p, READ_PAGES * PAGE));
}

/*
 * Parent and child read the same untouched pages; the child's writes are its
 * own, the parent's too, and neither sees the other's.
 */
TEST(zero_page_fork_then_child_writes)
{
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	int status;

	read_each_page(p, 2);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (!all_bytes(p, 2 * PAGE, 0))
			_exit(1);
		memset(p, 'c', PAGE);
		_exit(all_bytes(p, PAGE, 'c') && all_bytes(p + PAGE, PAGE, 0) ? 0 : 2);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(all_bytes(p, 2 * PAGE, 0));
	memset(p + PAGE, 'p', PAGE);
	CHECK(all_bytes(p, PAGE, 0));
	CHECK_OK(munmap(p, 2 * PAGE));
}

/* A read-only area read, then made writable: the first write gets a private page. */
TEST(zero_page_mprotect_then_write)
{
	char *p = map_anon(2 * PAGE, PROT_READ);

	read_each_page(p, 2);
	CHECK_OK(mprotect(p, 2 * PAGE, PROT_READ | PROT_WRITE));
	p[5] = 'w';
	CHECK_EQ(p[5], 'w');
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	CHECK_OK(mprotect(p, 2 * PAGE, PROT_NONE));
	CHECK_OK(mprotect(p, 2 * PAGE, PROT_READ));
	CHECK_EQ(p[5], 'w');
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	CHECK_OK(munmap(p, 2 * PAGE));
}

/* mincore calls a page that was only read resident, as Linux does. */
TEST(zero_page_mincore_resident)
{
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	unsigned char vec[2];

	read_each_page(p, 1);
	CHECK_OK(mincore(p, 2 * PAGE, vec));
	CHECK_EQ(vec[0] & 1, 1);
	CHECK_EQ(vec[1] & 1, 0);
	CHECK_OK(munmap(p, 2 * PAGE));
}

/* MADV_DONTNEED drops both kinds of page: reads see zeroes again, writes work again. */
TEST(zero_page_madv_dontneed)
{
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	unsigned char vec[2];

	read_each_page(p, 1);
	p[PAGE] = 'x';
	CHECK_OK(madvise(p, 2 * PAGE, MADV_DONTNEED));
	CHECK_OK(mincore(p, 2 * PAGE, vec));
	CHECK_EQ(vec[0] & 1, 0);
	CHECK_EQ(vec[1] & 1, 0);
	read_each_page(p, 2);
	p[0] = 'y';
	CHECK_EQ(p[0], 'y');
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	CHECK_OK(munmap(p, 2 * PAGE));
}

/* mremap moves a zero-page entry like any other; the moved page is written as usual. */
TEST(zero_page_mremap_then_write)
{
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	char *hole = map_anon(4 * PAGE, PROT_NONE);

	read_each_page(p, 2);
	char *q = mremap(p, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, hole);
	CHECK(q == hole);
	CHECK(all_bytes(q, 4 * PAGE, 0));
	q[PAGE] = 'm';
	CHECK_EQ(q[PAGE], 'm');
	CHECK(all_bytes(q, PAGE, 0));
	CHECK_OK(munmap(q, 4 * PAGE));
}

/* mlock brings in pages of their own (writable later without a fault), not the zero page. */
TEST(zero_page_mlock_gives_real_pages)
{
	char *fenced = map_anon(10 * PAGE, PROT_READ | PROT_WRITE), *p = fenced + PAGE;

	/*
	 * Inaccessible pages on both sides (a hole could take another mapping
	 * that merges with p's): mlock's split leaves Linux's smaps area at p
	 * exactly the locked pages.
	 */
	CHECK_OK(mprotect(fenced, PAGE, PROT_NONE));
	CHECK_OK(mprotect(p + 8 * PAGE, PAGE, PROT_NONE));
	resident_pages(p);
	long before = resident_pages(p);
	CHECK_OK(mlock(p, 8 * PAGE));
	CHECK(resident_pages(p) - before >= 8);
	CHECK(all_bytes(p, 8 * PAGE, 0));
	CHECK_OK(munlock(p, 8 * PAGE));
	CHECK_OK(munmap(fenced, 10 * PAGE));
}

/* process_vm_writev into a page only read writes a private copy, not the zero page. */
TEST(zero_page_process_vm_writev)
{
	char *p = map_anon(2 * PAGE, PROT_READ | PROT_WRITE);
	char data[] = "remote";

	read_each_page(p, 2);
	struct iovec local = { data, sizeof(data) }, remote = { p + 8, sizeof(data) };
	CHECK_EQ(process_vm_writev(getpid(), &local, 1, &remote, 1, 0), (ssize_t)sizeof(data));
	CHECK(memcmp(p + 8, data, sizeof(data)) == 0);
	CHECK(all_bytes(p + PAGE, PAGE, 0));
	char *q = map_anon(PAGE, PROT_READ);
	CHECK(all_bytes(q, PAGE, 0));
	CHECK_OK(munmap(q, PAGE));
	CHECK_OK(munmap(p, 2 * PAGE));
}

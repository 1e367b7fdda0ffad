/*
 * proc_smaps.c - usertests: /proc/<pid>/smaps, smaps_rollup and pagemap,
 * what memory tools (pmap -X, psutil's memory_full_info) read of where a
 * process's memory is and how it is shared. Each test makes an area of
 * its own, so that the figures it checks change only by what it does.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/procfile.h"

#define KB(pages) ((pages) * (PAGE / 1024))

static char smaps_text[1 << 18]; /* static: reading it must not change the heap */

/*
 * pages of private anonymous memory, none of them touched, an area of their
 * own: a PROT_NONE page each side keeps the kernel from merging them with a
 * neighbour (glibc's, dynamically linked) whose pages would count too.
 */
static char *
area_of(size_t pages)
{
	char *p = map_anon((pages + 2) * PAGE, PROT_NONE) + PAGE;

	CHECK_OK(mprotect(p, pages * PAGE, PROT_READ | PROT_WRITE));
	return p;
}

static void
area_free(char *p, size_t pages)
{
	CHECK_OK(munmap(p - PAGE, (pages + 2) * PAGE));
}

/* Field key (in kB) of the area at addr in /proc/self/smaps. */
static unsigned long long
area_field(const void *addr, const char *key)
{
	char head[32];
	unsigned long long value;

	CHECK_OK(read_text_file("/proc/self/smaps", smaps_text, sizeof(smaps_text)));
	snprintf(head, sizeof(head), "\n%lx-", (unsigned long)addr);
	const char *entry = strstr(smaps_text, head);
	CHECK(entry != NULL);
	CHECK_EQ(field_ull(entry + 1, key, &value), 0);
	return value;
}

static unsigned long long
rollup_field(const char *key)
{
	unsigned long long value;

	CHECK_OK(read_text_file("/proc/self/smaps_rollup", smaps_text, sizeof(smaps_text)));
	CHECK_EQ(field_ull(smaps_text, key, &value), 0);
	return value;
}

/* Each area's entry has Linux 6.1's fields in its order (later kernels add KSM, which is skipped). */
TEST(proc_smaps_fields_in_order)
{
	static const char *const fields[] = {
		"Size:",
		"KernelPageSize:",
		"MMUPageSize:",
		"Rss:",
		"Pss:",
		"Pss_Dirty:",
		"Shared_Clean:",
		"Shared_Dirty:",
		"Private_Clean:",
		"Private_Dirty:",
		"Referenced:",
		"Anonymous:",
		"LazyFree:",
		"AnonHugePages:",
		"ShmemPmdMapped:",
		"FilePmdMapped:",
		"Shared_Hugetlb:",
		"Private_Hugetlb:",
		"Swap:",
		"SwapPss:",
		"Locked:",
		"THPeligible:",
		"VmFlags:",
	};
	char *p = area_of(1);

	area_field(p, "Size");
	char head[32];
	snprintf(head, sizeof(head), "\n%lx-", (unsigned long)p);
	const char *at = strstr(smaps_text, head) + 1;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		at = strstr(at, fields[i]);
		if (!at)
			fail("no %s after the one before it", fields[i]);
		CHECK(at[-1] == '\n');
	}
	CHECK(strncmp(at, "VmFlags: rd wr ", 15) == 0);
	area_free(p, 1);
}

/* Rss grows by exactly the pages written; they are private, dirty and anonymous. */
TEST(proc_smaps_rss_counts_written_pages)
{
	char *p = area_of(16);

	CHECK_EQ(area_field(p, "Size"), KB(16));
	CHECK_EQ(area_field(p, "KernelPageSize"), 4);
	CHECK_EQ(area_field(p, "Rss"), 0);
	for (int i = 0; i < 5; i++)
		p[i * 2 * PAGE] = 1;
	CHECK_EQ(area_field(p, "Rss"), KB(5));
	CHECK_EQ(area_field(p, "Pss"), KB(5));
	CHECK_EQ(area_field(p, "Private_Dirty"), KB(5));
	CHECK_EQ(area_field(p, "Shared_Dirty"), 0);
	CHECK_EQ(area_field(p, "Anonymous"), KB(5));
	area_free(p, 16);
}

/* Reading untouched memory maps the shared zero page, which is not resident. */
TEST(proc_smaps_zero_page_not_resident)
{
	volatile char *p = area_of(4);

	for (int i = 0; i < 4; i++)
		CHECK_EQ(p[i * PAGE], 0);
	CHECK_EQ(area_field((void *)p, "Rss"), 0);
	area_free((char *)p, 4);
}

/* After fork both processes map the pages: they are shared, and each has half in Pss. */
TEST(proc_smaps_fork_shares_pages)
{
	char *p = area_of(4);
	int go[2];

	memset(p, 1, 4 * PAGE);
	CHECK_OK(pipe(go));
	pid_t child = xfork();
	if (child == 0) {
		char c;
		close(go[1]);
		_exit(read(go[0], &c, 1) == 0 ? 0 : 1); /* keeps the pages mapped until told */
	}
	close(go[0]);
	CHECK_EQ(area_field(p, "Rss"), KB(4));
	CHECK_EQ(area_field(p, "Shared_Dirty"), KB(4));
	CHECK_EQ(area_field(p, "Private_Dirty"), 0);
	CHECK_EQ(area_field(p, "Pss"), KB(4) / 2);
	close(go[1]);
	expect_exited(wait_status(child), 0, "the child that kept the pages");
	area_free(p, 4);
}

/* An mlocked area's resident pages are Locked. */
TEST(proc_smaps_locked_area)
{
	char *p = area_of(3);

	if (mlock(p, 3 * PAGE) != 0)
		skip("mlock: %s", strerror(errno));
	CHECK_EQ(area_field(p, "Rss"), KB(3));
	CHECK_EQ(area_field(p, "Locked"), KB(3));
	area_free(p, 3);
}

/* smaps_rollup sums all areas: written pages add to its Rss and Anonymous exactly. */
TEST(proc_smaps_rollup_sums_areas)
{
	char *p = area_of(8);

	/* Before the counts: the first reads and calls bring in pages of their own. */
	rollup_field("Anonymous");
	CHECK(strstr(smaps_text, "[rollup]\n") != NULL);
	CHECK(find_field(smaps_text, "Pss_Anon") != NULL);
	unsigned long long rss = rollup_field("Rss"), anon = rollup_field("Anonymous");
	for (int i = 0; i < 8; i++) /* no library call, whose first run may fault in its code */
		p[i * PAGE] = 1;
	CHECK_EQ(rollup_field("Rss"), rss + KB(8));
	CHECK_EQ(rollup_field("Anonymous"), anon + KB(8));
	area_free(p, 8);
}

/* The pagemap entries of n pages from addr. */
static void
read_pagemap(const void *addr, uint64_t *out, size_t n)
{
	int fd = CHECK_OK(open("/proc/self/pagemap", O_RDONLY));

	CHECK_EQ(pread(fd, out, n * 8, (off_t)((uintptr_t)addr / PAGE * 8)), (ssize_t)(n * 8));
	close(fd);
}

#define PM_PRESENT	  (1ull << 63)
#define PM_FILE		  (1ull << 61)
#define PM_MMAP_EXCLUSIVE (1ull << 56)
#define PM_PFN		  ((1ull << 55) - 1)

/* Written pages are present and exclusively mapped; untouched ones are not present. */
TEST(proc_pagemap_present_bits)
{
	char *p = area_of(4);
	uint64_t e[4];

	p[0] = 1;
	p[2 * PAGE] = 1;
	read_pagemap(p, e, 4);
	for (int i = 0; i < 4; i += 2) {
		CHECK(e[i] & PM_PRESENT);
		CHECK(e[i] & PM_MMAP_EXCLUSIVE);
		CHECK(!(e[i] & PM_FILE));
	}
	CHECK_EQ(e[1], 0);
	CHECK_EQ(e[3], 0);
	area_free(p, 4);
}

/* A root reader sees page frame numbers, two pages two different ones. */
TEST(proc_pagemap_pfn_for_admin)
{
	char *p = area_of(2);
	uint64_t e[2];

	if (geteuid() != 0)
		skip("not root");
	memset(p, 1, 2 * PAGE);
	read_pagemap(p, e, 2);
	CHECK((e[0] & PM_PFN) != 0);
	CHECK((e[0] & PM_PFN) != (e[1] & PM_PFN));
	area_free(p, 2);
}

static void
check_no_pfn(const char *unused)
{
	char *p = area_of(1);
	uint64_t e;

	(void)unused;
	/* The id change left the process undumpable: its /proc files root's, as on Linux. */
	CHECK_OK(prctl(PR_SET_DUMPABLE, 1));
	p[0] = 1;
	read_pagemap(p, &e, 1);
	CHECK(e & PM_PRESENT);
	CHECK_EQ(e & PM_PFN, 0);
}

/* A reader without CAP_SYS_ADMIN gets the flags but frame number 0, as Linux since 4.2. */
TEST(proc_pagemap_no_pfn_unprivileged)
{
	if (geteuid() != 0)
		check_no_pfn(NULL);
	else
		as_nobody(check_no_pfn, NULL);
}

/* Reads are whole 8-byte entries (EINVAL else); past the end of user space there are none. */
TEST(proc_pagemap_read_bounds)
{
	int fd = CHECK_OK(open("/proc/self/pagemap", O_RDONLY));
	uint64_t e[2];

	CHECK_ERR(EINVAL, pread(fd, e, 8, 4));
	CHECK_ERR(EINVAL, pread(fd, e, 4, 0));
	CHECK_EQ(pread(fd, e, 16, (off_t)((1ull << 47) / PAGE * 8)), 0);
	CHECK_EQ(lseek(fd, 8, SEEK_SET), 8);
	CHECK_EQ(read(fd, e, 8), 8);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 16);
	close(fd);
}

static void
check_denied(const char *path)
{
	CHECK_ERR(EACCES, open(path, O_RDONLY));
}

/* Another user's process: smaps and pagemap ask what maps asks, to inspect it (EACCES). */
TEST(proc_pagemap_other_user_denied)
{
	char path[64];

	if (geteuid() != 0)
		skip("not root: cannot become nobody");
	snprintf(path, sizeof(path), "/proc/%d/pagemap", getpid());
	as_nobody(check_denied, path);
	snprintf(path, sizeof(path), "/proc/%d/smaps", getpid());
	as_nobody(check_denied, path);
}

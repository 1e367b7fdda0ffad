/*
 * fault_around.c - usertests: a read fault in a file mapping also maps the
 * neighbouring pages the page cache holds (Linux's fault-around,
 * mm/fault_around.c), and nothing an ordinary fault would not have done
 * changes: a private page is still copied on its first write, a shared
 * write still reaches the file, nothing past the end or outside the area
 * (an unmapped or PROT_NONE hole) gets mapped, and the pages mapped are
 * counted in the process's resident size and given back on munmap.
 */
#include "usertests.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define FILE_PAGES 32 /* two 64 KiB windows at least one of which lies whole inside */
#define KNOB	   "/proc/sys/rewind/fault_around_bytes"

/* A file of FILE_PAGES pages, each starting with its number, written (so cached); open. */
static int
numbered_file(const char *name)
{
	static unsigned char data[FILE_PAGES * PAGE];

	for (int i = 0; i < FILE_PAGES; i++)
		memset(data + i * PAGE, 'a' + i % 26, PAGE);
	return create_file(name, data, sizeof(data), 0644);
}

/* numbered_file(name), open in *fd, mapped whole with prot and flags. */
static char *
map_numbered(const char *name, int prot, int flags, int *fd)
{
	*fd = numbered_file(name);
	char *p = mmap(NULL, FILE_PAGES * PAGE, prot, flags, *fd, 0);

	CHECK(p != MAP_FAILED);
	return p;
}

/* The first byte of page `page` of the file, as read() sees it. */
static char
file_byte(int fd, int page)
{
	char c;

	CHECK_EQ(pread(fd, &c, 1, (off_t)page * PAGE), 1);
	return c;
}

static long
minor_faults(void)
{
	struct rusage ru;

	CHECK_OK(getrusage(RUSAGE_SELF, &ru));
	return ru.ru_minflt;
}

/* Minor faults taken to read one byte of each page of p (FILE_PAGES pages), checking them. */
static long
faults_reading_pages(const volatile char *p)
{
	long before = minor_faults();
	for (int i = 0; i < FILE_PAGES; i++)
		CHECK_EQ(p[i * PAGE], 'a' + i % 26);
	return minor_faults() - before;
}

/* Minor faults taken to read a fresh mapping of fd, by mmap flags. */
static long
faults_reading_mapping(int fd, int flags)
{
	char *p = mmap(NULL, FILE_PAGES * PAGE, PROT_READ, flags, fd, 0);

	CHECK(p != MAP_FAILED);
	long faults = faults_reading_pages(p);
	CHECK_OK(munmap(p, FILE_PAGES * PAGE));
	return faults;
}

/*
 * Reading every page of a cached file takes a fault per window, not per
 * page. On rewind the knob is set both ways (whatever the boot said): 64
 * KiB, Linux's default, and off, a fault per page again.
 */
TEST(fault_around_maps_cached_neighbours)
{
	int fd = numbered_file("fa_neighbours");
	bool rewind = access(KNOB, W_OK) == 0;
	unsigned long saved = rewind ? read_number(KNOB) : 0;

	if (rewind)
		write_number(KNOB, 64 * 1024);
	long around_shared = faults_reading_mapping(fd, MAP_SHARED);
	long around_private = faults_reading_mapping(fd, MAP_PRIVATE);
	long off = FILE_PAGES;
	if (rewind) {
		write_number(KNOB, 0);
		off = faults_reading_mapping(fd, MAP_PRIVATE);
		write_number(KNOB, saved);
	}
	CHECK(around_shared < FILE_PAGES / 2);
	CHECK(around_private < FILE_PAGES / 2);
	CHECK(off >= FILE_PAGES);
	close(fd);
}

/*
 * A private mapping's neighbours go in read-only: a write after the read
 * copies, the file keeps its bytes, and a page not yet written still shows
 * the file's later changes (Linux's behaviour; POSIX leaves it open).
 */
TEST(fault_around_private_write_still_copies)
{
	int fd;
	char *p = map_numbered("fa_private", PROT_READ | PROT_WRITE, MAP_PRIVATE, &fd);

	CHECK_EQ(p[0], 'a'); /* maps the window around page 0 */
	p[3 * PAGE] = 'X';
	CHECK_EQ(file_byte(fd, 3), 'd');
	CHECK_EQ(pwrite(fd, "Y", 1, 3 * PAGE), 1);
	CHECK_EQ(pwrite(fd, "Z", 1, 4 * PAGE), 1);
	CHECK_EQ(p[3 * PAGE], 'X'); /* the copy */
	CHECK_EQ(p[4 * PAGE], 'Z'); /* still the file's page */
	CHECK_OK(munmap(p, FILE_PAGES * PAGE));
	close(fd);
}

/* A shared mapping's neighbours are the file: a write after the read reaches it. */
TEST(fault_around_shared_write_reaches_file)
{
	int fd;
	char *p = map_numbered("fa_shared", PROT_READ | PROT_WRITE, MAP_SHARED, &fd);

	CHECK_EQ(p[0], 'a');
	p[5 * PAGE] = 'W';
	CHECK_EQ(file_byte(fd, 5), 'W');
	CHECK_EQ(pwrite(fd, "V", 1, 6 * PAGE), 1);
	CHECK_EQ(p[6 * PAGE], 'V');
	CHECK_OK(munmap(p, FILE_PAGES * PAGE));
	close(fd);
}

static volatile char *bus_page; /* touched by the child that must die */

static void
touch_bus_page(void)
{
	(void)*bus_page;
}

/*
 * Shrunk after mmap, before any access: a read at the start maps the
 * window's pages below the new end only; the partial last page reads as
 * zeros past the end, and the next page is SIGBUS.
 */
TEST(fault_around_stops_at_end_of_file)
{
	int fd;
	char *p = map_numbered("fa_truncated", PROT_READ, MAP_SHARED, &fd);

	CHECK_OK(ftruncate(fd, 4 * PAGE + 100));
	CHECK_EQ(p[0], 'a');
	CHECK_EQ(p[4 * PAGE + 99], 'e');
	CHECK_EQ(p[4 * PAGE + 100], 0);
	for (int i = 5; i < 16; i += 5) {
		bus_page = p + i * PAGE;
		expect_killed(touch_bus_page, SIGBUS, "a page past the end, in the window");
	}
	CHECK_OK(munmap(p, FILE_PAGES * PAGE));
	close(fd);
}

/* An unmapped and a PROT_NONE part inside the window stay out of reach after reads beside them. */
TEST(fault_around_stays_inside_the_area)
{
	int fd;
	char *p = map_numbered("fa_holes", PROT_READ, MAP_SHARED, &fd);

	CHECK_OK(munmap(p + 4 * PAGE, 2 * PAGE));
	CHECK_OK(mprotect(p + 8 * PAGE, 2 * PAGE, PROT_NONE));
	for (int i = 0; i < FILE_PAGES; i++) {
		if ((i < 4 || i > 5) && (i < 8 || i > 9))
			CHECK_EQ(p[i * PAGE], 'a' + i % 26);
	}
	bus_page = p + 4 * PAGE;
	expect_killed(touch_bus_page, SIGSEGV, "the unmapped hole");
	bus_page = p + 9 * PAGE;
	expect_killed(touch_bus_page, SIGSEGV, "the PROT_NONE part");
	CHECK_OK(mprotect(p + 8 * PAGE, 2 * PAGE, PROT_READ));
	CHECK_EQ(p[9 * PAGE], 'j');
	CHECK_OK(munmap(p, FILE_PAGES * PAGE));
	close(fd);
}

/*
 * Every page fault-around maps counts as resident, as if each had been
 * touched, and munmap gives exactly those back. (Other pages of the
 * process may become resident meanwhile on rewind, whose figure is the
 * process's: hence at least, where Linux's is exact.)
 */
TEST(fault_around_counts_resident_pages)
{
	int fd;
	char *p = map_numbered("fa_rss", PROT_READ, MAP_SHARED, &fd);

	resident_pages(p); /* its stdio buffers resident before the first figure */
	long before = resident_pages(p);
	CHECK_EQ(p[FILE_PAGES / 2 * PAGE], 'a' + FILE_PAGES / 2 % 26);
	long after_one = resident_pages(p) - before;
	CHECK(after_one >= 1 && after_one <= FILE_PAGES + 1);
	faults_reading_pages(p);
	long all = resident_pages(p);
	CHECK(all - before >= FILE_PAGES);
	CHECK_OK(munmap(p, FILE_PAGES * PAGE));
	CHECK_EQ(all - resident_pages(p), FILE_PAGES);
	close(fd);
}

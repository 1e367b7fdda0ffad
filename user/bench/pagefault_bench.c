/*
 * pagefault_bench.c - the cost of a page fault on anonymous memory: map a
 * region, touch each 4 KiB page once (a write: allocate and zero a page;
 * or a read), unmap; reported per page. Also the whole
 * mmap + touch one page + munmap cycle, and lmbench's lat_pagefault shape:
 * a read of each page of a mapped file whose pages are all cached, in a
 * scattered order (where fault-around, mm/fault_around.c, maps a window's
 * worth of pages per fault).
 */
#include "lib/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE	     4096ul
#define REGION_PAGES 256ul /* 1 MiB per batch step */

static double
touch_pages(void *arg, uint64_t n, int write)
{
	(void)arg;
	double spent = 0;

	while (n) {
		uint64_t pages = n < REGION_PAGES ? n : REGION_PAGES;
		volatile char *p = mmap(0, pages * PAGE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("pagefault_bench: mmap");
			exit(1);
		}
		double t0 = bench_now_ns();
		for (uint64_t i = 0; i < pages; i++) {
			if (write)
				p[i * PAGE] = 1;
			else
				(void)p[i * PAGE];
		}
		spent += bench_now_ns() - t0;
		munmap((void *)p, pages * PAGE);
		n -= pages;
	}
	return spent;
}

static double
write_faults(void *arg, uint64_t n)
{
	return touch_pages(arg, n, 1);
}

static double
read_faults(void *arg, uint64_t n)
{
	return touch_pages(arg, n, 0);
}

/* Coprime with REGION_PAGES: i * FILE_STRIDE visits every page once, never two neighbours in a row. */
#define FILE_STRIDE 97ul

/* A file of REGION_PAGES pages, written (so every page is cached) and unlinked: open. */
static int
cached_file(void)
{
	static char page[PAGE];
	char path[64];
	const char *dirs[] = { "/tmp", "." };
	int fd = -1;

	for (size_t d = 0; fd < 0 && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		snprintf(path, sizeof(path), "%s/pagefault_bench.XXXXXX", dirs[d]);
		fd = mkstemp(path);
	}
	if (fd < 0) {
		perror("pagefault_bench: mkstemp");
		exit(1);
	}
	unlink(path);
	for (uint64_t i = 0; i < REGION_PAGES; i++) {
		if (write(fd, page, PAGE) != PAGE) {
			perror("pagefault_bench: write");
			exit(1);
		}
	}
	return fd;
}

static double
file_read_faults(void *arg, uint64_t n)
{
	int fd = *(int *)arg;
	double spent = 0;

	while (n) {
		uint64_t pages = n < REGION_PAGES ? n : REGION_PAGES;
		volatile char *p = mmap(0, REGION_PAGES * PAGE, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			perror("pagefault_bench: mmap");
			exit(1);
		}
		double t0 = bench_now_ns();
		for (uint64_t i = 0; i < pages; i++)
			(void)p[(i * FILE_STRIDE % REGION_PAGES) * PAGE];
		spent += bench_now_ns() - t0;
		munmap((void *)p, REGION_PAGES * PAGE);
		n -= pages;
	}
	return spent;
}

static void
mmap_touch_munmap(void *arg)
{
	(void)arg;
	volatile char *p =
		mmap(0, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("pagefault_bench: mmap");
		exit(1);
	}
	p[0] = 1;
	munmap((void *)p, PAGE);
}

static const struct bench_help help = {
	.name = "pagefault",
	.about = "A page fault on anonymous memory, per 4 KiB page (write: allocate and zero;\n"
		 "read), and a whole mmap + touch one page + munmap cycle, in ns or us;\n"
		 "pf_file_read_4k: a read of each page of a cached 1 MiB file, mapped shared,\n"
		 "in a scattered order (lmbench's lat_pagefault), per page.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	bench_init(argc, argv, &help);
	bench_report("pf_anon_write_4k", bench_measure_timed(write_faults, 0), "ns");
	bench_report("pf_anon_read_4k", bench_measure_timed(read_faults, 0), "ns");
	bench_report("mmap_touch_munmap_4k", bench_measure(mmap_touch_munmap, 0), "ns");
	int fd = cached_file();
	bench_report("pf_file_read_4k", bench_measure_timed(file_read_faults, &fd), "ns");
	close(fd);
	return 0;
}

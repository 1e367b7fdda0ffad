/*
 * lat_mmap_lite.c - lmbench3's lat_mmap, the benchmark of docs/seeds.md's seed 003 (paravirt
 * ops on bare metal), with its semantics (docs/regressions/paravirt.md): map a file of
 * size S shared and read-write, write one byte every 16 KiB over the
 * first tenth of the mapping (-R: every 160 KiB over all of it), unmap.
 * Each write is a minor fault on a page-cache page, so one iteration is
 * the mmap, fault and unmap paths of the kernel: VMA setup, page-table
 * walks and entry writes, TLB flushes. Reported in microseconds per
 * iteration for each size (lat_mmap_<S>m), S from 1 to 64 MiB by default.
 *
 *   lat_mmap_lite [-t SECONDS | -q] [-s MIB[,MIB...]] [-R] [-f FILE]
 */
#include "lib/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB	   (1ul << 20)
#define PSIZE	   (16ul << 10) /* lmbench's stride */
#define STRIDE	   (10 * PSIZE) /* with -R */
#define MAX_SIZES  8
#define MAX_SIZE_M 1024

static unsigned long sizes_m[MAX_SIZES];
static int nsizes;
static int whole_mapping; /* -R: lmbench's -r */
static const char *path = "/tmp/lat_mmap_lite.data";

struct iteration {
	int fd;
	size_t size;
};

static int
parse_sizes(const char *arg)
{
	char *end;

	nsizes = 0;
	for (const char *p = arg; *p; p = *end ? end + 1 : end) {
		unsigned long m = strtoul(p, &end, 10);
		if (end == p || (*end && *end != ',') || m < 1 || m > MAX_SIZE_M ||
		    nsizes == MAX_SIZES)
			return 1;
		sizes_m[nsizes++] = m;
	}
	return nsizes == 0;
}

static int
parse_option(int c, const char *arg)
{
	if (c == 's')
		return parse_sizes(arg);
	if (c == 'R')
		whole_mapping = 1;
	if (c == 'f')
		path = arg;
	return 0;
}

/* One lat_mmap iteration: map, write the bytes lmbench writes, unmap. */
static void
map_touch_unmap(void *arg)
{
	const struct iteration *it = arg;
	char *p = mmap(0, it->size, PROT_READ | PROT_WRITE, MAP_SHARED, it->fd, 0);

	if (p == MAP_FAILED) {
		perror("lat_mmap_lite: mmap");
		exit(1);
	}
	size_t end = whole_mapping ? it->size : it->size / 10,
	       step = whole_mapping ? STRIDE : PSIZE;
	for (size_t off = 0; off < end; off += step)
		((volatile char *)p)[off] = (char)(it->size & 0xff);
	if (munmap(p, it->size)) {
		perror("lat_mmap_lite: munmap");
		exit(1);
	}
}

/* The file to map, at least size bytes of it written (so every page is in the page cache). */
static int
open_file(size_t size)
{
	static char block[64 << 10];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 && errno == ENOENT && mkdir("/tmp", 01777) == 0)
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "lat_mmap_lite: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	memset(block, 1, sizeof(block));
	for (size_t done = 0; done < size; done += sizeof(block))
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
			perror("lat_mmap_lite: write");
			exit(1);
		}
	return fd;
}

static const struct bench_help help = {
	.name = "lat_mmap_lite",
	.about =
		"lmbench3's lat_mmap (seed 003): map a file shared, write a byte every 16 KiB over\n"
		"its first tenth, unmap; us per iteration for each size (lat_mmap_<S>m).",
	.synopsis = "[-s MIB[,MIB...]] [-R] [-f FILE]",
	.options =
		"  -s MIB,...  mapping sizes in MiB, 1 to 1024, at most 8 (default 1,4,16,64; -q: 1,8)\n"
		"  -R          write every 160 KiB over the whole mapping (lmbench's -r)\n"
		"  -f FILE     the file to map (default /tmp/lat_mmap_lite.data; removed at the end)\n",
	.exits = "  0  the figures were printed\n"
		 "  1  the file could not be made or mapped\n"
		 "  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	unsigned long largest = 0;

	bench_init_opts(argc, argv, &help, "s:Rf:", parse_option);
	if (!nsizes)
		parse_sizes(bench_quick() ? "1,8" : "1,4,16,64");
	for (int i = 0; i < nsizes; i++)
		largest = sizes_m[i] > largest ? sizes_m[i] : largest;
	int fd = open_file(largest * MIB);
	for (int r = 0; r < bench_repeats(1); r++)
		for (int i = 0; i < nsizes; i++) {
			struct iteration it = { fd, sizes_m[i] * MIB };
			char metric[64];
			bench_metric_name(metric, sizeof(metric), "lat_mmap_%lum%s", sizes_m[i],
					  whole_mapping ? "_whole" : "");
			bench_report(metric, bench_measure(map_touch_unmap, &it), "us");
		}
	close(fd);
	unlink(path);
	return 0;
}

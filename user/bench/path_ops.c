/*
 * path_ops.c - makes the operations whose kernel paths tools/path-trace
 * --check-budgets counts against tests/path-budgets.txt: the null system
 * call (getppid), a fault on a fresh anonymous page, a 256-byte write to
 * /dev/null, a pipe round trip (a one-byte write, then its read), a
 * context switch (sched_yield to another runnable thread) and a write
 * fault on a cached page of a file mapped shared (lat_mmap's fault).
 *
 * Each operation is first made untraced, so that what a first call sets up
 * once (a pipe's buffer, a region's page table, the other thread's first
 * run) is not counted; then, REPEATS times (argument, default 1), a marker -
 * getppid with PATH_MARKER in rdi, which getppid ignores, so nothing else in
 * the system looks like it - and the operation again: the tracer skips to
 * each marker and counts what follows it. The order of the operations is
 * the tracer's order too.
 */
#include "lib/bench.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NR_GETPPID  110
#define PATH_MARKER 0x7061746874726163L /* "pathtrac" */
#define PAGE_SIZE   4096

static int repeats = 1; /* how many times each operation follows a marker */

static void
marker(void)
{
	long ret;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(NR_GETPPID), "D"(PATH_MARKER)
			     : "rcx", "r11", "memory");
	(void)ret;
}

static int
die(const char *what)
{
	perror(what);
	return 1;
}

static void
touch(volatile char *page)
{
	*page = 1;
}

/* The first page's fault also allocates the page table; the others' are the plain one. */
static int
anonymous_fault(void)
{
	size_t size = (size_t)(1 + repeats) * PAGE_SIZE;
	char *region = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (region == MAP_FAILED)
		return die("path_ops: mmap");
	touch(region);
	for (int i = 1; i <= repeats; i++) {
		marker();
		touch(region + i * PAGE_SIZE);
	}
	return munmap(region, size);
}

static int
write_256(void)
{
	char buf[256];
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return die("path_ops: /dev/null");
	memset(buf, 'w', sizeof(buf));
	for (int i = 0; i <= repeats; i++) {
		if (i > 0)
			marker();
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return die("path_ops: write");
	}
	return close(fd);
}

static int
pipe_round_trip(void)
{
	char byte = 'p';
	int fds[2];

	if (pipe(fds) != 0)
		return die("path_ops: pipe");
	for (int i = 0; i <= repeats; i++) {
		if (i > 0)
			marker();
		if (write(fds[1], &byte, 1) != 1 || read(fds[0], &byte, 1) != 1)
			return die("path_ops: pipe round trip");
	}
	return close(fds[0]) | close(fds[1]);
}

static atomic_int yielding_done;

static void *
keep_yielding(void *arg)
{
	(void)arg;
	while (!atomic_load(&yielding_done))
		sched_yield();
	return 0;
}

/* On one CPU, the other thread is runnable whenever this one yields. */
static int
context_switch(void)
{
	pthread_t other;

	if (pthread_create(&other, 0, keep_yielding, 0) != 0)
		return die("path_ops: pthread_create");
	for (int i = 0; i <= repeats; i++) {
		if (i > 0)
			marker();
		sched_yield();
	}
	atomic_store(&yielding_done, 1);
	return pthread_join(other, 0);
}

/* A file of pages pages, written so that each is in the page cache; open, or -1. */
static int
cached_file(const char *path, int pages)
{
	static char block[PAGE_SIZE];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 && mkdir("/tmp", 01777) == 0)
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (int i = 0; fd >= 0 && i < pages; i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			return -1;
	return fd;
}

/* As anonymous_fault, in a shared mapping of a file whose pages are all cached. */
static int
shared_file_fault(void)
{
	const char *path = "/tmp/path_ops.data";
	size_t size = (size_t)(1 + repeats) * PAGE_SIZE;
	int fd = cached_file(path, 1 + repeats);

	if (fd < 0)
		return die("path_ops: /tmp/path_ops.data");
	char *region = mmap(0, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (region == MAP_FAILED)
		return die("path_ops: mmap of the file");
	touch(region);
	for (int i = 1; i <= repeats; i++) {
		marker();
		touch(region + i * PAGE_SIZE);
	}
	return munmap(region, size) | close(fd) | unlink(path);
}

static void
null_call(void)
{
	for (int i = 0; i <= repeats; i++) {
		if (i > 0)
			marker();
		getppid();
	}
}

static const struct bench_help help = {
	.name = "path_ops",
	.about =
		"Makes each operation tools/path-trace --check-budgets counts - the null call, an\n"
		"anonymous fault, a 256-byte write, a pipe round trip, a context switch and a write\n"
		"fault in a shared file mapping - once, then REPEATS times (default 1) after a marker\n"
		"(getppid with \"pathtrac\" in rdi).\n"
		"Times nothing.",
	.synopsis = "[REPEATS]",
	.options = "  REPEATS  how many times each operation follows a marker (1 to 100)\n",
	.exits = "  0  every operation was made\n"
		 "  1  one failed (stderr says which)\n"
		 "  2  bad usage\n",
};

int
main(int argc, char **argv)
{
	bench_answer_help(argc, argv, &help, false);
	if (argc > 1)
		repeats = atoi(argv[1]);
	if (argc > 2 || repeats < 1 || repeats > 100) {
		fprintf(stderr, "usage: path_ops [REPEATS]\n");
		return 2;
	}
	null_call();
	if (anonymous_fault() || write_256() || pipe_round_trip() || context_switch() ||
	    shared_file_fault())
		return 1;
	printf("path_ops: null call, anonymous fault, 256-byte write, pipe round trip, context switch, "
	       "shared file fault made, %d times each after a marker\n",
	       repeats);
	return 0;
}

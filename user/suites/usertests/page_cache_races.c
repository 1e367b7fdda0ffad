/*
 * page_cache_races.c - usertests: threads pread'ing one file while another
 * thread truncates it, writes it again and punches holes in it read only
 * that file's bytes or zeros (or a short count past the end), never a
 * byte of another file: a page the cache dropped is not read after its
 * memory went to a file written beside it. rewind's page-cache lookups
 * share the inode's lock between readers (fs/filemap.c); this is what the
 * writers' side of that lock must still keep out.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RACE_PAGES   8
#define RACE_READERS 3
#define RACE_ROUNDS  150
#define FILE_BYTE    'a' /* every byte the raced file is written with */
#define OTHER_BYTE   'b' /* the churned file's, which takes the pages the raced one frees */

struct race {
	int fd;
	int stop;	   /* the writer is done (atomic) */
	int started;	   /* readers that have read once (atomic) */
	long reads, wrong; /* reads made, reads with a byte not the file's (atomic) */
};

static void *
race_reader(void *arg)
{
	struct race *r = arg;
	char buf[PAGE];
	bool first = true;

	for (long i = 0; !__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE); i++) {
		ssize_t n = pread(r->fd, buf, PAGE, (off_t)(i % RACE_PAGES) * PAGE);
		for (ssize_t b = 0; b < n; b++) {
			if (buf[b] != FILE_BYTE && buf[b] != 0) {
				__atomic_add_fetch(&r->wrong, 1, __ATOMIC_RELAXED);
				break;
			}
		}
		__atomic_add_fetch(&r->reads, 1, __ATOMIC_RELAXED);
		if (first)
			__atomic_add_fetch(&r->started, 1, __ATOMIC_RELEASE);
		first = false;
	}
	return NULL;
}

/* Writes RACE_PAGES pages of byte c to fd from its start. */
static void
write_pages(int fd, char c)
{
	char page[PAGE];

	memset(page, c, PAGE);
	for (int i = 0; i < RACE_PAGES; i++)
		CHECK_EQ(pwrite(fd, page, PAGE, (off_t)i * PAGE), PAGE);
}

TEST(page_cache_readers_race_truncation)
{
	struct race r = { .fd = (int)CHECK_OK(syscall(SYS_memfd_create, "raced", 0)) };
	int other = (int)CHECK_OK(syscall(SYS_memfd_create, "churned", 0));
	pthread_t readers[RACE_READERS];

	write_pages(r.fd, FILE_BYTE);
	for (int i = 0; i < RACE_READERS; i++)
		CHECK_EQ(pthread_create(&readers[i], NULL, race_reader, &r), 0);
	while (__atomic_load_n(&r.started, __ATOMIC_ACQUIRE) < RACE_READERS)
		sched_yield();
	long reads_before = __atomic_load_n(&r.reads, __ATOMIC_RELAXED);
	for (int round = 0; round < RACE_ROUNDS; round++) {
		CHECK_OK(ftruncate(r.fd, 0));
		write_pages(other, OTHER_BYTE); /* may reuse the pages just dropped */
		write_pages(r.fd, FILE_BYTE);
		CHECK_OK(fallocate(r.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				   (off_t)(round % RACE_PAGES) * PAGE, PAGE));
		CHECK_OK(ftruncate(other, 0));
		/* A read between each round and the next, on one CPU too. */
		for (long seen = __atomic_load_n(&r.reads, __ATOMIC_RELAXED);
		     __atomic_load_n(&r.reads, __ATOMIC_RELAXED) == seen;)
			sched_yield();
	}
	long reads_during = __atomic_load_n(&r.reads, __ATOMIC_RELAXED) - reads_before;
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < RACE_READERS; i++)
		CHECK_EQ(pthread_join(readers[i], NULL), 0);
	CHECK(reads_during >= RACE_ROUNDS);
	CHECK_EQ(r.wrong, 0);
	close(r.fd);
	close(other);
}

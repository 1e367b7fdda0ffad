/*
 * remote_cow.c - usertests: a write into another process's copy-on-write
 * page (process_vm_writev, /proc/<pid>/mem, as a debugger writes) gives
 * that process a copy of its own while it runs on another CPU reading
 * the page: its next read sees the written word, not a stale translation
 * of the page it shared, and the writer's own page keeps its word. The
 * kernel must flush the written process's TLB entries, on the CPUs that
 * process runs on, not the writer's (mm/fault.c, write_protect_fault and
 * get_page_for_remote_write).
 */
#define _GNU_SOURCE /* process_vm_writev, sched_setaffinity */
#include "usertests.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

/* What the reader and the writer tell each other, in memory both map. */
struct handshake {
	volatile int reading; /* the reader's TLB holds the shared page */
	volatile int written; /* the word is written: the reader's next read must see it */
	volatile long seen;   /* what that read saw */
};

/* Keeps the process on cpu where there is one: reader and writer run side by side. */
static void
stay_on(int cpu)
{
	cpu_set_t set;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Forks a reader of *word (1, shared copy-on-write with this process),
 * writes 2 into the reader's page with write_word, then 3 into its own
 * (the page is this process's alone by then, written in place): the
 * reader must see 2, never 1 (its old page) or 3 (this process's page,
 * through a stale entry).
 */
static void
check_remote_write(ssize_t (*write_word)(pid_t pid, long *at, long value))
{
	struct handshake *h =
		mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long *word = map_anon(PAGE, PROT_READ | PROT_WRITE);

	CHECK(h != MAP_FAILED);
	*word = 1;
	pid_t pid = xfork();
	if (pid == 0) {
		stay_on(1);
		long sink = 0;
		while (!h->written) {
			sink += *(volatile long *)word; /* 1, then 2 once the write is seen */
			h->reading = 1;
		}
		h->seen = *(volatile long *)word;
		(void)sink;
		_exit(0);
	}
	stay_on(0);
	while (!h->reading)
		sched_yield();
	CHECK_EQ(write_word(pid, word, 2), (ssize_t)sizeof(long));
	*(volatile long *)word = 3;
	h->written = 1;
	expect_exit(pid, 0, "the reader");
	CHECK_EQ(h->seen, 2);
	CHECK_EQ(*word, 3);
	CHECK_OK(munmap(word, PAGE));
	CHECK_OK(munmap(h, PAGE));
}

static ssize_t
by_process_vm_writev(pid_t pid, long *at, long value)
{
	struct iovec local = { &value, sizeof(value) }, remote = { at, sizeof(value) };

	return process_vm_writev(pid, &local, 1, &remote, 1, 0);
}

static ssize_t
by_proc_pid_mem(pid_t pid, long *at, long value)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	int fd = CHECK_OK(open(path, O_RDWR));
	ssize_t n = pwrite(fd, &value, sizeof(value), (off_t)at);
	CHECK_OK(close(fd));
	return n;
}

TEST(process_vm_writev_into_a_running_childs_cow_page)
{
	check_remote_write(by_process_vm_writev);
}

TEST(proc_pid_mem_write_into_a_running_childs_cow_page)
{
	check_remote_write(by_proc_pid_mem);
}

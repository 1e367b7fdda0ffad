/*
 * tlb.c - pthreadtests: TLB shootdown as threads on other CPUs see it,
 * after munmap, mprotect and fork.
 */
#include "pthreadtests.h"

#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * A thread pinned to one CPU touches a page in a loop, so that its CPU
 * caches the translation; the main thread, pinned to another, unmaps the
 * page or takes the toucher's access away. Once that call returns, the
 * toucher's next access must fault and kill the process with SIGSEGV.
 * A CPU whose TLB was not shot down goes on with the stale entry: the
 * process lives, and the main thread sees the toucher's progress.
 */
enum tlb_change { TLB_MUNMAP, TLB_PROT_NONE, TLB_PROT_READ };

struct tlb_run {
	enum tlb_change change;
	int main_cpu, toucher_cpu;
	volatile unsigned long *page;
	atomic_ulong progress; /* accesses done */
};

static void *
tlb_toucher(void *arg)
{
	struct tlb_run *r = arg;
	bool write = r->change == TLB_PROT_READ;
	unsigned long sink = 0;

	pin(0, r->toucher_cpu);
	for (unsigned long i = 1;; i++) {
		if (write)
			r->page[i % 512] = i;
		else
			sink += r->page[i % 512];
		atomic_store_explicit(&r->progress, i, memory_order_release);
	}
	return (void *)sink;
}

static void
tlb_child(void *arg)
{
	struct tlb_run *r = arg;
	static const char *const changes[] = { "munmap", "mprotect(PROT_NONE)",
					       "mprotect(PROT_READ)" };
	const char *change = changes[r->change];

	pin(0, r->main_cpu);
	r->page = map_anon(PAGE, PROT_READ | PROT_WRITE);
	r->page[0] = 1;
	start_thread(tlb_toucher, r);
	await_count(&r->progress, 100000, "toucher accesses");
	if (r->change == TLB_MUNMAP)
		CHECK_OK(munmap((void *)r->page, PAGE));
	else
		CHECK_OK(mprotect((void *)r->page, PAGE,
				  r->change == TLB_PROT_NONE ? PROT_NONE : PROT_READ));
	/*
	 * An access that began before the call may still be counted once;
	 * two more counts mean an access that began after the call returned.
	 */
	unsigned long seen = atomic_load_explicit(&r->progress, memory_order_acquire);
	long long deadline = mono_ns() + 5000 * MS;
	while (mono_ns() < deadline) {
		unsigned long now = atomic_load_explicit(&r->progress, memory_order_acquire);
		if (now > seen + 1)
			fail("CPU %d accessed the page %lu more times after %s on CPU %d returned "
			     "(stale TLB entry)",
			     r->toucher_cpu, now - seen - 1, change, r->main_cpu);
	}
	fail("CPU %d was not stopped by a fault within 5 s of %s on CPU %d", r->toucher_cpu, change,
	     r->main_cpu);
}

static void
expect_tlb_fault(enum tlb_change change, const char *what)
{
	struct tlb_run r = { .change = change };

	two_cpus(&r.main_cpu, &r.toucher_cpu);
	expect_signaled(run_child(tlb_child, &r), SIGSEGV, what);
}

TEST(tlb_munmap)
{
	expect_tlb_fault(TLB_MUNMAP, "a thread reading a page that another CPU unmapped");
}

TEST(tlb_mprotect_none)
{
	expect_tlb_fault(TLB_PROT_NONE, "a thread reading a page another CPU made PROT_NONE");
}

TEST(tlb_mprotect_readonly)
{
	expect_tlb_fault(TLB_PROT_READ, "a thread writing a page another CPU made PROT_READ");
}

struct cow_run {
	int writer_cpu;
	volatile unsigned long *word;
	atomic_ulong writes;
	atomic_bool stop;
};

static void *
cow_writer(void *arg)
{
	struct cow_run *r = arg;

	pin(0, r->writer_cpu);
	for (unsigned long i = 1; !atomic_load_explicit(&r->stop, memory_order_relaxed); i++) {
		*r->word = i;
		atomic_store_explicit(&r->writes, i, memory_order_release);
	}
	return NULL;
}

/*
 * fork write-protects the parent's pages for copy-on-write while a thread
 * on another CPU writes one of them: that CPU's writable TLB entry must go
 * too, or the parent's writes land in the page the child now shares.
 */
TEST(fork_cow_threads)
{
	static struct cow_run r;
	int main_cpu;

	two_cpus(&main_cpu, &r.writer_cpu);
	pin(0, main_cpu);
	r.word = map_anon(PAGE, PROT_READ | PROT_WRITE);
	pthread_t t = start_thread(cow_writer, &r);
	await_count(&r.writes, 100000, "writes before fork");
	pid_t pid = xfork();
	if (pid == 0) {
		unsigned long first = *r.word;
		long long until = mono_ns() + 200 * MS;
		while (mono_ns() < until)
			if (*r.word != first)
				fail("the child's copy of the page changed from %lu to %lu after fork: "
				     "the parent's writer on CPU %d kept writing through a stale TLB entry",
				     first, *r.word, r.writer_cpu);
		_exit(0);
	}
	unsigned long at_fork = atomic_load(&r.writes);
	expect_exit(pid, 0, "child checking its copy-on-write page");
	await_count(&r.writes, at_fork + 1000, "parent writes after fork");
	atomic_store(&r.stop, true);
	join_thread(t);
}

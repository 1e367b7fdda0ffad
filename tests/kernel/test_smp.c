/*
 * test_smp.c - self-tests that need several CPUs: function-call IPIs reach
 * every CPU, locks of each kind lose no update when every CPU hammers one
 * counter, a kernel TLB shootdown really removes a stale translation from
 * another CPU, and a kernel thread migrates when its affinity changes.
 * With one CPU they check what they can and say so.
 */
#include "kernel/ktest.h"
#include "kernel/x86/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/x86/smp.h"
#include "kernel/x86/traps.h"
#include "kernel/time/tsc.h"
#include "locking/mutex.h"
#include "locking/rwsem.h"
#include "locking/spinlock.h"
#include "mm/extable.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"

#define TEST_VA (VMAP_BASE + VMAP_SIZE - 32 * PAGE_SIZE)

static u64 ipi_hits[MAX_CPUS];

static void
count_ipi(void *arg)
{
	__atomic_fetch_add(&ipi_hits[this_cpu()->id], 1, __ATOMIC_RELAXED);
}

KTEST(ipi_calls_reach_every_cpu)
{
	u64 others = cpus_online_mask() & ~1ul;
	u64 t0 = rdtsc();

	for (int round = 0; round < 100; round++)
		smp_call_mask(others, count_ipi, NULL);
	u64 ns = tsc_cycles_to_ns(rdtsc() - t0) / 100;
	for (unsigned i = 1; i < ncpus; i++)
		CHECK_EQ(ipi_hits[i], 100);
	CHECK_EQ(ipi_hits[0], 0); /* never the caller itself */
	pr_info("ktest:     %u CPUs; IPI call to all others and back: %lu ns\n", ncpus, ns);
}

/* ---- every CPU increments one counter under a lock ----------------------------- */

enum lock_kind { USE_SPINLOCK, USE_MUTEX, USE_RWSEM };

struct hammer {
	enum lock_kind kind;
	struct spinlock spin;
	struct mutex mutex;
	struct rwsem rwsem;
	u64 counter;
	int running;
};

/*
 * Enough rounds to interleave CPUs thousands of times; few enough that a
 * 4-vCPU guest on a 2-core host (where a lock holder's vCPU can lose its
 * host core for a whole time slice) still finishes in seconds.
 */
#define HAMMER_ROUNDS 3000

static void
hammer_thread(void *arg)
{
	struct hammer *h = arg;

	for (int i = 0; i < HAMMER_ROUNDS; i++) {
		switch (h->kind) {
		case USE_SPINLOCK:
			spin_lock(&h->spin);
			h->counter++;
			spin_unlock(&h->spin);
			break;
		case USE_MUTEX:
			mutex_lock(&h->mutex);
			h->counter++;
			mutex_unlock(&h->mutex);
			break;
		case USE_RWSEM:
			down_write(&h->rwsem);
			h->counter++;
			up_write(&h->rwsem);
			break;
		}
	}
	__atomic_fetch_sub(&h->running, 1, __ATOMIC_RELEASE);
}

/* Runs one pinned thread per CPU and waits for all of them. */
static u64
hammer(enum lock_kind kind)
{
	static struct hammer h;
	int threads = (int)ncpus;

	h.kind = kind;
	h.counter = 0;
	spin_lock_init(&h.spin, "ktest_hammer");
	mutex_init(&h.mutex, "ktest_hammer");
	rwsem_init(&h.rwsem, "ktest_hammer");
	h.running = threads;
	for (int i = 0; i < threads; i++)
		if (!kthread_start_on("hammer", hammer_thread, &h, 1ul << (i % ncpus)))
			__atomic_fetch_sub(&h.running, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&h.running, __ATOMIC_ACQUIRE))
		schedule(); /* let this CPU's hammers run too */
	return h.counter;
}

KTEST(spinlock_loses_no_update_across_cpus)
{
	CHECK_EQ(hammer(USE_SPINLOCK), (u64)HAMMER_ROUNDS * ncpus);
}

KTEST(mutex_loses_no_update_across_cpus)
{
	CHECK_EQ(hammer(USE_MUTEX), (u64)HAMMER_ROUNDS * ncpus);
}

KTEST(rwsem_loses_no_update_across_cpus)
{
	CHECK_EQ(hammer(USE_RWSEM), (u64)HAMMER_ROUNDS * ncpus);
}

/* ---- a stale translation on another CPU is gone after the shootdown ---------- */

struct probe {
	int result;
	u64 value;
};

static void
read_test_page(void *arg)
{
	struct probe *p = arg;

	p->result = probe_read_u64((void *)TEST_VA, &p->value);
}

KTEST(kernel_tlb_shootdown_reaches_other_cpus)
{
	if (ncpus < 2) {
		pr_info("ktest:     one CPU: nothing to shoot down\n");
		return;
	}
	u64 *page = alloc_zeroed_page();
	struct probe p;

	CHECK(page != NULL);
	if (!page)
		return;
	page[0] = 0x5eed;
	CHECK_EQ(map_kernel_page(TEST_VA, virt_to_phys(page), PAGE_KERNEL_RW), 0);
	smp_call_mask(1ul << 1, read_test_page, &p); /* CPU 1 caches the translation */
	CHECK_EQ(p.result, 0);
	CHECK_EQ(p.value, 0x5eed);

	unmap_kernel_page(TEST_VA);
	tlb_flush_kernel_range(TEST_VA, TEST_VA + PAGE_SIZE);
	smp_call_mask(1ul << 1, read_test_page, &p);
	CHECK_EQ(p.result, -14); /* faults now: the entry is gone there too */
	free_page_virt(page);
}

/* ---- migration ------------------------------------------------------------------ */

struct migration {
	unsigned seen[4];
	int done;
};

static void
migrating_thread(void *arg)
{
	struct migration *m = arg;
	struct task *t = current();

	for (unsigned step = 0; step < 4; step++) {
		WRITE_ONCE(t->cpus_allowed, 1ul << (step % ncpus));
		schedule(); /* switched out: moves to the allowed CPU */
		m->seen[step] = this_cpu()->id;
	}
	__atomic_store_n(&m->done, 1, __ATOMIC_RELEASE);
}

KTEST(kernel_thread_follows_its_affinity)
{
	static struct migration m;

	m.done = 0;
	CHECK(kthread_start("migrate", migrating_thread, &m) != NULL);
	while (!__atomic_load_n(&m.done, __ATOMIC_ACQUIRE))
		schedule();
	for (unsigned step = 0; step < 4; step++)
		CHECK_EQ(m.seen[step], step % ncpus);
}

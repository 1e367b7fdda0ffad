/*
 * futex.c - futex(2): user space sleeps on a 32-bit word and wakes the
 * sleepers; the kernel keeps nothing for a futex that nobody waits on.
 * Operations: WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAIT_BITSET, WAKE_BITSET,
 * with FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME; the PI operations
 * return -ENOSYS. futex_waitv(2) waits on several words at once, with one
 * waiter per word for the same task (at the end of this file).
 *
 * Keys. A waiter and its waker meet on a key that names the word. A
 * private futex is named by (mm, address): only the threads of one address
 * space can reach it. A shared futex is named by (physical page, offset)
 * when other address spaces can map the same page: a MAP_SHARED mapping,
 * or a file's page-cache page still mapped by a private mapping. Private
 * anonymous memory is seen by this mm alone, so a shared futex there keeps
 * the private key, which, unlike the page, survives the copy-on-write that
 * replaces the page under the address after a fork (and makes the
 * CLONE_CHILD_CLEARTID wake-up meet waiters of either kind). An anonymous
 * MAP_SHARED page is one page for both processes only if it was faulted in
 * before the fork (no shmem yet: docs/userspace.md).
 *
 * Waiters. A waiter is a struct on its own kernel stack, queued in the
 * bucket its key hashes to: a spinlock and a list. A waker unlinks the
 * waiter and wakes its task with the bucket lock held, and a waiter leaves
 * only after taking that lock itself, so the struct and the task outlive
 * every use a waker makes of them. Requeueing moves a waiter to another
 * bucket with both locks held and changes waiter->bucket; a waiter that
 * leaves locks the bucket it last saw and checks that it is still its own.
 *
 * No lost wake-ups. User space changes the word and then calls FUTEX_WAKE;
 * FUTEX_WAIT(val) must not sleep through that. The waiter reads the word
 * with the bucket lock held and, still holding it, queues itself and marks
 * itself sleeping; the waker takes the same lock to look for waiters. The
 * lock puts the two in an order:
 *   - the waker first: its store to the word came before its unlock, so the
 *     waiter, locking after that, reads the new value and returns -EAGAIN;
 *   - the waiter first: it is queued before the waker looks, and the waker
 *     finds it. If the wake-up comes between the waiter's unlock and its
 *     schedule(), the task is already marked sleeping, wake_up_task() makes
 *     it runnable, and schedule() gives the CPU back at once (sched.c).
 * The read under the lock must not sleep, but the word's page may be
 * absent. So it is a no-fault read (get_user_u32_nofault); when that
 * fails, the lock is dropped, the page faulted in by an ordinary read, and
 * everything retried from the key, which the fault may have changed.
 */
#include "kernel/sched/futex.h"
#include "uapi/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/time/timekeeping.h"
#include "kernel/time/tsc.h"
#include "kernel/vdso/vvar.h"
#include "locking/spinlock.h"
#include "mm/page_alloc.h"
#include "mm/hugetlb.h"
#include "mm/paging.h"
#include "mm/uaccess.h"
#include "mm/vm.h"
#include "uapi/futex.h"
#include "uapi/time.h"
#include "kernel/time/time64.h"
#include "mm/kmalloc.h"

/*
 * (mm, user address) for a private futex, (struct page, offset in it) for
 * a shared one; an mm and a struct page never share an address, so the two
 * kinds cannot be confused.
 */
struct futex_key {
	const void *object;
	u64 offset;
};

struct futex_bucket {
	struct spinlock lock;
	struct list_head waiters; /* of struct futex_waiter, in arrival order */
};

struct futex_waiter {
	struct list_head link;	     /* in bucket->waiters; unlinked = woken */
	struct futex_bucket *bucket; /* changes only with both buckets locked */
	struct futex_key key;
	u32 bitset; /* FUTEX_WAKE_BITSET wakes it if the sets intersect */
	struct task *task;
};

#define FUTEX_HASH_BITS 8

/* Initialised statically, so that no boot step has to set the table up. */
/* clang-format off */
#define BUCKET(i)	{ SPINLOCK_INIT("futex"), LIST_HEAD_INIT(futex_table[i].waiters) }
/* clang-format on */
#define BUCKETS4(i)  BUCKET(i), BUCKET((i) + 1), BUCKET((i) + 2), BUCKET((i) + 3)
#define BUCKETS16(i) BUCKETS4(i), BUCKETS4((i) + 4), BUCKETS4((i) + 8), BUCKETS4((i) + 12)
#define BUCKETS64(i) BUCKETS16(i), BUCKETS16((i) + 16), BUCKETS16((i) + 32), BUCKETS16((i) + 48)

static struct futex_bucket futex_table[] = {
	BUCKETS64(0),
	BUCKETS64(64),
	BUCKETS64(128),
	BUCKETS64(192),
};
_Static_assert(ARRAY_SIZE(futex_table) == 1 << FUTEX_HASH_BITS, "one initializer per bucket");

static struct futex_bucket *
bucket_of(const struct futex_key *k)
{
	u64 h = ((u64)(uintptr_t)k->object ^ k->offset) *
		0x9e3779b97f4a7c15ul; /* Fibonacci hashing */

	return &futex_table[h >> (64 - FUTEX_HASH_BITS)];
}

static bool
key_equal(const struct futex_key *a, const struct futex_key *b)
{
	return a->object == b->object && a->offset == b->offset;
}

static struct futex_key
private_key(struct mm *mm, u64 uaddr)
{
	return (struct futex_key){ mm, uaddr };
}

/* What every futex address must be, in Linux's order of checks. */
static int
check_address(u64 uaddr)
{
	if (uaddr % sizeof(u32))
		return -EINVAL;
	return access_ok((const void __user *)uaddr, sizeof(u32)) ? 0 : -EFAULT;
}

/* Brings the word's page in by an ordinary read, which may sleep: 0 or -EFAULT. */
static int
fault_in_word(u64 uaddr)
{
	u32 v;

	return copy_from_user(&v, (const void __user *)uaddr, sizeof(v));
}

/*
 * The shared key of the word at uaddr (see the top of the file), with the
 * mmap lock held: -EFAULT outside any readable mapping, -EAGAIN while the page that
 * names it is not mapped yet.
 */
static int
key_from_mapping(struct mm *mm, u64 uaddr, struct futex_key *key)
{
	struct vma *v = vma_find(mm, uaddr);

	if (!v || !(v->flags & VM_READ))
		return -EFAULT; /* Linux pins the page to name it, which PROT_NONE refuses */
	*key = private_key(mm, uaddr);
	if (!(v->flags & VM_SHARED) && !v->file)
		return 0;
	/* pt_lock: a concurrent copy-on-write may replace and free the page. */
	spin_lock(&mm->pt_lock);
	/* A huge page's 4 KiB parts name the futex as well as whole pages do. */
	pte_t *pte = is_vm_hugetlb(v) ? NULL : pte_walk(mm->pgd, uaddr, false);
	u64 entry = pte ? pte_val(*pte) : is_vm_hugetlb(v) ? hugetlb_entry_of(mm, uaddr) : 0;
	struct page *page = (entry & PTE_PRESENT) ? pte_page(entry) : NULL;
	if (page && ((v->flags & VM_SHARED) || page->mapping))
		*key = (struct futex_key){ page, uaddr & (PAGE_SIZE - 1) };
	spin_unlock(&mm->pt_lock);
	return page ? 0 : -EAGAIN;
}

static int
shared_key(struct mm *mm, u64 uaddr, struct futex_key *key)
{
	for (;;) {
		down_read(&mm->mmap_lock);
		int err = key_from_mapping(mm, uaddr, key);
		up_read(&mm->mmap_lock);
		if (err != -EAGAIN)
			return err;
		if (fault_in_word(uaddr))
			return -EFAULT;
	}
}

static int
futex_key(u64 uaddr, bool shared, struct futex_key *key)
{
	struct mm *mm = current()->mm;
	int err = check_address(uaddr);

	if (err)
		return err;
	if (shared)
		return shared_key(mm, uaddr, key);
	*key = private_key(mm, uaddr);
	return 0;
}

/* Bucket locked: w leaves its queue and its task wakes (why under the lock: see the top). */
static void
wake_waiter(struct futex_waiter *w)
{
	list_del(&w->link);
	wake_up_task(w->task);
}

/*
 * Both buckets locked: w now waits on key, whose bucket is `to`; it keeps
 * its place when that is the bucket it is in (so a requeue pass never
 * meets it again).
 */
static void
requeue_waiter(struct futex_waiter *w, struct futex_bucket *to, const struct futex_key *key)
{
	w->key = *key;
	if (w->bucket == to)
		return;
	list_del(&w->link);
	list_add_tail(&w->link, &to->waiters);
	WRITE_ONCE(w->bucket, to);
}

static int
wake_key(const struct futex_key *key, int n, u32 bitset)
{
	struct futex_bucket *b = bucket_of(key);
	struct list_head *pos, *next;
	int woken = 0;

	spin_lock(&b->lock);
	for (pos = b->waiters.next; pos != &b->waiters; pos = next) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		next = pos->next;
		if (!key_equal(&w->key, key) || !(w->bitset & bitset))
			continue;
		wake_waiter(w);
		if (++woken >= n) /* tested after the wake-up: n <= 0 wakes one, as in Linux */
			break;
	}
	spin_unlock(&b->lock);
	return woken;
}

/*
 * Queues w on uaddr's futex if the word still holds val, and marks the
 * task sleeping: 0, else -EAGAIN (another value) or the key's error.
 */
static int
queue_if_equal(struct futex_waiter *w, u64 uaddr, bool shared, u32 val)
{
	for (;;) {
		int err = futex_key(uaddr, shared, &w->key);
		if (err)
			return err;
		struct futex_bucket *b = bucket_of(&w->key);
		u32 cur;
		spin_lock(&b->lock);
		if (get_user_u32_nofault(&cur, (const u32 __user *)uaddr)) {
			spin_unlock(&b->lock);
			if (fault_in_word(uaddr))
				return -EFAULT;
			continue;
		}
		if (cur == val) {
			w->bucket = b;
			list_add_tail(&w->link, &b->waiters);
			set_current_sleeping();
		}
		spin_unlock(&b->lock);
		return cur == val ? 0 : -EAGAIN;
	}
}

/* Takes w off its queue unless a waker did: whether it was still queued (not woken). */
static bool
unqueue(struct futex_waiter *w)
{
	struct futex_bucket *b;

	for (;;) {
		b = READ_ONCE(w->bucket);
		spin_lock(&b->lock);
		if (b == READ_ONCE(w->bucket))
			break;
		spin_unlock(&b->lock); /* requeued meanwhile: follow it */
	}
	bool queued = !list_empty(&w->link);
	list_del(&w->link);
	spin_unlock(&b->lock);
	return queued;
}

/*
 * Deadlines are CLOCK_MONOTONIC instants, and are judged by that clock: the
 * sleep itself is timed on the TSC (ns_since_boot), which runs apart from
 * MONOTONIC by the clocksource's rate rounding and its switches, so a
 * timeout judged by ns_since_boot returned before the deadline the program
 * set (2 ms early, found beside a CPU hog). A wait whose TSC sleep ended
 * early by MONOTONIC sleeps on for the rest.
 */
static u64
futex_clock_now(void)
{
	return timekeeping_read_ns(VVAR_CLOCK_MONOTONIC);
}

/* Queued and marked sleeping: sleeps until woken, the deadline or a signal. */
static void
futex_sleep(const u64 *deadline)
{
	u64 now = futex_clock_now();

	if (task_interrupted() || (deadline && now >= *deadline))
		WRITE_ONCE(current()->state, TASK_RUNNABLE);
	else if (deadline)
		schedule_timeout_ns(*deadline - now);
	else
		schedule();
}

static long
futex_wait(u64 uaddr, bool shared, u32 val, u32 bitset, const u64 *deadline)
{
	struct futex_waiter w = {
		.link = LIST_HEAD_INIT(w.link),
		.bitset = bitset,
		.task = current(),
	};

	if (!bitset)
		return -EINVAL;
	for (;;) {
		int err = queue_if_equal(&w, uaddr, shared, val);
		if (err)
			return err;
		futex_sleep(deadline);
		if (!unqueue(&w))
			return 0;
		if (deadline && futex_clock_now() >= *deadline)
			return -ETIMEDOUT;
		/* As Linux: a wait without timeout may restart (SA_RESTART); a timed one ends. */
		if (task_interrupted())
			return deadline ? -EINTR : -ERESTARTSYS;
		/* Woken by something else: look at the word again, as Linux does. */
	}
}

static long
futex_wake(u64 uaddr, bool shared, int n, u32 bitset)
{
	struct futex_key key;

	if (!bitset)
		return -EINVAL;
	int err = futex_key(uaddr, shared, &key);
	return err ? err : wake_key(&key, n, bitset);
}

int
futex_wake_user(u64 uaddr, int n)
{
	return (int)futex_wake(uaddr, true, n, FUTEX_BITSET_MATCH_ANY);
}

int
futex_wake_address(struct mm *mm, u64 uaddr, int n)
{
	struct futex_key key = private_key(mm, uaddr);
	int err = check_address(uaddr);

	return err ? err : wake_key(&key, n, FUTEX_BITSET_MATCH_ANY);
}

/* In address order, so that two requeues between the same buckets cannot deadlock. */
static void
lock_buckets(struct futex_bucket *a, struct futex_bucket *b)
{
	spin_lock(&MIN(a, b)->lock);
	if (a != b)
		spin_lock(&MAX(a, b)->lock);
}

static void
unlock_buckets(struct futex_bucket *a, struct futex_bucket *b)
{
	spin_unlock(&a->lock);
	if (a != b)
		spin_unlock(&b->lock);
}

/*
 * Both buckets locked: wakes up to nr_wake waiters on `from`, moves up to
 * nr_requeue more to `to`; returns how many it woke and moved together.
 */
static long
wake_and_requeue(struct futex_bucket *fb, const struct futex_key *from, struct futex_bucket *tb,
		 const struct futex_key *to, int nr_wake, int nr_requeue)
{
	struct list_head *pos, *next;
	int woken = 0, moved = 0;

	for (pos = fb->waiters.next; pos != &fb->waiters; pos = next) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		next = pos->next;
		if (!key_equal(&w->key, from))
			continue;
		if (woken < nr_wake) {
			wake_waiter(w);
			woken++;
		} else if (moved < nr_requeue) {
			requeue_waiter(w, tb, to);
			moved++;
		} else {
			break;
		}
	}
	return woken + moved;
}

/* REQUEUE, and CMP_REQUEUE when cmpval is given: only while *uaddr == *cmpval. */
static long
futex_requeue(u64 uaddr, u64 uaddr2, bool shared, int nr_wake, int nr_requeue, const u32 *cmpval)
{
	struct futex_key from, to;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	for (;;) {
		int err = futex_key(uaddr, shared, &from);
		if (!err)
			err = futex_key(uaddr2, shared, &to);
		if (err)
			return err;
		struct futex_bucket *fb = bucket_of(&from), *tb = bucket_of(&to);
		u32 cur = 0;
		lock_buckets(fb, tb);
		if (cmpval && get_user_u32_nofault(&cur, (const u32 __user *)uaddr)) {
			unlock_buckets(fb, tb);
			if (fault_in_word(uaddr))
				return -EFAULT;
			continue;
		}
		long ret = cmpval && cur != *cmpval
				   ? -EAGAIN
				   : wake_and_requeue(fb, &from, tb, &to, nr_wake, nr_requeue);
		unlock_buckets(fb, tb);
		return ret;
	}
}

/* A CLOCK_REALTIME instant on the monotonic clock (0 if that is before boot: already past). */
static u64
wall_to_monotonic(u64 real_ns)
{
	s64 offset = timekeeping_realtime_offset_ns();

	return offset > 0 && real_ns < (u64)offset ? 0 : real_ns - (u64)offset;
}

/*
 * The deadline of a wait, in CLOCK_MONOTONIC ns since boot: FUTEX_WAIT's
 * timeout is relative, FUTEX_WAIT_BITSET's absolute. An absolute
 * CLOCK_REALTIME time (FUTEX_CLOCK_REALTIME) loses the wall clock's
 * offset from the monotonic one as it is now (a later settimeofday does
 * not move the deadline, a simplification Linux does not make).
 */
static int
read_deadline(const struct kernel_timespec __user *uts, bool relative, bool realtime, u64 *deadline)
{
	struct kernel_timespec ts;
	u64 ns;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	if (__builtin_mul_overflow((u64)ts.tv_sec, NSEC_PER_SEC, &ns) ||
	    __builtin_add_overflow(ns, (u64)ts.tv_nsec, &ns) ||
	    (relative && __builtin_add_overflow(ns, futex_clock_now(), &ns)))
		ns = UINT64_MAX; /* centuries: as good as forever */
	else if (realtime)
		ns = wall_to_monotonic(ns);
	*deadline = ns;
	return 0;
}

SYSCALL6(futex, u64, uaddr, int, op, u32, val, const struct kernel_timespec __user *, utime, u64,
	 uaddr2, u32, val3)
{
	int cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	bool shared = !(op & FUTEX_PRIVATE_FLAG);
	bool is_wait = cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET;
	/* For the requeues, the timeout argument is a count (Linux's val2). */
	int val2 = (int)(uintptr_t)utime;
	u64 deadline;

	/* Only an absolute timeout has a clock to choose (Linux 4.5 briefly allowed FUTEX_WAIT). */
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;
	if (is_wait && utime) {
		int err = read_deadline(utime, cmd == FUTEX_WAIT, op & FUTEX_CLOCK_REALTIME,
					&deadline);
		if (err)
			return err;
	}
	const u64 *until = is_wait && utime ? &deadline : NULL;

	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, shared, val, FUTEX_BITSET_MATCH_ANY, until);
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, shared, val, val3, until);
	case FUTEX_WAKE:
		return futex_wake(uaddr, shared, (int)val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, shared, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, uaddr2, shared, (int)val, val2, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, uaddr2, shared, (int)val, val2, &val3);
	default:
		return -ENOSYS;
	}
}

/* ---- futex_waitv: any of several words ------------------------------------------ */

/*
 * Whether a waiter of ws[0..n) was already woken (taken off its queue):
 * the task marked itself sleeping at the last queueing, so a waker that
 * comes after this look makes it runnable again (see "No lost wake-ups").
 */
static bool
any_woken(const struct futex_waiter *ws, unsigned n)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the sleeping mark before the looks */
	for (unsigned i = 0; i < n; i++) {
		if (list_empty(&ws[i].link))
			return true;
	}
	return false;
}

/* Takes every waiter of ws[0..n) off its queue: the lowest index a waker took, or -1. */
static int
unqueue_all(struct futex_waiter *ws, unsigned n)
{
	int woken = -1;

	for (unsigned i = 0; i < n; i++) {
		if (!unqueue(&ws[i]) && woken < 0)
			woken = (int)i;
	}
	return woken;
}

/*
 * Queues a waiter on every word that still holds its value: 0 with all n
 * queued and the task marked sleeping; else none stays queued and the
 * result is the index of one woken meanwhile, or -EAGAIN (a word changed)
 * or the key's error. Between two queueings the task runs again, so a
 * fault on the next word may sleep; the last queueing marks it sleeping.
 */
static long
queue_all(struct futex_waiter *ws, const struct kernel_futex_waitv *vs, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		WRITE_ONCE(current()->state, TASK_RUNNABLE);
		int err = vs[i].val > UINT32_MAX
				  ? check_address(vs[i].uaddr) ?: -EAGAIN
				  : queue_if_equal(&ws[i], vs[i].uaddr,
						   !(vs[i].flags & FUTEX_PRIVATE_FLAG),
						   (u32)vs[i].val);
		if (err) {
			WRITE_ONCE(current()->state, TASK_RUNNABLE);
			int woken = unqueue_all(ws, i);
			return woken >= 0 ? woken : err;
		}
	}
	return 0;
}

/* Linux's futex_wait_multiple: the index of the word woken, -EAGAIN, -ETIMEDOUT, -ERESTARTSYS. */
static long
futex_wait_multiple(struct futex_waiter *ws, const struct kernel_futex_waitv *vs, unsigned n,
		    const u64 *deadline)
{
	for (;;) {
		long ret = queue_all(ws, vs, n);
		if (ret)
			return ret;
		if (any_woken(ws, n - 1))
			WRITE_ONCE(current()->state, TASK_RUNNABLE);
		else
			futex_sleep(deadline);
		int woken = unqueue_all(ws, n);
		if (woken >= 0)
			return woken;
		if (deadline && futex_clock_now() >= *deadline)
			return -ETIMEDOUT;
		if (task_interrupted())
			return -ERESTARTSYS;
	}
}

/* The waiters from user memory, checked as Linux's futex_parse_waitv: 0, -EFAULT, -EINVAL. */
static int
read_waiters(const struct kernel_futex_waitv __user *uws, unsigned n, struct kernel_futex_waitv *vs,
	     struct futex_waiter *ws)
{
	if (copy_from_user(vs, uws, n * sizeof(*vs)))
		return -EFAULT;
	for (unsigned i = 0; i < n; i++) {
		if ((vs[i].flags & ~(u32)(FUTEX_32 | FUTEX_PRIVATE_FLAG)) || vs[i].reserved ||
		    !(vs[i].flags & FUTEX_32))
			return -EINVAL;
		ws[i] = (struct futex_waiter){
			.link = LIST_HEAD_INIT(ws[i].link),
			.bitset = FUTEX_BITSET_MATCH_ANY,
			.task = current(),
		};
	}
	return 0;
}

SYSCALL5(futex_waitv, const struct kernel_futex_waitv __user *, waiters, unsigned, nr_futexes,
	 unsigned, flags, const struct kernel_timespec __user *, timeout, int, clockid)
{
	u64 deadline;

	if (flags || !nr_futexes || nr_futexes > FUTEX_WAITV_MAX || !waiters)
		return -EINVAL;
	if (timeout) {
		if (clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC)
			return -EINVAL;
		int err = read_deadline(timeout, false, clockid == CLOCK_REALTIME, &deadline);
		if (err)
			return err;
	}
	struct kernel_futex_waitv *vs = kmalloc(nr_futexes * sizeof(*vs));
	struct futex_waiter *ws = kmalloc(nr_futexes * sizeof(*ws));
	long ret = vs && ws ? read_waiters(waiters, nr_futexes, vs, ws) : -ENOMEM;
	if (!ret)
		ret = futex_wait_multiple(ws, vs, nr_futexes, timeout ? &deadline : NULL);
	kfree(vs);
	kfree(ws);
	return ret;
}

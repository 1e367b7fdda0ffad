/*
 * test_mutex_killable.c - self-test of mutex_lock_killable: a kernel
 * thread queued on a held mutex gives up with -EINTR when its task is
 * marked killed and woken (what sending SIGKILL does), leaves the wait
 * list, and the mutex stays usable. The AF_UNIX calls take unix_lock so
 * (fs/unix.h), so that a task stuck behind a holder can be killed.
 */
#include "kernel/ktest.h"
#include "kernel/process/task.h"
#include "kernel/sched/sched.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/percpu.h"
#include "locking/mutex.h"
#include "uapi/errno.h"

struct killable_wait {
	struct mutex m;
	struct task *waiter;
	int result;
	int done;
};

static void
killable_waiter(void *arg)
{
	struct killable_wait *k = arg;

	WRITE_ONCE(k->waiter, current());
	k->result = mutex_lock_killable(&k->m);
	if (!k->result)
		mutex_unlock(&k->m);
	WRITE_ONCE(current()->killed, false); /* the mark was the test's, not an exit's */
	__atomic_store_n(&k->done, 1, __ATOMIC_RELEASE);
}

static bool
queued(const struct killable_wait *k)
{
	return READ_ONCE(k->m.wait_list.next) != &k->m.wait_list;
}

/*
 * Both threads run on this CPU, where a kernel thread is never preempted:
 * the waiter queues and sleeps before this thread runs again. The deadline
 * only guards against a hang.
 */
KTEST(mutex_lock_killable_gives_up_for_a_fatal_signal)
{
	static struct killable_wait k;
	u64 here = 1ul << this_cpu()->id, deadline = rdtsc() + 60 * tsc_hz;

	k = (struct killable_wait){ .result = 1 };
	mutex_init(&k.m, "ktest_killable");
	mutex_lock(&k.m);
	CHECK(kthread_start_on("killable_waiter", killable_waiter, &k, here) != NULL);
	while (!queued(&k) && rdtsc() < deadline)
		schedule();
	struct task *waiter = READ_ONCE(k.waiter);
	CHECK(queued(&k) && waiter);
	if (waiter) {
		WRITE_ONCE(waiter->killed, true); /* a fatal signal's mark and wake-up */
		wake_up_task(waiter);
	}
	while (!__atomic_load_n(&k.done, __ATOMIC_ACQUIRE) && rdtsc() < deadline)
		schedule();
	CHECK_EQ(k.done, 1);
	CHECK_EQ(k.result, -EINTR); /* while the mutex was still held */
	CHECK(!queued(&k));
	mutex_unlock(&k.m);
	CHECK(mutex_trylock(&k.m)); /* nothing was left behind */
	mutex_unlock(&k.m);
}

/*
 * sem.c - System V semaphore sets: semget, semop and semtimedop (Linux's
 * ipc/sem.c); semctl is in sem_ctl.c, the undo lists in sem_undo.c.
 *
 * A semop is all its operations or none: they are applied in order and
 * taken back when one cannot proceed (a decrease below zero or a wait for
 * zero: the caller sleeps, or EAGAIN with IPC_NOWAIT on that operation)
 * or would leave the range (ERANGE past SEMVMX, or an undo adjustment
 * past SEMAEM). A sleeper is woken by every change to the set and tries
 * its whole semop again; a signal ends the sleep with EINTR, the set's
 * removal with EIDRM, a timeout (semtimedop) with EAGAIN.
 */
#include "ipc/sem.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time/clock.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/time.h"

#define SEMOPS_ON_STACK 16

static struct ipc_object *sem_create(struct ipc_ids *ids, int key, int flags, unsigned long nsems,
				     int *err);
static int sem_fits(struct ipc_object *obj, unsigned long nsems);
static void sem_free(struct ipc_object *obj);

int sem_ctls[4] = { 32000, 1024000000, 500, 32000 };
static long sem_used; /* semaphores in all sets, against semmns */

static unsigned long
sem_mni(void)
{
	return (unsigned long)MAX(READ_ONCE(sem_ctls[3]), 0);
}

static const struct ipc_kind sem_kind = {
	.name = "sem", .create = sem_create, .fits = sem_fits, .free = sem_free
};
struct ipc_ids sem_ids = IPC_IDS_INIT(sem_ids, &sem_kind, "sem_ids", sem_mni);

static struct ipc_object *
sem_create(struct ipc_ids *ids, int key, int flags, unsigned long nsems, int *err)
{
	*err = -EINVAL;
	if (!nsems)
		return NULL;
	*err = -ENOSPC;
	if (sem_used + (long)nsems > READ_ONCE(sem_ctls[1]))
		return NULL;
	*err = -ENOMEM;
	struct sem_set *set = kzalloc(sizeof(*set) + nsems * sizeof(struct sem));
	if (!set)
		return NULL;
	set->nsems = (int)nsems;
	list_init(&set->undos);
	list_init(&set->sleepers);
	wait_queue_init(&set->wq);
	set->ctime = ipc_now();
	sem_used += (long)nsems;
	return &set->perm;
}

static int
sem_fits(struct ipc_object *obj, unsigned long nsems)
{
	return nsems > (unsigned long)to_set(obj)->nsems ? -EINVAL : 0;
}

static void
sem_free(struct ipc_object *obj)
{
	sem_used -= to_set(obj)->nsems;
	kfree(to_set(obj));
}

SYSCALL3(semget, int, key, int, nsems, int, flags)
{
	if (nsems < 0 || nsems > READ_ONCE(sem_ctls[0]))
		return -EINVAL;
	return ipc_get(&sem_ids, key, flags, (unsigned long)nsems);
}

/* Takes back the first n operations of sops, applied by apply_ops. */
static void
revert_ops(struct sem_set *set, const struct kernel_sembuf *sops, size_t n, struct sem_undo *un)
{
	while (n--) {
		set->sems[sops[n].sem_num].val -= sops[n].sem_op;
		if (sops[n].sem_flg & SEM_UNDO)
			un->adj[sops[n].sem_num] += sops[n].sem_op;
	}
}

/*
 * All of sops applied: 0; or none: 1 when one must wait (*blocker is
 * its index), -ERANGE when one would leave the range.
 */
static int
apply_ops(struct sem_set *set, const struct kernel_sembuf *sops, size_t nsops, struct sem_undo *un,
	  size_t *blocker)
{
	for (size_t i = 0; i < nsops; i++) {
		const struct kernel_sembuf *op = &sops[i];
		struct sem *s = &set->sems[op->sem_num];
		int result = s->val + op->sem_op;
		int err = 0;
		if ((!op->sem_op && s->val) || result < 0)
			err = 1;
		else if (result > SEMVMX)
			err = -ERANGE;
		else if (op->sem_flg & SEM_UNDO) {
			int adj = un->adj[op->sem_num] - op->sem_op;
			if (adj < -SEMAEM - 1 || adj > SEMAEM)
				err = -ERANGE;
		}
		if (err) {
			revert_ops(set, sops, i, un);
			*blocker = i;
			return err;
		}
		s->val = result;
		if (op->sem_flg & SEM_UNDO)
			un->adj[op->sem_num] -= op->sem_op;
	}
	int pid = ipc_pid();
	for (size_t i = 0; i < nsops; i++)
		set->sems[sops[i].sem_num].pid = pid;
	set->otime = ipc_now();
	return 0;
}

/* What one semtimedop asks, checked before the set is looked at. */
struct semop_call {
	int id;
	struct kernel_sembuf *sops;
	size_t nsops;
	unsigned max_num;
	bool undo, alter;
	bool timed;
	u64 timeout_ns; /* what is left of it */
};

/*
 * Sleeps on set until woken, signalled or out of time, with sem_ids.lock
 * let go; set is held meanwhile. 0 to try again, or -EIDRM, -EINTR.
 */
static long
sem_sleep(struct sem_set *set, struct semop_call *c, const struct kernel_sembuf *blocker)
{
	struct sem_sleeper sl = { .num = blocker->sem_num, .zero = blocker->sem_op == 0 };
	WAIT_ENTRY(we);

	list_add_tail(&sl.link, &set->sleepers);
	ipc_hold(&set->perm);
	prepare_to_wait(&set->wq, &we);
	mutex_unlock(&sem_ids.lock);
	bool interrupted = task_interrupted();
	if (!interrupted && c->timed)
		c->timeout_ns = schedule_timeout_ns(c->timeout_ns);
	else if (!interrupted)
		schedule();
	finish_wait(&set->wq, &we);
	mutex_lock(&sem_ids.lock);
	list_del(&sl.link);
	bool removed = set->perm.removed;
	ipc_drop(&sem_ids, &set->perm);
	if (removed)
		return -EIDRM;
	return interrupted || task_interrupted() ? -EINTR : 0;
}

/* One try of the call on its set (sem_ids.lock held): 0, -errno, or 1 to try again. */
static long
try_semop(struct semop_call *c, bool out_of_time)
{
	struct ipc_object *obj = ipc_find(&sem_ids, c->id);
	size_t blocker;

	if (!obj)
		return -EINVAL;
	struct sem_set *set = to_set(obj);
	if (c->max_num >= (unsigned)set->nsems)
		return -EFBIG;
	if (!ipc_may(obj, c->alter ? 0222 : 0444))
		return -EACCES;
	struct sem_undo *un = c->undo ? sem_undo_find(set) : NULL;
	if (c->undo && !un)
		return -ENOMEM;
	int r = apply_ops(set, c->sops, c->nsops, un, &blocker);
	if (r == 0 && c->alter)
		wake_up_all(&set->wq);
	if (r <= 0)
		return r;
	if ((c->sops[blocker].sem_flg & IPC_NOWAIT) || out_of_time)
		return -EAGAIN;
	long err = sem_sleep(set, c, &c->sops[blocker]);
	return err ? err : 1;
}

static long
run_semop(struct semop_call *c)
{
	long ret;

	for (size_t i = 0; i < c->nsops; i++) {
		c->max_num = MAX(c->max_num, c->sops[i].sem_num);
		c->undo |= (c->sops[i].sem_flg & SEM_UNDO) != 0;
		c->alter |= c->sops[i].sem_op != 0;
	}
	mutex_lock(&sem_ids.lock);
	do
		ret = try_semop(c, c->timed && !c->timeout_ns);
	while (ret == 1);
	mutex_unlock(&sem_ids.lock);
	return ret;
}

static long
do_semtimedop(int id, struct kernel_sembuf __user *usops, size_t nsops,
	      const struct kernel_timespec __user *uts)
{
	struct kernel_sembuf on_stack[SEMOPS_ON_STACK];
	struct semop_call c = { .id = id, .nsops = nsops, .sops = on_stack };
	long ret = 0;

	if (nsops < 1 || id < 0)
		return -EINVAL;
	if (nsops > (size_t)READ_ONCE(sem_ctls[2]))
		return -E2BIG;
	if (nsops > SEMOPS_ON_STACK && !(c.sops = kmalloc(nsops * sizeof(*c.sops))))
		return -ENOMEM;
	if (copy_from_user(c.sops, usops, nsops * sizeof(*c.sops)))
		ret = -EFAULT;
	if (!ret && uts) {
		struct kernel_timespec ts;
		ret = copy_from_user(&ts, uts, sizeof(ts)) ? -EFAULT
							   : timespec_to_ns(&ts, &c.timeout_ns);
		c.timed = true;
	}
	if (!ret)
		ret = run_semop(&c);
	if (c.sops != on_stack)
		kfree(c.sops);
	return ret;
}

SYSCALL4(semtimedop, int, id, struct kernel_sembuf __user *, sops, size_t, nsops,
	 const struct kernel_timespec __user *, timeout)
{
	return do_semtimedop(id, sops, nsops, timeout);
}

SYSCALL3(semop, int, id, struct kernel_sembuf __user *, sops, size_t, nsops)
{
	return do_semtimedop(id, sops, nsops, NULL);
}

/*
 * sem_ctl.c - semctl(2) (Linux's semctl_main, semctl_setval, semctl_stat
 * ...) and /proc/sysvipc/sem. The fourth argument is union semun, passed
 * by value: a number for SETVAL, a pointer for the rest.
 */
#include "ipc/sem.h"
#include "fs/proc/text.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"

#define SEMUSZ 20 /* Linux's sizeof(struct sem_undo), only reported */

/* GETNCNT and GETZCNT: the sleepers whose blocking operation waits on num, for zero or not. */
static int
count_sleepers(struct sem_set *set, int num, bool zero)
{
	struct list_head *pos;
	int n = 0;

	list_for_each(pos, &set->sleepers) {
		struct sem_sleeper *sl = list_entry(pos, struct sem_sleeper, link);
		n += sl->num == num && sl->zero == zero;
	}
	return n;
}

/* Every set's semaphores, SEM_INFO's semaem. */
static int
sems_in_use(void)
{
	int n = 0;

	for (int i = 0; i <= sem_ids.max_idx; i++)
		if (sem_ids.slots[i])
			n += to_set(sem_ids.slots[i])->nsems;
	return n;
}

static long
sem_info(int cmd, void __user *buf)
{
	struct kernel_seminfo info = {
		.semmni = READ_ONCE(sem_ctls[3]),
		.semmns = READ_ONCE(sem_ctls[1]),
		.semmsl = READ_ONCE(sem_ctls[0]),
		.semopm = READ_ONCE(sem_ctls[2]),
		.semvmx = SEMVMX,
		.semmnu = READ_ONCE(sem_ctls[1]),
		.semmap = READ_ONCE(sem_ctls[1]),
		.semume = READ_ONCE(sem_ctls[2]),
		.semusz = SEMUSZ,
		.semaem = SEMAEM,
	};

	if (cmd == SEM_INFO) { /* what is in use, in Linux's fields */
		info.semusz = sem_ids.in_use;
		info.semaem = sems_in_use();
	}
	return copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : ipc_max_idx(&sem_ids);
}

static long
sem_stat(int cmd, int id, void __user *buf)
{
	long err;
	struct ipc_object *obj =
		ipc_find_stat(&sem_ids, id, cmd != IPC_STAT, cmd == SEM_STAT_ANY, &err);
	struct kernel_semid64_ds ds;

	if (!obj)
		return err;
	struct sem_set *set = to_set(obj);
	memset(&ds, 0, sizeof(ds));
	ipc_fill_perm(obj, &ds.sem_perm);
	ds.sem_otime = set->otime;
	ds.sem_ctime = set->ctime;
	ds.sem_nsems = (unsigned long)set->nsems;
	if (copy_to_user(buf, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : obj->id;
}

/* A value of every semaphore, from or to the caller's array (GETALL, SETALL). */
static long
sem_all(int cmd, struct sem_set *set, unsigned short __user *array)
{
	size_t size = (size_t)set->nsems * sizeof(unsigned short);
	unsigned short *vals = kmalloc(size);
	long err = 0;

	if (!vals)
		return -ENOMEM;
	if (cmd == GETALL) {
		for (int i = 0; i < set->nsems; i++)
			vals[i] = (unsigned short)set->sems[i].val;
		err = copy_to_user(array, vals, size) ? -EFAULT : 0;
	} else {
		err = copy_from_user(vals, array, size) ? -EFAULT : 0;
		for (int i = 0; !err && i < set->nsems; i++)
			if (vals[i] > SEMVMX)
				err = -ERANGE;
		for (int i = 0; !err && i < set->nsems; i++) {
			set->sems[i].val = vals[i];
			set->sems[i].pid = ipc_pid();
		}
		if (!err) {
			sem_undo_clear(set, -1);
			set->ctime = ipc_now();
			wake_up_all(&set->wq);
		}
	}
	kfree(vals);
	return err;
}

/* The commands on one semaphore: GETVAL, GETPID, GETNCNT, GETZCNT, SETVAL. */
static long
sem_one(int cmd, struct sem_set *set, int num, int val)
{
	switch (cmd) {
	case GETVAL:
		return set->sems[num].val;
	case GETPID:
		return set->sems[num].pid;
	case GETNCNT:
		return count_sleepers(set, num, false);
	case GETZCNT:
		return count_sleepers(set, num, true);
	default: /* SETVAL */
		set->sems[num].val = val;
		set->sems[num].pid = ipc_pid();
		sem_undo_clear(set, num);
		set->ctime = ipc_now();
		wake_up_all(&set->wq);
		return 0;
	}
}

static long
sem_control(int cmd, struct sem_set *set, const struct kernel_semid64_ds *ds)
{
	if (!ipc_may_control(&set->perm))
		return -EPERM;
	if (cmd == IPC_SET) {
		ipc_set_perm(&set->perm, &ds->sem_perm);
		set->ctime = ipc_now();
		return 0;
	}
	sem_undo_forget_set(set);
	wake_up_all(&set->wq); /* its sleepers answer EIDRM */
	ipc_remove(&sem_ids, &set->perm);
	return 0;
}

/* The commands on a set by id (sem_ids.lock held). */
static long
sem_by_id(int id, int num, int cmd, unsigned long arg, const struct kernel_semid64_ds *ds)
{
	struct ipc_object *obj = ipc_find(&sem_ids, id);

	if (!obj)
		return -EINVAL;
	struct sem_set *set = to_set(obj);
	switch (cmd) {
	case IPC_SET:
	case IPC_RMID:
		return sem_control(cmd, set, ds);
	case GETALL:
	case SETALL:
		if (!ipc_may(obj, cmd == GETALL ? 0444 : 0222))
			return -EACCES;
		return sem_all(cmd, set, (unsigned short __user *)arg);
	default: /* Linux checks SETVAL's number first, the others' permission */
		if (cmd == SETVAL && (num < 0 || num >= set->nsems))
			return -EINVAL;
		if (!ipc_may(obj, cmd == SETVAL ? 0222 : 0444))
			return -EACCES;
		if (num < 0 || num >= set->nsems)
			return -EINVAL;
		return sem_one(cmd, set, num, (int)arg);
	}
}

static bool
known_cmd(int cmd)
{
	return (cmd >= IPC_RMID && cmd <= IPC_INFO) || (cmd >= GETPID && cmd <= SEM_STAT_ANY);
}

static long
do_semctl(int id, int num, int cmd, unsigned long arg)
{
	struct kernel_semid64_ds ds;
	long err;

	cmd &= ~IPC_64;
	if (id < 0 || !known_cmd(cmd))
		return -EINVAL;
	if (cmd == SETVAL && ((int)arg > SEMVMX || (int)arg < 0))
		return -ERANGE;
	if (cmd == IPC_SET && copy_from_user(&ds, (void __user *)arg, sizeof(ds)))
		return -EFAULT;
	mutex_lock(&sem_ids.lock);
	if (cmd == IPC_INFO || cmd == SEM_INFO)
		err = sem_info(cmd, (void __user *)arg);
	else if (cmd == IPC_STAT || cmd == SEM_STAT || cmd == SEM_STAT_ANY)
		err = sem_stat(cmd, id, (void __user *)arg);
	else
		err = sem_by_id(id, num, cmd, arg, &ds);
	mutex_unlock(&sem_ids.lock);
	return err;
}

SYSCALL4(semctl, int, id, int, num, int, cmd, unsigned long, arg)
{
	return do_semctl(id, num, cmd, arg);
}

/* ---- /proc/sysvipc/sem --------------------------------------------------------- */

static void
sem_proc_line(struct ipc_object *obj, void *arg)
{
	struct sem_set *set = to_set(obj);

	procbuf_printf(arg, "%10d %10d  %4o %10u %5u %5u %5u %5u %10ld %10ld\n", obj->key, obj->id,
		       obj->mode, (unsigned)set->nsems, obj->uid, obj->gid, obj->cuid, obj->cgid,
		       set->otime, set->ctime);
}

void
sem_proc_show(struct procbuf *b)
{
	procbuf_printf(
		b,
		"       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n");
	ipc_for_each(&sem_ids, sem_proc_line, b);
}

/*
 * sem_undo.c - SEM_UNDO: what a process would take back of its semaphore
 * operations when it exits (Linux's sem_undo and sem_undo_list).
 *
 * Each semop with SEM_UNDO adds the opposite of its operation to the
 * process's adjustment for that semaphore; exit adds the adjustments back,
 * clamped to [0, SEMVMX] as Linux's exit_sem does. Threads made with
 * CLONE_SYSVSEM share one list, which the last of them to exit applies;
 * other forks start with none. SETVAL and SETALL forget adjustments of
 * the semaphores they set, and a removed set's entries stay on their
 * lists, marked, until the list goes.
 */
#include "ipc/sem.h"
#include "kernel/process/task.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

static struct sem_undo_list *
undo_list_new(void)
{
	struct sem_undo_list *ul = kzalloc(sizeof(*ul));

	if (ul) {
		ul->refs = 1;
		list_init(&ul->undos);
	}
	return ul;
}

struct sem_undo *
sem_undo_find(struct sem_set *set)
{
	struct task *t = current();
	struct list_head *pos;

	if (!t->sysvsem && !(t->sysvsem = undo_list_new()))
		return NULL;
	list_for_each(pos, &t->sysvsem->undos) {
		struct sem_undo *un = list_entry(pos, struct sem_undo, list_link);
		if (un->semid == set->perm.id)
			return un;
	}
	struct sem_undo *un = kzalloc(sizeof(*un) + (size_t)set->nsems * sizeof(short));
	if (!un)
		return NULL;
	un->semid = set->perm.id;
	list_add_tail(&un->list_link, &t->sysvsem->undos);
	list_add_tail(&un->set_link, &set->undos);
	return un;
}

void
sem_undo_forget_set(struct sem_set *set)
{
	while (!list_empty(&set->undos)) {
		struct sem_undo *un = list_first_entry(&set->undos, struct sem_undo, set_link);
		list_del(&un->set_link);
		un->semid = -1;
	}
}

void
sem_undo_clear(struct sem_set *set, int num)
{
	struct list_head *pos;

	list_for_each(pos, &set->undos) {
		struct sem_undo *un = list_entry(pos, struct sem_undo, set_link);
		for (int i = 0; i < set->nsems; i++)
			if (num < 0 || i == num)
				un->adj[i] = 0;
	}
}

int
sem_undo_fork(struct task *child, struct task *parent, bool share)
{
	child->sysvsem = NULL;
	if (!share)
		return 0;
	if (!parent->sysvsem) {
		mutex_lock(&sem_ids.lock); /* parent's threads may be making one */
		if (!parent->sysvsem)
			parent->sysvsem = undo_list_new();
		mutex_unlock(&sem_ids.lock);
		if (!parent->sysvsem)
			return -ENOMEM;
	}
	__atomic_add_fetch(&parent->sysvsem->refs, 1, __ATOMIC_RELAXED);
	child->sysvsem = parent->sysvsem;
	return 0;
}

/* Adds un's adjustments to its set, if the set still lives. */
static void
apply_undo(struct sem_undo *un)
{
	struct ipc_object *obj = un->semid < 0 ? NULL : ipc_find(&sem_ids, un->semid);

	if (!obj)
		return;
	struct sem_set *set = to_set(obj);
	int pid = ipc_pid();
	for (int i = 0; i < set->nsems; i++) {
		if (!un->adj[i])
			continue;
		set->sems[i].val = MAX(MIN(set->sems[i].val + un->adj[i], SEMVMX), 0);
		set->sems[i].pid = pid;
	}
	list_del(&un->set_link);
	wake_up_all(&set->wq);
}

void
sem_undo_exit(struct task *t)
{
	struct sem_undo_list *ul = t->sysvsem;

	if (!ul)
		return;
	t->sysvsem = NULL;
	if (__atomic_sub_fetch(&ul->refs, 1, __ATOMIC_ACQ_REL))
		return;
	mutex_lock(&sem_ids.lock);
	while (!list_empty(&ul->undos)) {
		struct sem_undo *un = list_first_entry(&ul->undos, struct sem_undo, list_link);
		apply_undo(un);
		list_del(&un->list_link);
		kfree(un);
	}
	mutex_unlock(&sem_ids.lock);
	kfree(ul);
}

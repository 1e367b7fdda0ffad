/*
 * vfork.c - clone(CLONE_VFORK): the parent does not return until the child
 * has released the address space they share, by execve or by exiting
 * (Linux's vfork_done completion, completed in mm_release). Without it the
 * parent returns, and pops or unmaps the stack the child still runs on:
 * glibc's system() and posix_spawn rely on the wait.
 *
 * The wait is killable, as Linux's wait_for_vfork_done: only a fatal
 * signal ends it early; other signals stay pending and are handled when
 * clone returns. Parent and child each hold a reference on the shared
 * record, so that whichever leaves last frees it: a killed parent need not
 * find the child again, and a child exiting late finds the record alive.
 */
#include "kernel/process/vfork.h"
#include "kernel/process/task.h"
#include "kernel/sched/wait.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

struct vfork_done {
	struct wait_queue parent_waits;
	bool released; /* atomic: the child has left the shared memory */
	int refs;      /* atomic: the parent's and the child's */
};

static void
vfork_done_put(struct vfork_done *vd)
{
	if (__atomic_sub_fetch(&vd->refs, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(vd);
}

struct vfork_done *
vfork_prepare(struct task *child)
{
	struct vfork_done *vd = kzalloc(sizeof(*vd));

	if (!vd)
		return NULL;
	wait_queue_init(&vd->parent_waits);
	vd->refs = 2;
	child->vfork_done = vd;
	return vd;
}

void
vfork_wait(struct vfork_done *vd)
{
	WAIT_ENTRY(e);

	for (;;) {
		prepare_to_wait(&vd->parent_waits, &e);
		if (__atomic_load_n(&vd->released, __ATOMIC_ACQUIRE) || fatal_signal_pending())
			break;
		schedule();
	}
	finish_wait(&vd->parent_waits, &e);
	vfork_done_put(vd);
}

void
vfork_release(struct task *t)
{
	task_lock(t);
	struct vfork_done *vd = t->vfork_done;
	t->vfork_done = NULL;
	task_unlock(t);
	if (!vd)
		return;
	__atomic_store_n(&vd->released, true, __ATOMIC_RELEASE);
	wake_up_all(&vd->parent_waits);
	vfork_done_put(vd);
}

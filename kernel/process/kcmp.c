/*
 * kcmp.c - kcmp(2): whether two tasks share a kernel object - an open
 * file, or their address space, fd table, root and cwd, signal
 * dispositions, I/O context or System V semaphore undo list - as
 * checkpoint/restore tools ask (Linux's kernel/kcmp.c).
 *
 * The answer orders the two objects' addresses: 0 equal, 1 less, 2
 * greater. The addresses are mixed with a per-boot random key per kind
 * first, as Linux does, so that the order says nothing about where the
 * kernel keeps them. The caller must be allowed to inspect both tasks
 * (task_may_inspect, Linux's ptrace_may_access check), else EPERM.
 *
 * rewind keeps no I/O context per task: every task is as a Linux task
 * that has not made one yet, whose contexts compare equal (NULL).
 */
#include "fs/vfs.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/random.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"

enum kcmp_type {
	KCMP_FILE,
	KCMP_VM,
	KCMP_FILES,
	KCMP_FS,
	KCMP_SIGHAND,
	KCMP_IO,
	KCMP_SYSVSEM,
	KCMP_EPOLL_TFD,
	KCMP_TYPES,
};

static u64 cookies[KCMP_TYPES][2];
static bool cookies_made;
static struct spinlock cookies_lock = SPINLOCK_INIT("kcmp_cookies");

/* Linux's kcmp_ptr: the two addresses mixed with type's key, ordered. */
static long
order(const void *a, const void *b, enum kcmp_type type)
{
	spin_lock(&cookies_lock);
	if (!cookies_made) {
		get_random_bytes(cookies, sizeof(cookies));
		for (int i = 0; i < KCMP_TYPES; i++)
			cookies[i][1] |=
				1; /* odd: the multiplication keeps equal apart from unequal */
		cookies_made = true;
	}
	spin_unlock(&cookies_lock);
	u64 x = ((u64)(uintptr_t)a ^ cookies[type][0]) * cookies[type][1];
	u64 y = ((u64)(uintptr_t)b ^ cookies[type][0]) * cookies[type][1];
	return x == y ? 0 : x < y ? 1 : 2;
}

/* The object of kind type that t uses (tasks_lock held); NULL for none. */
static const void *
task_object(const struct task *t, enum kcmp_type type)
{
	switch (type) {
	case KCMP_VM:
		return t->mm;
	case KCMP_FILES:
		return t->files;
	case KCMP_FS:
		return t->fs;
	case KCMP_SIGHAND:
		return t->sighand;
	case KCMP_SYSVSEM:
		return t->sysvsem;
	default:
		return NULL; /* KCMP_IO: no I/O contexts */
	}
}

static long
compare_files(struct task *t1, struct task *t2, unsigned long fd1, unsigned long fd2,
	      u64 lock_flags)
{
	struct file *f1 = task_file_get(t1, fd1), *f2 = task_file_get(t2, fd2);

	spin_unlock_irqrestore(&tasks_lock, lock_flags);
	long ret = f1 && f2 ? order(f1, f2, KCMP_FILE) : -EBADF;
	if (f1)
		file_put(f1);
	if (f2)
		file_put(f2);
	return ret;
}

SYSCALL5(kcmp, int, pid1, int, pid2, int, type, unsigned long, idx1, unsigned long, idx2)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t1 = task_find(pid1), *t2 = task_find(pid2);
	long ret;

	if (!t1 || !t2 || t1->state == TASK_ZOMBIE || t2->state == TASK_ZOMBIE)
		ret = -ESRCH;
	else if (!task_may_inspect(t1) || !task_may_inspect(t2))
		ret = -EPERM;
	else if (type == KCMP_FILE)
		return compare_files(t1, t2, idx1, idx2, flags); /* lets go of tasks_lock */
	else if (type < KCMP_VM || type > KCMP_SYSVSEM)
		ret = -EINVAL; /* KCMP_EPOLL_TFD too: not kept */
	else
		ret = order(task_object(t1, type), task_object(t2, type), type);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

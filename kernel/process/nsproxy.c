/*
 * nsproxy.c - the record of a task's namespaces (nsproxy.h): shared on
 * clone, copied with new namespaces on clone and unshare with CLONE_NEW*,
 * changed one namespace at a time by setns (fs/nsfs.c); and unshare(2),
 * which also gives the caller its own file table, fs context or SEM_UNDO
 * list, as Linux's.
 *
 * Who may: a new namespace or joining one needs CAP_SYS_ADMIN, as Linux
 * asks it of the owning user namespace, here always the one and only.
 * The kinds rewind does not have are refused as Linux built without them
 * refuses them: EINVAL once the capability check has passed (a user
 * namespace needs none: EINVAL at once).
 */
#include "kernel/process/nsproxy.h"
#include "kernel/process/uts_namespace.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "fs/fs.h"
#include "fs/mnt_namespace.h"
#include "ipc/ipc.h"
#include "mm/kmalloc.h"
#include "mm/vm.h"
#include "uapi/errno.h"
#include "uapi/sched.h"

struct nsproxy init_nsproxy = { .refcount = 1, .uts = &init_uts_ns, .mnt = &init_mnt_ns };

/* The kinds a task may have a new one of. */
#define NS_HAVE (CLONE_NEWUTS | CLONE_NEWNS)
/* Linux's other kinds: not built here. */
#define NS_REFUSED (CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWTIME)

static u32 next_inum = 0xF0000000u; /* Linux's first dynamic proc inode number */

u32
ns_alloc_inum(void)
{
	return __atomic_fetch_add(&next_inum, 1, __ATOMIC_RELAXED);
}

struct nsproxy *
task_nsproxy(struct task *t)
{
	return t->nsproxy ? t->nsproxy : &init_nsproxy;
}

struct nsproxy *
nsproxy_get(struct nsproxy *nsp)
{
	__atomic_add_fetch(&nsp->refcount, 1, __ATOMIC_RELAXED);
	return nsp;
}

static void
nsproxy_free(struct nsproxy *nsp)
{
	uts_ns_put(nsp->uts);
	mnt_ns_put(nsp->mnt);
	kfree(nsp);
}

void
nsproxy_put(struct nsproxy *nsp)
{
	if (nsp && __atomic_sub_fetch(&nsp->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		nsproxy_free(nsp);
}

/* A record with old's namespaces, a new one of each kind flags names; NULL: no memory. */
static struct nsproxy *
nsproxy_copy(struct nsproxy *old, u64 flags)
{
	struct nsproxy *nsp = kzalloc(sizeof(*nsp));

	if (!nsp)
		return NULL;
	nsp->refcount = 1;
	nsp->uts = flags & CLONE_NEWUTS ? uts_ns_copy(old->uts) : uts_ns_get(old->uts);
	nsp->mnt = flags & CLONE_NEWNS ? mnt_ns_copy(old->mnt) : mnt_ns_get(old->mnt);
	if (!nsp->uts || !nsp->mnt) {
		nsproxy_put(nsp);
		return NULL;
	}
	return nsp;
}

/* The namespaces flags ask for in place of old's: 0 and *out NULL when none, or -errno. */
static int
new_namespaces(struct nsproxy *old, u64 flags, struct nsproxy **out)
{
	*out = NULL;
	if (!(flags & (NS_HAVE | NS_REFUSED)))
		return 0;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (flags & NS_REFUSED)
		return -EINVAL;
	*out = nsproxy_copy(old, flags);
	return *out ? 0 : -ENOMEM;
}

int
nsproxy_for_clone(struct task *parent, u64 flags, struct nsproxy **out)
{
	struct nsproxy *old = task_nsproxy(parent);
	int err = new_namespaces(old, flags, out);

	if (!err && !*out)
		*out = nsproxy_get(old);
	return err;
}

/* t's namespaces become nsp (whose reference t takes over); the old ones are dropped. */
static void
switch_nsproxy(struct task *t, struct nsproxy *nsp)
{
	u64 irq = spin_lock_irqsave(&tasks_lock);
	struct nsproxy *old = t->nsproxy;

	t->nsproxy = nsp;
	spin_unlock_irqrestore(&tasks_lock, irq);
	nsproxy_put(old);
}

struct ns_common *
task_ns_get(int pid, const struct ns_ops *kind)
{
	u64 irq = spin_lock_irqsave(&tasks_lock);
	struct task *t = task_find(pid);
	struct ns_common *ns = NULL;

	if (t && t->nsproxy)
		ns = kind->get(t->nsproxy);
	spin_unlock_irqrestore(&tasks_lock, irq);
	return ns;
}

int
nsproxy_join(struct ns_common *ns)
{
	struct nsproxy *nsp;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	nsp = nsproxy_copy(task_nsproxy(current()), 0);
	if (!nsp)
		return -ENOMEM;
	int err = ns->ops->enter ? ns->ops->enter(ns) : 0;
	if (err) {
		nsproxy_put(nsp);
		return err;
	}
	__atomic_add_fetch(&ns->refcount, 1, __ATOMIC_RELAXED);
	ns->ops->install(nsp, ns);
	switch_nsproxy(current(), nsp);
	return 0;
}

/* ---- unshare(2) ------------------------------------------------------------------ */

#define UNSHARE_FLAGS                                                                     \
	(CLONE_THREAD | CLONE_FS | CLONE_NEWNS | CLONE_SIGHAND | CLONE_VM | CLONE_FILES | \
	 CLONE_SYSVSEM | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUSER |     \
	 CLONE_NEWPID | CLONE_NEWCGROUP | CLONE_NEWTIME)

/*
 * Linux's rules: what a flag implies, then that CLONE_THREAD, CLONE_SIGHAND
 * and CLONE_VM can be "unshared" only by a task that shares none of them.
 */
static long
unshare_check(u64 *flagsp)
{
	u64 flags = *flagsp;
	struct task *t = current();

	if (flags & CLONE_NEWUSER)
		flags |= CLONE_THREAD | CLONE_FS;
	if (flags & CLONE_VM)
		flags |= CLONE_SIGHAND;
	if (flags & CLONE_SIGHAND)
		flags |= CLONE_THREAD;
	if (flags & CLONE_NEWNS)
		flags |= CLONE_FS;
	*flagsp = flags;
	if (flags & ~(u64)UNSHARE_FLAGS)
		return -EINVAL;
	if ((flags & (CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)) &&
	    READ_ONCE(t->group_leader->live_threads) > 1)
		return -EINVAL;
	if ((flags & (CLONE_SIGHAND | CLONE_VM)) && signal_handlers_shared(t))
		return -EINVAL;
	if ((flags & CLONE_VM) && READ_ONCE(t->mm->users) > 1)
		return -EINVAL;
	if (flags & CLONE_NEWUSER)
		return -EINVAL; /* no user namespaces: Linux without CONFIG_USER_NS */
	return 0;
}

SYSCALL1(unshare, u64, flags)
{
	struct nsproxy *nsp;
	long err = unshare_check(&flags);

	if (err)
		return err;
	err = new_namespaces(task_nsproxy(current()), flags, &nsp);
	if (!err && (flags & CLONE_FS))
		err = fs_context_unshare();
	if (!err && (flags & CLONE_FILES))
		err = files_unshare();
	if (err) {
		nsproxy_put(nsp);
		return err;
	}
	/* A new IPC namespace cannot reach the old one's semaphores: the undo list goes too. */
	if (flags & (CLONE_SYSVSEM | CLONE_NEWIPC))
		sem_undo_exit(current());
	if (nsp)
		switch_nsproxy(current(), nsp);
	return 0;
}

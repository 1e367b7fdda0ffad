/*
 * uts_namespace.c - UTS namespaces (uts_namespace.h): their life, and
 * sethostname(2) and setdomainname(2), which change the caller's
 * namespace's names. A new namespace starts with a copy of its parent's
 * names, as Linux's; setting one is CAP_SYS_ADMIN's, checked before the
 * length and the buffer, in Linux's order (EPERM, EINVAL, EFAULT).
 */
#include "kernel/process/uts_namespace.h"
#include "kernel/process/cred.h"
#include "kernel/process/task.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"
#include "uapi/sched.h"

struct uts_namespace init_uts_ns = {
	.ns = { .refcount = 1, .inum = PROC_UTS_INIT_INO, .ops = &uts_ns_ops },
	.lock = SPINLOCK_INIT("uts"),
	.nodename = "rewind",
	.domainname = "(none)",
};

struct uts_namespace *
uts_ns_get(struct uts_namespace *uts)
{
	__atomic_add_fetch(&uts->ns.refcount, 1, __ATOMIC_RELAXED);
	return uts;
}

void
uts_ns_put(struct uts_namespace *uts)
{
	if (uts && __atomic_sub_fetch(&uts->ns.refcount, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(uts);
}

struct uts_namespace *
uts_ns_copy(struct uts_namespace *old)
{
	struct uts_namespace *uts = kzalloc(sizeof(*uts));

	if (!uts)
		return NULL;
	uts->ns = (struct ns_common){ .refcount = 1, .inum = ns_alloc_inum(), .ops = &uts_ns_ops };
	spin_lock_init(&uts->lock, "uts");
	spin_lock(&old->lock);
	memcpy(uts->nodename, old->nodename, sizeof(uts->nodename));
	memcpy(uts->domainname, old->domainname, sizeof(uts->domainname));
	spin_unlock(&old->lock);
	return uts;
}

static struct uts_namespace *
current_uts(void)
{
	return task_nsproxy(current())->uts;
}

void
uts_read_names(struct kernel_utsname *u)
{
	struct uts_namespace *uts = current_uts();

	spin_lock(&uts->lock);
	memcpy(u->nodename, uts->nodename, sizeof(u->nodename));
	memcpy(u->domainname, uts->domainname, sizeof(u->domainname));
	spin_unlock(&uts->lock);
}

void
uts_set_name(enum uts_name which, const char *name, size_t len)
{
	struct uts_namespace *uts = current_uts();
	char *field = which == UTS_HOSTNAME ? uts->nodename : uts->domainname;

	spin_lock(&uts->lock);
	memcpy(field, name, len);
	memset(field + len, 0, __NEW_UTS_LEN + 1 - len);
	spin_unlock(&uts->lock);
}

static long
set_name_from_user(enum uts_name which, const char __user *uname, int len)
{
	char name[__NEW_UTS_LEN];

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len < 0 || len > __NEW_UTS_LEN)
		return -EINVAL;
	if (copy_from_user(name, uname, (size_t)len))
		return -EFAULT;
	uts_set_name(which, name, (size_t)len);
	return 0;
}

SYSCALL2(sethostname, const char __user *, name, int, len)
{
	return set_name_from_user(UTS_HOSTNAME, name, len);
}

SYSCALL2(setdomainname, const char __user *, name, int, len)
{
	return set_name_from_user(UTS_DOMAINNAME, name, len);
}

/* ---- what nsfs and setns use ------------------------------------------------------ */

static struct ns_common *
uts_get(struct nsproxy *nsp)
{
	return &uts_ns_get(nsp->uts)->ns;
}

static void
uts_put(struct ns_common *ns)
{
	uts_ns_put(container_of(ns, struct uts_namespace, ns));
}

static void
uts_install(struct nsproxy *nsp, struct ns_common *ns)
{
	uts_ns_put(nsp->uts);
	nsp->uts = container_of(ns, struct uts_namespace, ns);
}

const struct ns_ops uts_ns_ops = {
	.name = "uts",
	.type = CLONE_NEWUTS,
	.get = uts_get,
	.put = uts_put,
	.install = uts_install,
};

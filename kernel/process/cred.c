/*
 * cred.c - the user-id calls; see cred.h. The ids are the process's (its
 * leader's), as musl makes them by applying a change to every thread.
 * Changes happen under tasks_lock, which prlimit64 and fork hold to read
 * another process's ids.
 */
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "uapi/capability.h"
#include "uapi/errno.h"

#define NO_CHANGE ((u32)-1) /* setreuid/setresuid's "leave this one" */

/* Whether an unprivileged process may take id: it must already hold it as one of its three. */
static bool
holds_id(const struct task *leader, u32 id)
{
	return id == leader->uid || id == leader->euid || id == leader->suid;
}

/* Applies (real, effective, saved), each NO_CHANGE to keep it; tasks_lock held. */
static void
set_ids_locked(struct task *leader, u32 uid, u32 euid, u32 suid)
{
	if (uid != NO_CHANGE)
		leader->uid = uid;
	if (euid != NO_CHANGE && euid != leader->euid) {
		leader->euid = euid;
		WRITE_ONCE(current()->pdeath_signal, 0); /* Linux's commit_creds: a new identity */
	}
	if (suid != NO_CHANGE)
		leader->suid = suid;
}

SYSCALL3(setresuid, u32, uid, u32, euid, u32, suid)
{
	struct task *leader = current()->group_leader;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	bool allowed = leader->euid == 0 || ((uid == NO_CHANGE || holds_id(leader, uid)) &&
					     (euid == NO_CHANGE || holds_id(leader, euid)) &&
					     (suid == NO_CHANGE || holds_id(leader, suid)));

	if (allowed)
		set_ids_locked(leader, uid, euid, suid);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return allowed ? 0 : -EPERM;
}

/*
 * Root sets all three; anyone else only the effective id, to its real or
 * saved one (Linux's __sys_setuid).
 */
SYSCALL1(setuid, u32, uid)
{
	struct task *leader = current()->group_leader;
	long ret = 0;

	if (uid == NO_CHANGE)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	if (leader->euid == 0)
		set_ids_locked(leader, uid, uid, uid);
	else if (uid == leader->uid || uid == leader->suid)
		set_ids_locked(leader, NO_CHANGE, uid, NO_CHANGE);
	else
		ret = -EPERM;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

/*
 * The real id may become the effective one, the effective any of the
 * three; setting the real id, or an effective id other than the old real
 * one, also makes the saved id the new effective one (Linux's
 * __sys_setreuid).
 */
SYSCALL2(setreuid, u32, uid, u32, euid)
{
	struct task *leader = current()->group_leader;
	long ret = -EPERM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	u32 old_uid = leader->uid;

	if (leader->euid == 0 || ((uid == NO_CHANGE || uid == leader->uid || uid == leader->euid) &&
				  (euid == NO_CHANGE || holds_id(leader, euid)))) {
		set_ids_locked(leader, uid, euid, NO_CHANGE);
		if (uid != NO_CHANGE || (euid != NO_CHANGE && euid != old_uid))
			leader->suid = leader->euid;
		ret = 0;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

SYSCALL3(getresuid, u32 __user *, uid, u32 __user *, euid, u32 __user *, suid)
{
	struct task *leader = current()->group_leader;
	u32 ids[3] = { READ_ONCE(leader->uid), READ_ONCE(leader->euid), READ_ONCE(leader->suid) };

	if (copy_to_user(uid, &ids[0], sizeof(u32)) || copy_to_user(euid, &ids[1], sizeof(u32)) ||
	    copy_to_user(suid, &ids[2], sizeof(u32)))
		return -EFAULT;
	return 0;
}

SYSCALL0(getuid)
{
	return READ_ONCE(current()->group_leader->uid);
}

SYSCALL0(geteuid)
{
	return READ_ONCE(current()->group_leader->euid);
}

/*
 * capget: the capability sets as Linux's root has them (every capability
 * permitted and effective, none inheritable) for a process whose
 * effective uid is 0, and none otherwise - the model this file keeps
 * (privileged()). An unknown version gets the preferred one written back
 * and EINVAL; a NULL data pointer then only asks for it. capset is not
 * implemented: rewind cannot drop single capabilities.
 */
SYSCALL2(capget, struct kernel_cap_header __user *, uhdr, struct kernel_cap_data __user *, udata)
{
	struct kernel_cap_header hdr;
	unsigned version = _LINUX_CAPABILITY_VERSION_3;

	if (copy_from_user(&hdr, uhdr, sizeof(hdr)))
		return -EFAULT;
	if (hdr.version != _LINUX_CAPABILITY_VERSION_1 &&
	    hdr.version != _LINUX_CAPABILITY_VERSION_2 &&
	    hdr.version != _LINUX_CAPABILITY_VERSION_3)
		return copy_to_user(&uhdr->version, &version, sizeof(version)) ? -EFAULT : -EINVAL;
	if (!udata)
		return 0;
	if (hdr.pid < 0)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = hdr.pid ? task_find(hdr.pid) : current();
	bool root = t && READ_ONCE(t->group_leader->euid) == 0;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	u64 caps = root ? (1ul << (CAP_LAST_CAP + 1)) - 1 : 0;
	struct kernel_cap_data data[2] = { { (u32)caps, (u32)caps, 0 },
					   { (u32)(caps >> 32), (u32)(caps >> 32), 0 } };
	size_t n = hdr.version == _LINUX_CAPABILITY_VERSION_1 ? 1 : 2;
	return copy_to_user(udata, data, n * sizeof(data[0])) ? -EFAULT : 0;
}

/*
 * cred.c - the user-id and group-id calls; see cred.h. The ids are the
 * process's (its leader's), as musl and glibc make them by applying a
 * change to every thread. The rules are the same for both kinds of id
 * (Linux's kernel/sys.c), so each call is one function over an id_kind:
 * the process's uids, which CAP_SETUID overrides and whose changes move
 * the capabilities (capability.c), or its gids, which CAP_SETGID does.
 * Changes happen under tasks_lock, which prlimit64 and fork hold to read
 * another process's ids. The checks other calls make against another
 * process's ids (same owner, may inspect) are here too.
 */
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"

#define NO_CHANGE ((u32)-1) /* setre*id/setres*id's "leave this one" */

/* The ids a call changes, and the capability that lets it change them to any value. */
struct id_kind {
	struct id_set *ids;
	int cap;
};

static struct id_kind
user_ids(void)
{
	return (struct id_kind){ &current()->group_leader->uids, CAP_SETUID };
}

static struct id_kind
group_ids(void)
{
	return (struct id_kind){ &current()->group_leader->gids, CAP_SETGID };
}

/* The user ids changed from old (tasks_lock held): the capabilities follow. */
static void
ids_changed(const struct id_kind *kind, const struct id_set *old)
{
	if (kind->cap == CAP_SETUID)
		caps_uids_changed(&current()->group_leader->caps, old, kind->ids);
}

/* Whether an unprivileged process may take id: it must already hold it as one of its three. */
static bool
holds_id(const struct id_set *ids, u32 id)
{
	return id == ids->real || id == ids->effective || id == ids->saved;
}

/* Applies (real, effective, saved), each NO_CHANGE to keep it; tasks_lock held. */
static void
set_ids_locked(const struct id_kind *kind, u32 real, u32 effective, u32 saved)
{
	struct id_set *ids = kind->ids, old = *ids;

	if (real != NO_CHANGE)
		ids->real = real;
	if (effective != NO_CHANGE && effective != ids->effective) {
		ids->effective = effective;
		/* Linux's commit_creds: a new identity keeps no parent-death signal, and no dumps. */
		WRITE_ONCE(current()->pdeath_signal, 0);
		WRITE_ONCE(current()->group_leader->not_dumpable, true);
	}
	if (saved != NO_CHANGE)
		ids->saved = saved;
	ids->fs = ids->effective; /* every set*id call resets it, as Linux's */
	ids_changed(kind, &old);
}

/* Root sets any of the three; anyone else only to ids it already holds (Linux's __sys_setresuid). */
static long
set_res_ids(struct id_kind kind, u32 real, u32 effective, u32 saved)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	const struct id_set *ids = kind.ids;
	bool allowed = capable(kind.cap) || ((real == NO_CHANGE || holds_id(ids, real)) &&
					     (effective == NO_CHANGE || holds_id(ids, effective)) &&
					     (saved == NO_CHANGE || holds_id(ids, saved)));

	if (allowed)
		set_ids_locked(&kind, real, effective, saved);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return allowed ? 0 : -EPERM;
}

/*
 * Root sets all three; anyone else only the effective id, to its real or
 * saved one (Linux's __sys_setuid and __sys_setgid).
 */
static long
set_one_id(struct id_kind kind, u32 id)
{
	long ret = 0;

	if (id == NO_CHANGE)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	if (capable(kind.cap))
		set_ids_locked(&kind, id, id, id);
	else if (id == kind.ids->real || id == kind.ids->saved)
		set_ids_locked(&kind, NO_CHANGE, id, NO_CHANGE);
	else
		ret = -EPERM;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

/*
 * The real id may become the effective one, the effective any of the
 * three; setting the real id, or an effective id other than the old real
 * one, also makes the saved id the new effective one (Linux's
 * __sys_setreuid and __sys_setregid).
 */
static long
set_re_ids(struct id_kind kind, u32 real, u32 effective)
{
	long ret = -EPERM;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct id_set *ids = kind.ids;
	u32 old_real = ids->real;

	if (capable(kind.cap) ||
	    ((real == NO_CHANGE || real == ids->real || real == ids->effective) &&
	     (effective == NO_CHANGE || holds_id(ids, effective)))) {
		u32 new_saved =
			real != NO_CHANGE || (effective != NO_CHANGE && effective != old_real)
				? (effective != NO_CHANGE ? effective : ids->effective)
				: NO_CHANGE;
		set_ids_locked(&kind, real, effective, new_saved);
		ret = 0;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

static long
get_res_ids(struct id_kind kind, u32 __user *real, u32 __user *effective, u32 __user *saved)
{
	const struct id_set *ids = kind.ids;
	u32 copy[3] = { READ_ONCE(ids->real), READ_ONCE(ids->effective), READ_ONCE(ids->saved) };

	if (copy_to_user(real, &copy[0], sizeof(u32)) ||
	    copy_to_user(effective, &copy[1], sizeof(u32)) ||
	    copy_to_user(saved, &copy[2], sizeof(u32)))
		return -EFAULT;
	return 0;
}

SYSCALL3(setresuid, u32, uid, u32, euid, u32, suid)
{
	return set_res_ids(user_ids(), uid, euid, suid);
}

SYSCALL3(setresgid, u32, gid, u32, egid, u32, sgid)
{
	return set_res_ids(group_ids(), gid, egid, sgid);
}

SYSCALL1(setuid, u32, uid)
{
	return set_one_id(user_ids(), uid);
}

SYSCALL1(setgid, u32, gid)
{
	return set_one_id(group_ids(), gid);
}

SYSCALL2(setreuid, u32, uid, u32, euid)
{
	return set_re_ids(user_ids(), uid, euid);
}

SYSCALL2(setregid, u32, gid, u32, egid)
{
	return set_re_ids(group_ids(), gid, egid);
}

/*
 * setfsuid and setfsgid: the file-system id becomes id if the caller has
 * CAP_SETUID (CAP_SETGID) or already holds id as one of its four; -1 (or
 * any refused id) changes nothing. The old id is the answer either way,
 * so that setfsuid(-1) asks it (Linux's __sys_setfsuid). An fsuid that
 * leaves or becomes 0 takes the file-system capabilities with it.
 */
static long
set_fs_id(struct id_kind kind, u32 id)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct id_set *ids = kind.ids, old_ids = *ids;
	u32 old = ids->fs;

	if (id != NO_CHANGE && (capable(kind.cap) || holds_id(ids, id) || id == old)) {
		ids->fs = id;
		ids_changed(&kind, &old_ids);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return old;
}

SYSCALL1(setfsuid, u32, uid)
{
	return set_fs_id(user_ids(), uid);
}

SYSCALL1(setfsgid, u32, gid)
{
	return set_fs_id(group_ids(), gid);
}

SYSCALL3(getresuid, u32 __user *, uid, u32 __user *, euid, u32 __user *, suid)
{
	return get_res_ids(user_ids(), uid, euid, suid);
}

SYSCALL3(getresgid, u32 __user *, gid, u32 __user *, egid, u32 __user *, sgid)
{
	return get_res_ids(group_ids(), gid, egid, sgid);
}

SYSCALL0(getuid)
{
	return READ_ONCE(user_ids().ids->real);
}

SYSCALL0(geteuid)
{
	return READ_ONCE(user_ids().ids->effective);
}

SYSCALL0(getgid)
{
	return READ_ONCE(group_ids().ids->real);
}

SYSCALL0(getegid)
{
	return READ_ONCE(group_ids().ids->effective);
}

void
cred_exec(struct task *leader, bool unreadable)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);

	leader->not_dumpable = unreadable || leader->uids.effective != leader->uids.real ||
			       leader->gids.effective != leader->gids.real;
	caps_exec(leader);
	spin_unlock_irqrestore(&tasks_lock, flags);
}

bool
task_same_owner(const struct task *t)
{
	const struct task *leader = t->group_leader ? t->group_leader : t;
	u32 me = current_uids().effective;

	return capable(CAP_SYS_NICE) || me == leader->uids.effective || me == leader->uids.real;
}

bool
task_may_inspect(const struct task *t)
{
	const struct task *leader = t->group_leader ? t->group_leader : t;

	if (capable(CAP_SYS_PTRACE) || t->tgid == current()->tgid)
		return true;
	return all_ids_are(&leader->uids, current_fsuid()) &&
	       all_ids_are(&leader->gids, current_fsgid()) &&
	       (!leader->mm || !leader->not_dumpable);
}

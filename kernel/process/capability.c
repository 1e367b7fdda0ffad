/*
 * capability.c - a process's capabilities (capabilities(7)): capget and
 * capset, the rules by which uid changes and execve move the five sets,
 * and prctl's capability options. See cred.h for where they are asked.
 *
 * The sets follow Linux's kernel/capability.c and security/commoncap.c
 * without file capabilities (the security.capability attribute is not
 * read at execve) and without user namespaces: a program gains
 * capabilities only by being root's, or through its ambient set. The
 * sets live in the process's leader and change under tasks_lock.
 */
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"
#include "uapi/prctl.h"

/* The capabilities an fsuid of 0 stands for (Linux's CAP_FS_SET with CAP_LINUX_IMMUTABLE). */
#define CAP_FS_MASK                                                                \
	(1ul << CAP_CHOWN | 1ul << CAP_DAC_OVERRIDE | 1ul << CAP_DAC_READ_SEARCH | \
	 1ul << CAP_FOWNER | 1ul << CAP_FSETID | 1ul << CAP_LINUX_IMMUTABLE |      \
	 1ul << CAP_MAC_OVERRIDE | 1ul << CAP_MKNOD)

static struct cap_sets *
my_caps(void)
{
	return &current()->group_leader->caps;
}

static bool
cap_valid(unsigned long cap)
{
	return cap <= CAP_LAST_CAP;
}

static bool
is_subset(u64 a, u64 b)
{
	return !(a & ~b);
}

void
caps_set_root(struct cap_sets *caps)
{
	*caps = (struct cap_sets){ .effective = CAP_FULL_SET,
				   .permitted = CAP_FULL_SET,
				   .bounding = CAP_FULL_SET };
}

static bool
any_id_is_root(const struct id_set *ids)
{
	return ids->real == 0 || ids->effective == 0 || ids->saved == 0;
}

/*
 * Leaving uid 0 altogether empties the permitted and effective sets
 * (unless SECBIT_KEEP_CAPS) and the ambient one; an effective uid leaving
 * 0 empties the effective set, one becoming 0 makes it the permitted set;
 * an fsuid leaving 0 drops the file-system capabilities, one becoming 0
 * takes back those permitted (Linux's cap_task_fix_setuid).
 */
void
caps_uids_changed(struct cap_sets *caps, const struct id_set *old, const struct id_set *new)
{
	if (!(caps->securebits & SECBIT_NO_SETUID_FIXUP)) {
		if (any_id_is_root(old) && !any_id_is_root(new)) {
			if (!(caps->securebits & SECBIT_KEEP_CAPS))
				caps->permitted = caps->effective = 0;
			caps->ambient = 0;
		}
		if (old->effective == 0 && new->effective != 0)
			caps->effective = 0;
		if (old->effective != 0 && new->effective == 0)
			caps->effective = caps->permitted;
	}
	if (old->fs == 0 && new->fs != 0)
		caps->effective &= ~CAP_FS_MASK;
	if (old->fs != 0 && new->fs == 0)
		caps->effective |= caps->permitted & CAP_FS_MASK;
}

/*
 * Linux's cap_bprm_creds_from_file for a file without capabilities: a
 * program that is not set-user-ID here, since rewind has no such bit, so
 * only effective ids the caller set beforehand make it "setid" and cost
 * it the ambient set.
 */
void
caps_exec(struct task *leader)
{
	struct cap_sets *caps = &leader->caps;
	const struct id_set *uids = &leader->uids, *gids = &leader->gids;
	bool setid = uids->effective != uids->real || gids->effective != gids->real;
	bool root =
		!(caps->securebits & SECBIT_NOROOT) && (uids->effective == 0 || uids->real == 0);
	u64 permitted = root ? caps->bounding | caps->inheritable : 0;

	if (setid)
		caps->ambient = 0;
	caps->permitted = permitted | caps->ambient;
	caps->effective = root && uids->effective == 0 ? caps->permitted : caps->ambient;
	caps->securebits &= ~SECBIT_KEEP_CAPS;
}

/*
 * The header's version: how many 32-bit data elements it moves (1 for
 * version 1, 2 for versions 2 and 3), or -EINVAL with the preferred
 * version written back (Linux's cap_validate_magic).
 */
static int
cap_header_words(struct kernel_cap_header __user *uhdr, struct kernel_cap_header *hdr)
{
	unsigned preferred = _LINUX_CAPABILITY_VERSION_3;

	if (copy_from_user(hdr, uhdr, sizeof(*hdr)))
		return -EFAULT;
	switch (hdr->version) {
	case _LINUX_CAPABILITY_VERSION_1:
		return 1;
	case _LINUX_CAPABILITY_VERSION_2:
	case _LINUX_CAPABILITY_VERSION_3:
		return 2;
	default:
		return copy_to_user(&uhdr->version, &preferred, sizeof(preferred)) ? -EFAULT
										   : -EINVAL;
	}
}

/*
 * capget: the sets of the process hdr.pid names (0: the caller). A NULL
 * data pointer only asks for the version: it answers 0 even when the
 * version was wrong and has been written back, as Linux does.
 */
SYSCALL2(capget, struct kernel_cap_header __user *, uhdr, struct kernel_cap_data __user *, udata)
{
	struct kernel_cap_header hdr;
	int words = cap_header_words(uhdr, &hdr);

	if (!udata)
		return words == -EINVAL || words > 0 ? 0 : words;
	if (words < 0)
		return words;
	if (hdr.pid < 0)
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = hdr.pid ? task_find(hdr.pid) : current();
	struct cap_sets caps = { 0 };
	if (t && t->group_leader)
		caps = t->group_leader->caps;
	else if (t)
		caps_set_root(&caps); /* a kernel thread: all of them, as Linux's */
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	struct kernel_cap_data data[2];
	for (int i = 0; i < 2; i++)
		data[i] = (struct kernel_cap_data){ (u32)(caps.effective >> (32 * i)),
						    (u32)(caps.permitted >> (32 * i)),
						    (u32)(caps.inheritable >> (32 * i)) };
	return copy_to_user(udata, data, (size_t)words * sizeof(data[0])) ? -EFAULT : 0;
}

/*
 * Linux's cap_capset: the new permitted set within the old one, the
 * effective within the new permitted, the inheritable within the old
 * inheritable and bounding sets and, without CAP_SETPCAP, within the old
 * inheritable and permitted ones. The ambient set keeps only what stays
 * both permitted and inheritable. tasks_lock held.
 */
static long
caps_set_locked(struct cap_sets *caps, u64 effective, u64 permitted, u64 inheritable)
{
	bool setpcap = caps->effective >> CAP_SETPCAP & 1;

	if (!setpcap && !is_subset(inheritable, caps->inheritable | caps->permitted))
		return -EPERM;
	if (!is_subset(inheritable, caps->inheritable | caps->bounding) ||
	    !is_subset(permitted, caps->permitted) || !is_subset(effective, permitted))
		return -EPERM;
	caps->effective = effective;
	caps->permitted = permitted;
	caps->inheritable = inheritable;
	caps->ambient &= permitted & inheritable;
	return 0;
}

/* capset: the caller's own sets only (hdr.pid 0 or its own pid, else EPERM); version 1 sets the low 32. */
SYSCALL2(capset, struct kernel_cap_header __user *, uhdr, const struct kernel_cap_data __user *,
	 udata)
{
	struct kernel_cap_header hdr;
	struct kernel_cap_data data[2] = { 0 };
	int words = cap_header_words(uhdr, &hdr);

	if (words < 0)
		return words;
	if (hdr.pid != 0 && hdr.pid != current()->tgid)
		return -EPERM;
	if (copy_from_user(data, udata, (size_t)words * sizeof(data[0])))
		return -EFAULT;
	u64 effective = (u64)data[1].effective << 32 | data[0].effective;
	u64 permitted = (u64)data[1].permitted << 32 | data[0].permitted;
	u64 inheritable = (u64)data[1].inheritable << 32 | data[0].inheritable;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long err = caps_set_locked(my_caps(), effective & CAP_FULL_SET, permitted & CAP_FULL_SET,
				   inheritable & CAP_FULL_SET);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}

/* PR_SET_SECUREBITS: CAP_SETPCAP, no unknown bit, no locked bit changed or unlocked. */
static long
set_securebits_locked(struct cap_sets *caps, unsigned long bits)
{
	u32 old = caps->securebits;

	if (((old & SECURE_ALL_LOCKS) >> 1 & (old ^ bits)) || (old & SECURE_ALL_LOCKS & ~bits) ||
	    (bits & ~(unsigned long)(SECURE_ALL_LOCKS | SECURE_ALL_BITS)) ||
	    !(caps->effective >> CAP_SETPCAP & 1))
		return -EPERM;
	caps->securebits = (u32)bits;
	return 0;
}

static long
set_keepcaps_locked(struct cap_sets *caps, unsigned long keep)
{
	if (keep > 1)
		return -EINVAL;
	if (caps->securebits & SECBIT_KEEP_CAPS_LOCKED)
		return -EPERM;
	caps->securebits =
		keep ? caps->securebits | SECBIT_KEEP_CAPS : caps->securebits & ~SECBIT_KEEP_CAPS;
	return 0;
}

/* PR_CAP_AMBIENT's four operations (Linux's cap_task_prctl). */
static long
ambient_locked(struct cap_sets *caps, unsigned long op, unsigned long cap, unsigned long arg4,
	       unsigned long arg5)
{
	if (op == PR_CAP_AMBIENT_CLEAR_ALL) {
		if (cap || arg4 || arg5)
			return -EINVAL;
		caps->ambient = 0;
		return 0;
	}
	if (arg4 || arg5 || !cap_valid(cap))
		return -EINVAL;
	u64 bit = 1ul << cap;
	switch (op) {
	case PR_CAP_AMBIENT_IS_SET:
		return !!(caps->ambient & bit);
	case PR_CAP_AMBIENT_RAISE:
		if (!(caps->permitted & caps->inheritable & bit) ||
		    (caps->securebits & SECBIT_NO_CAP_AMBIENT_RAISE))
			return -EPERM;
		caps->ambient |= bit;
		return 0;
	case PR_CAP_AMBIENT_LOWER:
		caps->ambient &= ~bit;
		return 0;
	default:
		return -EINVAL;
	}
}

static long
caps_prctl_locked(struct cap_sets *caps, int option, unsigned long arg2, unsigned long arg3,
		  unsigned long arg4, unsigned long arg5)
{
	switch (option) {
	case PR_CAPBSET_READ:
		return cap_valid(arg2) ? (long)(caps->bounding >> arg2 & 1) : -EINVAL;
	case PR_CAPBSET_DROP:
		if (!(caps->effective >> CAP_SETPCAP & 1))
			return -EPERM;
		if (!cap_valid(arg2))
			return -EINVAL;
		caps->bounding &= ~(1ul << arg2);
		return 0;
	case PR_GET_KEEPCAPS:
		return !!(caps->securebits & SECBIT_KEEP_CAPS);
	case PR_SET_KEEPCAPS:
		return set_keepcaps_locked(caps, arg2);
	case PR_GET_SECUREBITS:
		return caps->securebits;
	case PR_SET_SECUREBITS:
		return set_securebits_locked(caps, arg2);
	case PR_CAP_AMBIENT:
		return ambient_locked(caps, arg2, arg3, arg4, arg5);
	default:
		return -EINVAL;
	}
}

long
caps_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	   unsigned long arg5)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	long ret = caps_prctl_locked(my_caps(), option, arg2, arg3, arg4, arg5);

	spin_unlock_irqrestore(&tasks_lock, flags);
	return ret;
}

/*
 * groups.c - a process's supplementary groups (Linux's group_info):
 * setgroups and getgroups, and in_group_p, which every permission check
 * asks. The list is its leader's, shared by reference between the
 * processes fork makes and kept across execve; setgroups puts a new one
 * in its place, so a reader holding the old list never sees it change.
 * NULL is the empty list, which the first process has (as the first
 * process of a Linux initramfs). Sorted, as Linux keeps it, so getgroups
 * answers in that order and a membership test is a binary search.
 */
#include "kernel/process/cred.h"
#include "kernel/syscall/syscall.h"
#include "mm/kmalloc.h"
#include "uapi/errno.h"

#define NGROUPS_MAX 65536 /* Linux's limit on supplementary groups */

struct group_list {
	int refs;
	int count;
	u32 gids[];
};

struct group_list *
group_list_get(struct group_list *groups)
{
	if (groups)
		__atomic_add_fetch(&groups->refs, 1, __ATOMIC_RELAXED);
	return groups;
}

void
group_list_put(struct group_list *groups)
{
	if (groups && __atomic_sub_fetch(&groups->refs, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(groups);
}

const u32 *
group_list_ids(const struct group_list *groups, int *count)
{
	*count = groups ? groups->count : 0;
	return groups ? groups->gids : NULL;
}

/* Shell sort: a setgroups of 65536 ids stays well short of quadratic without a library sort. */
static void
sort_gids(u32 *gids, int count)
{
	for (int gap = count / 2; gap > 0; gap = gap == 2 ? 1 : gap * 5 / 11) {
		for (int i = gap; i < count; i++) {
			u32 gid = gids[i];
			int j = i;
			for (; j >= gap && gids[j - gap] > gid; j -= gap)
				gids[j] = gids[j - gap];
			gids[j] = gid;
		}
	}
}

static bool
list_has(const struct group_list *groups, u32 gid)
{
	int low = 0, high = groups ? groups->count : 0;

	while (low < high) {
		int mid = low + (high - low) / 2;
		if (groups->gids[mid] == gid)
			return true;
		if (groups->gids[mid] < gid)
			low = mid + 1;
		else
			high = mid;
	}
	return false;
}

bool
in_supplementary_groups(u32 gid)
{
	struct task *leader = current()->group_leader;
	bool found;

	if (!leader || !READ_ONCE(leader->groups))
		return false; /* the common case costs no lock */
	u64 flags = spin_lock_irqsave(&tasks_lock);
	found = list_has(leader->groups, gid);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return found;
}

bool
in_group_p(u32 gid)
{
	return gid == current_fsgid() || in_supplementary_groups(gid);
}

/* The current process's list, with a reference the caller puts. */
static struct group_list *
current_groups(void)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct group_list *groups = group_list_get(current()->group_leader->groups);

	spin_unlock_irqrestore(&tasks_lock, flags);
	return groups;
}

/* size 0 asks only for the count; a smaller buffer than the list is EINVAL. */
SYSCALL2(getgroups, int, size, u32 __user *, list)
{
	struct group_list *groups;
	long ret;

	if (size < 0)
		return -EINVAL;
	groups = current_groups();
	ret = groups ? groups->count : 0;
	if (size && ret > size)
		ret = -EINVAL;
	else if (size && ret && copy_to_user(list, groups->gids, (size_t)ret * sizeof(u32)))
		ret = -EFAULT;
	group_list_put(groups);
	return ret;
}

/* The user's list, sorted; *out NULL for an empty one. */
static long
copy_group_list(long size, const u32 __user *list, struct group_list **out)
{
	struct group_list *groups;

	*out = NULL;
	if (size == 0)
		return 0;
	groups = kmalloc(sizeof(*groups) + (size_t)size * sizeof(u32));
	if (!groups)
		return -ENOMEM;
	if (copy_from_user(groups->gids, list, (size_t)size * sizeof(u32))) {
		kfree(groups);
		return -EFAULT;
	}
	groups->refs = 1;
	groups->count = (int)size;
	sort_gids(groups->gids, groups->count);
	*out = groups;
	return 0;
}

SYSCALL2(setgroups, long, size, const u32 __user *, list)
{
	struct group_list *groups, *old;
	long err;

	if (!capable(CAP_SETGID))
		return -EPERM; /* CAP_SETGID, asked before the size, as Linux does */
	if (size < 0 || size > NGROUPS_MAX)
		return -EINVAL;
	err = copy_group_list(size, list, &groups);
	if (err)
		return err;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	old = current()->group_leader->groups;
	current()->group_leader->groups = groups;
	spin_unlock_irqrestore(&tasks_lock, flags);
	group_list_put(old);
	return 0;
}

/*
 * cred.h - who a process is: its real, effective and saved user ids and
 * group ids (the set*id and get*id calls, cred.c), and the capabilities
 * that follow from them (capget).
 *
 * rewind's first process is root, as the first process of a Linux
 * initramfs is, and so is everything it starts unless a program gives
 * that up with setuid. Privilege is an effective uid of 0: it stands for
 * every capability Linux's root has, and is what changing to ids it does
 * not hold (CAP_SETUID, CAP_SETGID), raising a hard resource limit
 * (rlimit.h), forking past RLIMIT_NPROC, changing another user's file's
 * mode, owner or times (CAP_FOWNER, CAP_CHOWN: fs/attr.c), reading and
 * writing past the permission bits (CAP_DAC_OVERRIDE: fs/permission.c),
 * signalling another user's process (CAP_KILL: kernel/signal) and writing
 * kernel controls in /proc take. A new file belongs to its creator's
 * effective ids. A process is also in its supplementary groups (groups.c),
 * which the permission checks ask through in_group_p. The file-system
 * ids follow the effective ones but for setfsuid and setfsgid; a root
 * process that sets another fsuid loses root's override of the permission
 * bits (fs/permission.c), as Linux drops CAP_DAC_OVERRIDE then, but keeps
 * its other file capabilities (chown, chmod of others' files), which
 * Linux would drop too.
 */
#ifndef REWIND_CRED_H
#define REWIND_CRED_H

#include "kernel/process/task.h"

/* Whether the current process holds root's capabilities (an effective uid of 0); the kernel's own work does. */
static inline bool
privileged(void)
{
	struct task *leader = current()->group_leader;

	return !leader || READ_ONCE(leader->uids.effective) == 0;
}

/*
 * The ids files are made and checked with (Linux's fsuid and fsgid, which
 * follow the effective ids unless setfsuid or setfsgid set them since);
 * root's for a kernel thread.
 */
static inline u32
current_fsuid(void)
{
	struct task *leader = current()->group_leader;

	return leader ? READ_ONCE(leader->uids.fs) : 0;
}

static inline u32
current_fsgid(void)
{
	struct task *leader = current()->group_leader;

	return leader ? READ_ONCE(leader->gids.fs) : 0;
}

/* The current process's user or group ids, as one read of each (root's for a kernel thread). */
static inline struct id_set
current_ids(bool groups)
{
	struct task *leader = current()->group_leader;
	const struct id_set *ids;

	if (!leader)
		return (struct id_set){ 0, 0, 0, 0 };
	ids = groups ? &leader->gids : &leader->uids;
	return (struct id_set){ READ_ONCE(ids->real), READ_ONCE(ids->effective),
				READ_ONCE(ids->saved), READ_ONCE(ids->fs) };
}

static inline struct id_set
current_uids(void)
{
	return current_ids(false);
}

static inline struct id_set
current_gids(void)
{
	return current_ids(true);
}

/*
 * execve: the new program may be dumped, and its /proc/<pid> is its
 * user's, unless its effective ids differ from its real ones (Linux's
 * begin_new_exec with suid_dumpable 0).
 */
void cred_exec(struct task *leader);

/* The supplementary groups (groups.c): a list shared by reference, NULL when empty. */
struct group_list *group_list_get(struct group_list *groups);
void group_list_put(struct group_list *groups);
/* The ids of groups (NULL: none), sorted, and how many in *count. */
const u32 *group_list_ids(const struct group_list *groups, int *count);

/* Whether gid is one of the current process's supplementary groups. */
bool in_supplementary_groups(u32 gid);

/*
 * Linux's in_group_p: whether the current process counts as a member of
 * gid when a file is checked or made: its file-system group id, or one
 * of its supplementary groups.
 */
bool in_group_p(u32 gid);

/* Whether all three of ids are id (prlimit's and the NPROC count's "same user"). */
static inline bool
all_ids_are(const struct id_set *ids, u32 id)
{
	return ids->real == id && ids->effective == id && ids->saved == id;
}

/*
 * Linux's check_same_owner, for changing another process's scheduling
 * (sched_setaffinity): the caller's effective uid is the target's real or
 * effective one, or the caller is root (CAP_SYS_NICE). tasks_lock held.
 */
bool task_same_owner(const struct task *t);

/*
 * Linux's ptrace_may_access(PTRACE_MODE_READ_FSCREDS), which guards what
 * /proc shows of a process's memory, files and places (maps, environ,
 * cwd, root, exe, fd/N): the caller's own process; or every one of the
 * target's uids and gids is the caller's file-system id and the target
 * is dumpable (or has no memory); or the caller is root
 * (CAP_SYS_PTRACE). A ptrace would ask the same. tasks_lock held.
 */
bool task_may_inspect(const struct task *t);

#endif

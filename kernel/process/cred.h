/*
 * cred.h - who a process is and what it may do: its real, effective and
 * saved user ids and group ids (the set*id and get*id calls, cred.c) and
 * its capabilities (capabilities(7): capget, capset, the prctl options
 * and execve's rules, capability.c).
 *
 * rewind's first process is root with every capability, as the first
 * process of a Linux initramfs is, and so is everything it starts unless
 * a program gives that up. Privilege is a capability in the effective
 * set, asked with capable(CAP_...) where Linux asks the same one: changing
 * to ids one does not hold (CAP_SETUID, CAP_SETGID), reading and writing
 * past the permission bits (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH:
 * fs/permission.c), changing another user's file (CAP_FOWNER, CAP_CHOWN,
 * CAP_FSETID: fs/attr.c), signalling another user's process (CAP_KILL),
 * raising a hard limit (CAP_SYS_RESOURCE), mounting (CAP_SYS_ADMIN) and
 * so on. The uid changes move the capabilities as Linux's do (leaving
 * uid 0 drops them, an fsuid other than 0 drops the file-system ones),
 * so a root process that sets another fsuid loses its override of the
 * permission bits and of file ownership alike. A new file belongs to its
 * creator's file-system ids. A process is also in its supplementary
 * groups (groups.c), which the permission checks ask through in_group_p.
 * The process's Landlock domain and its no_new_privs bit sit beside them
 * (kernel/landlock/, prctl.c). Linux keeps credentials per thread; rewind
 * keeps them per process (the leader's), as musl and glibc apply every
 * change to all threads anyway.
 */
#ifndef REWIND_CRED_H
#define REWIND_CRED_H

#include "kernel/process/task.h"
#include "uapi/capability.h"

/* Every capability Linux 6.1 knows: the bounding set a process starts with. */
#define CAP_FULL_SET ((1ul << (CAP_LAST_CAP + 1)) - 1)

/*
 * Whether the current process has capability cap (CAP_*, uapi/capability.h)
 * in its effective set (Linux's capable); the kernel's own work has all.
 */
static inline bool
capable(int cap)
{
	struct task *leader = current()->group_leader;

	return !leader || (READ_ONCE(leader->caps.effective) >> cap & 1);
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

/* The first process's capabilities: root's, every one permitted, effective and bounding. */
void caps_set_root(struct cap_sets *caps);

/*
 * The capabilities after the user ids changed from old to new (tasks_lock
 * held), as capabilities(7) says under "Effect of user ID changes".
 */
void caps_uids_changed(struct cap_sets *caps, const struct id_set *old, const struct id_set *new);

/*
 * execve's capabilities (file capabilities aside): root's program gets
 * the bounding and inheritable sets permitted and, when its effective uid
 * is 0, effective; another user's gets its ambient set. tasks_lock held.
 */
void caps_exec(struct task *leader);

/* prctl's capability options (PR_CAPBSET_*, PR_CAP_AMBIENT, PR_*_KEEPCAPS, PR_*_SECUREBITS). */
long caps_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
		unsigned long arg5);

/*
 * execve: the new program may be dumped, and its /proc/<pid> is its
 * user's, unless its effective ids differ from its real ones or the
 * caller could not read its file or its interpreter (`unreadable`: Linux's
 * would_dump, then begin_new_exec with suid_dumpable 0).
 */
void cred_exec(struct task *leader, bool unreadable);

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

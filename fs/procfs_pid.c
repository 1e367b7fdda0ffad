/*
 * procfs_pid.c - /proc/<pid> for every process (its group leader's task)
 * and /proc/self, with status (its signal lines added here), stat, maps
 * and cmdline.
 *
 * Lifetime: a task is freed only after wait4 unlinked it from all_tasks
 * under tasks_lock, so whatever a file shows of a task is copied in one
 * snapshot while holding that lock (it cannot sleep: no user copies, no
 * mmap lock).
 *
 * A task's address space is another matter: exit and execve drop t->mm
 * without tasks_lock, and struct task has no reference count that procfs
 * could hold, so another process's mm may be freed under a reader. The
 * reader's own mm cannot: the reader holds a reference on it. So maps and
 * the resident size are shown to a process about itself only; for another
 * process maps gives -EACCES, and status leaves VmRSS out (as Linux does
 * for kernel threads). Lifting this needs the mm taken and dropped under a
 * lock procfs can hold too (Linux's task_lock and get_task_mm).
 */
#include "fs/procfs_internal.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/time/tsc.h"
#include "kernel/lib/vsprintf.h"
#include "locking/spinlock.h"
#include "mm/vm.h"

/* The process whose group leader has this pid, or NULL; tasks_lock held. */
static struct task *
find_leader(int pid)
{
	struct task *t = task_find(pid);

	return t && t->tgid == pid ? t : NULL;
}

static char
state_letter(const struct task *t)
{
	switch (READ_ONCE(t->state)) {
	case TASK_RUNNABLE:
		return 'R';
	case TASK_SLEEPING:
		return 'S';
	default:
		return 'Z';
	}
}

/* tasks_lock held. */
static void
copy_task(struct task *t, struct procfs_task *out)
{
	struct cputime c = cputime_read(t), children = cputime_selected(t->children_time);
	struct mm *mm = READ_ONCE(t->mm);
	bool zombie = READ_ONCE(t->state) == TASK_ZOMBIE;

	*out = (struct procfs_task){
		.pid = t->pid,
		.tgid = t->tgid,
		.ppid = t->parent ? t->parent->tgid : 0,
		.threads = t->group_leader ? MAX(t->group_leader->live_threads, 1) : 1,
		.state = state_letter(t),
		.utime_ns = cputime_ns(c.user),
		.stime_ns = cputime_ns(c.sys),
		.cutime_ns = cputime_ns(children.user),
		.cstime_ns = cputime_ns(children.sys),
		.start_ns = tsc_cycles_to_ns(t->start_tsc - tsc_at_boot),
		.minflt = t->minor_faults,
		.cminflt = t->children_minor_faults,
		.has_mm = mm != NULL,
		/* Only a pointer comparison: another's mm is never dereferenced. */
		.own_mm = mm && mm == current()->mm,
		.cpu = t->cpu,
		.exit_code = zombie ? t->exit_status : 0,
	};
	if (out->own_mm)
		out->rss_pages = READ_ONCE(mm->rss);
	/* exec may be rewriting comm on another CPU: copy it whole, end it for sure. */
	memcpy(out->comm, t->comm, sizeof(out->comm));
	out->comm[sizeof(out->comm) - 1] = '\0';
}

static bool
leader_exists(int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	bool found = find_leader(pid) != NULL;

	spin_unlock_irqrestore(&tasks_lock, flags);
	return found;
}

/* What the files show of process pid: 0, or -ESRCH when it is gone. */
static int
snapshot(int pid, struct procfs_task *out)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = find_leader(pid);

	if (t)
		copy_task(t, out);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t ? 0 : -ESRCH;
}

static int
show_task(struct procbuf *b, int pid, void (*format)(struct procbuf *, const struct procfs_task *))
{
	struct procfs_task t;
	int err = snapshot(pid, &t);

	if (!err)
		format(b, &t);
	return err;
}

/* Linux's signal lines of status: pending (thread, process), blocked, ignored, caught. */
struct signal_sets {
	u64 pending, shared, blocked, ignored, caught;
};

/* Of the leader's thread, as Linux shows them; false when the process is gone. */
static bool
snapshot_signals(int pid, struct signal_sets *s)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = find_leader(pid);

	if (t) {
		/* Single reads: a snapshot that is a moment old either way is all a reader can get. */
		s->pending = READ_ONCE(t->sig_pending.set);
		s->shared = READ_ONCE(t->sig_shared.set);
		s->blocked = READ_ONCE(t->sig_blocked);
		signal_dispositions(t, &s->ignored, &s->caught);
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t != NULL;
}

static int
show_status(struct procbuf *b, union proc_arg arg)
{
	struct signal_sets s;
	int err = show_task(b, arg.pid, procfs_format_status);

	if (!err && snapshot_signals(arg.pid, &s))
		procbuf_printf(b,
			       "SigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\n"
			       "SigIgn:\t%016lx\nSigCgt:\t%016lx\n",
			       s.pending, s.shared, s.blocked, s.ignored, s.caught);
	return err;
}

static int
show_stat(struct procbuf *b, union proc_arg arg)
{
	return show_task(b, arg.pid, procfs_format_stat);
}

/* Kernel threads and zombies have no mappings: an empty file, as on Linux. */
static int
show_maps(struct procbuf *b, union proc_arg arg)
{
	struct procfs_task t;
	int err = snapshot(arg.pid, &t);

	if (err || !t.has_mm)
		return err;
	if (!t.own_mm)
		return -EACCES; /* see the top of this file */
	size_t room = procbuf_room(b);
	size_t n = vm_show_maps(current()->mm, procbuf_end(b), room);
	/* vm_show_maps gives the whole room when the text did not fit: b then overflows. */
	b->len += n;
	return 0;
}

/*
 * No process keeps its argument list yet (execve does not record where on
 * the new stack it put argv), so cmdline is empty, as a kernel thread's
 * is on Linux. The file exists so that tools that read it keep working.
 */
static int
show_cmdline(struct procbuf *b, union proc_arg arg)
{
	return leader_exists(arg.pid) ? 0 : -ESRCH;
}

static const struct proc_entry pid_entries[] = {
	{ .name = "cmdline", .mode = S_IFREG | 0444, .show = show_cmdline },
	{ .name = "maps", .mode = S_IFREG | 0444, .show = show_maps },
	{ .name = "mounts", .mode = S_IFREG | 0444, .show = proc_show_mounts },
	{ .name = "stat", .mode = S_IFREG | 0444, .show = show_stat },
	{ .name = "status", .mode = S_IFREG | 0444, .show = show_status },
};

const struct proc_dir proc_pid_dir = {
	.entries = pid_entries,
	.nentries = ARRAY_SIZE(pid_entries),
};

static const struct proc_entry pid_dir_entry = { .mode = S_IFDIR | 0555, .dir = &proc_pid_dir };

/* /proc/self: resolved at lookup, so an open directory keeps showing the opener. */
union proc_arg
proc_self_arg(union proc_arg dir_arg)
{
	return (union proc_arg){ .pid = current()->tgid };
}

static void
pid_dyn(int pid, struct proc_dyn *out)
{
	out->entry = &pid_dir_entry;
	out->arg.pid = pid;
	ksnprintf(out->name, sizeof(out->name), "%d", pid);
}

/* The cookie of a process directory is its pid. */
bool
proc_pid_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	struct list_head *pos;
	int best = -1;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->pid == t->tgid && (u64)t->pid >= *cookie && (best < 0 || t->pid < best))
			best = t->pid;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (best < 0)
		return false;
	*cookie = (u64)best;
	pid_dyn(best, out);
	return true;
}

/* A pid as /proc spells it: decimal digits without a leading zero; -1 for anything else. */
static int
parse_pid(const char *name, size_t len)
{
	int pid = 0;

	if (len == 0 || len > 9 || name[0] == '0')
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		pid = pid * 10 + (name[i] - '0');
	}
	return pid;
}

bool
proc_pid_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out)
{
	int pid = parse_pid(name, len);

	if (pid < 0 || !leader_exists(pid))
		return false;
	pid_dyn(pid, out);
	return true;
}

/*
 * procfs_pid.c - /proc/<pid> for every process (its group leader's task),
 * with status (its signal lines added here), stat, maps, cmdline, the
 * links exe, cwd and root, fd/ (a link per open file) and task/; and the
 * links /proc/self and /proc/thread-self.
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
#include "mm/kmalloc.h"
#include "fs/fs.h"

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
	if (READ_ONCE(t->stopped))
		return 'T'; /* asleep in a group stop (kernel/signal/stop.c) */
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
		.ppid = t->group_leader && t->group_leader->parent ? t->group_leader->parent->tgid
								   : 0,
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

/* ---- links: exe, cwd, root, fd/N ------------------------------------------------ */

/*
 * References on process pid's files, fs context or executable, taken under
 * tasks_lock: exit and execve swap them out under it (kernel/process), so
 * what is found here cannot be freed before the reference is taken.
 */
enum proc_res { RES_FILES, RES_FS, RES_EXE };

static void *
get_resource(int pid, enum proc_res what)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = find_leader(pid);
	void *r = NULL;

	if (t && what == RES_FILES && t->files)
		r = files_share(t->files);
	else if (t && what == RES_FS && t->fs)
		r = fs_context_share(t->fs);
	else if (t && what == RES_EXE && t->exe_file)
		r = file_get(t->exe_file);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return r;
}

/* The file behind fd n of process pid, referenced, or NULL. */
static struct file *
get_fd_file(int pid, int n)
{
	struct files *files = get_resource(pid, RES_FILES);
	struct file *f = files ? files_lookup(files, n) : NULL;

	if (files)
		files_put(files);
	return f;
}

/* The process's root or cwd, referenced, or NULL. */
static struct dentry *
get_fs_dentry(int pid, bool root)
{
	struct fs_context *fs = get_resource(pid, RES_FS);
	struct dentry *d = NULL;

	if (!fs)
		return NULL;
	spin_lock(&fs->lock);
	d = dget(root ? fs->root : fs->cwd);
	spin_unlock(&fs->lock);
	fs_context_put(fs);
	return d;
}

static int
show_path(struct procbuf *b, struct dentry *d)
{
	char *path = kmalloc(PATH_MAX);

	if (!path)
		return -ENOMEM;
	long n = dentry_path(d, path, PATH_MAX);
	if (n >= 0)
		procbuf_printf(b, "%s", path);
	kfree(path);
	return n < 0 ? (int)n : 0;
}

/* The text of a link to an open file: its path, or "pipe:[ino]" (file_path). */
static int
show_file(struct procbuf *b, struct file *f)
{
	if (!f)
		return -ENOENT; /* a kernel thread's exe, a closed fd: as Linux */
	char *path = kmalloc(PATH_MAX);
	if (path) {
		file_path(f, path, PATH_MAX);
		procbuf_printf(b, "%s", path);
		kfree(path);
	}
	file_put(f);
	return path ? 0 : -ENOMEM;
}

/* Opening the link opens the file anew; a pipe has no name to open it by here. */
static int
jump_file(struct file *f, struct dentry **out)
{
	if (!f)
		return -ENOENT;
	int err = f->dentry ? 0 : -ENXIO;
	if (!err)
		*out = dget(f->dentry);
	file_put(f);
	return err;
}

static int
show_exe(struct procbuf *b, union proc_arg arg)
{
	return show_file(b, get_resource(arg.pid, RES_EXE));
}

static int
jump_exe(union proc_arg arg, struct dentry **out)
{
	return jump_file(get_resource(arg.pid, RES_EXE), out);
}

static int
show_fd(struct procbuf *b, union proc_arg arg)
{
	return show_file(b, get_fd_file(arg.fd.pid, arg.fd.n));
}

static int
jump_fd(union proc_arg arg, struct dentry **out)
{
	return jump_file(get_fd_file(arg.fd.pid, arg.fd.n), out);
}

static int
show_fs_dentry(struct procbuf *b, int pid, bool root)
{
	struct dentry *d = get_fs_dentry(pid, root);
	int err = d ? show_path(b, d) : -ENOENT;

	if (d)
		dput(d);
	return err;
}

static int
show_cwd(struct procbuf *b, union proc_arg arg)
{
	return show_fs_dentry(b, arg.pid, false);
}

static int
show_root(struct procbuf *b, union proc_arg arg)
{
	return show_fs_dentry(b, arg.pid, true);
}

static int
jump_cwd(union proc_arg arg, struct dentry **out)
{
	*out = get_fs_dentry(arg.pid, false);
	return *out ? 0 : -ENOENT;
}

static int
jump_root(union proc_arg arg, struct dentry **out)
{
	*out = get_fs_dentry(arg.pid, true);
	return *out ? 0 : -ENOENT;
}

/* /proc/<pid>/fd: one link per open fd, named by its number, which is its cookie. */
static const struct proc_entry fd_link_entry = { .mode = S_IFLNK | 0700,
						 .link = show_fd,
						 .jump = jump_fd };

static void
fd_dyn(int pid, int n, struct proc_dyn *out)
{
	out->entry = &fd_link_entry;
	out->arg.fd.pid = pid;
	out->arg.fd.n = n;
	ksnprintf(out->name, sizeof(out->name), "%d", n);
}

static bool
fd_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	struct files *files = get_resource(dir_arg.pid, RES_FILES);
	int n = files && *cookie < (u64)INT32_MAX ? files_next_fd(files, (int)*cookie) : -1;

	if (files)
		files_put(files);
	if (n < 0)
		return false;
	*cookie = (u64)n;
	fd_dyn(dir_arg.pid, n, out);
	return true;
}

static int parse_pid(const char *name, size_t len);

static bool
fd_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out)
{
	int n = len == 1 && name[0] == '0' ? 0 : parse_pid(name, len);
	struct file *f = n < 0 ? NULL : get_fd_file(dir_arg.pid, n);

	if (!f)
		return false;
	file_put(f);
	fd_dyn(dir_arg.pid, n, out);
	return true;
}

static const struct proc_dir proc_fd_dir = { .next = fd_next, .find = fd_find };

/* /proc/<pid>/task: the threads, by tid (the cookie); see tid_dir below. */
static bool tid_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out);
static bool tid_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out);
static const struct proc_dir proc_task_dir = { .next = tid_next, .find = tid_find };

/* "task" is last, so that a thread's directory can show all the entries but it. */
static const struct proc_entry pid_entries[] = {
	{ .name = "cmdline", .mode = S_IFREG | 0444, .show = show_cmdline },
	{ .name = "cwd", .mode = S_IFLNK | 0777, .link = show_cwd, .jump = jump_cwd },
	{ .name = "exe", .mode = S_IFLNK | 0777, .link = show_exe, .jump = jump_exe },
	{ .name = "fd", .mode = S_IFDIR | 0500, .dir = &proc_fd_dir },
	{ .name = "maps", .mode = S_IFREG | 0444, .show = show_maps },
	{ .name = "root", .mode = S_IFLNK | 0777, .link = show_root, .jump = jump_root },
	{ .name = "mounts", .mode = S_IFREG | 0444, .show = proc_show_mounts },
	{ .name = "stat", .mode = S_IFREG | 0444, .show = show_stat },
	{ .name = "status", .mode = S_IFREG | 0444, .show = show_status },
	{ .name = "task", .mode = S_IFDIR | 0555, .dir = &proc_task_dir },
};

const struct proc_dir proc_pid_dir = {
	.entries = pid_entries,
	.nentries = ARRAY_SIZE(pid_entries),
};

/*
 * /proc/<pid>/task/<tid>: the process's own files, not the thread's (the
 * figures are per process for now: status shows the leader's), so that
 * paths through /proc/thread-self resolve.
 */
static const struct proc_dir proc_tid_dir = {
	.entries = pid_entries,
	.nentries = ARRAY_SIZE(pid_entries) - 1,
};

static const struct proc_entry tid_dir_entry = { .mode = S_IFDIR | 0555, .dir = &proc_tid_dir };

static void
tid_dyn(int tgid, int tid, struct proc_dyn *out)
{
	out->entry = &tid_dir_entry;
	out->arg.pid = tgid;
	ksnprintf(out->name, sizeof(out->name), "%d", tid);
}

static bool
tid_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	struct list_head *pos;
	int best = -1;
	u64 flags = spin_lock_irqsave(&tasks_lock);

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->tgid == dir_arg.pid && READ_ONCE(t->state) != TASK_ZOMBIE &&
		    (u64)t->pid >= *cookie && (best < 0 || t->pid < best))
			best = t->pid;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (best < 0)
		return false;
	*cookie = (u64)best;
	tid_dyn(dir_arg.pid, best, out);
	return true;
}

static bool
tid_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out)
{
	int tid = parse_pid(name, len);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = tid < 0 ? NULL : task_find(tid);
	bool found = t && t->tgid == dir_arg.pid;

	spin_unlock_irqrestore(&tasks_lock, flags);
	if (found)
		tid_dyn(dir_arg.pid, tid, out);
	return found;
}

static const struct proc_entry pid_dir_entry = { .mode = S_IFDIR | 0555, .dir = &proc_pid_dir };

/* /proc/self and /proc/thread-self: read at every walk, so each caller sees its own. */
int
proc_self_link(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d", current()->tgid);
	return 0;
}

int
proc_thread_self_link(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d/task/%d", current()->tgid, current()->pid);
	return 0;
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

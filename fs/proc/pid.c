/*
 * pid.c - /proc/<pid> for every process (its group leader's task),
 * with status, stat, statm, sched, maps, smaps, cmdline, comm, environ, the OOM
 * killer's files (pid_oom.c), the links
 * exe, cwd and root, fd/ (a link per open file), fdinfo/, ns/ (pid_ns.c) and task/; and the links
 * /proc/self and /proc/thread-self.
 *
 * Lifetime: a task is freed only after wait4 unlinked it from all_tasks
 * under tasks_lock, so whatever a file shows of a task is copied in one
 * snapshot while holding that lock (it cannot sleep: no user copies, no
 * mmap lock). Its address space is pinned in the same snapshot with
 * get_task_mm (the task's own lock keeps exit and execve from dropping it
 * meanwhile), and read after the locks are gone: the sizes under its mmap
 * lock (mm/vm_usage.c), argv and the environment from its memory
 * (access_remote_vm), then the reference is dropped. An mm read so may
 * already belong to a process that has exited or exec'ed since: a moment
 * old, as every /proc figure is, never freed memory.
 *
 * Who may look: the mode bits (the owner is the process's user while it
 * is dumpable, proc_pid_owner), and for the files marked `inspects` also
 * the ptrace-style check of kernel/process/cred.h (task_may_inspect).
 */
#include "fs/proc/internal.h"
#include "kernel/process/cred.h"
#include "kernel/sched/sched.h"
#include "kernel/process/pidfd.h"
#include "drivers/tty.h"
#include "kernel/time/cputime.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/time/tsc.h"
#include "kernel/lib/vsprintf.h"
#include "locking/spinlock.h"
#include "mm/vm.h"
#include "mm/vm_usage.h"
#include "mm/kmalloc.h"
#include "fs/fs.h"

struct task *
proc_find_leader(int pid)
{
	struct task *t = task_find(pid);

	return t && t->tgid == pid ? t : NULL;
}

/* A process's ids, in the order status shows them. */
static void
copy_ids(u32 out[4], const struct id_set *ids)
{
	out[0] = ids->real;
	out[1] = ids->effective;
	out[2] = ids->saved;
	out[3] = ids->fs;
}

/*
 * Who owns a file of process arg.pid (Linux's task_dump_owner): its
 * effective ids; root once it is gone, and, but for the world-readable
 * directories (/proc/<pid> itself, which ps stats for the user), while it
 * has no address space or is not dumpable.
 */
void
proc_pid_owner(union proc_arg arg, u32 mode, u32 *uid, u32 *gid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	const struct task *t = proc_find_leader(arg.pid);
	bool owned = t && (mode == (S_IFDIR | 0555) || (READ_ONCE(t->mm) && !t->not_dumpable));

	*uid = owned ? t->uids.effective : 0;
	*gid = owned ? t->gids.effective : 0;
	spin_unlock_irqrestore(&tasks_lock, flags);
}

bool
proc_pid_may_inspect(int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	const struct task *t = proc_find_leader(pid);
	bool allowed = !t || task_may_inspect(t);

	spin_unlock_irqrestore(&tasks_lock, flags);
	return allowed;
}

/* tasks_lock held; the process's mm, referenced, goes to *mm (NULL: none). */
static void
copy_task(struct task *t, struct procfs_task *out, struct mm **mm)
{
	struct cputime c = cputime_read_process_locked(t),
		       children = cputime_selected(t->children_time);
	bool zombie = READ_ONCE(t->state) == TASK_ZOMBIE;
	int tpgid, tty_nr = tty_nr_for(t->sid, t->tty_detached, &tpgid);

	*out = (struct procfs_task){
		.pid = t->pid,
		.tgid = t->tgid,
		.ppid = t->group_leader && t->group_leader->parent ? t->group_leader->parent->tgid
								   : 0,
		.tracer_pid = ptrace_tracer_pid(t),
		.pgrp = t->pgid,
		.session = t->sid,
		.tty_nr = tty_nr,
		.tpgid = tpgid,
		.threads = t->group_leader ? MAX(t->group_leader->live_threads, 1) : 1,
		.state = proc_state_letter(t),
		.utime_ns = cputime_ns(c.user),
		.stime_ns = cputime_ns(c.sys),
		.cutime_ns = cputime_ns(children.user),
		.cstime_ns = cputime_ns(children.sys),
		.start_ns = tsc_cycles_to_ns(t->start_tsc - tsc_at_boot),
		.minflt = t->minor_faults,
		.cminflt = t->children_minor_faults,
		.cpu = t->cpu,
		.nice = t->nice,
		.rt_priority = t->rt_priority,
		.policy = t->policy,
		.vruntime = sched_vruntime_ns(t),
		.weight = sched_weight(t),
		.exit_signal = t->exit_signal,
		.exit_code = zombie ? t->exit_status : 0,
		/* Single reads: a snapshot that is a moment old either way is all a reader gets. */
		.sig_pending = READ_ONCE(t->sig_pending.set),
		.sig_shared = READ_ONCE(t->sig_shared.set),
		.sig_blocked = READ_ONCE(t->sig_blocked),
	};
	const struct task *leader =
		t->group_leader ? t->group_leader : t; /* ids are the leader's */
	copy_ids(out->uids, &leader->uids);
	copy_ids(out->gids, &leader->gids);
	out->caps = leader->caps;
	signal_dispositions(t, &out->sig_ignored, &out->sig_caught);
	/* exec may be rewriting comm on another CPU: copy it whole, end it for sure. */
	memcpy(out->comm, t->comm, sizeof(out->comm));
	out->comm[sizeof(out->comm) - 1] = '\0';
	*mm = zombie ? NULL : get_task_mm(t);
}

/*
 * What the files show of process pid: 0, or -ESRCH when it is gone. With
 * mm non-NULL the caller gets the process's address space too, referenced
 * (NULL for a kernel thread or a zombie); else it is only measured.
 */
static int
snapshot(int pid, struct procfs_task *out, struct mm **mm)
{
	struct mm *m = NULL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(pid);

	if (t)
		copy_task(t, out, &m);
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	out->has_mm = m != NULL;
	if (m)
		vm_usage(m, &out->vm);
	if (mm)
		*mm = m;
	else if (m)
		mm_put(m);
	return 0;
}

static bool
leader_exists(int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	bool found = proc_find_leader(pid) != NULL;

	spin_unlock_irqrestore(&tasks_lock, flags);
	return found;
}

static int
show_task(struct procbuf *b, union proc_arg arg,
	  void (*format)(struct procbuf *, const struct procfs_task *))
{
	struct procfs_task t;
	int err = snapshot(arg.pid, &t, NULL);

	if (!err) {
		proc_thread_view(arg, &t);
		format(b, &t);
	}
	return err;
}

/* Process pid's supplementary groups, referenced (NULL: none, or it is gone). */
static struct group_list *
groups_of(int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(pid);
	struct group_list *groups = t ? group_list_get(t->groups) : NULL;

	spin_unlock_irqrestore(&tasks_lock, flags);
	return groups;
}

static int
show_status(struct procbuf *b, union proc_arg arg)
{
	struct procfs_task t;
	int err = snapshot(arg.pid, &t, NULL);

	if (err)
		return err;
	proc_thread_view(arg, &t);
	struct group_list *groups = groups_of(arg.pid);
	t.groups = group_list_ids(groups, &t.ngroups);
	procfs_format_status(b, &t);
	group_list_put(groups);
	return 0;
}

static void
format_comm(struct procbuf *b, const struct procfs_task *t)
{
	procbuf_printf(b, "%s\n", t->comm);
}

static int
show_comm(struct procbuf *b, union proc_arg arg)
{
	return show_task(b, arg, format_comm);
}

/*
 * A write renames the process's main thread, as prctl(PR_SET_NAME) would;
 * as on Linux only a thread of the same process may (EINVAL for others).
 * Unlike Linux, which keeps a trailing newline in the name, procfs trims it.
 */
static int
write_comm(const char *value, union proc_arg arg)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(arg.pid);
	int err = !t ? -ESRCH : t->tgid != current()->tgid ? -EINVAL : 0;

	if (!err)
		task_set_comm(t, value);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}

/*
 * Where another user's program lies (code, stack, data, arguments) and
 * how it ended are for who may inspect it: others see 1 for the code's
 * start and end (still telling a process from a kernel thread) and 0 for
 * the rest, as Linux's do_task_stat without ptrace access.
 */
static void
hide_layout(struct procfs_task *t)
{
	struct vm_usage *u = &t->vm;

	u->start_code = u->end_code = 1;
	u->start_stack = u->start_data = u->end_data = u->start_brk = 0;
	u->arg_start = u->arg_end = u->env_start = u->env_end = 0;
	u->auxv_start = u->auxv_end = 0;
	t->exit_code = 0;
}

static int
show_stat(struct procbuf *b, union proc_arg arg)
{
	struct procfs_task t;
	int err = snapshot(arg.pid, &t, NULL);

	if (err)
		return err;
	proc_thread_view(arg, &t);
	if (!proc_pid_may_inspect(arg.pid))
		hide_layout(&t);
	procfs_format_stat(b, &t);
	return 0;
}

static int
show_sched(struct procbuf *b, union proc_arg arg)
{
	return show_task(b, arg, procfs_format_sched);
}

static int
show_statm(struct procbuf *b, union proc_arg arg)
{
	return show_task(b, arg, procfs_format_statm);
}

int
proc_show_areas(struct procbuf *b, int pid, size_t (*show)(struct mm *mm, char *buf, size_t size))
{
	struct procfs_task t;
	struct mm *mm;
	int err = snapshot(pid, &t, &mm);

	if (err || !mm)
		return err;
	size_t n = show(mm, procbuf_end(b), procbuf_room(b));
	/* show gives the whole room when the text did not fit: b then overflows. */
	b->len += n;
	mm_put(mm);
	return 0;
}

static int
show_maps(struct procbuf *b, union proc_arg arg)
{
	return proc_show_areas(b, arg.pid, vm_show_maps);
}

/*
 * Appends len bytes of mm at addr, stopping early where its memory ends;
 * when they cannot fit, only counts them, so that b overflows and the
 * caller's buffer grows to the full size (procfs.c's generate).
 */
static void
append_remote(struct procbuf *b, struct mm *mm, u64 addr, size_t len)
{
	if (len > procbuf_room(b)) {
		b->len += len;
		return;
	}
	b->len += access_remote_vm(mm, addr, procbuf_end(b), len);
}

/*
 * argv as exec left it, NUL-separated. A program may write over its
 * arguments (setproctitle): when the last one no longer ends in a NUL,
 * Linux shows instead the text from the start up to its first NUL (that
 * NUL included), reading on into the environment's place up to a page,
 * and so does this.
 */
static void
show_arguments(struct procbuf *b, struct mm *mm, const struct vm_usage *u)
{
	char last;

	if (u->arg_start >= u->arg_end || access_remote_vm(mm, u->arg_end - 1, &last, 1) != 1)
		return;
	if (last == '\0') {
		append_remote(b, mm, u->arg_start, u->arg_end - u->arg_start);
		return;
	}
	u64 end = u->env_start == u->arg_end && u->env_end > u->arg_end ? u->env_end : u->arg_end;
	size_t start = b->len;
	append_remote(b, mm, u->arg_start, MIN(end - u->arg_start, PAGE_SIZE));
	if (!procbuf_fits(b))
		return; /* generated again in a buffer that fits */
	size_t got = b->len - start, len = strnlen(b->p + start, got);
	b->len = start + (len < got ? len + 1 : len);
}

static int
show_cmdline(struct procbuf *b, union proc_arg arg)
{
	struct procfs_task t;
	struct mm *mm;
	int err = snapshot(arg.pid, &t, &mm);

	if (err || !mm)
		return err; /* a kernel thread's or a zombie's is empty, as on Linux */
	show_arguments(b, mm, &t.vm);
	mm_put(mm);
	return 0;
}

static int
show_environ(struct procbuf *b, union proc_arg arg)
{
	struct procfs_task t;
	struct mm *mm;
	int err = snapshot(arg.pid, &t, &mm);

	if (err || !mm)
		return err;
	if (t.vm.env_start < t.vm.env_end)
		append_remote(b, mm, t.vm.env_start, t.vm.env_end - t.vm.env_start);
	mm_put(mm);
	return 0;
}

/*
 * The auxiliary vector exec gave the program, as Linux's saved_auxv: a
 * debugger finds a PIE's load address by its AT_ENTRY (gdb's svr4 solib).
 */
static int
show_auxv(struct procbuf *b, union proc_arg arg)
{
	struct procfs_task t;
	struct mm *mm;
	int err = snapshot(arg.pid, &t, &mm);

	if (err || !mm)
		return err;
	if (t.vm.auxv_start < t.vm.auxv_end)
		append_remote(b, mm, t.vm.auxv_start, t.vm.auxv_end - t.vm.auxv_start);
	mm_put(mm);
	return 0;
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
	struct task *t = proc_find_leader(pid);
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

/* Opening the link opens the file anew; a pipe again as a FIFO, through a dentry of its own. */
static int
jump_file(struct file *f, struct dentry **out)
{
	if (!f)
		return -ENOENT;
	*out = f->dentry ? dget(f->dentry) : pipe_dentry(f->inode);
	file_put(f);
	return *out ? 0 : -ENOMEM;
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

/*
 * /proc/<pid>/fdinfo/N, as Linux 6.1 shows it for a plain file: the
 * offset, the open flags in octal with O_CLOEXEC from the fd table, the
 * mount's id (fs/mount.c numbers mounts from 1, the root's; 0 for a pipe, which is on
 * no mount here) and the inode number.
 */
static int
show_fdinfo(struct procbuf *b, union proc_arg arg)
{
	struct files *files = get_resource(arg.fd.pid, RES_FILES);
	bool cloexec = false;
	struct file *f = files ? files_lookup_cloexec(files, arg.fd.n, &cloexec) : NULL;

	if (files)
		files_put(files);
	if (!f)
		return -ENOENT;
	procbuf_printf(b, "pos:\t%lu\nflags:\t0%o\nmnt_id:\t%u\nino:\t%lu\n", READ_ONCE(f->pos),
		       f->flags | (cloexec ? O_CLOEXEC : 0), READ_ONCE(f->inode->sb->mnt_id),
		       f->inode->ino);
	if (pidfd_pid(f))
		procbuf_printf(b, "Pid:\t%d\n", pidfd_pid(f));
	if (f->ops->show_fdinfo)
		f->ops->show_fdinfo(f, b);
	file_put(f);
	return 0;
}

/* /proc/<pid>/fd and fdinfo: one entry per open fd, named by its number, which is its cookie. */
static const struct proc_entry fd_link_entry = {
	.mode = S_IFLNK | 0700, .link = show_fd, .jump = jump_fd, .inspects = true
};
static const struct proc_entry fdinfo_entry = { .mode = S_IFREG | 0444,
						.show = show_fdinfo,
						.inspects = true };

static void
fd_dyn(const struct proc_entry *e, int pid, int n, struct proc_dyn *out)
{
	out->entry = e;
	out->arg.fd.pid = pid;
	out->arg.fd.n = n;
	ksnprintf(out->name, sizeof(out->name), "%d", n);
}

static bool
next_fd(const struct proc_entry *e, union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	struct files *files = get_resource(dir_arg.pid, RES_FILES);
	int n = files && *cookie < (u64)INT32_MAX ? files_next_fd(files, (int)*cookie) : -1;

	if (files)
		files_put(files);
	if (n < 0)
		return false;
	*cookie = (u64)n;
	fd_dyn(e, dir_arg.pid, n, out);
	return true;
}

static int parse_pid(const char *name, size_t len);

static bool
find_fd(const struct proc_entry *e, union proc_arg dir_arg, const char *name, size_t len,
	struct proc_dyn *out)
{
	int n = len == 1 && name[0] == '0' ? 0 : parse_pid(name, len);
	struct file *f = n < 0 ? NULL : get_fd_file(dir_arg.pid, n);

	if (!f)
		return false;
	file_put(f);
	fd_dyn(e, dir_arg.pid, n, out);
	return true;
}

static bool
fd_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	return next_fd(&fd_link_entry, dir_arg, cookie, out);
}

static bool
fd_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out)
{
	return find_fd(&fd_link_entry, dir_arg, name, len, out);
}

static bool
fdinfo_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out)
{
	return next_fd(&fdinfo_entry, dir_arg, cookie, out);
}

static bool
fdinfo_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out)
{
	return find_fd(&fdinfo_entry, dir_arg, name, len, out);
}

static const struct proc_dir proc_fdinfo_dir = {
	.owner = proc_pid_owner, .open_to_self = true, .next = fdinfo_next, .find = fdinfo_find
};
static const struct proc_dir proc_fd_dir = {
	.owner = proc_pid_owner, .open_to_self = true, .next = fd_next, .find = fd_find
};

/* /proc/<pid>/task: the threads, by tid (the cookie); see tid_dir below. */
static bool tid_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out);
static bool tid_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out);
static const struct proc_dir proc_task_dir = { .owner = proc_pid_owner,
					       .next = tid_next,
					       .find = tid_find };

/*
 * The last PROCESS_ONLY_ENTRIES are the process's alone: a thread's directory
 * shows all the others (Linux's tid_base_stuff has none of the three). A
 * "task" in a thread's directory would nest without end, and a walk of /proc
 * (trinity's) would grow until the OOM killer ended it.
 */
#define PROCESS_ONLY_ENTRIES 3
static const struct proc_entry pid_entries[] = {
	{ .name = "auxv", .mode = S_IFREG | 0400, .show = show_auxv, .inspects = true },
	{ .name = "cmdline", .mode = S_IFREG | 0444, .show = show_cmdline },
	{ .name = "comm", .mode = S_IFREG | 0644, .show = show_comm, .write = write_comm },
	{ .name = "cwd",
	  .mode = S_IFLNK | 0777,
	  .link = show_cwd,
	  .jump = jump_cwd,
	  .inspects = true },
	{ .name = "exe",
	  .mode = S_IFLNK | 0777,
	  .link = show_exe,
	  .jump = jump_exe,
	  .inspects = true },
	{ .name = "environ", .mode = S_IFREG | 0400, .show = show_environ, .inspects = true },
	{ .name = "fd", .mode = S_IFDIR | 0500, .dir = &proc_fd_dir },
	{ .name = "fdinfo", .mode = S_IFDIR | 0500, .dir = &proc_fdinfo_dir },
	{ .name = "maps", .mode = S_IFREG | 0444, .show = show_maps, .inspects = true },
	{ .name = "mem", .mode = S_IFREG | 0600, .fops = &proc_mem_fops, .inspects = true },
	{ .name = "root",
	  .mode = S_IFLNK | 0777,
	  .link = show_root,
	  .jump = jump_root,
	  .inspects = true },
	{ .name = "mounts", .mode = S_IFREG | 0444, .show = proc_show_pid_mounts },
	{ .name = "ns", .mode = S_IFDIR | 0511, .dir = &proc_ns_dir },
	{ .name = "oom_adj",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_oom_adj,
	  .write = proc_write_oom_adj },
	{ .name = "oom_score", .mode = S_IFREG | 0444, .show = proc_show_oom_score },
	{ .name = "oom_score_adj",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_oom_score_adj,
	  .write = proc_write_oom_score_adj },
	{ .name = "pagemap", .mode = S_IFREG | 0400, .fops = &proc_pagemap_fops, .inspects = true },
	{ .name = "sched", .mode = S_IFREG | 0444, .show = show_sched },
	{ .name = "smaps", .mode = S_IFREG | 0444, .show = proc_show_smaps, .inspects = true },
	{ .name = "smaps_rollup",
	  .mode = S_IFREG | 0444,
	  .show = proc_show_rollup,
	  .inspects = true },
	{ .name = "stat", .mode = S_IFREG | 0444, .show = show_stat },
	{ .name = "statm", .mode = S_IFREG | 0444, .show = show_statm },
	{ .name = "status", .mode = S_IFREG | 0444, .show = show_status },
	{ .name = "syscall", .mode = S_IFREG | 0400, .show = proc_show_syscall, .inspects = true },
	{ .name = "coredump_filter",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_coredump_filter,
	  .write = proc_write_coredump_filter },
	{ .name = "task", .mode = S_IFDIR | 0555, .dir = &proc_task_dir },
	{ .name = "timerslack_ns",
	  .mode = S_IFREG | 0666,
	  .show = proc_show_timerslack,
	  .write = proc_write_timerslack },
};

const struct proc_dir proc_pid_dir = {
	.entries = pid_entries,
	.nentries = ARRAY_SIZE(pid_entries),
	.owner = proc_pid_owner,
};

/*
 * /proc/<pid>/task/<tid>: the process's files, with the thread's own pid,
 * state, CPU and name in stat, status and comm (pid_thread.c), as Linux's
 * per-thread view (LTP waits for threads to sleep by their stat); the other
 * figures are the process's. Paths through /proc/thread-self resolve here.
 */
static const struct proc_dir proc_tid_dir = {
	.entries = pid_entries,
	.nentries = ARRAY_SIZE(pid_entries) - PROCESS_ONLY_ENTRIES,
	.owner = proc_pid_owner,
};

static const struct proc_entry tid_dir_entry = { .mode = S_IFDIR | 0555, .dir = &proc_tid_dir };

static void
tid_dyn(int tgid, int tid, struct proc_dyn *out)
{
	out->entry = &tid_dir_entry;
	out->arg.task.pid = tgid;
	out->arg.task.tid = tid;
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

int
proc_pid_dir_pid(struct file *f, u64 *process_start)
{
	if (f->inode->sb->type != &procfs_type || proc_inode_entry(f->inode) != &pid_dir_entry)
		return 0;
	*process_start = proc_inode_process_start(f->inode);
	return proc_inode_arg(f->inode).pid;
}

u64
proc_process_start(int pid)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(pid);
	u64 start = t ? t->start_tsc : 0;

	spin_unlock_irqrestore(&tasks_lock, flags);
	return start;
}

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
	out->arg.task.pid = pid;
	out->arg.task.tid = 0;
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

/*
 * internal.h - how the parts of procfs describe their files to the
 * common machinery in fs/proc/procfs.c.
 *
 * Every procfs directory is a struct proc_dir: a table of fixed entries
 * (meminfo, status ...) and, optionally, names that come and go (pids,
 * knobs), each with a stable number (its cookie: the pid, the knob's index)
 * that getdents positions are made of, so that a listing in several calls
 * neither skips nor repeats an entry when processes come and go.
 *
 * An inode made by a lookup carries its entry and the argument the entry
 * shows (which process, which knob). A regular file's text is generated
 * whole at open(), so that read() and lseek() work on a snapshot that
 * cannot change under them (Linux's single_open).
 */
#ifndef REWIND_PROCFS_INTERNAL_H
#define REWIND_PROCFS_INTERNAL_H

#include "fs/proc/text.h"
#include "fs/vfs.h"

struct mm;

/* What an entry is about: a process (group leader's pid), one of its fds, or a knob. */
union proc_arg {
	int pid;
	struct {
		int pid; /* the same as .pid above */
		int n;
	} fd;
	struct {
		int pid; /* the same as .pid above */
		int tid; /* a thread's directory under task/: its tid; a process's: 0 */
	} task;
	const struct knob *knob;
};

struct proc_dir;

struct proc_entry {
	const char *name; /* fixed entries; dynamic ones are named by their dir */
	u32 mode;	  /* S_IFREG, S_IFDIR or S_IFLNK, and the permission bits */
	/* Regular files: the text, or -errno (-ESRCH: the process is gone). */
	int (*show)(struct procbuf *b, union proc_arg arg);
	/* Writable files: takes the value one write(2) carried, trimmed. NULL: -EPERM. */
	int (*write)(const char *value, union proc_arg arg);
	/* Directories. */
	const struct proc_dir *dir;
	/* Symbolic links: the target text, or -errno. */
	int (*link)(struct procbuf *b, union proc_arg arg);
	/* Links to an object, not a path (exe, cwd, fd/N): what opening them opens. NULL: the text. */
	int (*jump)(union proc_arg arg, struct dentry **out);
	/* The argument this entry shows, from its directory's; NULL: the same. */
	union proc_arg (*resolve)(union proc_arg dir_arg);
	/*
	 * A process's memory, files or places (maps, environ, cwd, fd/N ...):
	 * opened, read as a link or followed only by who may inspect the
	 * process (proc_pid_may_inspect), else -EACCES, as Linux's
	 * ptrace_may_access checks in proc_mem_open and proc_fd_access_allowed.
	 */
	bool inspects;
	/*
	 * A kernel control (a knob, lockstat, profile): every write asks the
	 * writer's own ids for write permission again, -EPERM otherwise, as
	 * Linux's proc_sys_call_handler; else a file root opened would stay
	 * writable by whatever the opener became.
	 */
	bool control;
	/* A file with reads and writes of its own, not a text (/proc/<pid>/mem). */
	const struct file_operations *fops;
};

/* A name that comes and goes, found by a directory's next or find. */
struct proc_dyn {
	const struct proc_entry *entry;
	union proc_arg arg;
	char name[NAME_MAX + 1];
};

struct proc_dir {
	const struct proc_entry *entries;
	size_t nentries;
	/*
	 * The owner of the directory's entries of mode, who the permission bits
	 * apply to (NULL: root): a process's files are its effective user's and
	 * group's (fs/proc/pid.c says when they are root's).
	 */
	void (*owner)(union proc_arg arg, u32 mode, u32 *uid, u32 *gid);
	/* Searchable and readable by the process it shows whoever owns it (fd, fdinfo). */
	bool open_to_self;
	/* Dynamic names (NULL: none): the first whose cookie is >= *cookie, set to it. */
	bool (*next)(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out);
	/* The dynamic name name[0..len), if it exists now. */
	bool (*find)(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out);
};

/* fs/proc/machine.c: the machine-wide files. */
int proc_show_cmdline(struct procbuf *b, union proc_arg arg);
int proc_show_cpuinfo(struct procbuf *b, union proc_arg arg);
int proc_show_interrupts(struct procbuf *b, union proc_arg arg);
int proc_show_loadavg(struct procbuf *b, union proc_arg arg);
int proc_show_lockstat(struct procbuf *b, union proc_arg arg);
int proc_write_lockstat(const char *value, union proc_arg arg);
int proc_show_meminfo(struct procbuf *b, union proc_arg arg);
int proc_show_mounts(struct procbuf *b, union proc_arg arg);
int proc_show_pid_mounts(struct procbuf *b, union proc_arg arg);
int proc_show_locks(struct procbuf *b, union proc_arg arg);
int proc_show_objects(struct procbuf *b, union proc_arg arg);
int proc_show_kmemdebug_sites(struct procbuf *b, union proc_arg arg);
int proc_show_page_sites(struct procbuf *b, union proc_arg arg);
int proc_show_stat(struct procbuf *b, union proc_arg arg);
int proc_show_syscalls(struct procbuf *b, union proc_arg arg);
int proc_show_profile(struct procbuf *b, union proc_arg arg);
int proc_write_profile(const char *value, union proc_arg arg);
int proc_show_uptime(struct procbuf *b, union proc_arg arg);
int proc_show_version(struct procbuf *b, union proc_arg arg);

/* fs/proc/pid.c: /proc/<pid>, /proc/self and /proc/thread-self. */
extern const struct proc_dir proc_pid_dir;
int proc_self_link(struct procbuf *b, union proc_arg arg);
int proc_thread_self_link(struct procbuf *b, union proc_arg arg);
bool proc_pid_next(union proc_arg dir_arg, u64 *cookie, struct proc_dyn *out);
bool proc_pid_find(union proc_arg dir_arg, const char *name, size_t len, struct proc_dyn *out);
void proc_pid_owner(union proc_arg arg, u32 mode, u32 *uid, u32 *gid);
/* Whether the caller may inspect process pid (kernel/process/cred.h); true once it is gone. */
bool proc_pid_may_inspect(int pid);
/* The argument of the entry a proc inode shows (for an entry's own fops). */
union proc_arg proc_inode_arg(const struct inode *inode);
/* The entry a proc inode shows. */
const struct proc_entry *proc_inode_entry(const struct inode *inode);
/* Which process a process directory's inode shows: its start TSC (0 for other inodes). */
u64 proc_inode_process_start(const struct inode *inode);
/* The start TSC of process pid (kernel/process/task.h), or 0 if there is none. */
u64 proc_process_start(int pid);
/* The process whose group leader has this pid, or NULL; tasks_lock held. */
struct task *proc_find_leader(int pid);
/* The letter Linux's stat and status give t's state; tasks_lock held (pid_thread.c). */
char proc_state_letter(const struct task *t);
struct procfs_task;
/* In a thread's own directory, what is the thread's rather than the process's (pid_thread.c). */
void proc_thread_view(union proc_arg arg, struct procfs_task *out);
/* fs/proc/pid_oom.c: /proc/<pid>/oom_score, oom_score_adj, oom_adj. */
int proc_show_oom_score(struct procbuf *b, union proc_arg arg);
int proc_show_oom_score_adj(struct procbuf *b, union proc_arg arg);
int proc_write_oom_score_adj(const char *value, union proc_arg arg);
int proc_show_oom_adj(struct procbuf *b, union proc_arg arg);
int proc_write_oom_adj(const char *value, union proc_arg arg);
/* fs/proc/pid_coredump_filter.c: /proc/<pid>/coredump_filter. */
int proc_show_coredump_filter(struct procbuf *b, union proc_arg arg);
int proc_write_coredump_filter(const char *value, union proc_arg arg);
/* fs/proc/pid_syscall.c: /proc/<pid>/syscall. */
int proc_show_syscall(struct procbuf *b, union proc_arg arg);
/* fs/proc/pid_timerslack.c: /proc/<pid>/timerslack_ns. */
int proc_show_timerslack(struct procbuf *b, union proc_arg arg);
int proc_write_timerslack(const char *value, union proc_arg arg);
/* fs/proc/pid_ns.c: /proc/<pid>/ns. */
extern const struct proc_dir proc_ns_dir;
/* fs/proc/pid_mem.c: /proc/<pid>/mem. */
extern const struct file_operations proc_mem_fops;
/*
 * The text show makes of process pid's address space (maps, smaps); kernel
 * threads and zombies have none: an empty file, as on Linux.
 */
int proc_show_areas(struct procbuf *b, int pid, size_t (*show)(struct mm *, char *, size_t));
/* fs/proc/pid_pages.c: /proc/<pid>/smaps, smaps_rollup and pagemap. */
int proc_show_smaps(struct procbuf *b, union proc_arg arg);
int proc_show_rollup(struct procbuf *b, union proc_arg arg);
extern const struct file_operations proc_pagemap_fops;

/* fs/proc/sysvipc.c: /proc/sysvipc and System V IPC's limits in /proc/sys/kernel. */
extern const struct proc_dir proc_sysvipc_dir;
int proc_show_shmmax(struct procbuf *b, union proc_arg arg);
int proc_write_shmmax(const char *value, union proc_arg arg);
int proc_show_shmall(struct procbuf *b, union proc_arg arg);
int proc_write_shmall(const char *value, union proc_arg arg);
int proc_show_shmmni(struct procbuf *b, union proc_arg arg);
int proc_write_shmmni(const char *value, union proc_arg arg);
int proc_show_msgmax(struct procbuf *b, union proc_arg arg);
int proc_write_msgmax(const char *value, union proc_arg arg);
int proc_show_msgmnb(struct procbuf *b, union proc_arg arg);
int proc_write_msgmnb(const char *value, union proc_arg arg);
int proc_show_msgmni(struct procbuf *b, union proc_arg arg);
int proc_write_msgmni(const char *value, union proc_arg arg);
int proc_show_sem(struct procbuf *b, union proc_arg arg);
int proc_write_sem(const char *value, union proc_arg arg);

/* fs/proc/keys.c: /proc/keys, /proc/key-users and /proc/sys/kernel/keys (kernel/keys/). */
int proc_show_keys(struct procbuf *b, union proc_arg arg);
int proc_show_key_users(struct procbuf *b, union proc_arg arg);
extern const struct proc_dir proc_sys_keys_dir;

/* fs/proc/sysfs.c: /sys's tree, and the huge page pool's size (also /proc/sys/vm/nr_hugepages). */
extern const struct proc_entry sysfs_root_entry;
int proc_show_nr_hugepages(struct procbuf *b, union proc_arg arg);
int proc_write_nr_hugepages(const char *value, union proc_arg arg);

/* fs/proc/sysctl.c: /proc/sys. */
extern const struct proc_dir proc_sys_dir;
extern const struct proc_dir proc_net_dir; /* fs/proc/net.c */

#endif

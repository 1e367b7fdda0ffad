/*
 * fs_host.h - runs the whole of fs/ in a host program, for the VFS unit
 * tests (test_vfs_*.c, test_pipe.c, test_initrd.c).
 *
 * The real page allocator and kmalloc run over a host buffer (as in
 * test_kmalloc.c). current() is the real one: the test points the GS base
 * at a struct cpu of its own (arch_prctl), whose current is one task with
 * an fd table and an fs_context. Only what needs the scheduler or the MMU
 * is stood in for:
 *
 *  - user memory is host memory, except addresses below 64 KiB and one
 *    "poison" range a test may set; a copy stops where it meets either and
 *    fails with -EFAULT, after copying what came before (as a real fault
 *    part-way does); with FS_HOST_REAL_UACCESS (the hosted fstime,
 *    tests/hosted/fstime_host.c) the copies are mm/uaccess.c's own instead,
 *    and nothing is poisoned;
 *  - mutexes are single-owner flags that panic when taken twice (a
 *    deadlock in the kernel) or released unheld;
 *  - wait queues are real lists; schedule() insists that the task is marked
 *    sleeping (queued somewhere), then runs the test's `other_side` hook in
 *    place of another process, and panics if nothing woke the task: a
 *    missed wake-up shows as a failure, not a hang;
 *  - the clock is a counter that schedule_timeout_ns advances;
 *  - the console is a device that keeps what is written to it.
 */
#ifndef REWIND_FS_HOST_H
#define REWIND_FS_HOST_H

#include <asm/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#include "kernel/objcount.c"
#include "mm/page_alloc.c"
#include "mm/kmalloc.c"
#include "mm/kmemdebug.c"
#include "fs/page_index.c"
#include "locking/rwlock.c"
#include "fs/cpio.c"
#include "fs/inode.c"
#include "fs/xattr_store.c"
#include "fs/super.c"
#include "fs/tmpfs.c"
#include "fs/dentry.c"
#include "fs/namei.c"
#include "fs/file.c"
#include "fs/write_access.c"
#include "fs/fdtable.c"
#include "fs/fs_context.c"
#include "fs/filemap.c"
#include "fs/ramfs.c"
#include "fs/permission.c"
#include "fs/treeops.c"
#include "fs/links.c"
#include "fs/read_write.c"
#include "fs/stat.c"
#include "fs/readdir.c"
#include "fs/fcntl.c"
#include "fs/open.c"
#include "fs/truncate.c"
#include "fs/memfd.c"
#include "fs/sync.c"
#include "kernel/process/user_count.c"
#include "fs/pipe_accounting.c"
#include "fs/pipe.c"
#include "fs/poll.c"
#include "fs/anon_inode.c"
#include "fs/notify.c"
#include "fs/inotify.c"
#include "fs/dnotify.c"
#include "fs/fanotify.c"
#include "fs/fanotify_perm.c"
#include "fs/fasync.c"
#include "kernel/time/timespec.c"
#include "fs/socket.c"
#include "fs/socket_msg.c"
#include "fs/sockopt.c"
#include "fs/unix_sock.c"
#include "fs/unix_names.c"
#include "fs/unix_io.c"
#include "fs/unix_scm.c"
#include "fs/unix_gc.c"
#include "fs/inet_names.c"
#include "fs/inet_sock.c"
#include "fs/netdev.c"
#include "fs/netlink.c"
#include "fs/netlink_route.c"
#include "fs/eventpoll.c"
#include "fs/locks.c"
#include "fs/leases.c"
#include "fs/mount.c"
#include "fs/mnt_namespace.c"
#include "fs/devfs.c"
#include "fs/mem_devices.c"
#include "fs/initrd.c"

u64 direct_map_base;

/* ---- /proc's text (fs/proc/text.c): no /proc here, so inotify's fdinfo says nothing ---- */

void
procbuf_printf(struct procbuf *b, const char *fmt, ...)
{
	(void)b;
	(void)fmt;
}

/* ---- hugetlbfs (fs/hugetlbfs.c): no huge page pool here, so no file of huge pages ---- */

void
hugetlbfs_init(void)
{
	register_filesystem(&hugetlbfs_type);
}

struct inode *
hugetlbfs_new_inode(struct super_block *sb, u32 mode)
{
	return NULL;
}

struct inode *
hugetlbfs_nameless_inode(u64 size)
{
	return NULL;
}

bool
is_hugetlbfs_inode(const struct inode *inode)
{
	return false;
}

/* ---- namespaces (kernel/process/nsproxy.c): the host tests' one task lives in the first ---- */

static struct nsproxy host_nsproxy = { .refcount = 1, .mnt = &init_mnt_ns };

struct nsproxy *
task_nsproxy(struct task *t)
{
	(void)t;
	return &host_nsproxy;
}

u32
ns_alloc_inum(void)
{
	return 0xF0000000u;
}

struct ns_common *
task_ns_get(int pid, const struct ns_ops *kind)
{
	(void)pid;
	return kind->get(&host_nsproxy);
}

/* ---- a file's owner (fs/fown.c): no other process to signal here --------------- */

long
f_setown(struct file *f, unsigned long arg)
{
	f->owner.pid = (int)arg;
	return 0;
}

long
f_getown(struct file *f)
{
	return f->owner.pid;
}

/* The (type, pid) forms name threads and groups, which the host tests have none of. */
long
f_setown_ex(struct file *f, unsigned long arg)
{
	(void)f;
	(void)arg;
	return -EINVAL;
}

long
f_getown_ex(struct file *f, unsigned long arg)
{
	(void)f;
	(void)arg;
	return -EINVAL;
}

void
file_signal_owner(struct file *f, int sig)
{
}

void
f_setown_if_none(struct file *f)
{
}

void
file_send_sigio(struct file *f, int fd, int reason)
{
}

/* ---- the OOM killer's charge (mm/oom_kill.c): one process here ------------------- */

struct mem_charge {
	s64 refs, bytes;
};
static struct mem_charge host_charge;

struct mem_charge *
mem_charge_current(void)
{
	host_charge.refs++;
	return &host_charge;
}

void
mem_charge_add_bytes(struct mem_charge *c, s64 bytes)
{
	c->bytes += bytes;
}

void
mem_charge_add(struct mem_charge *c, s64 pages)
{
	mem_charge_add_bytes(c, pages * (s64)PAGE_SIZE);
}

void
mem_charge_put(struct mem_charge *c)
{
	c->refs--;
}

/* ---- supplementary groups: the hosted process is in none (kernel/process/groups.c) ---- */

bool
in_supplementary_groups(u32 gid)
{
	return false;
}

bool
in_group_p(u32 gid)
{
	return gid == current_fsgid();
}

/* ---- Landlock: the hosted process restricts itself with none (kernel/landlock/check.c) ---- */

#include "kernel/landlock/landlock.h"

int
landlock_may_open(struct dentry *d, u32 flags)
{
	return 0;
}

int
landlock_may_exec(struct dentry *d)
{
	return 0;
}

int
landlock_may_make(struct dentry *dir, u32 mode)
{
	return 0;
}

int
landlock_may_remove(struct dentry *dir, bool rmdir)
{
	return 0;
}

int
landlock_may_link(struct dentry *old, struct dentry *newdir)
{
	return 0;
}

int
landlock_may_rename(struct dentry *olddir, struct dentry *old, struct dentry *newdir,
		    struct dentry *target, bool exchange)
{
	return 0;
}

/* ---- user memory ------------------------------------------------------------ */

static uintptr_t poison_lo, poison_hi; /* a test's extra bad range */

#define BAD_USER_PTR ((void *)0x1000)

#ifdef FS_HOST_REAL_UACCESS
#include "mm/uaccess.c"
#else

/* How many bytes from p on can be touched before a bad address. */
static size_t
user_good(const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;

	if (a < 0x10000 || (a >= poison_lo && a < poison_hi))
		return 0;
	if (poison_lo > a && poison_lo - a < n)
		return poison_lo - a;
	return n;
}

int
copy_from_user(void *dst, const void *src, size_t n)
{
	size_t good = user_good(src, n);

	if (good)
		memcpy(dst, src, good);
	return good == n ? 0 : -EFAULT;
}

/* The page cache's copies: the bytes not copied; the real ones stop at the fault too. */
size_t
copy_from_user_partial(void *dst, const void *src, size_t n)
{
	size_t good = user_good(src, n);

	memcpy(dst, src, good);
	return n - good;
}

/* The non-temporal copies write() chose, counted for the copy_nocache= tests. */
static u64 nocache_copies, nocache_bytes;

size_t
copy_from_user_nocache(void *dst, const void *src, size_t n)
{
	nocache_copies++;
	nocache_bytes += n;
	return copy_from_user_partial(dst, src, n);
}

/* No SMAP here: the user-access window (epoll's stores) is plain stores to host memory. */
bool uaccess_smap;

int
copy_to_user(void *dst, const void *src, size_t n)
{
	size_t good = user_good(dst, n);

	if (good)
		memcpy(dst, src, good);
	return good == n ? 0 : -EFAULT;
}

int
clear_user(void *dst, size_t n)
{
	size_t good = user_good(dst, n);

	memset(dst, 0, good);
	return good == n ? 0 : -EFAULT;
}

long
strncpy_from_user(char *dst, const char *src, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (!user_good(src + i, 1))
			return -EFAULT;
		dst[i] = src[i];
		if (!dst[i])
			return (long)i;
	}
	return -ENAMETOOLONG;
}
#endif

/* ---- locks, sleeping, time --------------------------------------------------- */

void
mutex_init(struct mutex *m, const char *name)
{
	m->owner = NULL;
	m->name = name;
}

void
mutex_lock(struct mutex *m)
{
	if (m->owner)
		panic("mutex %s taken twice (a deadlock)", m->name);
	m->owner = current();
}

/* One thread, no signals: a killable wait always gets the lock. */
int
mutex_lock_killable(struct mutex *m)
{
	mutex_lock(m);
	return 0;
}

bool
mutex_trylock(struct mutex *m)
{
	if (m->owner)
		return false;
	m->owner = current();
	return true;
}

void
mutex_unlock(struct mutex *m)
{
	if (!m->owner)
		panic("mutex %s released but not held", m->name);
	m->owner = NULL;
}

bool
mutex_is_held_by_me(const struct mutex *m)
{
	return m->owner == current();
}

static void (*other_side)(void); /* what "another process" does while we sleep */
static int sleeps;		 /* times schedule() or schedule_timeout_ns() slept */
static u64 fake_ns;

void
wait_queue_init(struct wait_queue *q)
{
	spin_lock_init(&q->lock, "waitq");
	list_init(&q->waiters);
}

void
prepare_to_wait(struct wait_queue *q, struct wait_entry *e)
{
	e->task = current();
	e->func = NULL;
	if (list_empty(&e->link))
		list_add_tail(&e->link, &q->waiters);
	current()->state = TASK_SLEEPING;
}

void
set_current_sleeping(void)
{
	current()->state = TASK_SLEEPING;
}

void
wake_up_task(struct task *t)
{
	if (t->state == TASK_SLEEPING)
		t->state = TASK_RUNNABLE;
}

void
add_wait_queue_func(struct wait_queue *q, struct wait_entry *e, wake_func_t func)
{
	e->task = NULL;
	e->func = func;
	list_add_tail(&e->link, &q->waiters);
}

void
add_wait_queue_exclusive_func(struct wait_queue *q, struct wait_entry *e, wake_func_t func)
{
	add_wait_queue_func(q, e, func);
}

void
remove_wait_queue(struct wait_queue *q, struct wait_entry *e)
{
	list_del(&e->link);
}

void
finish_wait(struct wait_queue *q, struct wait_entry *e)
{
	list_del(&e->link);
	current()->state = TASK_RUNNABLE;
}

void
wake_up_common(struct wait_queue *q, bool one_exclusive) /* host tests queue no exclusive entries */
{
	struct list_head *pos;

	list_for_each(pos, &q->waiters) {
		struct wait_entry *e = list_entry(pos, struct wait_entry, link);
		if (e->func)
			e->func(e);
		else
			e->task->state = TASK_RUNNABLE;
	}
}

/* /dev/urandom's bytes: no generator here, only something that is not zeros. */
long
random_read_user(void *buf, size_t len)
{
	memset(buf, 0x5a, len);
	return (long)len;
}

/* The kernel's random bytes (netlink's port ids): the same stand-in. */
void
get_random_bytes(void *buf, size_t n)
{
	memset(buf, 0x5a, n);
}

/* Writes to /dev/urandom and its ioctls: nothing to mix into here. */
long
random_write_user(const void *buf, size_t len)
{
	return (long)len;
}

long
random_ioctl(unsigned cmd, unsigned long arg)
{
	return -EINVAL;
}

bool
task_interrupted(void)
{
	return false;
}

static int signal_sent_self; /* the last signal the code under test raised on its caller */

void
signal_send_self(int sig)
{
	signal_sent_self = sig;
}

/* A lease break's signal to its holder (fs/leases.c): one process here, which it counts. */
struct spinlock tasks_lock = SPINLOCK_INIT("tasks");
/* No task list: pivot_root (fs_context_move_refs) finds no other task to move. */
struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
static int signals_sent;

struct task *
task_find(int pid)
{
	return pid == current()->tgid ? current() : NULL;
}

int
signal_send_process(struct task *p, const struct kernel_siginfo *info)
{
	signals_sent++;
	return 0;
}

/* ppoll/pselect6's masks: no signals on the host. */
void
signal_set_temporary_mask(u64 mask)
{
}

void
signal_restore_temporary_mask(bool interrupted)
{
}

long
signal_set_temporary_mask_user(const u64 __user *mask, size_t size)
{
	return size == sizeof(*mask) ? 0 : -EINVAL;
}

void
schedule(void)
{
	if (current()->state != TASK_SLEEPING)
		return;
	if (!other_side)
		panic("schedule: the task would sleep forever (nothing else runs in this test)");
	sleeps++;
	void (*fn)(void) = other_side;
	other_side = NULL;
	fn();
	if (current()->state == TASK_SLEEPING)
		panic("schedule: the other side ran but did not wake the task");
}

u64
schedule_timeout_ns(u64 ns)
{
	if (current()->state == TASK_SLEEPING && other_side) {
		schedule();
		return 0;
	}
	sleeps++;
	fake_ns += ns; /* nobody woke us: the timeout passes */
	current()->state = TASK_RUNNABLE;
	return 0;
}

u64
ns_since_boot(void)
{
	return fake_ns;
}

/* Wall-clock time for file stamps: some day in 2026, moving with the fake clock. */
u64
timekeeping_read_ns(int clock)
{
	return 1780000000ull * 1000000000ull + fake_ns;
}

/* /dev/userfaultfd (fs/userfaultfd.c) needs an address space: none here. */
void
userfaultfd_dev_init(void)
{
}

/*
 * The console device as drivers/tty.c provides it (console_dev_init and
 * console_open, fs/vfs.h), reduced to what the tests need: writes are
 * kept, reads are at EOF.
 */
static char console_out[4096];
static size_t console_len;

static long
test_console_read(struct file *f, char *buf, size_t n, u64 *pos)
{
	return 0;
}

static long
test_console_write(struct file *f, const char *buf, size_t n, u64 *pos)
{
	size_t room = sizeof(console_out) - console_len;

	if (copy_from_user(console_out + console_len, buf, MIN(n, room)))
		return -EFAULT;
	console_len += MIN(n, room);
	return (long)n;
}

static const struct file_operations test_console_fops = {
	.read = test_console_read,
	.write = test_console_write,
};

void
console_dev_init(void)
{
	devfs_register("console", MKDEV(5, 1), &test_console_fops, NULL);
}

struct file *
console_open(void)
{
	struct file *f;

	return file_open_at(AT_FDCWD, "/dev/console", O_RDWR | O_NOCTTY, 0, &f) ? NULL : f;
}

/* No address spaces here: no mapping of a truncated file to take pages from. */
void
unmap_mapping_pages(struct inode *inode, u64 first)
{
	(void)inode;
	(void)first;
}

/* Nor a shared mapping that could write a file being sealed. */
bool
i_mmap_writable(struct inode *inode)
{
	(void)inode;
	return false;
}

/* ---- the world: memory, one task, a fresh file system -------------------------- */

static u8 *ram;
static struct page *map;
static struct cpu test_cpu;
static struct task test_task;

static inline u64
free_pages_now(void)
{
	struct page_alloc_stats st;

	page_alloc_get_stats(&st);
	return st.free_pages;
}

static inline u64
kmalloc_objects_now(void)
{
	struct kmalloc_class_stats st[KMALLOC_NCLASSES];
	u64 n = 0;

	kmalloc_get_stats(st);
	for (int i = 0; i < KMALLOC_NCLASSES; i++)
		n += st[i].objects_in_use;
	return n;
}

/* A new machine: 16 MiB of RAM, an empty ramfs with /dev, and the task in "/". */
static void
fs_setup(void)
{
	enum { NPAGES = 4096 };
	u64 first;

	free(ram);
	free(map);
	memset(name_hash, 0, sizeof(name_hash)); /* dentry.c's index pointed into the old RAM */
	ram = aligned_alloc(PAGE_SIZE, NPAGES * PAGE_SIZE);
	map = calloc(NPAGES, sizeof(*map));
	first = (uintptr_t)ram >> PAGE_SHIFT;
	page_alloc_init(map, first, NPAGES);
	page_alloc_release_range(first, first + NPAGES);
	kmalloc_init();

	test_cpu.self = &test_cpu;
	test_cpu.current = &test_task;
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, &test_cpu) != 0)
		abort();
	memset(&test_task, 0, sizeof(test_task));
	test_task.state = TASK_RUNNABLE;
	test_task.group_leader = &test_task; /* a process of one task: its limits are its own */
	test_task.caps =
		(struct cap_sets){ .effective = CAP_FULL_SET, /* root's, as the first process */
				   .permitted = CAP_FULL_SET,
				   .bounding = CAP_FULL_SET };
	for (unsigned r = 0; r < RLIM_NLIMITS; r++)
		test_task.rlim[r] = (struct kernel_rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	test_task.rlim[RLIMIT_NOFILE] = (struct kernel_rlimit){ NR_OPEN, NR_OPEN };
	poison_lo = poison_hi = 0;
	other_side = NULL;
	sleeps = 0;
	fake_ns = 0;
	console_len = 0;

	vfs_init();
	test_task.files = files_alloc();
	test_task.fs = fs_context_root();
}

/* Closes the task's files and context: what is left is the tree itself. */
static inline void
fs_teardown_task(void)
{
	files_put(test_task.files);
	fs_context_put(test_task.fs);
	test_task.files = NULL;
	test_task.fs = NULL;
}

/* ---- helpers ---------------------------------------------------------------------- */

/* A file made with contents s (and size strlen(s)). */
static inline void
make_file(const char *path, const char *s)
{
	int fd = (int)do_sys_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0 || do_sys_write(fd, s, strlen(s)) != (long)strlen(s) || do_sys_close(fd))
		panic("make_file %s failed", path);
}

static inline struct kernel_stat
stat_of(const char *path)
{
	struct kernel_stat st;

	memset(&st, 0xee, sizeof(st));
	if (do_sys_stat(path, &st))
		st.st_mode = 0;
	return st;
}

#endif

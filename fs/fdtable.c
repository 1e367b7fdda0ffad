/*
 * fdtable.c - per-process file descriptor tables: which open file each fd
 * number refers to, and its close-on-exec bit.
 *
 * A table starts with 64 slots and doubles as needed; the lowest free
 * number is always the one handed out, as POSIX requires, and it stays
 * below the process's RLIMIT_NOFILE (kernel/process/rlimit.h). The lock is a
 * spinlock held only to read or swap slots: a file is never released
 * under it (release may sleep), and arrays are allocated outside it.
 * Threads share one table (counted); fork copies it, taking a reference on
 * every open file; close_range closes (or marks) a range of numbers at
 * once. Not here: what the files are (file.c).
 */
#include "fs/vfs.h"
#include "uapi/close_range.h"
#include "uapi/errno.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/task.h"
#include "mm/kmalloc.h"

#define FD_INITIAL    64
#define BITS_PER_WORD 64

unsigned long nr_open = NR_OPEN_DEFAULT;

static struct files *
current_files(void)
{
	struct task *t = current();

	return t ? t->files : NULL;
}

static bool
cloexec_test(const struct files *files, unsigned fd)
{
	return files->cloexec[fd / BITS_PER_WORD] & (1ul << (fd % BITS_PER_WORD));
}

static void
cloexec_assign(struct files *files, unsigned fd, bool on)
{
	u64 bit = 1ul << (fd % BITS_PER_WORD);

	if (on)
		files->cloexec[fd / BITS_PER_WORD] |= bit;
	else
		files->cloexec[fd / BITS_PER_WORD] &= ~bit;
}

/* Arrays for max slots, zeroed: true, or false when out of memory. */
static bool
arrays_alloc(unsigned max, struct file ***fd, u64 **cloexec)
{
	*fd = kzalloc(max * sizeof(**fd));
	*cloexec = kzalloc(max / BITS_PER_WORD * sizeof(**cloexec));
	if (*fd && *cloexec)
		return true;
	kfree(*fd);
	kfree(*cloexec);
	return false;
}

static struct files *
files_new(unsigned max)
{
	struct files *files = kzalloc(sizeof(*files));

	if (!files)
		return NULL;
	if (!arrays_alloc(max, &files->fd, &files->cloexec)) {
		kfree(files);
		return NULL;
	}
	files->refcount = 1;
	files->max = max;
	spin_lock_init(&files->lock, "files");
	return files;
}

struct files *
files_alloc(void)
{
	return files_new(FD_INITIAL);
}

struct files *
files_share(struct files *files)
{
	__atomic_add_fetch(&files->refcount, 1, __ATOMIC_RELAXED);
	return files;
}

/* Whether fd is open in files or above it (files->lock held). */
static bool
open_at_or_above(const struct files *files, unsigned long fd)
{
	for (unsigned i = files->max; i-- > 0 && i >= fd;) {
		if (files->fd[i])
			return true;
	}
	return false;
}

struct files *
files_dup(struct files *old, int *err)
{
	for (;;) {
		unsigned max = READ_ONCE(old->max);
		struct files *files = files_new(max);
		*err = -ENOMEM;
		if (!files)
			return NULL;
		spin_lock(&old->lock);
		if (open_at_or_above(old, READ_ONCE(nr_open))) {
			/* Linux's dup_fd: the copy could not hold it (fs.nr_open was lowered since). */
			spin_unlock(&old->lock);
			files_put(files);
			*err = -EMFILE;
			return NULL;
		}
		if (old->max == max) {
			for (unsigned fd = 0; fd < max; fd++) {
				if (old->fd[fd])
					files->fd[fd] = file_get(old->fd[fd]);
			}
			memcpy(files->cloexec, old->cloexec, max / BITS_PER_WORD * sizeof(u64));
			spin_unlock(&old->lock);
			return files;
		}
		spin_unlock(&old->lock); /* it grew meanwhile: again, bigger */
		files_put(files);
	}
}

/*
 * A descriptor of f in files is gone: its process's record locks on f go
 * with it (POSIX), and so does an F_NOTIFY request made through it.
 */
static void
close_file(struct files *files, struct file *f)
{
	locks_remove_posix(f, files);
	dnotify_flush(f, files);
	file_put(f);
}

void
files_put(struct files *files)
{
	if (!files || __atomic_sub_fetch(&files->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	for (unsigned fd = 0; fd < files->max; fd++) {
		if (files->fd[fd])
			close_file(files, files->fd[fd]);
	}
	kfree(files->fd);
	kfree(files->cloexec);
	kfree(files);
}

/* Takes the file out of slot fd (lock held); NULL if it was free. */
static struct file *
slot_take(struct files *files, unsigned fd)
{
	struct file *f = files->fd[fd];

	files->fd[fd] = NULL;
	cloexec_assign(files, fd, false);
	return f;
}

void
files_close_on_exec(struct files *files)
{
	spin_lock(&files->lock);
	for (unsigned fd = 0; fd < files->max; fd++) {
		if (!files->fd[fd] || !cloexec_test(files, fd))
			continue;
		struct file *f = slot_take(files, fd);
		spin_unlock(&files->lock);
		close_file(files, f);
		spin_lock(&files->lock);
	}
	spin_unlock(&files->lock);
}

/* How many fd numbers the process may use: its RLIMIT_NOFILE. */
unsigned
fd_limit(void)
{
	return (unsigned)MIN(rlimit(RLIMIT_NOFILE), (u64)READ_ONCE(nr_open));
}

/* Makes room for slot fd (fd < fd_limit()): 0 or -ENOMEM. */
static int
files_expand(struct files *files, unsigned fd)
{
	unsigned max = READ_ONCE(files->max);
	struct file **newfd;
	u64 *newbits;

	if (fd < max)
		return 0;
	while (max <= fd)
		max *= 2;
	if (!arrays_alloc(max, &newfd, &newbits))
		return -ENOMEM;
	spin_lock(&files->lock);
	if (files->max < max) {
		memcpy(newfd, files->fd, files->max * sizeof(*newfd));
		memcpy(newbits, files->cloexec, files->max / BITS_PER_WORD * sizeof(*newbits));
		struct file **oldfd = files->fd;
		u64 *oldbits = files->cloexec;
		files->fd = newfd;
		files->cloexec = newbits;
		files->max = max;
		newfd = oldfd;
		newbits = oldbits;
	}
	spin_unlock(&files->lock);
	kfree(newfd); /* the old arrays, or ours if another thread grew it first */
	kfree(newbits);
	return 0;
}

int
fd_alloc(struct file *f, int min, bool cloexec)
{
	struct files *files = current_files();

	unsigned limit = fd_limit();

	if (!files)
		return -EMFILE;
	for (;;) {
		spin_lock(&files->lock);
		for (unsigned fd = (unsigned)min; fd < MIN(files->max, limit); fd++) {
			if (!files->fd[fd]) {
				files->fd[fd] = f;
				cloexec_assign(files, fd, cloexec);
				spin_unlock(&files->lock);
				return (int)fd;
			}
		}
		unsigned want = MAX(files->max, (unsigned)min);
		spin_unlock(&files->lock);
		if (want >= limit)
			return -EMFILE;
		int err = files_expand(files, want);
		if (err)
			return err;
	}
}

int
fd_install_new(struct file *f, bool cloexec)
{
	int fd = fd_alloc(f, 0, cloexec);

	if (fd < 0)
		file_put(f);
	return fd;
}

int
fd_replace(int fd, struct file *f, bool cloexec)
{
	struct files *files = current_files();

	if (!files || fd < 0 || (unsigned)fd >= fd_limit())
		return -EBADF;
	int err = files_expand(files, (unsigned)fd);
	if (err)
		return err;
	spin_lock(&files->lock);
	struct file *old = files->fd[fd];
	files->fd[fd] = f;
	cloexec_assign(files, (unsigned)fd, cloexec);
	spin_unlock(&files->lock);
	if (old)
		close_file(files, old);
	return fd;
}

int
fd_close(int fd)
{
	struct files *files = current_files();
	struct file *f = NULL;

	if (!files || fd < 0)
		return -EBADF;
	spin_lock(&files->lock);
	if ((unsigned)fd < files->max)
		f = slot_take(files, (unsigned)fd);
	spin_unlock(&files->lock);
	if (!f)
		return -EBADF;
	close_file(files, f);
	return 0;
}

/*
 * Gives the calling thread a table of its own when it shares one
 * (unshare(CLONE_FILES)): 0, -ENOMEM, or -EMFILE when it holds an fd at
 * or above fs.nr_open. Swapped under tasks_lock, as exit
 * does, for procfs's sake.
 */
int
files_unshare(void)
{
	struct task *t = current();
	struct files *old = t->files;

	if (__atomic_load_n(&old->refcount, __ATOMIC_ACQUIRE) == 1)
		return 0;
	int err;
	struct files *copy = files_dup(old, &err);
	if (!copy)
		return err;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	t->files = copy;
	spin_unlock_irqrestore(&tasks_lock, flags);
	files_put(old);
	return 0;
}

/*
 * close_range (Linux 5.9): closes every open fd from first to last, or with
 * CLOSE_RANGE_CLOEXEC marks them close-on-exec; with CLOSE_RANGE_UNSHARE the
 * calling thread first gets its own copy of a shared table, so that the
 * threads or CLONE_FILES children it shares with keep theirs. Free numbers
 * in the range are no error.
 */
SYSCALL3(close_range, unsigned, first, unsigned, last, unsigned, flags)
{
	int err = 0;

	if ((flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)) || first > last)
		return -EINVAL;
	if (flags & CLOSE_RANGE_UNSHARE)
		err = files_unshare();
	if (err)
		return err;
	struct files *files = current_files();
	spin_lock(&files->lock);
	for (unsigned fd = first; fd < files->max && fd <= last; fd++) {
		if (!files->fd[fd])
			continue;
		if (flags & CLOSE_RANGE_CLOEXEC) {
			cloexec_assign(files, fd, true);
			continue;
		}
		struct file *f = slot_take(files, fd);
		spin_unlock(&files->lock); /* release may sleep */
		close_file(files, f);
		spin_lock(&files->lock);
	}
	spin_unlock(&files->lock);
	return 0;
}

struct file *
fd_get_raw(int fd)
{
	struct files *files = current_files();

	return files ? files_lookup(files, fd) : NULL;
}

struct file *
files_lookup_cloexec(struct files *files, int fd, bool *cloexec)
{
	struct file *f = NULL;

	if (fd < 0)
		return NULL;
	spin_lock(&files->lock);
	if ((unsigned)fd < files->max && files->fd[fd]) {
		f = file_get(files->fd[fd]);
		if (cloexec)
			*cloexec = cloexec_test(files, (unsigned)fd);
	}
	spin_unlock(&files->lock);
	return f;
}

struct file *
files_lookup(struct files *files, int fd)
{
	return files_lookup_cloexec(files, fd, NULL);
}

int
files_next_fd(struct files *files, int from)
{
	int found = -1;

	spin_lock(&files->lock);
	for (unsigned fd = (unsigned)MAX(from, 0); fd < files->max && found < 0; fd++)
		if (files->fd[fd])
			found = (int)fd;
	spin_unlock(&files->lock);
	return found;
}

unsigned
fd_table_size(void)
{
	struct files *files = current_files();
	unsigned max = 0;

	if (files) {
		spin_lock(&files->lock);
		max = files->max;
		spin_unlock(&files->lock);
	}
	return max;
}

struct file *
fd_get(int fd)
{
	struct file *f = fd_get_raw(fd);

	if (f && (f->fmode & FMODE_PATH)) {
		file_put(f);
		return NULL;
	}
	return f;
}

/*
 * The table is ours alone when its count is 1: another thread would hold a
 * count, and so would a /proc/<pid>/fd reader (files_share), which only
 * reads. Only this task changes the slots then, and it is here.
 */
static inline struct fd
fdget_any(int fd)
{
	struct files *files = current_files();

	if (!files || fd < 0)
		return (struct fd){ NULL, false };
	if (__atomic_load_n(&files->refcount, __ATOMIC_ACQUIRE) != 1) {
		struct file *f = fd_get_raw(fd);
		return (struct fd){ f, f != NULL };
	}
	return (struct fd){ (unsigned)fd < files->max ? files->fd[fd] : NULL, false };
}

struct fd
fdget_raw(int fd)
{
	return fdget_any(fd);
}

/* fdget_any inline here: every read and write looks its fd up through this. */
struct fd
fdget(int fd)
{
	struct fd f = fdget_any(fd);

	if (f.file && (f.file->fmode & FMODE_PATH)) {
		fdput(f);
		return (struct fd){ NULL, false };
	}
	return f;
}

/* FD_CLOEXEC or 0 for an open fd, -EBADF otherwise; with set, also changes it. */
static int
cloexec_access(int fd, bool set, bool on)
{
	struct files *files = current_files();
	int ret = -EBADF;

	if (!files || fd < 0)
		return -EBADF;
	spin_lock(&files->lock);
	if ((unsigned)fd < files->max && files->fd[fd]) {
		ret = cloexec_test(files, (unsigned)fd) ? FD_CLOEXEC : 0;
		if (set)
			cloexec_assign(files, (unsigned)fd, on);
	}
	spin_unlock(&files->lock);
	return ret;
}

int
fd_get_cloexec(int fd)
{
	return cloexec_access(fd, false, false);
}

int
fd_set_cloexec(int fd, bool on)
{
	int ret = cloexec_access(fd, true, on);

	return ret < 0 ? ret : 0;
}

int
console_open_stdio(void)
{
	struct file *f = console_open();
	int err = 0;

	if (!f)
		return -ENOENT;
	for (int fd = 0; fd < 3 && !err; fd++) {
		err = fd_replace(fd, file_get(f), false);
		if (err < 0)
			file_put(f); /* the reference that was not installed */
		else
			err = 0;
	}
	file_put(f);
	return err;
}

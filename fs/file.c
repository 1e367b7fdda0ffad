/*
 * file.c - open file descriptions: making one from a dentry as open(2)
 * does (its checks, O_TRUNC, O_PATH, O_TMPFILE), counting references, and
 * what the rest of the kernel asks of an open file (fs/fs.h: execve reads
 * through kernel_read, mmap takes pages through file_get_page).
 *
 * Not here: fd numbers (fdtable.c) or reading and writing (read_write.c).
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "kernel/landlock/landlock.h"
#include "fs/hugetlbfs.h"
#include "kernel/objcount.h"
#include "uapi/errno.h"
#include "uapi/mount.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "mm/kmalloc.h"

/* O_PATH files and inodes without operations: every operation is refused. */
static const struct file_operations empty_fops;

/* Flags that only matter while opening; the rest stay for F_GETFL. */
#define OPEN_ONLY_FLAGS (O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC)

static u32
fmode_of(u32 flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return FMODE_READ;
	case O_WRONLY:
		return FMODE_WRITE;
	case O_RDWR:
		return FMODE_READ | FMODE_WRITE;
	default:
		return 0; /* 3: neither, as in Linux (ioctl only) */
	}
}

struct file *
file_alloc(struct inode *inode, struct dentry *dentry, u32 flags)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->refcount = 1;
	f->flags = flags & ~OPEN_ONLY_FLAGS;
	f->fmode = fmode_of(flags);
	mutex_init(&f->pos_lock, "file_pos");
	list_init(&f->epitems);
	f->inode = inode_get(inode);
	f->dentry = dentry ? dget(dentry) : NULL;
	sb_pin(inode->sb); /* an open file keeps its instance mounted (umount: EBUSY) */
	f->ops = inode->fops ? inode->fops : &empty_fops;
	objcount_created(OBJ_FILE);
	return f;
}

/*
 * Write access for an open that writes or truncates: the mount's (not
 * read-only: EROFS, checked first as Linux's mnt_want_write) and the
 * inode's (no program running from it: ETXTBSY).
 */
static int
get_writer(struct inode *inode)
{
	int err = sb_get_writer(inode);

	if (err)
		return err;
	err = inode_get_write_access(inode);
	if (err)
		sb_put_writer(inode);
	return err;
}

static void
put_writer(struct inode *inode)
{
	inode_put_write_access(inode);
	sb_put_writer(inode);
}

/* Frees f without calling release: for an open that failed, and after release. */
static void
file_free(struct file *f)
{
	if (f->fmode & FMODE_WRITER)
		put_writer(f->inode);
	if (f->fmode & FMODE_READER)
		__atomic_sub_fetch(&f->inode->readcount, 1, __ATOMIC_RELAXED);
	sb_unpin(f->inode->sb);
	dput(f->dentry);
	inode_put(f->inode);
	kfree(f);
	objcount_freed(OBJ_FILE);
}

struct file *
file_get(struct file *f)
{
	__atomic_add_fetch(&f->refcount, 1, __ATOMIC_RELAXED);
	return f;
}

void
file_put(struct file *f)
{
	if (__atomic_sub_fetch(&f->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	notify_file(f, f->fmode & FMODE_WRITE ? IN_CLOSE_WRITE : IN_CLOSE_NOWRITE);
	eventpoll_release(f);
	locks_remove_file(f); /* its OFD and flock locks: nothing else can reach it now */
	if ((READ_ONCE(f->flags) & O_ASYNC) && f->ops->fasync)
		f->ops->fasync(-1, f, false); /* off its object's fasync list */
	if (f->ops->release)
		f->ops->release(f);
	file_free(f);
}

/* file_open_dentry, the new file's fmode having extra (FMODE_EXEC, FMODE_NONOTIFY) too. */
static int
open_with_fmode(struct dentry *d, u32 flags, bool permitted, u32 extra, struct file **out)
{
	struct inode *inode = d->inode;
	u32 fmode = fmode_of(flags);

	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->mode))
		return -ENOTDIR;
	if (!(flags & O_PATH) && S_ISDIR(inode->mode) &&
	    ((fmode & FMODE_WRITE) || (flags & O_TRUNC)))
		return -EISDIR;
	/* A writer, or a truncation, of a file some program runs from: -ETXTBSY. */
	bool writer = !(flags & O_PATH) && S_ISREG(inode->mode) &&
		      ((fmode & FMODE_WRITE) || (flags & O_TRUNC));
	/* A device node on a nodev mount cannot be opened, as Linux's may_open. */
	if (!(flags & O_PATH) && (S_ISCHR(inode->mode) || S_ISBLK(inode->mode)) &&
	    (READ_ONCE(inode->sb->flags) & MS_NODEV))
		return -EACCES;
	if (!permitted) {
		int err = may_open(inode, flags);
		if (err)
			return err;
	}
	if (writer) {
		int err = get_writer(inode);
		if (err)
			return err;
	}
	struct file *f = file_alloc(inode, d, flags | O_LARGEFILE);
	if (!f) {
		if (writer)
			put_writer(inode);
		return -ENOMEM;
	}
	f->fmode |= extra;
	if (writer)
		f->fmode |= FMODE_WRITER; /* kept until the last close (file_free) */
	if (S_ISREG(inode->mode) && fmode == FMODE_READ && !(flags & O_PATH))
		file_count_reader(f);
	/* Counted first, so that a lease taken meanwhile sees this open (fs/leases.c). */
	int err = S_ISREG(inode->mode) && !(flags & O_PATH) ? break_lease(inode, flags) : 0;
	if (!err && writer && (flags & O_TRUNC))
		err = vfs_truncate(inode, 0);
	if (writer && !(fmode & FMODE_WRITE)) {
		f->fmode &= ~FMODE_WRITER;
		put_writer(inode); /* O_RDONLY | O_TRUNC: only for the truncation */
	}
	if (err) {
		file_free(f);
		return err;
	}
	if (flags & O_PATH) {
		f->fmode = FMODE_PATH;
		f->ops = &empty_fops;
	} else {
		/* As Linux's fsnotify_open_perm: a listener may refuse the open before the file's own. */
		err = notify_perm(f, extra & FMODE_EXEC ? FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM
							: FAN_OPEN_PERM);
		if (!READ_ONCE(fanotify_perm_marks))
			f->fmode |= FMODE_NONOTIFY_PERM;
		if (!err && f->ops->open)
			err = f->ops->open(inode, f);
		if (err) {
			file_free(f);
			return err;
		}
	}
	notify_file(f, IN_OPEN);
	*out = f;
	return 0;
}

int
file_open_dentry(struct dentry *d, u32 flags, bool permitted, struct file **out)
{
	return open_with_fmode(d, flags, permitted, 0, out);
}

int
file_open_unnotified(struct dentry *d, u32 flags, struct file **out)
{
	return open_with_fmode(d, flags, false, FMODE_NONOTIFY, out);
}

/*
 * O_TMPFILE: a regular file in the directory at path that has no name
 * from the start (as if unlinked at once), for scratch files. linkat may
 * name it later, through its fd or /proc/self/fd/N, unless O_EXCL said
 * never (Linux's vfs_tmpfile and I_LINKABLE).
 */
static int
open_tmpfile(int dirfd, const char *path, u32 flags, u32 mode, struct walk *w, struct file **out)
{
	struct dentry *dir, *d;
	int err;

	if (!(fmode_of(flags) & FMODE_WRITE))
		return -EINVAL;
	err = path_lookup_walk(dirfd, path, true, w, &dir);
	if (err)
		return err;
	if (!S_ISDIR(dir->inode->mode))
		err = -ENOTDIR;
	else
		err = may_create(dir->inode);
	if (!err)
		err = vfs_create_unnamed(dir, S_IFREG | (mode & S_IALLUGO), &d);
	if (!err) {
		d->inode->linkable = !(flags & O_EXCL);
		err = landlock_may_open(d, flags);
		if (!err)
			err = file_open_dentry(d, flags & ~(__O_TMPFILE | O_DIRECTORY | O_CREAT),
					       true, out);
		dput(d);
	}
	dput(dir);
	return err;
}

/*
 * Looks up or creates the file at path for O_CREAT: a referenced dentry,
 * *created set if this call made it. A symbolic link there is followed
 * (not with O_EXCL: EEXIST, nor with O_NOFOLLOW: ELOOP), and a dangling
 * one creates its target, as Linux.
 */
static int
open_create(int dirfd, const char *path, u32 flags, u32 mode, struct walk *w, struct dentry **out,
	    bool *created)
{
	struct nameparent np;
	char *target = NULL;
	int err = path_parent_walk(dirfd, path, &np, w);

	if (err)
		return err;
	for (;;) {
		struct dentry *link;
		if (np.type != LAST_NORM || np.trailing_slash)
			err = -EISDIR;
		else
			err = vfs_create(np.dir, np.last, np.len, S_IFREG | (mode & S_IALLUGO),
					 flags & O_EXCL, out, created);
		if (err || !S_ISLNK((*out)->inode->mode))
			break;
		link = *out;
		err = flags & O_NOFOLLOW ? -ELOOP : follow_link(np.dir, link, w, out);
		if (err != -ENOENT || link->inode->iops->jump) {
			dput(link);
			break;
		}
		/* Dangling: create what it names, walked from the link's directory. */
		if (!target)
			target = kmalloc(PATH_MAX);
		long n = target ? link->inode->iops->readlink(link, target, PATH_MAX - 1) : -ENOMEM;
		dput(link);
		if (n < 0) {
			err = (int)n;
			break;
		}
		target[n] = '\0';
		struct dentry *dir = np.dir;
		err = path_parent_of_link(dir, target, w, &np);
		dput(dir);
		if (err)
			goto out; /* np.dir is not held */
	}
	dput(np.dir);
out:
	kfree(target);
	if (!err && S_ISDIR((*out)->inode->mode)) {
		dput(*out);
		err = -EISDIR;
	}
	return err;
}

/* The dentry an open names, looked up or created as its flags say. */
static int
open_dentry(int dirfd, const char *path, u32 flags, u32 mode, struct walk *w, struct dentry **out,
	    bool *created)
{
	if ((flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY))
		return -EINVAL;
	int err = flags & O_CREAT ? open_create(dirfd, path, flags, mode, w, out, created)
				  : path_lookup_walk(dirfd, path, !(flags & O_NOFOLLOW), w, out);
	if (err)
		return err;
	/* O_NOFOLLOW met a link: only O_PATH may hold the link itself. */
	if (S_ISLNK((*out)->inode->mode) && !(flags & O_PATH)) {
		dput(*out);
		return -ELOOP;
	}
	return 0;
}

int
file_open_resolved(int dirfd, const char *path, u32 flags, u32 mode, unsigned resolve,
		   struct file **out)
{
	struct walk w = { .resolve = resolve };
	struct dentry *d;
	bool created = false;
	int err;

	/* As Linux's open(2): O_PATH first strips what it ignores, O_TMPFILE among them. */
	if (flags & O_PATH)
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	if (flags & __O_TMPFILE) {
		if ((flags & (__O_TMPFILE | O_DIRECTORY | O_CREAT)) != (__O_TMPFILE | O_DIRECTORY))
			return -EINVAL;
		err = open_tmpfile(dirfd, path, flags, mode, &w, out);
		walk_done(&w);
		return err;
	}
	err = open_dentry(dirfd, path, flags, mode, &w, &d, &created);
	walk_done(&w);
	if (err)
		return err;
	err = landlock_may_open(d, flags);
	if (!err)
		err = file_open_dentry(d, flags, created, out);
	dput(d);
	return err;
}

int
file_open_at(int dirfd, const char *path, u32 flags, u32 mode, struct file **out)
{
	return file_open_resolved(dirfd, path, flags, mode, 0, out);
}

/* ---- fs/fs.h: what the rest of the kernel asks of an open file ---------- */

int
open_exec(const char *path, struct file **out)
{
	struct dentry *d;
	int err = path_lookup_at(AT_FDCWD, path, true, &d);

	if (err)
		return err;
	err = may_exec(d->inode);
	if (!err)
		err = landlock_may_exec(d);
	if (!err)
		err = open_with_fmode(d, O_RDONLY, true, FMODE_EXEC, out);
	dput(d);
	return err;
}

bool
file_caller_may_read(struct file *f)
{
	return inode_permission(f->inode, MAY_READ) == 0;
}

long
kernel_read(struct file *f, void *buf, size_t n, u64 off)
{
	if (!S_ISREG(f->inode->mode))
		return -EINVAL;
	return filemap_read(f->inode, (struct read_dest){ .p = buf, .kernel = true }, n, off);
}

int
file_flags(struct file *f)
{
	return (int)READ_ONCE(f->flags);
}

u64
file_size(struct file *f)
{
	return READ_ONCE(f->inode->size);
}

bool
file_on_noexec(struct file *f)
{
	return READ_ONCE(f->inode->sb->flags) & MS_NOEXEC;
}

void
file_path(struct file *f, char *buf, size_t size)
{
	if (f->inode->sb == anon_inode_sb)
		ksnprintf(buf, size, "anon_inode:%s", f->ops->name);
	else if (f->inode->sb == sockfs_sb)
		ksnprintf(buf, size, "socket:[%lu]", (unsigned long)f->inode->ino);
	else if (!f->dentry ||
		 f->inode->sb == pipefs_sb) /* a pipe, perhaps opened again (pipe_dentry) */
		ksnprintf(buf, size, "pipe:[%lu]", (unsigned long)f->inode->ino);
	else if (dentry_path(f->dentry, buf, size) < 0)
		ksnprintf(buf, size, "%s", f->dentry->name); /* too long: the last name */
}

struct page *
file_get_page(struct file *f, u64 index)
{
	return f->ops->get_page ? f->ops->get_page(f, index) : NULL;
}

unsigned
file_get_cached_pages(struct file *f, u64 first, unsigned n, struct page **pages)
{
	return f->ops->get_cached_pages ? f->ops->get_cached_pages(f, first, n, pages) : 0;
}

int
file_mmap_open(struct file *f)
{
	return f->ops->mmap ? f->ops->mmap(f) : 0;
}

enum file_mmap
file_mmap_kind(struct file *f)
{
	if (f->ops->get_page || is_hugetlbfs_inode(f->inode)) /* mm/hugetlb.c maps the latter */
		return FILE_MMAP_PAGES;
	if (S_ISCHR(f->inode->mode) && f->inode->rdev == MKDEV(1, 5)) /* /dev/zero */
		return FILE_MMAP_ANONYMOUS;
	return FILE_MMAP_UNSUPPORTED;
}

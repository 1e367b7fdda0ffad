/*
 * vfs.h - the virtual file system: inodes, dentries, open files, fd tables,
 * per-process root and cwd, and the operations a file system or device
 * plugs in. fs/fs.h is the part the rest of the kernel uses; this header is
 * for code inside fs/ and for whoever adds a device or a file system
 * (the tty, procfs).
 *
 * The objects and who keeps whom alive:
 *
 *   struct inode    a file's identity and metadata, and for a regular file
 *                   its data: the page cache (fs/filemap.c). Counted by
 *                   dentries and open files; freed with its pages when the
 *                   last reference goes (ramfs has no disk to go back to).
 *   struct dentry   a name in a directory. For ramfs the dentry tree IS the
 *                   file system: each linked dentry holds one reference on
 *                   itself (dropped by unlink/rmdir), a child holds its
 *                   parent, a dentry holds its inode. There are no negative
 *                   dentries. Other file systems (procfs) make a dentry per
 *                   lookup that lives only while used.
 *   struct file     an open file description: inode, dentry (NULL for a
 *                   pipe), flags, offset, operations. Shared by dup and
 *                   fork; counted.
 *   struct files    a process's fd table: file pointers and close-on-exec
 *                   bits, shared by threads.
 *   struct fs_context  a process's root, cwd and umask.
 *
 * Locking, from outermost to innermost (a lock is only ever taken while
 * holding locks above it):
 *   namespace_mutex (fs/mount.c)  serializes mount, remount and umount
 *   rename_lock (mutex, fs/treeops.c)  serializes renames, so the tree's
 *                                      shape changes by one rename at a time
 *   file->pos_lock (mutex)  the offset of a regular file or directory, held
 *                         across the read, write or getdents that moves it
 *                         (fs/read_write.c, fs/readdir.c); read, write and
 *                         lseek take it only when the file is shared
 *                         (its count above 1), as Linux's fdget_pos
 *   inode->lock (mutex)   a directory: its children, their names and
 *                         positions; a regular file: its size, writers and
 *                         truncation (so appends are atomic). Two directories
 *                         (rename) are locked in address order.
 *   mm->mmap_lock (rwsem, mm/)  taken by the page fault a write(2) may take
 *                         on its source buffer while it holds inode->lock
 *   inode->pages_lock (rwlock)  the page-cache index and the list of
 *                         areas mapping the file (i_mmap), so that the
 *                         page-fault path (mmap lock held) can reach file
 *                         pages without an inode mutex: a write(2) copying
 *                         from an mmap of the same file cannot deadlock.
 *                         Lookups take it to read and share it; changes
 *                         to the index or i_mmap take it to write. A
 *                         truncation holds it (write) while it takes the pages
 *                         out of every mapping; page-table locks nest in it
 *   dentry_tree_lock (spinlock, fs/dentry.c)  every dentry's parent and name
 *                         pointers, for walks upwards (.., getcwd); the
 *                         name hash's lock nests inside it
 *   files->lock, fs->lock (spinlocks)  leaves: nothing is taken under them
 *   inotify_lock (spinlock, fs/inotify.c)  every watch and event queue; the
 *                         hooks (fs/notify.h) take it under any lock above
 *                         but these; only kmalloc and the wake-up of an
 *                         instance's readers (its wait queue) nest in it
 *   mount_lock (spinlock, fs/mount.c)  the mount table and dentry->mounted;
 *                         the walk takes it only at a mount point
 *   locks_mutex (fs/locks.c)  every inode's file locks; taken by fcntl and
 *                         flock with none of the above held, and by file_put
 *                         under whatever its caller holds: nothing but
 *                         kmalloc, and tasks_lock for a lease break's
 *                         signal (fs/leases.c), is taken under it
 * Reads of regular files take no inode lock at all: they read i_size once
 * and copy from pages they hold a reference on.
 *
 * Adding a character device (the tty, /dev/console; see fs/devfs.c):
 *
 *	static const struct file_operations my_fops = { .read = ..., .write = ... };
 *	devfs_register("console", MKDEV(5, 1), &my_fops, my_data);
 *
 * makes /dev/console; each open gets a struct file with f->ops = &my_fops
 * and f->private = my_data, after calling my_fops.open if it is set.
 *
 * Adding a file system (procfs): a struct fs_type whose new_root makes the
 * root inode of an instance, inode_alloc(sb, S_IFDIR | 0555, &my_dir_iops,
 * &my_dir_fops), registered with register_filesystem; then mount(2) or
 * vfs_mount("/proc", "proc", "proc", 0, NULL) shows an instance. The walk
 * asks my_dir_iops.lookup for names under it (make a fresh dentry with
 * dentry_alloc_child and return it), and getdents asks my_dir_fops.getdents
 * (emit entries with dir_emit). Operations left NULL fail cleanly
 * (creating a file there: -EPERM ...).
 *
 *   struct super_block  one instance of a file system (fs/super.c): st_dev,
 *                   flags, limits; counted by its inodes and its mount.
 *   struct mount    an instance shown at a directory (fs/mount.c, where the
 *                   mount table's invariants are).
 */
#ifndef REWIND_VFS_H
#define REWIND_VFS_H

#include "fs/fs.h"
#include "fs/page_index.h"
#include "uapi/errno.h"
#include "kernel/lib/list.h"
#include "kernel/lib/types.h"
#include "kernel/sched/wait.h"
#include "locking/mutex.h"
#include "locking/rwlock.h"
#include "mm/uaccess.h"

/* ---- what user space sees: uapi/ ------------------------------------------ */

#include "uapi/dirent.h"
#include "uapi/fcntl.h"
#include "uapi/limits.h"
#include "uapi/poll.h"
#include "uapi/stat.h"
#include "uapi/uio.h"

/* ---- limits and mode bits of the kernel's own ----------------------------- */

#define MAX_RW_COUNT 0x7ffff000ul /* Linux clamps one read/write to this */

/*
 * Copies and checks a user iovec array of cnt (at most UIO_MAXIOV) into
 * *out (kmalloc'd; NULL and 0 for none): the total length, clamped to
 * MAX_RW_COUNT, or -EINVAL, -EFAULT, -ENOMEM (readv, process_vm_readv).
 */
long iovec_import(const struct kernel_iovec __user *uiov, int cnt, struct kernel_iovec **out);
/*
 * One read or write at *pos after read(2)'s checks (access mode, the user
 * range, the MAX_RW_COUNT clamp): bytes moved or -errno. fs/read_write.c.
 */
long vfs_read(struct file *f, char __user *buf, size_t n, u64 *pos);
long vfs_write(struct file *f, const char __user *buf, size_t n, u64 *pos);
/*
 * The segments (total bytes, as iovec_import gave) read or written at off,
 * or at the file's offset for -1 and for a file without one (io_uring's
 * reads and writes): bytes moved or -errno.
 */
long vfs_rw_iov_at(struct file *f, bool write, const struct kernel_iovec *iov, int cnt, long total,
		   s64 off);
/* fsync's work on an open file (fs/sync.c): 0, or -EINVAL for a file that cannot be synced. */
long vfs_fsync(struct file *f);
/* statx(2) (fs/stat.c): 0 or -errno. */
struct kernel_statx;
long statx_user(int dirfd, const char __user *path, int flags, unsigned mask,
		struct kernel_statx __user *usx);
/* openat(2) on a user path (fs/open.c): the new fd or -errno. */
long openat_user(int dirfd, const char __user *upath, int flags, u32 mode, unsigned resolve);
/* sendmsg(2) and recvmsg(2) on fd (fs/socket_msg.c): bytes or -errno. */
struct kernel_msghdr;
long do_sendmsg(int fd, const struct kernel_msghdr __user *uh, unsigned flags);
long do_recvmsg(int fd, struct kernel_msghdr __user *uh, unsigned flags);
/*
 * A scratch buffer of TRANSFER_CHUNK bytes in the caller's own address
 * space, through which sendfile, copy_file_range and splice move data
 * between two files' user-copying operations (fs/sendfile.c): NULL when
 * no memory is left.
 */
#define TRANSFER_CHUNK (64 * 1024ul)
char __user *transfer_buffer_get(void);
void transfer_buffer_put(char __user *buf);
/* The position a transfer starts at: *uoff when given (0 or -EFAULT), else f's. */
long transfer_offset_import(struct file *f, const s64 __user *uoff, u64 *pos);
/* Where a transfer ended: into *uoff when given (0 or -EFAULT), else f's position. */
long transfer_offset_export(struct file *f, s64 __user *uoff, u64 pos);
#define MAX_FILE_SIZE ((u64)INT64_MAX)
/*
 * How many of the n bytes from pos a regular file may grow to hold: the
 * process's RLIMIT_FSIZE and MAX_FILE_SIZE; -EFBIG when none (past the
 * rlimit, SIGXFSZ too). fs/truncate.c.
 */
long file_size_allowed(u64 pos, size_t n);
#define S_IALLUGO 07777
#define S_IXUGO	  00111

/* Device numbers as x86-64 Linux encodes them in st_rdev (new_encode_dev). */
#define MKDEV(major, minor) ((u32)(((minor)&0xff) | ((major) << 8) | (((minor) & ~0xffu) << 12)))

/* And back (huge_encode_dev's, which new_encode_dev's is the low half of): 12 bits of major, 20 of minor. */
static inline unsigned int
dev_major(u64 dev)
{
	return (unsigned int)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xffful));
}

static inline unsigned int
dev_minor(u64 dev)
{
	return (unsigned int)((dev & 0xff) | ((dev >> 12) & ~0xfful));
}

/* ---- inodes (fs/inode.c) ------------------------------------------------- */

struct dentry;
struct file;
struct super_block;
struct file_lock_context;
struct inode;
struct poll_table;
struct dir_context;

struct fs_time {
	s64 sec;
	s64 nsec;
};

struct inode_operations {
	/*
	 * Directories; called with the directory's inode->lock held (and for
	 * rename both directories' locks and rename_lock). Names are not
	 * NUL-terminated. A dentry is returned with a reference for the caller.
	 */
	int (*lookup)(struct dentry *dir, const char *name, size_t len, struct dentry **out);
	/* A new regular file, directory or device node: mode has its type bits. */
	int (*create)(struct dentry *dir, const char *name, size_t len, u32 mode,
		      struct dentry **out);
	/* Removes victim (a directory only if empty: else -ENOTEMPTY). */
	int (*unlink)(struct dentry *dir, struct dentry *victim);
	/* Moves old (a child of olddir) to newdir under name, replacing target if any. */
	int (*rename)(struct dentry *olddir, struct dentry *old, struct dentry *newdir,
		      const char *name, size_t len, struct dentry *target);
	/* Swaps a (a child of adir) and b (a child of bdir): RENAME_EXCHANGE. */
	int (*exchange)(struct dentry *adir, struct dentry *a, struct dentry *bdir,
			struct dentry *b);
	/* A new symbolic link name -> target (NUL-terminated, not empty). */
	int (*symlink)(struct dentry *dir, const char *name, size_t len, const char *target,
		       struct dentry **out);
	/* A new name for old's inode, a hard link (old is not a directory). */
	int (*link)(struct dentry *dir, const char *name, size_t len, struct dentry *old);
	/* Symbolic links: the target into buf, not NUL-terminated: bytes written (<= size). */
	long (*readlink)(struct dentry *link, char *buf, size_t size);
	/*
	 * Links that stand for an object rather than a path (/proc/<pid>/exe,
	 * fd/N): the dentry they lead to, referenced. NULL: the walk follows
	 * the text readlink gives.
	 */
	int (*jump)(struct dentry *link, struct dentry **out);
	/* Regular files: truncate or extend to size, called with inode->lock held. */
	int (*setsize)(struct inode *inode, u64 size);
	/*
	 * Or NULL (the page cache's filemap_allocate): fallocate's pages for
	 * [start, end), and the size grown to end unless keep_size; with
	 * inode->lock held. 0 or -errno.
	 */
	int (*allocate)(struct inode *inode, u64 start, u64 end, bool keep_size);
	/* The last reference is gone: free what private data and pages remain. */
	void (*evict)(struct inode *inode);
	/* May the caller access the inode as want asks: 0 or -EACCES. NULL: the mode bits decide. */
	int (*permission)(const struct inode *inode, u32 want);
};

/* 256 bytes, a kmalloc size class: a field more should take the place of one. */
struct inode {
	u32 refcount; /* atomic */
	u32 mode;     /* S_IF* type and permission bits */
	u32 nlink;    /* names (for a directory: 2 + subdirectories) */
	u32 uid, gid;
	union {
		u32 rdev; /* device nodes: MKDEV(major, minor) */
		/* regular files: open files that only read it (Linux's i_readcount, for leases) */
		u32 readcount;
	};
	struct super_block *sb; /* the file-system instance it is on, referenced */
	/* >0: open files that may write it; <0: executable mappings denying writes (write_access.c) */
	s32 writecount;
	bool dead : 1; /* a removed directory: nothing may be created in it */
	/* memfd_create's files: seals apply (fs/memfd.c); others refuse seals */
	bool sealable : 1;
	/* an O_TMPFILE file opened without O_EXCL: linkat may give it a first name (Linux's I_LINKABLE) */
	bool linkable : 1;
	u8 seals;    /* F_SEAL_*: added under lock and pages_lock (write), so either reads them */
	u16 watches; /* inotify watches and dnotify requests on it (fs/inotify.c, fs/dnotify.c) */
	u64 ino;
	u64 size; /* i_size_read; i_size_write under lock */
	struct fs_time atime, mtime, ctime;
	struct mutex lock; /* see the top of this file */
	const struct inode_operations *iops;
	const struct file_operations *fops; /* what opening it gives */
	void *private;			    /* a device's or a pipe's data */

	/* regular files: the page cache (fs/filemap.c) */
	struct rwlock pages_lock; /* read: lookups; write: changes (fs/filemap.c) */
	struct page_index pages;

	/* POSIX record locks (fs/locks.c), under its mutex: NULL until the first */
	struct file_lock_context *flctx;

	union {
		/* directories: getdents position for the next child linked */
		u64 next_pos;
		/*
		 * page-cache files: the areas mapping them (mm/i_mmap.c, Linux's
		 * i_mmap), changed under pages_lock's write side
		 */
		struct hlist_head i_mmap;
	};
};

/* i_size for readers that take no lock: pairs with i_size_write after the data is in place. */
static inline u64
i_size_read(struct inode *inode)
{
	return __atomic_load_n(&inode->size, __ATOMIC_ACQUIRE);
}

static inline void
i_size_write(struct inode *inode, u64 size)
{
	__atomic_store_n(&inode->size, size, __ATOMIC_RELEASE);
}

/*
 * A new inode of sb with one reference, its times set to now; NULL when
 * memory is short or sb holds its nr_inodes= already.
 */
struct inode *inode_alloc(struct super_block *sb, u32 mode, const struct inode_operations *iops,
			  const struct file_operations *fops);
struct inode *inode_get(struct inode *inode);
void inode_put(struct inode *inode);
/* The time to stamp on files: CLOCK_REALTIME_COARSE. */
struct fs_time fs_now(void);
/* Stamps mtime and ctime (a change of contents). */
void inode_touch(struct inode *inode);
void inode_fill_stat(struct inode *inode, struct kernel_stat *st);

/*
 * Write access to a regular file (fs/write_access.c): 0, or -ETXTBSY when
 * the other kind of holder exists (a running program; an open writer).
 */
int inode_get_write_access(struct inode *inode);
void inode_put_write_access(struct inode *inode);
int inode_deny_write_access(struct inode *inode);
void inode_allow_write_access(struct inode *inode);

/* ---- dentries (fs/dentry.c) ---------------------------------------------- */

struct dentry {
	u32 refcount; /* atomic */
	char *name;   /* kmalloc'd, NUL-terminated; dentry_tree_lock */
	size_t len;
	struct dentry *parent;	    /* referenced; the root is its own; dentry_tree_lock */
	struct inode *inode;	    /* referenced; never NULL */
	struct list_head children;  /* ramfs directory: linked children, by pos */
	struct list_head sibling;   /* in the parent's children */
	struct list_head hash_link; /* in the name index, while linked (dentry.c) */
	u64 pos;		    /* getdents position in the parent */
	bool linked;		    /* in its parent's children (holds a self reference) */
	bool deleted;		    /* unlinked: its name is gone */
	u32 mounted; /* mounts on it (fs/mount.c): the walk crosses into the top one */
};

/* The root of everything (fs/mount.c). */
extern struct dentry *vfs_root;
/* /proc/sys/fs/mount-max: the most mounts, the root's included (fs/mount.c); at least 1. */
extern unsigned long mount_max;

/* The root dentry (its own parent), taking over the reference on inode. */
struct dentry *dentry_alloc_root(struct inode *inode);
/* A mount's root covering mountpoint (fs/mount.c), taking over the reference on inode. */
struct dentry *dentry_alloc_mount_root(struct inode *inode, struct dentry *mountpoint);
/* A mount's root, moved (pivot_root), now covers mountpoint: its parent and name. 0 or -ENOMEM. */
int dentry_cover(struct dentry *root, struct dentry *mountpoint);
/* A dentry named name under parent, taking over the caller's reference on inode. */
struct dentry *dentry_alloc_child(struct dentry *parent, const char *name, size_t len,
				  struct inode *inode);
struct dentry *dget(struct dentry *d);
void dput(struct dentry *d);
/* d's parent, referenced (d itself for the root). */
struct dentry *dget_parent(struct dentry *d);
/* The same, and d's name copied into name (NUL-terminated): its length in *len. */
struct dentry *dget_parent_name(struct dentry *d, char name[NAME_MAX + 1], size_t *len);
/* A lazily unmounted tree's root: its own parent from now on (fs/dentry.c). */
void dentry_make_root(struct dentry *d);
/* The linked child of parent called name, referenced, or NULL (the parent's inode->lock held). */
struct dentry *dentry_find_child(struct dentry *parent, const char *name, size_t len);
/* A linked name of sb's inode number ino, referenced, or NULL (a scan of every name: slow). */
struct dentry *dentry_find_inode(struct super_block *sb, u64 ino);
/* Links d into its parent's children (the parent's inode->lock held). */
void dentry_link(struct dentry *d);
/* Unlinks d (the parent's inode->lock held); drops the self reference. */
void dentry_unlink(struct dentry *d);
/* Moves d under newparent with a new name (rename_lock and both parents' locks held). */
int dentry_move(struct dentry *d, struct dentry *newparent, const char *name, size_t len);
/* a and b swap their places in the tree (rename_lock and both parents' locks held). */
void dentry_exchange(struct dentry *a, struct dentry *b);
/* Whether anc is d or one of d's ancestors. */
bool dentry_is_ancestor(struct dentry *anc, struct dentry *d);
/*
 * The absolute path of d into buf: its length (without the NUL), or
 * -ERANGE when it does not fit. A deleted dentry's path gets " (deleted)".
 */
long dentry_path(struct dentry *d, char *buf, size_t size);
/* The same as a process whose root is root sees it (getcwd), "(unreachable)/..." outside it. */
long dentry_path_from(struct dentry *d, struct dentry *root, char *buf, size_t size);

/* ---- path walk (fs/namei.c) ---------------------------------------------- */

#include "fs/namei.h" /* struct nameparent, struct walk, the path_* and lookup_* calls */

/* ---- open files (fs/file.c) ---------------------------------------------- */

/* What reads and writes may do with a file (file->fmode). */
#define FMODE_READ     1u
#define FMODE_WRITE    2u
#define FMODE_PATH     4u  /* O_PATH: only a handle on a name */
#define FMODE_WRITER   8u  /* holds write access to its regular file (fs/write_access.c) */
#define FMODE_READER   16u /* counted in its regular file's readcount (fs/leases.c) */
#define FMODE_EXEC     32u /* opened by execve to run (fanotify's FAN_OPEN_EXEC) */
#define FMODE_NONOTIFY 64u /* a fanotify event's file: its use makes no events */
/* Opened while no fanotify permission mark existed: it never asks (fs/fanotify_perm.c). */
#define FMODE_NONOTIFY_PERM 128u

#include "fs/fown.h" /* struct fown, F_SETOWN, O_ASYNC and F_NOTIFY */

struct procbuf; /* fs/proc/text.h */

struct file_operations {
	/* Called once per open; may set f->private. */
	int (*open)(struct inode *inode, struct file *f);
	/* Both move *pos for files with offsets; pipes and devices may ignore it. */
	long (*read)(struct file *f, char __user *buf, size_t n, u64 *pos);
	long (*write)(struct file *f, const char __user *buf, size_t n, u64 *pos);
	/* NULL: the file cannot seek (-ESPIPE), nor pread/pwrite. */
	s64 (*llseek)(struct file *f, s64 off, int whence);
	int (*getdents)(struct file *f, struct dir_context *ctx);
	/* The POLL* mask ready now, after poll_wait on every queue that may change it. */
	unsigned (*poll)(struct file *f, struct poll_table *pt);
	long (*ioctl)(struct file *f, unsigned cmd, unsigned long arg);
	/* O_ASYNC turns on or off (fasync_helper); fd -1 at the last close. 0 or -errno. */
	int (*fasync)(int fd, struct file *f, bool on);
	/* The last reference is gone. */
	void (*release)(struct file *f);
	/* mmap: page index of the file with a reference, as file_get_page (fs.h). */
	struct page *(*get_page)(struct file *f, u64 index);
	/*
	 * Or NULL: whether a new area may map the file now, asked once the
	 * range it replaces is unmapped (Linux's f_op->mmap): 0 or -errno.
	 */
	int (*mmap)(struct file *f);
	/* Or NULL: the pages already cached, as file_get_cached_pages (fs.h). */
	unsigned (*get_cached_pages)(struct file *f, u64 first, unsigned n, struct page **pages);
	/* Or NULL: the kind's own lines after /proc/<pid>/fdinfo/N's common ones (inotify's watches). */
	void (*show_fdinfo)(struct file *f, struct procbuf *b);
	/* A nameless file's kind, "[eventpoll]": /proc/<pid>/fd shows "anon_inode:[eventpoll]". */
	const char *name;
};

struct file {
	u32 refcount;	       /* atomic */
	u32 flags;	       /* O_* status flags: O_APPEND, O_NONBLOCK ... */
	u32 fmode;	       /* FMODE_* */
	struct fown owner;     /* F_SETOWN's: who hears of I/O (fs/fown.c), under tasks_lock */
	u64 pos;	       /* under pos_lock */
	struct mutex pos_lock; /* regular files and directories */
	struct inode *inode;   /* referenced */
	struct dentry *dentry; /* referenced; NULL for pipes */
	const struct file_operations *ops;
	void *private;
	struct list_head epitems; /* the epoll instances watching it (fs/eventpoll.c) */
	int signum; /* F_SETSIG: what O_ASYNC, dnotify and a lease break send; 0 is SIGIO */
};

/* A new file on inode (and dentry, may be NULL), taking references on both. */
struct file *file_alloc(struct inode *inode, struct dentry *dentry, u32 flags);
/*
 * Opens an existing dentry as open(2) does after the walk: 0 or -errno.
 * permitted: the caller created the file or checked its own permission
 * (execve), so may_open is not asked.
 */
int file_open_dentry(struct dentry *d, u32 flags, bool permitted, struct file **out);
/* The same for a fanotify listener: the file's use makes no events (FMODE_NONOTIFY). */
int file_open_unnotified(struct dentry *d, u32 flags, struct file **out);
/* open(2) on a kernel path: creates with exactly mode (no umask) for O_CREAT. */
int file_open_at(int dirfd, const char *path, u32 flags, u32 mode, struct file **out);
/* The same with openat2's RESOLVE_* flags narrowing the walk. */
int file_open_resolved(int dirfd, const char *path, u32 flags, u32 mode, unsigned resolve,
		       struct file **out);

/*
 * Copies and checks an iovec array from user memory (fs/read_write.c):
 * the total length (clamped to MAX_RW_COUNT), or -errno; *out is kfree'd by the caller.
 */
long iovec_import(const struct kernel_iovec __user *uiov, int cnt, struct kernel_iovec **out);

/* ---- sockets (fs/socket.c) ------------------------------------------------ */

/*
 * Socket files and the instance their inodes are on (made by vfs_init);
 * socket_fops is also a socket name's in the tree, whose open is ENXIO.
 */
extern struct super_block *sockfs_sb;
extern struct fs_type sockfs_type;
extern const struct file_operations socket_fops;

/* ---- files with no name (fs/anon_inode.c) ------------------------------- */

extern struct super_block *anon_inode_sb;
/* Makes the instance and its one inode (vfs_init). */
void anon_inode_init(void);
/* A new nameless file as below, referenced, not yet in the fd table; NULL when memory is short. */
struct file *anon_inode_getfile(const struct file_operations *fops, void *priv, u32 flags);
/*
 * A new fd for a nameless file with operations fops and private data priv:
 * flags' access mode and O_NONBLOCK go to the file, O_CLOEXEC to the fd.
 * The fd, or -errno and priv is still the caller's to free.
 */
int anon_inode_getfd(const struct file_operations *fops, void *priv, u32 flags);

/* eventfd (fs/eventfd.c): whether f is one, and adding n to its count from the kernel. */
bool file_is_eventfd(const struct file *f);
void eventfd_signal(struct file *f, u64 n);

/* ---- epoll (fs/eventpoll.c) ---------------------------------------------- */

/* f's last reference is gone: every epoll instance watching it forgets it (file_put). */
void eventpoll_release(struct file *f);

/* ---- fd tables (fs/fdtable.c) -------------------------------------------- */

struct files {
	u32 refcount; /* atomic */
	struct spinlock lock;
	unsigned max; /* slots in fd[] */
	struct file **fd;
	u64 *cloexec; /* one bit per slot */
};

/* fd_get (fs.h) refuses O_PATH files, as most calls must; this one takes them too. */
struct file *fd_get_raw(int fd);
/* The file at fd in files (any process's, referenced by the caller), referenced; or NULL. */
struct file *files_lookup(struct files *files, int fd);
/* The same, and whether fd is close-on-exec (cloexec may be NULL) (/proc/<pid>/fdinfo). */
struct file *files_lookup_cloexec(struct files *files, int fd, bool *cloexec);
/* The lowest open fd >= from in files, or -1 (/proc/<pid>/fd). */
int files_next_fd(struct files *files, int from);
/* The slots in the current fd table now: no fd at or above it is open (select clamps to it). */
unsigned fd_table_size(void);
/* Installs f (taking over the caller's reference) at the lowest free fd >= min. */
int fd_alloc(struct file *f, int min, bool cloexec);
/* A new file's fd: installs f at the lowest free fd, or drops it (-EMFILE ...). */
int fd_install_new(struct file *f, bool cloexec);
/* How many fd numbers the current process may use (its RLIMIT_NOFILE). */
unsigned fd_limit(void);
/* Installs f at exactly fd, closing what was there (dup2): fd or -errno. */
int fd_replace(int fd, struct file *f, bool cloexec);
int fd_close(int fd);
int fd_get_cloexec(int fd);
int fd_set_cloexec(int fd, bool on);

/* ---- per-process root, cwd, umask (fs/fs_context.c) ---------------------- */

struct fs_context {
	u32 refcount;		   /* atomic */
	struct spinlock lock;	   /* root, cwd */
	struct dentry *root, *cwd; /* referenced */
	u32 umask;
};

/* Referenced root and cwd of the current task (the global root for kernel threads). */
struct dentry *current_root(void);
struct dentry *current_cwd(void);
u32 current_umask(void);

/* ---- the page cache (fs/filemap.c) --------------------------------------- */

/* Where read data goes: user memory (read(2)) or kernel memory (kernel_read). */
struct read_dest {
	char *p;
	bool kernel;
};

/* The root file system's size in pages (the ramfs_size knob, ramfs.c). */
u64 ramfs_size_pages(void);
/* Reads from a regular file's cache: bytes read, or -EFAULT if none could be. */
long filemap_read(struct inode *inode, struct read_dest dst, size_t n, u64 pos);
/* The copy_nocache knob (filemap.c): which copies of a write() go around the cache. */
enum copy_nocache { COPY_NOCACHE_NEVER, COPY_NOCACHE_LARGE, COPY_NOCACHE_ALWAYS };
extern int copy_policy;
/* The write loop, as Linux's generic_perform_write (inode->lock held): bytes or -errno. */
long generic_perform_write(struct inode *inode, const char __user *buf, size_t n, u64 pos);
/* Why a new page-cache page could not be had: -ENOSPC (the file system is full) or -ENOMEM. */
long filemap_no_page_error(struct inode *inode);
/*
 * The page at index with a reference (put_page it), or NULL: with
 * FGP_CREATE a hole gets a new zero-filled page, with FGP_WITHIN_SIZE only
 * pages below i_size are given (the mmap fault path: past it is SIGBUS).
 */
#define FGP_CREATE	1u
#define FGP_WITHIN_SIZE 2u
struct page *filemap_get_page(struct inode *inode, u64 index, unsigned how);
/*
 * The pages at first .. first+n-1 the cache already holds below i_size,
 * each with a reference, into pages[] (NULL where there is none: nothing is
 * created). How many were found. For fault-around (mm/fault_around.c).
 */
unsigned filemap_get_cached_pages(struct inode *inode, u64 first, unsigned n, struct page **pages);
/* Truncates or extends (inode->lock held). */
void filemap_set_size(struct inode *inode, u64 size);
/*
 * Gives every page of [start, end) a cache page, i_size untouched
 * (fallocate; inode->lock held): 0, -ENOSPC, -ENOMEM, or -EINTR when the
 * task is killed meanwhile. Pages made before a failure stay, zero-filled.
 */
int filemap_allocate(struct inode *inode, u64 start, u64 end);
/*
 * Punches a hole in [start, end) below i_size (inode->lock held): the whole
 * pages in it leave the cache, a real hole (SEEK_HOLE finds it), unless
 * mapped or in use; those and the partial pages at its ends are zeroed in
 * place.
 */
void filemap_punch_hole(struct inode *inode, u64 start, u64 end);
/* Drops every page (the inode is going away). */
void filemap_evict(struct inode *inode);
/*
 * lseek's SEEK_DATA and SEEK_HOLE over the cache, as Linux's
 * mapping_seek_hole_data: a page the cache lacks is a hole, one it holds
 * data, and i_size ends the last hole. The offset, or -ENXIO for off at
 * or past i_size (and for SEEK_DATA with no data after off).
 */
s64 filemap_seek_hole_data(struct inode *inode, s64 off, int whence);

/* ---- ramfs (fs/ramfs.c) -------------------------------------------------- */

extern const struct inode_operations ramfs_dir_iops, ramfs_file_iops, ramfs_link_iops;
extern const struct file_operations ramfs_dir_fops, ramfs_file_fops;
/* A new ramfs inode of sb of mode's type: directory, regular file, symlink, or (with fops) device. */
struct inode *ramfs_new_inode(struct super_block *sb, u32 mode);
/*
 * The extended attributes of an inode of a type with xattrs (fs/xattr_store.c),
 * under inode->lock; names are whole ("user.x"). get: the value's size,
 * copied into buf unless size is 0 (-ERANGE: too small; -ENODATA: none).
 * set: create refuses an existing name (-EEXIST), replace a missing one
 * (-ENODATA). list: the names shown passes, each NUL-terminated, as get.
 */
long xattr_store_get(struct inode *inode, const char *name, void *buf, size_t size);
int xattr_store_set(struct inode *inode, const char *name, const void *value, size_t size,
		    bool create, bool replace);
int xattr_store_remove(struct inode *inode, const char *name);
long xattr_store_list(struct inode *inode, char *buf, size_t size, bool (*shown)(const char *name));
/* The inode is going: its attributes go too. */
void xattr_store_free(struct inode *inode);
/* The RAM file system's types (fs/tmpfs.c): registered by vfs_init. */
extern struct fs_type rootfs_type, tmpfs_type, ramfs_type;
/* Unlinks every name under root (an unmounted instance's): fs_type.kill_tree. */
void ramfs_kill_tree(struct dentry *root);
/* llseek for files whose offsets are bytes up to MAX_FILE_SIZE (regular files). */
s64 generic_file_llseek(struct file *f, s64 off, int whence);

/* ---- links (fs/links.c) -------------------------------------------------- */

/* A new symbolic link at path (from the cwd) to target: 0 or -errno (the initrd's links). */
int vfs_symlinkat(const char *target, int dirfd, const char *path);
/* ---- file locks (fs/locks.c) -------------------------------------------- */

struct kernel_flock;
/* fcntl's F_GETLK and F_OFD_GETLK (cmd) on f: 0 or -errno. */
long fcntl_getlk(struct file *f, int cmd, struct kernel_flock __user *ufl);
/* F_SETLK, F_SETLKW, F_OFD_SETLK and F_OFD_SETLKW (cmd) on f, which is fd: 0 or -errno. */
long fcntl_setlk(int fd, struct file *f, int cmd, const struct kernel_flock __user *ufl);
/* A descriptor of f is being closed by the process owning fd table owner: its POSIX locks go. */
void locks_remove_posix(struct file *f, struct files *owner);
/* f's last reference is going: its OFD and flock locks go. */
void locks_remove_file(struct file *f);
/* Each lock's line of /proc/locks (Linux's format, the newline included), numbered from 1. */
void locks_show(void (*emit)(void *arg, const char *line), void *arg);

/* ---- file leases (fs/leases.c) ------------------------------------------ */

/* /proc/sys/fs/lease-break-time: seconds a lease holder has to give way (45). */
extern unsigned long lease_break_time;
/* fcntl's F_SETLEASE on f, which is fd, with arg F_RDLCK, F_WRLCK or F_UNLCK: 0 or -errno. */
long fcntl_setlease(int fd, struct file *f, unsigned long arg);
/* fcntl's F_GETLEASE: the lease f holds (what it is being broken to), or F_UNLCK. */
long fcntl_getlease(struct file *f);
/*
 * An open of inode with flags (or a truncation: O_WRONLY) is about to
 * happen: breaks the leases in its way and waits for them to go, as
 * Linux's break_lease: 0, -EAGAIN (EWOULDBLOCK: O_NONBLOCK) or -ERESTARTSYS.
 */
int break_lease(struct inode *inode, u32 flags);
/* f opens its regular file for reading only: counted for write leases (fs/leases.c). */
void file_count_reader(struct file *f);

/* ---- file seals (fs/memfd.c) ------------------------------------------- */

/* fcntl's F_ADD_SEALS and F_GET_SEALS on f: the seals, 0 or -errno. */
long memfd_fcntl(struct file *f, int cmd, unsigned long arg);
/*
 * A file no directory names on inode (whose reference it takes over), open
 * read-write: its dentry is called name and marked deleted, so that
 * /proc/<pid>/fd shows "/name (deleted)" (memfds, hugetlbfs's nameless
 * files). 0 or -errno.
 */
int nameless_file_open(struct inode *inode, const char *name, size_t len, struct file **out);
/* How many of the n bytes at pos inode's seals let a write store, or -EPERM (inode->lock held). */
long seals_allow_write(struct inode *inode, u64 pos, size_t n);
/* Whether inode's seals let truncate make it size bytes long: 0 or -EPERM (inode->lock held). */
int seals_allow_resize(struct inode *inode, u64 size);

/* ---- named pipes (fs/pipe.c) -------------------------------------------- */

/*
 * A nameless dentry on pipe inode, referenced, or NULL: what an open of
 * /proc/<pid>/fd/N opens for a pipe, as a FIFO (Linux's pipefs dentry).
 */
struct dentry *pipe_dentry(struct inode *inode);

/* F_GETPIPE_SZ and F_SETPIPE_SZ on f: -EBADF unless it is a pipe or a FIFO. */
long pipe_fcntl(struct file *f, int cmd, unsigned long arg);

/* A FIFO inode's operations: its first open makes the pipe. */
extern const struct inode_operations fifo_iops;
extern const struct file_operations fifo_fops;

/* ---- directories (fs/readdir.c) ------------------------------------------ */

struct dir_context {
	u64 pos; /* position of the next entry to emit */
	char __user *buf;
	size_t size, used;
	int error; /* -EFAULT: a bad buffer; -EINVAL: no entry fits */
};

/*
 * Emits the entry at position pos (the next one will be at pos + 1):
 * false when the buffer is full or bad, and then the caller stops.
 */
bool dir_emit(struct dir_context *ctx, const char *name, size_t len, u64 ino, unsigned type,
	      u64 pos);
unsigned dt_type(u32 mode);
/* llseek for directories: positions are cookies, only SEEK_SET and SEEK_CUR. */
s64 dir_llseek(struct file *f, s64 off, int whence);

/* ---- poll (fs/poll.c) ---------------------------------------------------- */

/*
 * What a poll op is asked with: queue is called for each wait queue whose
 * wake-up may change the file's mask. poll and select queue the sleeping
 * task (fs/poll.c); epoll hooks a wake function that marks the file ready
 * (fs/eventpoll.c), as Linux's poll_table and its _qproc.
 */
struct poll_table {
	void (*queue)(struct file *f, struct wait_queue *q, struct poll_table *pt);
};

/* Called by a poll op for each queue whose wake-up may change its mask (pt may be NULL). */
void poll_wait(struct file *f, struct wait_queue *q, struct poll_table *pt);
/* The mask f is ready with now (no poll op: readable and writable, as in Linux). */
unsigned file_poll(struct file *f, struct poll_table *pt);

/* ---- file-system instances (fs/super.c) ---------------------------------- */

#include "fs/super.h" /* struct fs_type, struct super_block, the sb_* calls */

/* ---- the mount table (fs/mount.c) ---------------------------------------- */

/*
 * Mounts path's directory as a new instance of the type called type
 * (boot: /proc): 0 or -errno. source is what /proc/mounts shows for it.
 */
int vfs_mount(const char *path, const char *type, const char *source, u32 flags,
	      const char *options);
/*
 * d (referenced) or, when something is mounted on it, the root of the top
 * mount there, referenced in its place: what the walk steps onto.
 */
struct dentry *mount_follow(struct dentry *d);
/* The root inode of a mounted instance whose st_dev is dev, referenced; NULL if none (ustat). */
struct inode *mount_root_inode_of_dev(u32 dev);
/*
 * Each mount's line of /proc/mounts (Linux's format, the newline included),
 * in mount order, of namespace ns (kernel/process/nsproxy.h).
 */
struct mnt_namespace;
void mounts_show(struct mnt_namespace *ns, void (*emit)(void *ctx, const char *line), void *ctx);

/* Creates /dev/<name>: a character device with its own operations, mode 0666. */
int devfs_register(const char *name, u32 rdev, const struct file_operations *ops, void *priv);
/* The same with another mode (its permission bits). */
int devfs_register_mode(const char *name, u32 rdev, u32 mode, const struct file_operations *ops,
			void *priv);
/* A device node mknod made (its rdev set): the operations of the driver of its number, or ENXIO's. */
void devfs_bind_node(struct inode *inode);
/* /dev/null and /dev/zero (fs/mem_devices.c). */
void mem_devices_init(void);
/* /dev/userfaultfd (fs/userfaultfd.c). */
void userfaultfd_dev_init(void);
/* vm.unprivileged_userfaultfd (fs/userfaultfd.c): 1 lets anyone make kernel-fault userfaultfds. */
extern unsigned long unprivileged_userfaultfd;
/*
 * The console device (drivers/tty.c): console_dev_init registers
 * /dev/console at boot (vfs_init calls it), console_open opens it for
 * console_open_stdio (fs.h), which gives the first process its stdin,
 * stdout and stderr.
 */
void console_dev_init(void);
struct file *console_open(void);

/* ---- truncation (fs/truncate.c) ------------------------------------------ */

/* Truncates or extends a regular file: for truncate, ftruncate and O_TRUNC. */
int vfs_truncate(struct inode *inode, u64 size);
/*
 * Whether inode may grow to size (Linux's inode_newsize_ok): 0, or -EFBIG
 * past RLIMIT_FSIZE (with SIGXFSZ) or the largest file. Shrinking is free.
 */
int size_change_allowed(struct inode *inode, u64 size);

/* ---- changing the tree (fs/treeops.c) ------------------------------------ */

/* inode_permission's wants, Linux's values. */
#define MAY_EXEC  1u
#define MAY_WRITE 2u
#define MAY_READ  4u

/* Whether the caller may do all of want with inode: 0 or -EACCES (permission.c). */
int inode_permission(const struct inode *inode, u32 want);
/* Whether the caller's ids and the mode bits alone grant all of want: 0 or -EACCES. */
int generic_permission(const struct inode *inode, u32 want);
/* access(2)'s question, asked with the real ids (effective: the effective ones): 0, -EACCES, -EROFS. */
int access_permission(const struct inode *inode, u32 want, bool effective);
/* Whether the caller may open an existing inode with open(2)'s flags: 0 or -EACCES. */
int may_open(const struct inode *inode, u32 flags);
/* The file's owner, or root (Linux's inode_owner_or_capable, CAP_FOWNER). */
bool inode_owner_or_root(const struct inode *inode);
/* Whether the caller may execute inode: 0 or -EACCES. */
int may_exec(const struct inode *inode);
/* Whether the caller may add a name to dir: 0 or -EACCES. */
int may_create(const struct inode *dir);
/* A new inode's group and set-group-ID bit from a set-group-ID dir (permission.c). */
void inode_init_owner(struct inode *inode, const struct inode *dir);
/* Whether the caller may remove or replace victim's name in dir: 0, -EACCES or -EPERM (sticky). */
int may_delete(const struct inode *dir, const struct inode *victim);

/*
 * The entry name in dir, made with mode (type bits included) if missing:
 * a referenced dentry, *created (if not NULL) set when this call made it;
 * -EEXIST if it exists and excl.
 */
int vfs_create(struct dentry *dir, const char *name, size_t len, u32 mode, bool excl,
	       struct dentry **out, bool *created);
/* A new file in dir that has no name (O_TMPFILE, shared anonymous memory): a referenced, deleted
 * dentry. No permission check: the caller makes it (open_tmpfile), or needs none (fs/shmem.c). */
int vfs_create_unnamed(struct dentry *dir, u32 mode, struct dentry **out);
/* A new directory (mode as given, no umask): 0 or -errno. */
int vfs_mkdirat(int dirfd, const char *path, u32 mode);
/* Removes a name that is not a directory, as unlink(2): 0 or -errno. */
int vfs_unlinkat(int dirfd, const char *path);

#endif

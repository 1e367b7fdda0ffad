/*
 * fs.h - what the rest of the kernel needs from the file system: opening
 * and reading files from kernel code (execve), file pages for mmap, and
 * the per-process file state that fork, execve and exit manage.
 *
 * The VFS itself (inodes, dentries, files, path walk, the page cache,
 * ramfs, devices, procfs, pipes) is described in fs/vfs.h.
 */
#ifndef REWIND_FS_H
#define REWIND_FS_H

#include "kernel/lib/types.h"

struct file;
struct files;
struct fs_context;
struct dentry;
struct page;
struct boot_info;
struct cpio_source;

/* Boot: mounts the root ramfs with /dev, /proc, /tmp, then unpacks the initrd modules. */
void vfs_init(void);
void initrd_load(const struct boot_info *bi);
/* Unpacks one more cpio archive, read from src, over the root (fs/initrd.c); what names it. */
void initrd_unpack_source(const char *what, struct cpio_source *src);
/* The archive QEMU may pass through fw_cfg (tools/rewind-run's binaries), if any. */
void initrd_load_fw_cfg(void);

/*
 * Opens the program at path (relative paths from the current task's cwd)
 * for execve, read-only: 0, -EACCES (not a regular file, no execute
 * permission, a noexec mount: fs/permission.c's may_exec) or the lookup's
 * -errno. Reading is not asked of the caller.
 */
int open_exec(const char *path, struct file **out);
/* Whether the caller may read f's file, as opened (execve: a program it may only run is not dumpable). */
bool file_caller_may_read(struct file *f);
/* Reads up to n bytes at offset off: the count read, or -errno. */
long kernel_read(struct file *f, void *buf, size_t n, u64 off);
struct file *file_get(struct file *f);
void file_put(struct file *f);
u64 file_size(struct file *f);
/* Whether f is on a noexec mount (execve: EACCES; mmap with PROT_EXEC: EPERM). */
bool file_on_noexec(struct file *f);
/*
 * Denies writes to the file while something runs from it (execve, its
 * mappings): 0, or -ETXTBSY while it is open for writing. Each denial is
 * undone by one file_allow_write (fs/write_access.c).
 */
int file_deny_write(struct file *f);
void file_allow_write(struct file *f);
/* The name the file was opened by (for /proc/<pid>/maps), into buf. */
void file_path(struct file *f, char *buf, size_t size);
/*
 * The page-cache page holding page `index` of the file, with a reference
 * for the caller (put_page when done); created zero-filled if the file has
 * a hole there. NULL when index is past the end of the file (SIGBUS) or
 * memory ran out.
 */
struct page *file_get_page(struct file *f, u64 index);
/*
 * Stamps f's mtime and ctime for a change of its data made through a shared
 * mapping (fs/inode.c), unless they show the current time already or the
 * instance is read-only.
 */
void file_update_time(struct file *f);
/*
 * The pages first .. first+n-1 of the file that its cache already holds
 * below its end, referenced, into pages[] (NULL for the others): what a
 * read fault may map around the faulting page without reading or creating
 * anything. How many were found; 0 for a file without a page cache.
 */
unsigned file_get_cached_pages(struct file *f, u64 first, unsigned n, struct page **pages);
/* Whether a new area may map f now (its file_operations' mmap): 0 or -errno. */
int file_mmap_open(struct file *f);
/* What mmap of the file means: its pages, anonymous memory (/dev/zero), or nothing (-ENODEV). */
enum file_mmap { FILE_MMAP_PAGES, FILE_MMAP_ANONYMOUS, FILE_MMAP_UNSUPPORTED };
enum file_mmap file_mmap_kind(struct file *f);
/*
 * fallocate(2) on an open file (fs/fallocate.c), Linux's vfs_fallocate:
 * mode 0 or FALLOC_FL_KEEP_SIZE allocates, FALLOC_FL_PUNCH_HOLE |
 * FALLOC_FL_KEEP_SIZE punches a hole (madvise's MADV_REMOVE too). 0 or -errno
 * (-EOPNOTSUPP: not a page-cache file). Takes the inode's lock.
 */
int vfs_fallocate(struct file *f, int mode, s64 offset, s64 len);
/* Whether f is sealed against writes (F_SEAL_WRITE, F_SEAL_FUTURE_WRITE: fs/memfd.c). */
bool file_write_sealed(struct file *f);
/*
 * A nameless RAM-fs file of size bytes, open with access (O_RDWR, or
 * O_RDONLY for a read-only /dev/zero): what a shared anonymous mapping maps
 * (fs/shmem.c).
 */
int shmem_zero_file(u64 size, int access, struct file **out);

/* Per-process open files (fd table). */
struct files *files_alloc(void);
struct files *files_dup(struct files *old,
			int *err); /* fork: a copy sharing the open files; NULL and *err */
struct files *
files_share(struct files *files);    /* clone(CLONE_FILES): one more user of the same table */
void files_put(struct files *files); /* last user closes everything */
void files_close_on_exec(struct files *files);
/* unshare(CLONE_FILES): the calling thread's own copy of a shared table; 0 or -ENOMEM. */
int files_unshare(void);
/* The open file behind fd in the current process, with a reference (file_put); NULL if none. */
struct file *fd_get(int fd);
/*
 * An fd held for the length of one system call, as Linux's fdget: when no
 * other task shares the fd table, nobody can close the fd meanwhile, so the
 * lookup takes no lock and no reference (put false); else it is fd_get's.
 * O_PATH files are refused as by fd_get. fdput undoes it.
 */
struct fd {
	struct file *file;
	bool put;
};
struct fd fdget(int fd);
/* The same taking O_PATH files too, as fd_get_raw (select: such a file is never ready). */
struct fd fdget_raw(int fd);
static inline void
fdput(struct fd f)
{
	if (f.put)
		file_put(f.file);
}
/* The open flags (O_ACCMODE, O_APPEND ...) the file was opened with. */
int file_flags(struct file *f);

/* Opens /dev/console as fds 0, 1 and 2 of the current process (for init): 0 or -errno. */
int console_open_stdio(void);

/* Per-process root and working directory. */
struct fs_context *fs_context_root(void); /* cwd = root = / */
struct fs_context *fs_context_dup(struct fs_context *old);
struct fs_context *fs_context_share(struct fs_context *fs); /* clone(CLONE_FS) */
void fs_context_put(struct fs_context *fs);
/* unshare(CLONE_FS): the calling thread's own copy of a shared context; 0 or -ENOMEM. */
int fs_context_unshare(void);
/* setns to a mount namespace: root and cwd become root; -EINVAL if the context is shared. */
int fs_context_enter_root(struct dentry *root);
/* pivot_root (Linux's chroot_fs_refs): every task's root or cwd that is old becomes new. */
void fs_context_move_refs(struct dentry *old, struct dentry *new);

/* The wall clock was set: timerfds armed with TFD_TIMER_CANCEL_ON_SET are cancelled (fs/timerfd.c). */
void timerfd_clock_was_set(void);

#endif

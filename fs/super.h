/*
 * super.h - file-system types and instances (fs/super.c): what mount(2) can
 * name, one mounted instance's shared state (device number, flags, size
 * limits, the pins that keep it busy) and the calls that count them.
 * Included by fs/vfs.h.
 */
#ifndef REWIND_FS_SUPER_H
#define REWIND_FS_SUPER_H

#include "kernel/lib/types.h"

struct dentry;
struct file;
struct inode;
struct super_block;

/*
 * A file-system type mount(2) can name ("tmpfs", "proc"): how to make the
 * root of a new instance and what its options mean. Registered at boot.
 */
struct fs_type {
	const char *name;
	long magic; /* statfs's f_type (uapi/magic.h) */
	/* Sets a new instance's default options (before mount's data is parsed); may be NULL. */
	void (*init)(struct super_block *sb);
	/* The root directory inode of the new instance sb: one reference, or NULL. */
	struct inode *(*new_root)(struct super_block *sb);
	/*
	 * Applies one "key" or "key=value" of mount's data to sb (remount: only
	 * what may change); NULL: the type takes no options. 0 or -EINVAL.
	 */
	int (*parse_option)(struct super_block *sb, const char *key, const char *value,
			    bool remount);
	/* Appends ",opt=value..." to buf for /proc/mounts: the length written. */
	size_t (*show_options)(struct super_block *sb, char *buf, size_t size);
	/* statfs's block and inode figures; NULL: none (Linux's simple_statfs). */
	void (*usage)(struct super_block *sb, u64 *blocks, u64 *bfree, u64 *files, u64 *ffree);
	/* The last mount of the instance is gone: drop its tree (ramfs: every name). */
	void (*kill_tree)(struct dentry *root);
	bool xattrs;  /* keeps extended attributes in memory (fs/xattr_store.c) */
	bool exports; /* its files have handles (fs/fhandle.c); Linux's s_export_op */
	struct fs_type *next;
};

void register_filesystem(struct fs_type *type);
/* The registered type called name, or NULL. */
struct fs_type *find_filesystem(const char *name);

/*
 * One instance of a file system: what its inodes share. Counted by its
 * inodes and its mount; st_dev is an anonymous device number of its own
 * (major 0), as Linux gives tmpfs and proc.
 */
struct super_block {
	u32 refcount; /* atomic */
	u32 dev;      /* st_dev */
	struct fs_type *type;
	u32 flags;	    /* MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_NOATIME, MS_RELATIME */
	u32 mnt_id;	    /* its mount's id (fdinfo's mnt_id); 0 while not mounted */
	u32 nr_mounts;	    /* mounts showing it, in every mount namespace (fs/mount.c) */
	u64 max_pages;	    /* the page cache's limit: SB_PAGES_KNOB (the root), or 0 for none */
	u64 max_inodes;	    /* 0 for none */
	u64 nr_pages;	    /* atomic: cached file pages */
	u64 nr_inodes;	    /* atomic: live inodes */
	u32 pins;	    /* atomic: open files, cwds and roots on it (umount's EBUSY) */
	u32 writers;	    /* atomic: files open for writing (a remount read-only: EBUSY) */
	u32 mode, uid, gid; /* the root directory's, as mounted (tmpfs's mode=, uid=, gid=) */
	struct dentry *detached_root; /* atomic: unmounted, its tree to drop with the last pin */
};

/* max_pages of the root file system: the ramfs_size knob decides (ramfs.c). */
#define SB_PAGES_KNOB ((u64)-1)

/* A new instance of type with one reference and a device number, or NULL. */
struct super_block *sb_alloc(struct fs_type *type);
struct super_block *sb_get(struct super_block *sb);
void sb_put(struct super_block *sb);
/* The root file system and the pipes' (made by vfs_init). */
extern struct super_block *root_sb, *pipefs_sb;
extern struct fs_type pipefs_type, procfs_type;
/*
 * The pid of the process a /proc/<pid> directory f shows (not a
 * task/<tid> one), and in *process_start its start TSC (which process of
 * that pid); else 0 (fs/proc/pid.c).
 */
int proc_pid_dir_pid(struct file *f, u64 *process_start);
/*
 * A pin: something that keeps sb busy for umount (an open file, a cwd).
 * The last unpin of a lazily unmounted instance drops its tree.
 */
void sb_pin(struct super_block *sb);
void sb_unpin(struct super_block *sb);
/*
 * sb is unmounted: root (the mount's reference, taken over) and its tree
 * are dropped now if nothing pins sb, else by the last unpin.
 */
void sb_detach(struct super_block *sb, struct dentry *root);
/* The page cache's limit for sb in pages: U64_MAX for none. */
u64 sb_max_pages(struct super_block *sb);
/* Counts a new file page against sb's size: false when it is full. */
bool sb_charge_page(struct super_block *sb);
void sb_uncharge_page(struct super_block *sb);
/* 0, or -EROFS when inode is on a read-only mount (mnt_want_write). */
int sb_may_write(const struct inode *inode);
/* A file open for writing on inode's instance: 0, or -EROFS. */
int sb_get_writer(struct inode *inode);
void sb_put_writer(struct inode *inode);

#endif

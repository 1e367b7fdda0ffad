/*
 * procfs.c - the /proc file system's machinery: inodes made on lookup,
 * directory listings, and regular files whose text is generated at open.
 * What the files say is elsewhere: machine.c (machine-wide files),
 * pid.c (per process), sysctl.c (knobs), in the formats of
 * text.c. How the parts describe their files: internal.h.
 *
 * Nothing is stored: a lookup makes a fresh dentry and inode that live
 * only while used, and each open generates the text anew. Inode numbers
 * are derived from the path (a hash of the name, seeded with the parent's
 * number), so that stat() and getdents agree without a table.
 *
 * The same machinery shows /sys ("sysfs", fs/proc/sysfs.c's tree).
 */
#include "fs/proc/procfs.h"
#include "fs/proc/internal.h"
#include "uapi/errno.h"
#include "uapi/magic.h"
#include "kernel/printk.h"
#include "kernel/process/task.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"

#define PROC_ROOT_INO  1   /* as Linux's PROC_ROOT_INO */
#define PROC_WRITE_MAX 256 /* the longest write a writable file takes, NUL included */

/* inode->private of every procfs inode. */
struct proc_node {
	const struct proc_entry *entry;
	union proc_arg arg;
	u64 process_start; /* a process directory's: which process of that pid it is */
};

/* file->private of an open regular file: the text generated at open. */
struct proc_text {
	size_t len;
	char data[];
};

static const struct inode_operations proc_file_iops, proc_dir_iops, proc_link_iops, proc_jump_iops;
static const struct file_operations proc_file_fops, proc_dir_fops;

/* FNV-1a over the name, seeded with the parent's number; 0 and the root's number are avoided. */
static u64
proc_ino(u64 parent, const char *name, size_t len)
{
	u32 h = 2166136261u ^ (u32)parent;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (u8)name[i]) * 16777619u;
	return h > PROC_ROOT_INO ? h : h + PROC_ROOT_INO + 1;
}

/*
 * What a dynamic name's inode number is seeded with besides its name: for
 * a process directory, the process's start too, so that a later process
 * with the same pid gets another inode, as in Linux (whose proc inodes pin
 * their struct pid). getdents and lookup must agree.
 */
static u64
dyn_seed(u64 dir_ino, const struct proc_dyn *dyn, u64 *process_start)
{
	*process_start = dyn->entry->dir == &proc_pid_dir ? proc_process_start(dyn->arg.pid) : 0;
	return dir_ino ^ *process_start;
}

static struct inode *
proc_inode_new(struct super_block *sb, const struct proc_entry *e, union proc_arg arg, u64 ino)
{
	bool dir = S_ISDIR(e->mode), link = S_ISLNK(e->mode);
	struct proc_node *node = kmalloc(sizeof(*node));
	struct inode *inode;

	if (!node)
		return NULL;
	if (link)
		inode = inode_alloc(sb, e->mode, e->jump ? &proc_jump_iops : &proc_link_iops, NULL);
	else
		inode = inode_alloc(sb, e->mode, dir ? &proc_dir_iops : &proc_file_iops,
				    dir	      ? &proc_dir_fops
				    : e->fops ? e->fops
					      : &proc_file_fops);
	if (!inode) {
		kfree(node);
		return NULL;
	}
	*node = (struct proc_node){ .entry = e, .arg = arg };
	inode->private = node;
	inode->ino = ino;
	/*
	 * Size 0, as Linux's proc files: the length is only known once the text
	 * is generated. nlink stays 1 for directories too: find and fts then do
	 * not count on nlink - 2 subdirectories, which procfs does not keep.
	 */
	return inode;
}

static void
proc_evict(struct inode *inode)
{
	kfree(inode->private);
}

/* ---- directories ----------------------------------------------------------- */

static const struct proc_entry *
fixed_entry(const struct proc_dir *pd, const char *name, size_t len)
{
	for (size_t i = 0; i < pd->nentries; i++) {
		const char *n = pd->entries[i].name;
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return &pd->entries[i];
	}
	return NULL;
}

/* Called with dir's inode->lock held; the new dentry lives only while used. */
static int
proc_lookup(struct dentry *dir, const char *name, size_t len, struct dentry **out)
{
	const struct proc_node *parent = dir->inode->private;
	const struct proc_dir *pd = parent->entry->dir;
	const struct proc_entry *e = fixed_entry(pd, name, len);
	struct proc_dyn dyn;
	struct inode *inode;
	u64 seed = dir->inode->ino, start = 0;

	if (e) {
		dyn.entry = e;
		dyn.arg = e->resolve ? e->resolve(parent->arg) : parent->arg;
	} else if (!pd->find || !pd->find(parent->arg, name, len, &dyn)) {
		return -ENOENT;
	} else {
		seed = dyn_seed(seed, &dyn, &start);
	}
	inode = proc_inode_new(dir->inode->sb, dyn.entry, dyn.arg, proc_ino(seed, name, len));
	if (!inode)
		return -ENOMEM;
	((struct proc_node *)inode->private)->process_start = start;
	/* A process's directory is its owner's, as is what is in it. */
	const struct proc_dir *owned =
		dyn.entry->dir && dyn.entry->dir->owner ? dyn.entry->dir : pd;
	if (owned->owner)
		owned->owner(dyn.arg, dyn.entry->mode, &inode->uid, &inode->gid);
	*out = dentry_alloc_child(dir, name, len, inode);
	return *out ? 0 : -ENOMEM;
}

static bool
emit_entry(struct dir_context *ctx, u64 dir_ino, const char *name, u32 mode, u64 pos)
{
	size_t len = strlen(name);

	return dir_emit(ctx, name, len, proc_ino(dir_ino, name, len), dt_type(mode), pos);
}

/* "." and ".." at positions 0 and 1; false when the buffer is full. */
static bool
emit_dots(struct file *f, struct dir_context *ctx, u64 *pos)
{
	if (*pos == 0) {
		if (!dir_emit(ctx, ".", 1, f->inode->ino, DT_DIR, 0))
			return false;
		*pos = 1;
	}
	if (*pos == 1) {
		struct dentry *parent = dget_parent(f->dentry);
		bool ok = dir_emit(ctx, "..", 2, parent->inode->ino, DT_DIR, 1);
		dput(parent);
		if (!ok)
			return false;
		*pos = 2;
	}
	return true;
}

/* The fixed entries, at positions 2 .. 2 + nentries - 1. */
static bool
emit_fixed(struct file *f, struct dir_context *ctx, const struct proc_dir *pd, u64 *pos)
{
	for (; *pos < 2 + pd->nentries; (*pos)++) {
		const struct proc_entry *e = &pd->entries[*pos - 2];
		if (!emit_entry(ctx, f->inode->ino, e->name, e->mode, *pos))
			return false;
	}
	return true;
}

/* The dynamic names after them, each at its cookie's position. */
static void
emit_dynamic(struct file *f, struct dir_context *ctx, const struct proc_node *node, u64 pos)
{
	const struct proc_dir *pd = node->entry->dir;
	u64 first = 2 + pd->nentries;
	u64 cookie = pos - first;
	struct proc_dyn dyn;
	u64 start;

	while (pd->next && pd->next(node->arg, &cookie, &dyn) &&
	       emit_entry(ctx, dyn_seed(f->inode->ino, &dyn, &start), dyn.name, dyn.entry->mode,
			  first + cookie))
		cookie++;
}

static int
proc_getdents(struct file *f, struct dir_context *ctx)
{
	const struct proc_node *node = f->inode->private;
	u64 pos = ctx->pos;

	if (emit_dots(f, ctx, &pos) && emit_fixed(f, ctx, node->entry->dir, &pos))
		emit_dynamic(f, ctx, node, pos);
	return ctx->error;
}

/* ---- regular files ------------------------------------------------------------ */

union proc_arg
proc_inode_arg(const struct inode *inode)
{
	const struct proc_node *node = inode->private;

	return node->arg;
}

const struct proc_entry *
proc_inode_entry(const struct inode *inode)
{
	const struct proc_node *node = inode->private;

	return node->entry;
}

u64
proc_inode_process_start(const struct inode *inode)
{
	const struct proc_node *node = inode->private;

	return node->process_start;
}

/* Generates the whole text, growing the buffer until it fits. */
static int
generate(const struct proc_node *node, struct proc_text **out)
{
	size_t size = PAGE_SIZE - sizeof(struct proc_text);

	for (;;) {
		struct proc_text *text = kmalloc(sizeof(*text) + size);
		if (!text)
			return -ENOMEM;
		struct procbuf b = { .p = text->data, .size = size };
		int err = node->entry->show(&b, node->arg);
		if (!err && procbuf_fits(&b)) {
			text->len = b.len;
			*out = text;
			return 0;
		}
		kfree(text);
		if (err)
			return err;
		size = MAX(b.len + 1, 2 * size);
	}
}

/* 0, or -EACCES for a file about a process the caller may not inspect. */
static int
may_inspect(const struct proc_node *node)
{
	return node->entry->inspects && !proc_pid_may_inspect(node->arg.pid) ? -EACCES : 0;
}

static int
proc_file_open(struct inode *inode, struct file *f)
{
	const struct proc_node *node = inode->private;
	struct proc_text *text;

	int err = may_inspect(node);
	if (!err)
		err = generate(node, &text);

	if (!err)
		f->private = text;
	return err;
}

static long
proc_file_read(struct file *f, char __user *buf, size_t n, u64 *pos)
{
	const struct proc_text *text = f->private;

	if (*pos >= text->len)
		return 0;
	n = MIN(n, text->len - *pos);
	if (copy_to_user(buf, text->data + *pos, n))
		return -EFAULT;
	*pos += n;
	return (long)n;
}

/*
 * Each write(2) carries one whole value, without the blanks around it, at
 * any offset: a program that writes A, B, A ... to one open file changes
 * the knob every time. A write of blanks alone after the first (the
 * newline some programs send on its own) changes nothing.
 */
static long
proc_file_write(struct file *f, const char __user *buf, size_t n, u64 *pos)
{
	const struct proc_node *node = f->inode->private;
	char text[PROC_WRITE_MAX];
	const char *value;

	if (!node->entry->write)
		return -EPERM;
	if (node->entry->control && generic_permission(f->inode, MAY_WRITE))
		return -EPERM;
	if (n >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, buf, n))
		return -EFAULT;
	text[n] = '\0';
	value = procfs_trim(text);
	if (*value || *pos == 0) {
		int err = node->entry->write(value, node->arg);
		if (err)
			return err;
	}
	*pos += n;
	return (long)n;
}

static void
proc_file_release(struct file *f)
{
	kfree(f->private);
}

/* open(O_TRUNC) (a shell's `>`) truncates: nothing to do, as on Linux's proc files. */
static int
proc_setsize(struct inode *inode, u64 size)
{
	return 0;
}

/* ---- symbolic links ------------------------------------------------------------ */

static long
proc_readlink(struct dentry *link, char *buf, size_t size)
{
	const struct proc_node *node = link->inode->private;
	int err = may_inspect(node);

	if (err)
		return err;
	/* The formatter ends the text with a NUL: made whole here, then cut to size. */
	struct procbuf b = { .p = kmalloc(PATH_MAX + 1), .size = PATH_MAX + 1 };
	if (!b.p)
		return -ENOMEM;
	err = node->entry->link(&b, node->arg);
	size_t n = MIN(MIN(b.len, PATH_MAX), size);
	if (!err)
		memcpy(buf, b.p, n);
	kfree(b.p);
	return err ? err : (long)n;
}

static int
proc_jump(struct dentry *link, struct dentry **out)
{
	const struct proc_node *node = link->inode->private;
	int err = may_inspect(node);

	return err ? err : node->entry->jump(node->arg, out);
}

static const struct inode_operations proc_link_iops = {
	.readlink = proc_readlink,
	.evict = proc_evict,
};

static const struct inode_operations proc_jump_iops = {
	.readlink = proc_readlink,
	.jump = proc_jump,
	.evict = proc_evict,
};

static const struct inode_operations proc_file_iops = {
	.setsize = proc_setsize,
	.evict = proc_evict,
};

/*
 * The mode bits, and one widening: a process's fd and fdinfo directories
 * are open to the process itself even when they are root's (it gave up
 * root, so it is not dumpable), as Linux's proc_fd_permission: ttyname()
 * reads /proc/self/fd.
 */
static int
proc_dir_permission(const struct inode *inode, u32 want)
{
	const struct proc_node *node = inode->private;
	int err = generic_permission(inode, want);

	if (err && node->entry->dir->open_to_self && node->arg.pid == current()->tgid)
		return 0;
	return err;
}

static const struct inode_operations proc_dir_iops = {
	.lookup = proc_lookup,
	.evict = proc_evict,
	.permission = proc_dir_permission,
};

static const struct file_operations proc_file_fops = {
	.open = proc_file_open,
	.read = proc_file_read,
	.write = proc_file_write,
	.llseek = generic_file_llseek, /* offsets into the snapshot; SEEK_END is from size 0 */
	.release = proc_file_release,
};

static const struct file_operations proc_dir_fops = {
	.getdents = proc_getdents,
	.llseek = dir_llseek,
};

/* ---- the root: /proc ----------------------------------------------------------- */

static const struct proc_entry root_entries[] = {
	{ .name = "cmdline", .mode = S_IFREG | 0444, .show = proc_show_cmdline },
	{ .name = "cpuinfo", .mode = S_IFREG | 0444, .show = proc_show_cpuinfo },
	{ .name = "interrupts", .mode = S_IFREG | 0444, .show = proc_show_interrupts },
	{ .name = "key-users", .mode = S_IFREG | 0444, .show = proc_show_key_users },
	{ .name = "keys", .mode = S_IFREG | 0444, .show = proc_show_keys },
	{ .name = "kmemdebug_sites", .mode = S_IFREG | 0400, .show = proc_show_kmemdebug_sites },
	{ .name = "loadavg", .mode = S_IFREG | 0444, .show = proc_show_loadavg },
	{ .name = "locks", .mode = S_IFREG | 0444, .show = proc_show_locks },
	{ .name = "lockstat",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_lockstat,
	  .write = proc_write_lockstat,
	  .control = true },
	{ .name = "meminfo", .mode = S_IFREG | 0444, .show = proc_show_meminfo },
	{ .name = "mounts", .mode = S_IFREG | 0444, .show = proc_show_mounts },
	{ .name = "net", .mode = S_IFDIR | 0555, .dir = &proc_net_dir },
	{ .name = "objects", .mode = S_IFREG | 0444, .show = proc_show_objects },
	{ .name = "page_sites", .mode = S_IFREG | 0400, .show = proc_show_page_sites },
	{ .name = "profile",
	  .mode = S_IFREG | 0644,
	  .show = proc_show_profile,
	  .write = proc_write_profile,
	  .control = true },
	/* Links to the caller's own directories, read at each walk: "<tgid>" and "<tgid>/task/<tid>". */
	{ .name = "self", .mode = S_IFLNK | 0777, .link = proc_self_link },
	{ .name = "stat", .mode = S_IFREG | 0444, .show = proc_show_stat },
	{ .name = "sys", .mode = S_IFDIR | 0555, .dir = &proc_sys_dir },
	{ .name = "syscalls", .mode = S_IFREG | 0444, .show = proc_show_syscalls },
	{ .name = "sysvipc", .mode = S_IFDIR | 0555, .dir = &proc_sysvipc_dir },
	{ .name = "thread-self", .mode = S_IFLNK | 0777, .link = proc_thread_self_link },
	{ .name = "uptime", .mode = S_IFREG | 0444, .show = proc_show_uptime },
	{ .name = "version", .mode = S_IFREG | 0444, .show = proc_show_version },
};

static const struct proc_dir root_dir = {
	.entries = root_entries,
	.nentries = ARRAY_SIZE(root_entries),
	.next = proc_pid_next,
	.find = proc_pid_find,
};

static const struct proc_entry root_entry = { .name = "proc",
					      .mode = S_IFDIR | 0555,
					      .dir = &root_dir };

static struct inode *
proc_new_root(struct super_block *sb)
{
	return proc_inode_new(sb, &root_entry, (union proc_arg){ 0 }, PROC_ROOT_INO);
}

/* Every instance shows the same processes; it takes no options (hidepid= is not kept). */
struct fs_type procfs_type = {
	.name = "proc",
	.magic = PROC_SUPER_MAGIC,
	.new_root = proc_new_root,
};

/* /sys: the same machinery over sysfs.c's few files. */
static struct inode *
sysfs_new_root(struct super_block *sb)
{
	return proc_inode_new(sb, &sysfs_root_entry, (union proc_arg){ 0 }, PROC_ROOT_INO);
}

static struct fs_type sysfs_type = {
	.name = "sysfs",
	.magic = SYSFS_MAGIC,
	.new_root = sysfs_new_root,
};

void
procfs_init(void)
{
	register_filesystem(&procfs_type);
	register_filesystem(&sysfs_type);
	int err = vfs_mount("/proc", "proc", "proc", 0, NULL);

	if (err)
		pr_err("procfs: cannot mount /proc (error %d); booting on without it\n", err);
	err = vfs_mount("/sys", "sysfs", "sysfs", 0, NULL);
	if (err)
		pr_err("procfs: cannot mount /sys (error %d); booting on without it\n", err);
}

/*
 * initrd.c - unpacking the initrd (cpio newc archives loaded by GRUB as
 * multiboot2 modules) into the root ramfs at boot.
 *
 * Each archive is read with fs/cpio.c, which vouches for its structure.
 * This file decides what entries become: directories and regular files
 * with their permission bits and modification times, missing parent
 * directories made on the way (as `cpio -d` does). Entry names are taken
 * relative to the root whatever their leading "./" or "/"; a name with a
 * ".." component, or a directory with data, is treated as corruption.
 *
 * A malformed archive is reported (which module, which entry, what is
 * wrong) and unpacking stops there: what was unpacked stays and boot goes
 * on. An entry that cannot be created (a name clash, out of memory) is
 * reported and skipped. Symbolic links are made with their target as the
 * archive has it (what they lead to is not checked: it may come later, or
 * never). Device nodes and FIFOs are skipped with a warning.
 */
#include "fs/cpio.h"
#include "fs/vfs.h"
#include "kernel/boot.h"
#include "uapi/errno.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "mm/kmalloc.h"

struct unpack_stats {
	unsigned dirs, files, links;
	u64 bytes;
};

/* The name relative to the root ("" for the root itself). */
static const char *
strip_leading(const char *name)
{
	for (;;) {
		if (name[0] == '/')
			name++;
		else if (name[0] == '.' && name[1] == '/')
			name += 2;
		else if (name[0] == '.' && name[1] == '\0')
			name++;
		else
			return name;
	}
}

static bool
has_dotdot(const char *p)
{
	while (*p) {
		const char *c = p;
		while (*p && *p != '/')
			p++;
		if (p - c == 2 && c[0] == '.' && c[1] == '.')
			return true;
		while (*p == '/')
			p++;
	}
	return false;
}

/* Makes every missing directory above the last component of the absolute path. */
static void
make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		vfs_mkdirat(AT_FDCWD, path, 0755); /* an error shows when the entry is made */
		*p = '/';
	}
}

static int
unpack_dir(const char *path, const struct cpio_entry *e)
{
	struct dentry *d;
	int err = vfs_mkdirat(AT_FDCWD, path, e->mode & S_IALLUGO);

	if (err != -EEXIST)
		return err;
	err = path_lookup(AT_FDCWD, path, &d); /* already there (made as a parent): take its mode */
	if (err)
		return err;
	if (S_ISDIR(d->inode->mode))
		d->inode->mode = S_IFDIR | (e->mode & S_IALLUGO);
	else
		err = -EEXIST;
	dput(d);
	return err;
}

static int
unpack_file(const char *path, const struct cpio_entry *e)
{
	struct file *f;
	int err =
		file_open_at(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, e->mode & S_IALLUGO, &f);

	if (err)
		return err;
	struct inode *inode = f->inode;
	mutex_lock(&inode->lock);
	err = filemap_fill(inode, e->data, e->size);
	inode->mode = S_IFREG | (e->mode & S_IALLUGO); /* also when it existed before */
	inode->mtime.sec = e->mtime;
	inode->mtime.nsec = 0;
	mutex_unlock(&inode->lock);
	file_put(f);
	return err;
}

/* A link's data is its target, without a NUL; an entry of that name already there goes. */
static int
unpack_symlink(const char *path, const struct cpio_entry *e)
{
	if (e->size == 0 || e->size >= PATH_MAX)
		return -EINVAL;
	char *target = kmalloc(e->size + 1);
	if (!target)
		return -ENOMEM;
	memcpy(target, e->data, e->size);
	target[e->size] = '\0';
	int err = vfs_symlinkat(target, AT_FDCWD, path);
	if (err == -EEXIST && vfs_unlinkat(AT_FDCWD, path) == 0)
		err = vfs_symlinkat(target, AT_FDCWD, path); /* as cpio -u: the archive wins */
	kfree(target);
	return err;
}

/* Makes one entry: 0, -errno if it could not be made, or 1 when skipped. */
static int
unpack_entry(const struct cpio_entry *e, char *path, struct unpack_stats *st)
{
	const char *rel = strip_leading(e->name);
	int err;

	if (!*rel)
		return 0; /* the root itself */
	path[0] = '/';
	memcpy(path + 1, rel, strlen(rel) + 1);
	make_parents(path);
	switch (e->mode & S_IFMT) {
	case S_IFDIR:
		err = unpack_dir(path, e);
		st->dirs += !err;
		return err;
	case S_IFREG:
		err = unpack_file(path, e);
		st->files += !err;
		st->bytes += err ? 0 : e->size;
		return err;
	case S_IFLNK:
		err = unpack_symlink(path, e);
		st->links += !err;
		return err;
	default:
		return 1;
	}
}

/* What makes an entry that cpio.c accepted unusable here, or NULL. */
static const char *
entry_problem(const struct cpio_entry *e)
{
	if (has_dotdot(e->name))
		return "its name has a '..' component";
	if (S_ISDIR(e->mode) && e->size)
		return "a directory with data";
	return NULL;
}

/* Unpacks one archive; stops at the first malformed entry. */
static void
unpack_archive(const char *what, const void *buf, size_t size, char *path)
{
	struct unpack_stats st = { 0 };
	struct cpio_reader r;
	struct cpio_entry e;
	enum cpio_status s;

	cpio_init(&r, buf, size);
	while ((s = cpio_next(&r, &e)) == CPIO_ENTRY) {
		const char *problem = entry_problem(&e);
		if (problem) {
			pr_err("initrd: %s: entry %u '%.64s': %s; unpacking stops here\n", what,
			       r.entries, e.name, problem);
			break;
		}
		int err = unpack_entry(&e, path, &st);
		if (err > 0)
			pr_warn("initrd: %s: '%.64s' skipped: type %#o is not supported\n", what,
				e.name, e.mode & S_IFMT);
		else if (err < 0)
			pr_err("initrd: %s: cannot create '%.64s': error %d\n", what, e.name, -err);
	}
	if (s == CPIO_ERROR)
		pr_err("initrd: %s: %s; unpacking stops here\n", what, r.error);
	char links[32] = "";
	if (st.links)
		ksnprintf(links, sizeof(links), ", %u symlinks", st.links);
	pr_info("initrd: %s: %u directories, %u files (%lu bytes)%s%s\n", what, st.dirs, st.files,
		(unsigned long)st.bytes, links, s == CPIO_END ? "" : ", incomplete");
}

/* An extra archive QEMU may pass through fw_cfg (tools/rewind-run's binaries): over the rest. */
void
initrd_load(const struct boot_info *bi)
{
	char *path = kmalloc(CPIO_NAME_MAX + 1);

	if (!path) {
		pr_err("initrd: no memory to unpack\n");
		return;
	}
	for (int i = 0; i < bi->nmodules; i++) {
		const struct boot_module *m = &bi->modules[i];
		const char *what = m->string[0] ? m->string : "module";
		if (m->end < m->start) {
			pr_err("initrd: %s: ends (%#lx) before it starts (%#lx)\n", what,
			       (unsigned long)m->end, (unsigned long)m->start);
			continue;
		}
		unpack_archive(what, phys_to_virt(m->start), m->end - m->start, path);
	}
	kfree(path);
}

void
initrd_unpack(const char *what, const void *buf, size_t size)
{
	char *path = kmalloc(CPIO_NAME_MAX + 1);

	if (!path) {
		pr_err("initrd: no memory to unpack %s\n", what);
		return;
	}
	unpack_archive(what, buf, size, path);
	kfree(path);
}

/*
 * initrd.c - unpacking the initrd (cpio newc archives loaded by GRUB as
 * multiboot2 modules) into the root ramfs at boot.
 *
 * Each archive is read with fs/cpio.c, which vouches for its structure,
 * in one pass from its source: each file's data goes straight into its
 * page-cache pages, so an archive read from a device (fw_cfg) is never
 * held whole in memory besides the files it makes.
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
#include "fs/fs.h"
#include "fs/vfs.h"
#include "kernel/boot.h"
#include "uapi/errno.h"
#include "kernel/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"

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

/* Reads the entry's data into the file's page-cache pages, a page at a time. */
static int
fill_pages(struct inode *inode, struct cpio_reader *r, u64 size)
{
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		struct page *page = filemap_get_page(inode, off >> PAGE_SHIFT, FGP_CREATE);
		if (!page)
			return (int)filemap_no_page_error(inode);
		size_t chunk = (size_t)MIN((u64)PAGE_SIZE, size - off);
		enum cpio_status s = cpio_read_data(r, page_address(page), chunk);
		put_page(page);
		if (s == CPIO_ERROR)
			return -EIO; /* r->error says why */
		i_size_write(inode, off + chunk);
	}
	return 0;
}

static int
unpack_file(const char *path, const struct cpio_entry *e, struct cpio_reader *r)
{
	struct file *f;
	int err =
		file_open_at(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, e->mode & S_IALLUGO, &f);

	if (err)
		return err;
	struct inode *inode = f->inode;
	mutex_lock(&inode->lock);
	err = fill_pages(inode, r, e->size);
	inode->mode = S_IFREG | (e->mode & S_IALLUGO); /* also when it existed before */
	inode->mtime.sec = e->mtime;
	inode->mtime.nsec = 0;
	mutex_unlock(&inode->lock);
	file_put(f);
	if (r->error[0])
		vfs_unlinkat(AT_FDCWD, path); /* its data is not what the archive meant */
	return err;
}

/* A link's data is its target, without a NUL; an entry of that name already there goes. */
static int
unpack_symlink(const char *path, const struct cpio_entry *e, struct cpio_reader *r)
{
	if (e->size == 0 || e->size >= PATH_MAX)
		return -EINVAL;
	char *target = kmalloc(e->size + 1);
	if (!target)
		return -ENOMEM;
	if (cpio_read_data(r, target, e->size) == CPIO_ERROR) {
		kfree(target);
		return -EIO; /* r->error says why */
	}
	target[e->size] = '\0';
	int err = vfs_symlinkat(target, AT_FDCWD, path);
	if (err == -EEXIST && vfs_unlinkat(AT_FDCWD, path) == 0)
		err = vfs_symlinkat(target, AT_FDCWD, path); /* as cpio -u: the archive wins */
	kfree(target);
	return err;
}

/* Makes one entry: 0, -errno if it could not be made, or 1 when skipped. */
static int
unpack_entry(const struct cpio_entry *e, struct cpio_reader *r, char *path, struct unpack_stats *st)
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
		err = unpack_file(path, e, r);
		st->files += !err;
		st->bytes += err ? 0 : e->size;
		return err;
	case S_IFLNK:
		err = unpack_symlink(path, e, r);
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
unpack_archive(const char *what, struct cpio_source *src, char *path)
{
	struct unpack_stats st = { 0 };
	struct cpio_reader *r = kmalloc(sizeof(*r));
	struct cpio_entry e;
	enum cpio_status s;

	if (!r) {
		pr_err("initrd: no memory to unpack %s\n", what);
		return;
	}
	cpio_init(r, src);
	while ((s = cpio_next(r, &e)) == CPIO_ENTRY) {
		const char *problem = entry_problem(&e);
		if (problem) {
			pr_err("initrd: %s: entry %u '%.64s': %s; unpacking stops here\n", what,
			       r->entries, e.name, problem);
			break;
		}
		int err = unpack_entry(&e, r, path, &st);
		if (r->error[0]) { /* the archive broke while the entry's data was read */
			s = CPIO_ERROR;
			break;
		}
		if (err > 0)
			pr_warn("initrd: %s: '%.64s' skipped: type %#o is not supported\n", what,
				e.name, e.mode & S_IFMT);
		else if (err < 0)
			pr_err("initrd: %s: cannot create '%.64s': error %d\n", what, e.name, -err);
	}
	if (s == CPIO_ERROR)
		pr_err("initrd: %s: %s; unpacking stops here\n", what, r->error);
	char links[32] = "";
	if (st.links)
		ksnprintf(links, sizeof(links), ", %u symlinks", st.links);
	pr_info("initrd: %s: %u directories, %u files (%lu bytes)%s%s\n", what, st.dirs, st.files,
		(unsigned long)st.bytes, links, s == CPIO_END ? "" : ", incomplete");
	kfree(r);
}

/* An extra archive QEMU may pass through fw_cfg (tools/rewind-run's binaries): over the rest. */
void
initrd_load(const struct boot_info *bi)
{
	char *path = kmalloc(CPIO_NAME_MAX + 1);
	struct cpio_memory m;

	if (!path) {
		pr_err("initrd: no memory to unpack\n");
		return;
	}
	for (int i = 0; i < bi->nmodules; i++) {
		const struct boot_module *mod = &bi->modules[i];
		const char *what = mod->string[0] ? mod->string : "module";
		if (mod->end < mod->start) {
			pr_err("initrd: %s: ends (%#lx) before it starts (%#lx)\n", what,
			       (unsigned long)mod->end, (unsigned long)mod->start);
			continue;
		}
		unpack_archive(
			what,
			cpio_memory_source(&m, phys_to_virt(mod->start), mod->end - mod->start),
			path);
	}
	kfree(path);
}

void
initrd_unpack_source(const char *what, struct cpio_source *src)
{
	char *path = kmalloc(CPIO_NAME_MAX + 1);

	if (!path) {
		pr_err("initrd: no memory to unpack %s\n", what);
		return;
	}
	unpack_archive(what, src, path);
	kfree(path);
}

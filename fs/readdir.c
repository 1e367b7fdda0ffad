/*
 * readdir.c - getdents64: a directory's entries as a packed array of
 * struct kernel_dirent64 records. A file system's getdents operation calls
 * dir_emit() for each entry from the file's position on; positions are
 * cookies the file system chooses (ramfs: 0 ".", 1 "..", then one per
 * child in creation order), and each record's d_off is where the next
 * entry starts, so that lseek(SEEK_SET, d_off) resumes there.
 * Not here: how a directory stores its entries.
 */
#include "fs/notify.h"
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"

#define DIRENT_NAME_OFFSET offsetof(struct kernel_dirent64, d_name)
#define DIRENT_MAX	   ALIGN_UP(DIRENT_NAME_OFFSET + NAME_MAX + 1, 8)

unsigned
dt_type(u32 mode)
{
	return (mode & S_IFMT) >> 12; /* DT_* are the S_IF* type bits shifted down */
}

bool
dir_emit(struct dir_context *ctx, const char *name, size_t len, u64 ino, unsigned type, u64 pos)
{
	u8 rec[DIRENT_MAX] __aligned(8);
	struct kernel_dirent64 *d = (struct kernel_dirent64 *)rec;
	size_t reclen = ALIGN_UP(DIRENT_NAME_OFFSET + len + 1, 8);

	if (reclen > ctx->size - ctx->used) {
		if (ctx->used == 0)
			ctx->error = -EINVAL; /* not even one entry fits */
		return false;
	}
	memset(rec, 0, reclen);
	d->d_ino = ino;
	d->d_off = (s64)(pos + 1);
	d->d_reclen = (u16)reclen;
	d->d_type = (u8)type;
	memcpy(d->d_name, name, len);
	if (copy_to_user(ctx->buf + ctx->used, rec, reclen)) {
		ctx->error = -EFAULT;
		return false;
	}
	ctx->used += reclen;
	ctx->pos = pos + 1;
	return true;
}

s64
dir_llseek(struct file *f, s64 off, int whence)
{
	s64 pos;

	switch (whence) {
	case SEEK_SET:
		pos = off;
		break;
	case SEEK_CUR:
		if (__builtin_add_overflow((s64)f->pos, off, &pos))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (pos < 0)
		return -EINVAL;
	f->pos = (u64)pos;
	return pos;
}

SYSCALL3(getdents64, int, fd, void __user *, dirp, unsigned, count)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	if (!f->ops->getdents) {
		file_put(f);
		return -ENOTDIR;
	}
	mutex_lock(&f->pos_lock);
	struct dir_context ctx = { .pos = f->pos, .buf = dirp, .size = count };
	int err = f->ops->getdents(f, &ctx);
	f->pos = ctx.pos;
	mutex_unlock(&f->pos_lock);
	notify_file(f, IN_ACCESS); /* even at the end, as Linux's iterate_dir */
	file_put(f);
	if (ctx.used)
		return (long)ctx.used;
	return err ? err : ctx.error;
}

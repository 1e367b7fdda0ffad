/*
 * fcntl.c - duplicating descriptors (dup, dup2, dup3, F_DUPFD), their
 * close-on-exec bit, a file's status flags (F_GETFL/F_SETFL), record locks
 * (F_GETLK, F_SETLK, F_SETLKW and their F_OFD_ twins: handed to locks.c),
 * leases (F_SETLEASE, F_GETLEASE: leases.c), O_ASYNC (fasync.c, also
 * ioctl's FIOASYNC), directory notification (F_NOTIFY: dnotify.c) and the
 * signal those and a lease break send (F_SETSIG, F_GETSIG),
 * seals (F_ADD_SEALS, F_GET_SEALS: handed to memfd.c) and ioctl's generic
 * requests before the file's own. Errors are Linux's: -EBADF for a
 * bad descriptor (also dup2's target out of range), -EINVAL for a bad
 * command, flag or F_DUPFD minimum. Not here: the table itself (fdtable.c).
 */
#include "fs/vfs.h"
#include "uapi/errno.h"
#include "kernel/syscall/syscall.h"
#include "uapi/ioctls.h"
#include "uapi/signal.h"

/* The flags F_SETFL may change; the others it silently leaves, as Linux does. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_ASYNC | O_DIRECT | O_NOATIME)

static long
dup_from(int fd, int min, bool cloexec)
{
	struct file *f = fd_get_raw(fd);

	if (!f)
		return -EBADF;
	int ret = fd_alloc(f, min, cloexec);
	if (ret < 0)
		file_put(f);
	return ret;
}

SYSCALL1(dup, int, fd)
{
	return dup_from(fd, 0, false);
}

static long
dup_to(int oldfd, int newfd, bool cloexec)
{
	struct file *f = fd_get_raw(oldfd);

	if (!f)
		return -EBADF;
	int ret = fd_replace(newfd, f, cloexec);
	if (ret < 0)
		file_put(f);
	return ret;
}

SYSCALL3(dup3, int, oldfd, int, newfd, int, flags)
{
	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	return dup_to(oldfd, newfd, flags & O_CLOEXEC);
}

SYSCALL2(dup2, int, oldfd, int, newfd)
{
	if (oldfd != newfd)
		return dup_to(oldfd, newfd, false);
	struct file *f = fd_get_raw(oldfd); /* dup2(fd, fd) only checks fd */
	if (!f)
		return -EBADF;
	file_put(f);
	return newfd;
}

static void
set_status_flags(struct file *f, u32 set, u32 mask)
{
	u32 old = READ_ONCE(f->flags);

	while (!__atomic_compare_exchange_n(&f->flags, &old, (old & ~mask) | (set & mask), false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * Sets f's status flags in mask to set's; O_ASYNC turning on or off
 * first has the file join or leave its object's fasync list, and an error
 * there leaves the flags as they were (Linux's setfl). One lock orders
 * the changes of files that have fasync lists, so that the flag and the
 * list always agree: the last close trusts the flag to take the file off.
 */
static long
change_status_flags(int fd, struct file *f, u32 set, u32 mask)
{
	static struct mutex async_change = MUTEX_INIT(async_change, "fasync_setfl");
	int err = 0;

	if (!f->ops->fasync) {
		set_status_flags(f, set, mask);
		return 0;
	}
	mutex_lock(&async_change);
	if ((set ^ READ_ONCE(f->flags)) & mask & O_ASYNC)
		err = f->ops->fasync(fd, f, set & O_ASYNC);
	if (!err)
		set_status_flags(f, set, mask);
	mutex_unlock(&async_change);
	return err < 0 ? err : 0;
}

SYSCALL3(fcntl, int, fd, int, cmd, unsigned long, arg)
{
	struct file *f = fd_get_raw(fd);
	long ret;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ret = (long)arg < 0 || arg >= fd_limit()
			      ? -EINVAL
			      : dup_from(fd, (int)arg, cmd == F_DUPFD_CLOEXEC);
		break;
	case F_GETFD:
		ret = fd_get_cloexec(fd);
		break;
	case F_SETFD:
		ret = fd_set_cloexec(fd, arg & FD_CLOEXEC);
		break;
	case F_SETOWN: /* the file's owner: fown.c */
		ret = (f->fmode & FMODE_PATH) ? -EBADF : f_setown(f, arg);
		break;
	case F_GETOWN:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : f_getown(f);
		break;
	case F_SETOWN_EX:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : f_setown_ex(f, arg);
		break;
	case F_GETOWN_EX:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : f_getown_ex(f, arg);
		break;
	case F_GETFL:
		ret = READ_ONCE(f->flags);
		break;
	case F_SETFL:
		if (f->fmode & FMODE_PATH) {
			ret = -EBADF;
			break;
		}
		/* Turning O_NOATIME on or off is the owner's, as at open (fs/permission.c). */
		if (((u32)arg ^ READ_ONCE(f->flags)) & O_NOATIME &&
		    !inode_owner_or_root(f->inode)) {
			ret = -EPERM;
			break;
		}
		ret = change_status_flags(fd, f, (u32)arg, SETFL_MASK);
		break;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		if (f->fmode & FMODE_PATH)
			ret = -EBADF;
		else if (cmd == F_GETLK || cmd == F_OFD_GETLK)
			ret = fcntl_getlk(f, cmd, (struct kernel_flock __user *)arg);
		else
			ret = fcntl_setlk(fd, f, cmd, (struct kernel_flock __user *)arg);
		break;
	case F_SETLEASE:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : fcntl_setlease(fd, f, arg);
		break;
	case F_GETLEASE:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : fcntl_getlease(f);
		break;
	case F_SETSIG:
		if (f->fmode & FMODE_PATH)
			ret = -EBADF;
		else if (arg > _NSIG) /* Linux's valid_signal; 0 is SIGIO */
			ret = -EINVAL;
		else {
			WRITE_ONCE(f->signum, (int)arg);
			ret = 0;
		}
		break;
	case F_GETSIG:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : READ_ONCE(f->signum);
		break;
	case F_NOTIFY:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : dnotify_fcntl(fd, f, (u32)arg);
		break;
	case F_GETPIPE_SZ:
	case F_SETPIPE_SZ:
		ret = pipe_fcntl(f, (int)cmd, arg);
		break;
	case F_ADD_SEALS:
	case F_GET_SEALS:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : memfd_fcntl(f, cmd, arg);
		break;
	default:
		ret = (f->fmode & FMODE_PATH) ? -EBADF : -EINVAL;
		break;
	}
	file_put(f);
	return ret;
}

SYSCALL3(ioctl, int, fd, unsigned, cmd, unsigned long, arg)
{
	struct file *f = fd_get(fd);
	long ret;
	int on;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
		ret = fd_set_cloexec(fd, cmd == FIOCLEX);
		break;
	case FIONBIO:
		ret = copy_from_user(&on, (const void __user *)arg, sizeof(on));
		if (!ret)
			set_status_flags(f, on ? O_NONBLOCK : 0, O_NONBLOCK);
		break;
	case FIOASYNC:
		ret = copy_from_user(&on, (const void __user *)arg, sizeof(on));
		if (!ret)
			ret = change_status_flags(fd, f, on ? O_ASYNC : 0, O_ASYNC);
		break;
	default:
		ret = f->ops->ioctl ? f->ops->ioctl(f, cmd, arg) : -ENOTTY;
		break;
	}
	file_put(f);
	return ret;
}

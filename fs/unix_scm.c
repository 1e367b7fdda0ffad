/*
 * unix_scm.c - control messages of AF_UNIX sockets (Linux's net/core/scm.c):
 * SCM_RIGHTS carries open files, which stay alive in flight and become new
 * fds of the receiver; SCM_CREDENTIALS carries the sender's pid, uid and
 * gid, which a receiver with SO_PASSCRED gets with every message (the
 * sender's own unless it sent others it may claim).
 *
 * Files in flight are counted (unix.h says from when to when): per socket
 * for the collector (unix_gc.c), and per user, as Linux's
 * user->unix_inflight: a user with more files in flight than its
 * RLIMIT_NOFILE may send no more until some are received (ETOOMANYREFS;
 * privileged senders are not limited), or a process could hold any number
 * of open files in messages nobody reads. The user is the message's
 * credentials' uid - the sender's real uid unless SCM_CREDENTIALS claimed
 * another - where Linux charges the sender's real user.
 */
#include "fs/unix.h"
#include "kernel/process/cred.h"
#include "kernel/lib/string.h"
#include "kernel/process/user_count.h"
#include "mm/kmalloc.h"

#define CONTROL_MAX 20480 /* Linux's net.core.optmem_max: a larger control buffer is ENOBUFS */
#define CMSG_HDR    sizeof(struct kernel_cmsghdr)

/* Adds the fds of one SCM_RIGHTS message (n of them at data) to scm's files. */
static int
get_rights(const char *data, size_t n, struct unix_scm *scm)
{
	if (scm->nfiles + n > SCM_MAX_FD)
		return -EINVAL;
	struct file **files = kmalloc((scm->nfiles + n) * sizeof(*files));
	if (!files)
		return -ENOMEM;
	memcpy(files, scm->files, scm->nfiles * sizeof(*files));
	for (size_t i = 0; i < n; i++) {
		int fd;
		memcpy(&fd, data + i * sizeof(int), sizeof(int));
		files[scm->nfiles] = fd_get(fd);
		if (!files[scm->nfiles]) {
			kfree(scm->files);
			scm->files = files; /* what is referenced so far, for unix_scm_drop */
			return -EBADF;
		}
		scm->nfiles++;
	}
	kfree(scm->files);
	scm->files = files;
	return 0;
}

static bool
id_is_own(u32 id, struct id_set ids)
{
	return id == ids.real || id == ids.effective || id == ids.saved;
}

/* Credentials a sender may claim: its own pid and ids, others with CAP_SYS_ADMIN, CAP_SETUID, CAP_SETGID (Linux's scm_check_creds). */
static int
get_creds(const char *data, struct unix_scm *scm)
{
	struct kernel_ucred c;

	memcpy(&c, data, sizeof(c));
	if ((c.pid != current()->tgid && !capable(CAP_SYS_ADMIN)) ||
	    (!id_is_own(c.uid, current_uids()) && !capable(CAP_SETUID)) ||
	    (!id_is_own(c.gid, current_gids()) && !capable(CAP_SETGID)))
		return -EPERM;
	scm->cred = c;
	return 0;
}

static int
parse_control(const char *buf, size_t len, struct unix_scm *scm)
{
	size_t at = 0;

	while (len - at >= CMSG_HDR) {
		struct kernel_cmsghdr h;
		memcpy(&h, buf + at, CMSG_HDR);
		if (h.cmsg_len < CMSG_HDR || h.cmsg_len > len - at)
			return -EINVAL;
		const char *data = buf + at + CMSG_HDR;
		size_t n = h.cmsg_len - CMSG_HDR;
		int err = 0;
		if (h.cmsg_level != SOL_SOCKET)
			;
		else if (h.cmsg_type == SCM_RIGHTS)
			err = get_rights(data, n / sizeof(int), scm);
		else if (h.cmsg_type == SCM_CREDENTIALS)
			err = n == sizeof(struct kernel_ucred) ? get_creds(data, scm) : -EINVAL;
		else
			err = -EINVAL;
		if (err)
			return err;
		at += CMSG_ALIGN(h.cmsg_len);
		if (at > len)
			break;
	}
	return 0;
}

/* Adds n to the count of files uid has in flight: the count after. */
static unsigned long
user_inflight_add(u32 uid, long n)
{
	struct user_charge c = USER_CHARGE(uid);

	return user_count_add(&c, USER_UNIX_INFLIGHT, n);
}

/* Linux's too_many_unix_fds: the caller's user has more in flight than its RLIMIT_NOFILE. */
static bool
too_many_in_flight(void)
{
	return user_inflight_add(current_uids().real, 0) > fd_limit() &&
	       !capable(CAP_SYS_RESOURCE) && !capable(CAP_SYS_ADMIN);
}

/* scm's files go in flight: 0, or -ETOOMANYREFS (Linux's unix_attach_fds). */
static int
count_in_flight(struct unix_scm *scm)
{
	if (too_many_in_flight())
		return -ETOOMANYREFS;
	for (u32 i = 0; i < scm->nfiles; i++)
		unix_inflight(scm->files[i]);
	user_inflight_add(scm->cred.uid, scm->nfiles);
	scm->in_flight = true;
	return 0;
}

static void
uncount_in_flight(u32 uid, struct file **files, u32 n)
{
	if (!n)
		return;
	for (u32 i = 0; i < n; i++)
		unix_notinflight(files[i]);
	user_inflight_add(uid, -(long)n);
}

void
unix_msgs_notinflight(struct list_head *msgs)
{
	struct list_head *pos;

	list_for_each(pos, msgs) {
		struct unix_msg *msg = list_entry(pos, struct unix_msg, link);
		uncount_in_flight(msg->cred.uid, msg->files, msg->nfiles);
	}
}

int
unix_scm_get(const void __user *control, size_t len, struct unix_scm *scm)
{
	/* Real ids by default, as Linux's scm_send (SO_PEERCRED has effective ones). */
	*scm = (struct unix_scm){ .cred = { current()->tgid, current_uids().real,
					    current_gids().real } };
	if (len < CMSG_HDR)
		return 0;
	if (len > CONTROL_MAX)
		return -ENOBUFS;
	char *buf = kmalloc(len);
	if (!buf)
		return -ENOMEM;
	int err = copy_from_user(buf, control, len) ? -EFAULT : parse_control(buf, len, scm);
	kfree(buf);
	if (!err && scm->nfiles)
		err = count_in_flight(scm);
	if (err)
		unix_scm_drop(scm);
	return err;
}

void
unix_scm_drop(struct unix_scm *scm)
{
	if (scm->in_flight)
		uncount_in_flight(scm->cred.uid, scm->files, scm->nfiles);
	scm->in_flight = false;
	for (u32 i = 0; i < scm->nfiles; i++)
		file_put(scm->files[i]);
	kfree(scm->files);
	scm->files = NULL;
	scm->nfiles = 0;
}

/* Writes one control message of n data bytes (cut short if the buffer is): Linux's put_cmsg. */
static void
put_cmsg(struct unix_msg_args *m, size_t *at, int type, const void *data, size_t n)
{
	size_t room = m->controllen - *at;
	struct kernel_cmsghdr h = { .cmsg_len = CMSG_HDR + n,
				    .cmsg_level = SOL_SOCKET,
				    .cmsg_type = type };
	char __user *to = (char __user *)m->control + *at;

	if (!m->control || room < CMSG_HDR) {
		m->out_flags |= MSG_CTRUNC;
		return;
	}
	if (room < h.cmsg_len) {
		m->out_flags |= MSG_CTRUNC;
		n = room - CMSG_HDR;
		h.cmsg_len = room;
	}
	if (copy_to_user(to, &h, CMSG_HDR) || copy_to_user(to + CMSG_HDR, data, n))
		return;
	*at += MIN(CMSG_ALIGN(h.cmsg_len), room);
}

/* Installs as many of got's files as fit as fds; the rest are closed (MSG_CTRUNC). */
static void
put_rights(struct unix_msg_args *m, size_t *at, struct unix_scm *got)
{
	size_t room = m->control && m->controllen - *at >= CMSG_HDR ? m->controllen - *at : 0;
	size_t fit = room ? (room - CMSG_HDR) / sizeof(int) : 0;
	int *fds = kmalloc(got->nfiles * sizeof(int));
	u32 n = 0;

	for (; fds && n < got->nfiles && n < fit; n++) {
		fds[n] = fd_alloc(got->files[n], 0, m->flags & MSG_CMSG_CLOEXEC);
		if (fds[n] < 0)
			break; /* the fd table is full: the rest are lost, as Linux */
		got->files[n] = NULL;
	}
	if (n)
		put_cmsg(m, at, SCM_RIGHTS, fds, n * sizeof(int));
	if (n < got->nfiles)
		m->out_flags |= MSG_CTRUNC;
	kfree(fds);
}

void
unix_scm_put(struct unix_scm *got, bool passcred, struct unix_msg_args *m)
{
	size_t at = 0;

	if (!(m->flags & MSG_PEEK)) /* a peek's files are copies: the message still holds them */
		uncount_in_flight(got->cred.uid, got->files, got->nfiles);
	if (passcred)
		put_cmsg(m, &at, SCM_CREDENTIALS, &got->cred, sizeof(got->cred));
	if (got->nfiles)
		put_rights(m, &at, got);
	m->controllen = at;
	for (u32 i = 0; i < got->nfiles; i++)
		if (got->files[i])
			file_put(got->files[i]);
	kfree(got->files);
	got->files = NULL;
	got->nfiles = 0;
}

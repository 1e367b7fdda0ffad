/*
 * msg.c - System V message queues: msgget, msgsnd, msgrcv, msgctl
 * (Linux's ipc/msg.c).
 *
 * A queue is a list of messages, each a type and up to msgmax bytes,
 * bounded by msg_qbytes in bytes and in messages (Linux counts both
 * against it). A sender that does not fit sleeps on the queue's senders,
 * a receiver that finds nothing of the type it asks for on its receivers;
 * every change wakes the side it may help, and each sleeper looks again.
 * Both sleeps end for a signal (EINTR, or a restart after a stop), for the
 * queue's removal (EIDRM) and for a kill.
 */
#include "ipc/util.h"
#include "fs/proc/text.h"
#include "kernel/process/cred.h"
#include "kernel/sched/wait.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/list.h"
#include "kernel/lib/string.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "uapi/errno.h"

#define MSGSSZ 16     /* Linux's segment size, only reported */
#define MSGSEG 0xffff /* and its segment count */

struct msg {
	struct list_head link;
	long type;
	size_t size;
	char text[];
};

struct msg_queue {
	struct ipc_object perm;
	struct list_head messages;
	unsigned long cbytes, qnum, qbytes;
	long stime, rtime, ctime;
	int lspid, lrpid;
	struct wait_queue senders, receivers;
};

static struct ipc_object *msg_create(struct ipc_ids *ids, int key, int flags, unsigned long arg,
				     int *err);
static void msg_free(struct ipc_object *obj);

unsigned long msg_ctlmax = 8192, msg_ctlmnb = 16384, msg_ctlmni = 32000;
static unsigned long msg_hdrs, msg_bytes; /* every queue's messages, MSG_INFO's; under the lock */

static unsigned long
msg_mni(void)
{
	return READ_ONCE(msg_ctlmni);
}

static const struct ipc_kind msg_kind = { .name = "msg", .create = msg_create, .free = msg_free };
static struct ipc_ids msg_ids = IPC_IDS_INIT(msg_ids, &msg_kind, "msg_ids", msg_mni);

static struct msg_queue *
to_queue(struct ipc_object *obj)
{
	return container_of(obj, struct msg_queue, perm);
}

static struct ipc_object *
msg_create(struct ipc_ids *ids, int key, int flags, unsigned long arg, int *err)
{
	struct msg_queue *q = kzalloc(sizeof(*q));

	if (!q) {
		*err = -ENOMEM;
		return NULL;
	}
	list_init(&q->messages);
	wait_queue_init(&q->senders);
	wait_queue_init(&q->receivers);
	q->qbytes = READ_ONCE(msg_ctlmnb);
	q->ctime = ipc_now();
	return &q->perm;
}

static void
unlink_msg(struct msg_queue *q, struct msg *m)
{
	list_del(&m->link);
	q->cbytes -= m->size;
	q->qnum--;
	msg_bytes -= m->size;
	msg_hdrs--;
}

/* Out of the table: its messages go, and every sleeper wakes to EIDRM. */
static void
msg_free(struct ipc_object *obj)
{
	struct msg_queue *q = to_queue(obj);

	while (!list_empty(&q->messages)) {
		struct msg *m = list_first_entry(&q->messages, struct msg, link);
		unlink_msg(q, m);
		kfree(m);
	}
	kfree(q);
}

SYSCALL2(msgget, int, key, int, flags)
{
	return ipc_get(&msg_ids, key, flags, 0);
}

/*
 * Sleeps on wq with msg_ids.lock let go, holding obj: 0 to look again,
 * -EIDRM when it was removed meanwhile, -ERESTARTNOHAND for a signal.
 */
static long
msg_sleep(struct ipc_object *obj, struct wait_queue *wq)
{
	WAIT_ENTRY(we);
	bool interrupted;

	ipc_hold(obj);
	prepare_to_wait(wq, &we);
	mutex_unlock(&msg_ids.lock);
	interrupted = task_interrupted();
	if (!interrupted)
		schedule();
	finish_wait(wq, &we);
	mutex_lock(&msg_ids.lock);
	bool removed = obj->removed;
	ipc_drop(&msg_ids, obj);
	if (removed)
		return -EIDRM;
	return interrupted || task_interrupted() ? -ERESTARTNOHAND : 0;
}

static bool
fits(const struct msg_queue *q, size_t size)
{
	return q->cbytes + size <= q->qbytes && q->qnum + 1 <= q->qbytes;
}

/* The message, copied in from user memory before any lock: or NULL with *err. */
static struct msg *
load_msg(const void __user *umsg, size_t size, long *err)
{
	long type;

	if (copy_from_user(&type, umsg, sizeof(type))) {
		*err = -EFAULT;
		return NULL;
	}
	if (type < 1) {
		*err = -EINVAL;
		return NULL;
	}
	struct msg *m = kmalloc(sizeof(*m) + size);
	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	m->type = type;
	m->size = size;
	if (copy_from_user(m->text, (const char __user *)umsg + sizeof(long), size)) {
		kfree(m);
		*err = -EFAULT;
		return NULL;
	}
	return m;
}

static long
do_msgsnd(int id, const void __user *umsg, size_t size, int flags)
{
	long err = 0;

	if (id < 0 || (long)size < 0 || size > READ_ONCE(msg_ctlmax))
		return -EINVAL;
	struct msg *m = load_msg(umsg, size, &err);
	if (!m)
		return err;
	mutex_lock(&msg_ids.lock);
	for (;;) {
		struct ipc_object *obj = ipc_find(&msg_ids, id);
		if (!obj) {
			err = -EINVAL;
			break;
		}
		if (!ipc_may(obj, 0222)) {
			err = -EACCES;
			break;
		}
		struct msg_queue *q = to_queue(obj);
		if (fits(q, size)) {
			list_add_tail(&m->link, &q->messages);
			q->cbytes += size;
			q->qnum++;
			msg_bytes += size;
			msg_hdrs++;
			q->lspid = ipc_pid();
			q->stime = ipc_now();
			m = NULL;
			wake_up_all(&q->receivers);
			break;
		}
		if (flags & IPC_NOWAIT) {
			err = -EAGAIN;
			break;
		}
		err = msg_sleep(obj, &q->senders);
		if (err)
			break;
	}
	mutex_unlock(&msg_ids.lock);
	kfree(m);
	return err;
}

SYSCALL4(msgsnd, int, id, const void __user *, msgp, size_t, size, int, flags)
{
	return do_msgsnd(id, msgp, size, flags);
}

/* Whether m is what msgrcv asks for (Linux's testmsg): type 0 any, > 0 that one, < 0 up to it. */
static bool
wanted(const struct msg *m, long type, int flags)
{
	if (type == 0)
		return true;
	if (type < 0)
		return m->type <= -type;
	return flags & MSG_EXCEPT ? m->type != type : m->type == type;
}

/* The message msgrcv takes: the first wanted one, or for type < 0 the first of the lowest type. */
static struct msg *
find_msg(struct msg_queue *q, long type, int flags)
{
	struct msg *found = NULL;
	struct list_head *pos;

	list_for_each(pos, &q->messages) {
		struct msg *m = list_entry(pos, struct msg, link);
		if (!wanted(m, type, flags))
			continue;
		if (type >= 0)
			return m;
		if (!found || m->type < found->type)
			found = m;
	}
	return found;
}

/* MSG_COPY: the message at index n, whatever its type, or NULL. */
static struct msg *
nth_msg(struct msg_queue *q, long n)
{
	struct list_head *pos;

	list_for_each(pos, &q->messages) {
		if (n-- == 0)
			return list_entry(pos, struct msg, link);
	}
	return NULL;
}

/* The message found, taken from q or copied (MSG_COPY); or NULL with *err (sleeping meanwhile). */
static struct msg *
take_msg(int id, size_t bufsz, long type, int flags, long *err)
{
	for (;;) {
		struct ipc_object *obj = ipc_find(&msg_ids, id);
		if (!obj) {
			*err = -EINVAL;
			return NULL;
		}
		if (!ipc_may(obj, 0444)) {
			*err = -EACCES;
			return NULL;
		}
		struct msg_queue *q = to_queue(obj);
		struct msg *m = flags & MSG_COPY ? nth_msg(q, type) : find_msg(q, type, flags);
		if (m && bufsz < m->size && !(flags & MSG_NOERROR)) {
			*err = -E2BIG; /* the message stays */
			return NULL;
		}
		if (m && (flags & MSG_COPY)) {
			struct msg *copy = kmalloc(sizeof(*copy) + m->size);
			if (copy)
				memcpy(copy, m, sizeof(*copy) + m->size);
			*err = copy ? 0 : -ENOMEM;
			return copy;
		}
		if (m) {
			unlink_msg(q, m);
			q->lrpid = ipc_pid();
			q->rtime = ipc_now();
			wake_up_all(&q->senders);
			return m;
		}
		if (flags & IPC_NOWAIT) {
			*err = -ENOMSG;
			return NULL;
		}
		*err = msg_sleep(obj, &q->receivers);
		if (*err)
			return NULL;
	}
}

static long
do_msgrcv(int id, void __user *umsg, size_t bufsz, long type, int flags)
{
	long err = 0;

	if (id < 0 || (long)bufsz < 0)
		return -EINVAL;
	if ((flags & MSG_COPY) && ((flags & MSG_EXCEPT) || !(flags & IPC_NOWAIT)))
		return -EINVAL;
	if ((flags & MSG_COPY) && type < 0)
		return -ENOMSG;
	mutex_lock(&msg_ids.lock);
	struct msg *m = take_msg(id, bufsz, type, flags, &err);
	mutex_unlock(&msg_ids.lock);
	if (!m)
		return err;
	size_t n = MIN(bufsz, m->size);
	long ret = (long)n;
	if (copy_to_user(umsg, &m->type, sizeof(long)) ||
	    copy_to_user((char __user *)umsg + sizeof(long), m->text, n))
		ret = -EFAULT; /* the message is lost, as in Linux */
	kfree(m);
	return ret;
}

SYSCALL5(msgrcv, int, id, void __user *, msgp, size_t, size, long, type, int, flags)
{
	return do_msgrcv(id, msgp, size, type, flags);
}

/* ---- msgctl ------------------------------------------------------------------- */

static void
msg_fill(struct msg_queue *q, struct kernel_msqid64_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ipc_fill_perm(&q->perm, &ds->msg_perm);
	ds->msg_stime = q->stime;
	ds->msg_rtime = q->rtime;
	ds->msg_ctime = q->ctime;
	ds->msg_cbytes = q->cbytes;
	ds->msg_qnum = q->qnum;
	ds->msg_qbytes = q->qbytes;
	ds->msg_lspid = q->lspid;
	ds->msg_lrpid = q->lrpid;
}

static long
msg_info(int cmd, void __user *buf)
{
	struct kernel_msginfo info = {
		.msgmni = (int)READ_ONCE(msg_ctlmni),
		.msgmax = (int)READ_ONCE(msg_ctlmax),
		.msgmnb = (int)READ_ONCE(msg_ctlmnb),
		.msgssz = MSGSSZ,
		.msgseg = MSGSEG,
	};

	if (cmd == MSG_INFO) { /* what is in use, in Linux's fields */
		info.msgpool = msg_ids.in_use;
		info.msgmap = (int)msg_hdrs;
		info.msgtql = (int)msg_bytes;
	} else {
		info.msgpool = (int)(info.msgmni * (unsigned long)info.msgmnb / 1024);
		info.msgmap = info.msgmnb;
		info.msgtql = info.msgmnb;
	}
	return copy_to_user(buf, &info, sizeof(info)) ? -EFAULT : ipc_max_idx(&msg_ids);
}

static long
msg_stat(int cmd, int id, void __user *buf)
{
	long err;
	struct ipc_object *obj =
		ipc_find_stat(&msg_ids, id, cmd != IPC_STAT, cmd == MSG_STAT_ANY, &err);
	struct kernel_msqid64_ds ds;

	if (!obj)
		return err;
	msg_fill(to_queue(obj), &ds);
	if (copy_to_user(buf, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : obj->id;
}

static long
msg_control(int cmd, int id, const struct kernel_msqid64_ds *ds)
{
	struct ipc_object *obj = ipc_find(&msg_ids, id);

	if (!obj)
		return -EINVAL;
	if (!ipc_may_control(obj))
		return -EPERM;
	struct msg_queue *q = to_queue(obj);
	if (cmd == IPC_RMID) {
		wake_up_all(&q->senders);
		wake_up_all(&q->receivers);
		ipc_remove(&msg_ids, obj);
		return 0;
	}
	if (ds->msg_qbytes > READ_ONCE(msg_ctlmnb) && !capable(CAP_SYS_RESOURCE))
		return -EPERM;
	ipc_set_perm(obj, &ds->msg_perm);
	q->qbytes = ds->msg_qbytes;
	q->ctime = ipc_now();
	wake_up_all(&q->senders); /* there may be room now; receivers check their permission anew */
	wake_up_all(&q->receivers);
	return 0;
}

static long
do_msgctl(int id, int cmd, void __user *buf)
{
	struct kernel_msqid64_ds ds;
	long err;

	cmd &= ~IPC_64;
	if (id < 0 || cmd < 0)
		return -EINVAL;
	if (cmd == IPC_SET && copy_from_user(&ds, buf, sizeof(ds)))
		return -EFAULT;
	mutex_lock(&msg_ids.lock);
	switch (cmd) {
	case IPC_INFO:
	case MSG_INFO:
		err = msg_info(cmd, buf);
		break;
	case IPC_STAT:
	case MSG_STAT:
	case MSG_STAT_ANY:
		err = msg_stat(cmd, id, buf);
		break;
	case IPC_RMID:
	case IPC_SET:
		err = msg_control(cmd, id, &ds);
		break;
	default:
		err = -EINVAL;
	}
	mutex_unlock(&msg_ids.lock);
	return err;
}

SYSCALL3(msgctl, int, id, int, cmd, void __user *, buf)
{
	return do_msgctl(id, cmd, buf);
}

/* ---- /proc/sysvipc/msg --------------------------------------------------------- */

static void
msg_proc_line(struct ipc_object *obj, void *arg)
{
	struct msg_queue *q = to_queue(obj);

	procbuf_printf(arg,
		       "%10d %10d  %4o  %10lu %10lu %5u %5u %5u %5u %5u %5u %10ld %10ld %10ld\n",
		       obj->key, obj->id, obj->mode, q->cbytes, q->qnum, q->lspid, q->lrpid,
		       obj->uid, obj->gid, obj->cuid, obj->cgid, q->stime, q->rtime, q->ctime);
}

void
msg_proc_show(struct procbuf *b)
{
	procbuf_printf(
		b,
		"       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n");
	ipc_for_each(&msg_ids, msg_proc_line, b);
}

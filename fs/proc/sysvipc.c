/*
 * sysvipc.c - System V IPC in /proc (ipc/): /proc/sysvipc/{shm,msg,sem},
 * the tables ipcs(1) reads, and /proc/sys/kernel's limits
 * shmmax, shmall, shmmni, msgmax, msgmnb, msgmni and sem, root's to set
 * (with Linux's ranges: EINVAL past them).
 */
#include "fs/proc/internal.h"
#include "ipc/ipc.h"
#include "kernel/lib/string.h"

#define IPCMNI 32768 /* ipc/util.h's: the most objects of one kind */

static int
show_sysvipc_shm(struct procbuf *b, union proc_arg arg)
{
	shm_proc_show(b);
	return 0;
}

static int
show_sysvipc_msg(struct procbuf *b, union proc_arg arg)
{
	msg_proc_show(b);
	return 0;
}

static int
show_sysvipc_sem(struct procbuf *b, union proc_arg arg)
{
	sem_proc_show(b);
	return 0;
}

static const struct proc_entry sysvipc_entries[] = {
	{ .name = "msg", .mode = S_IFREG | 0444, .show = show_sysvipc_msg },
	{ .name = "sem", .mode = S_IFREG | 0444, .show = show_sysvipc_sem },
	{ .name = "shm", .mode = S_IFREG | 0444, .show = show_sysvipc_shm },
};

const struct proc_dir proc_sysvipc_dir = {
	.entries = sysvipc_entries,
	.nentries = ARRAY_SIZE(sysvipc_entries),
};

/* ---- the limits ------------------------------------------------------------- */

static int
show_limit(struct procbuf *b, const unsigned long *v)
{
	procbuf_printf(b, "%lu\n", READ_ONCE(*v));
	return 0;
}

static int
write_limit(const char *value, unsigned long *v, unsigned long max)
{
	unsigned long n;
	int err = procfs_parse_decimal(value, &n);

	if (!err && n > max)
		err = -EINVAL;
	if (!err)
		WRITE_ONCE(*v, n);
	return err;
}

#define LIMIT_FILE(show, write, var, max)                \
	int show(struct procbuf *b, union proc_arg arg)  \
	{                                                \
		return show_limit(b, &var);              \
	}                                                \
	int write(const char *value, union proc_arg arg) \
	{                                                \
		return write_limit(value, &var, max);    \
	}
LIMIT_FILE(proc_show_shmmax, proc_write_shmmax, shm_ctlmax, ~0ul)
LIMIT_FILE(proc_show_shmall, proc_write_shmall, shm_ctlall, ~0ul)
LIMIT_FILE(proc_show_shmmni, proc_write_shmmni, shm_ctlmni, IPCMNI)
LIMIT_FILE(proc_show_msgmax, proc_write_msgmax, msg_ctlmax, 0x7fffffff)
LIMIT_FILE(proc_show_msgmnb, proc_write_msgmnb, msg_ctlmnb, 0x7fffffff)
LIMIT_FILE(proc_show_msgmni, proc_write_msgmni, msg_ctlmni, IPCMNI)

int
proc_show_sem(struct procbuf *b, union proc_arg arg)
{
	procbuf_printf(b, "%d\t%d\t%d\t%d\n", READ_ONCE(sem_ctls[0]), READ_ONCE(sem_ctls[1]),
		       READ_ONCE(sem_ctls[2]), READ_ONCE(sem_ctls[3]));
	return 0;
}

/* Up to four numbers apart by blanks; those not given keep their value, as Linux's proc_dointvec. */
int
proc_write_sem(const char *value, union proc_arg arg)
{
	int v[4];
	int n = 0;
	char word[16];

	memcpy(v, sem_ctls, sizeof(v));
	while (*value && n < 4) {
		size_t len = 0;
		while (*value == ' ' || *value == '\t')
			value++;
		while (value[len] && value[len] != ' ' && value[len] != '\t')
			len++;
		if (!len)
			break;
		if (len >= sizeof(word))
			return -EINVAL;
		memcpy(word, value, len);
		word[len] = '\0';
		if (procfs_parse_int(word, &v[n++]))
			return -EINVAL;
		value += len;
	}
	if (v[3] < 0 || v[3] > IPCMNI)
		return -EINVAL; /* semmni, as Linux's proc_ipc_sem_dointvec */
	for (int i = 0; i < 4; i++)
		WRITE_ONCE(sem_ctls[i], v[i]);
	return 0;
}

/*
 * prctl.c - prctl(2), the options rewind has: PR_SET_NAME and PR_GET_NAME,
 * the calling thread's name (comm: what /proc/<pid>/comm, stat and status
 * show, and what exec sets from the file name). A longer name is cut to
 * TASK_COMM_LEN - 1 bytes, as Linux does. Every other option is EINVAL,
 * Linux's answer for an option it does not know.
 */
#include "kernel/process/task.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "uapi/errno.h"
#include "uapi/prctl.h"

/* The name at uname, cut to fit: 0 or -EFAULT (a fault before the NUL or the cut). */
static long
set_name(const char __user *uname)
{
	char name[TASK_COMM_LEN];
	long len = strncpy_from_user(name, uname, sizeof(name) - 1); /* no byte past the cut */

	if (len == -ENAMETOOLONG)
		len = sizeof(name) - 1;
	if (len < 0)
		return len;
	name[len] = '\0';
	/* Readers copy comm whole and end it themselves (procfs): no tearing past the NUL. */
	memcpy(current()->comm, name, sizeof(name));
	return 0;
}

static long
get_name(char __user *uname)
{
	char name[TASK_COMM_LEN];

	memcpy(name, current()->comm, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	return copy_to_user(uname, name, sizeof(name)) ? -EFAULT : 0;
}

SYSCALL5(prctl, int, option, u64, arg2, u64, arg3, u64, arg4, u64, arg5)
{
	switch (option) {
	case PR_SET_NAME:
		return set_name((const char __user *)arg2);
	case PR_GET_NAME:
		return get_name((char __user *)arg2);
	default:
		return -EINVAL;
	}
}

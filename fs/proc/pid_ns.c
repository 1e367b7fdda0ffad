/*
 * pid_ns.c - /proc/<pid>/ns: a link for each kind of namespace the process
 * lives in, reading "uts:[4026531838]" (the kind and the namespace's inode
 * number) and leading to the namespace's nsfs file (fs/nsfs.c), which
 * setns joins. Only the kinds rewind has are there (kernel/process/nsproxy.h),
 * as a Linux built without the others shows only its own; a process that
 * has exited has none (ENOENT).
 */
#include "fs/proc/internal.h"
#include "fs/nsfs.h"
#include "kernel/process/nsproxy.h"
#include "kernel/process/uts_namespace.h"
#include "fs/mnt_namespace.h"
#include "uapi/errno.h"

static int
show_ns_link(struct procbuf *b, int pid, const struct ns_ops *kind)
{
	struct ns_common *ns = task_ns_get(pid, kind);
	char text[32];

	if (!ns)
		return -ENOENT;
	nsfs_link_text(ns, text, sizeof(text));
	kind->put(ns);
	procbuf_printf(b, "%s", text);
	return 0;
}

static int
jump_ns_link(int pid, const struct ns_ops *kind, struct dentry **out)
{
	struct ns_common *ns = task_ns_get(pid, kind);

	return ns ? nsfs_dentry(ns, out) : -ENOENT;
}

static int
show_uts(struct procbuf *b, union proc_arg arg)
{
	return show_ns_link(b, arg.pid, &uts_ns_ops);
}

static int
jump_uts(union proc_arg arg, struct dentry **out)
{
	return jump_ns_link(arg.pid, &uts_ns_ops, out);
}

static int
show_mnt(struct procbuf *b, union proc_arg arg)
{
	return show_ns_link(b, arg.pid, &mnt_ns_ops);
}

static int
jump_mnt(union proc_arg arg, struct dentry **out)
{
	return jump_ns_link(arg.pid, &mnt_ns_ops, out);
}

static const struct proc_entry ns_entries[] = {
	{ .name = "mnt",
	  .mode = S_IFLNK | 0777,
	  .link = show_mnt,
	  .jump = jump_mnt,
	  .inspects = true },
	{ .name = "uts",
	  .mode = S_IFLNK | 0777,
	  .link = show_uts,
	  .jump = jump_uts,
	  .inspects = true },
};

const struct proc_dir proc_ns_dir = {
	.entries = ns_entries,
	.nentries = ARRAY_SIZE(ns_entries),
	.owner = proc_pid_owner,
};

/*
 * pid_oom.c - the OOM killer's files in /proc/<pid>: oom_score (how likely
 * the process is to be chosen, mm/oom_kill.c), oom_score_adj (-1000..1000,
 * what moves that choice) and oom_adj, the same on Linux's older scale.
 * Read and set under tasks_lock, as the killer reads them.
 */
#include "fs/proc/internal.h"
#include "kernel/process/cred.h"
#include "uapi/errno.h"
#include "mm/oom_kill.h"
#include "mm/page_alloc.h"

/* How likely the OOM killer is to choose the process (mm/oom_kill.c). */
int
proc_show_oom_score(struct procbuf *b, union proc_arg arg)
{
	struct page_alloc_stats st;

	page_alloc_get_stats(&st);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	const struct task *t = proc_find_leader(arg.pid);
	unsigned long score = t ? oom_score(t, st.total_pages) : 0;
	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	procbuf_printf(b, "%lu\n", score);
	return 0;
}

/* The process's oom_score_adj, or -ESRCH. */
static int
read_oom_score_adj(union proc_arg arg, int *adj)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	const struct task *t = proc_find_leader(arg.pid);

	if (t)
		*adj = t->oom_score_adj;
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t ? 0 : -ESRCH;
}

int
proc_show_oom_score_adj(struct procbuf *b, union proc_arg arg)
{
	int adj;
	int err = read_oom_score_adj(arg, &adj);

	if (!err)
		procbuf_printf(b, "%d\n", adj);
	return err;
}

/*
 * Sets the process's oom_score_adj, as Linux's __set_oom_adj: going below
 * the least it may have needs CAP_SYS_RESOURCE (EACCES) - for oom_adj, the
 * legacy file, below the current value; for oom_score_adj below the
 * floor that root's last write set (0 until then, inherited on fork), so
 * that a user may raise its own value and lower it back.
 */
static int
set_oom_score_adj(union proc_arg arg, int adj, bool legacy)
{
	bool root = capable(CAP_SYS_RESOURCE);
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(arg.pid);
	int err = !t ? -ESRCH : 0;

	if (!err && !root && adj < (legacy ? t->oom_score_adj : t->oom_score_adj_min))
		err = -EACCES;
	if (!err) {
		t->oom_score_adj = (short)adj;
		if (!legacy && root)
			t->oom_score_adj_min = (short)adj;
	}
	spin_unlock_irqrestore(&tasks_lock, flags);
	return err;
}

int
proc_write_oom_score_adj(const char *value, union proc_arg arg)
{
	int adj;

	if (procfs_parse_int(value, &adj) || adj < OOM_SCORE_ADJ_MIN || adj > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	return set_oom_score_adj(arg, adj, false);
}

/* oom_adj is oom_score_adj on Linux's older scale, -17 (never chosen) to 15. */
int
proc_show_oom_adj(struct procbuf *b, union proc_arg arg)
{
	int adj;
	int err = read_oom_score_adj(arg, &adj);

	if (!err)
		procbuf_printf(b, "%d\n",
			       adj == OOM_SCORE_ADJ_MAX
				       ? OOM_ADJUST_MAX
				       : adj * -OOM_ADJUST_MIN / OOM_SCORE_ADJ_MAX);
	return err;
}

int
proc_write_oom_adj(const char *value, union proc_arg arg)
{
	int adj;

	if (procfs_parse_int(value, &adj) || adj < OOM_ADJUST_MIN || adj > OOM_ADJUST_MAX)
		return -EINVAL;
	adj = adj == OOM_ADJUST_MAX ? OOM_SCORE_ADJ_MAX : adj * OOM_SCORE_ADJ_MAX / -OOM_ADJUST_MIN;
	return set_oom_score_adj(arg, adj, true);
}

/*
 * oom_kill.h - what a page fault does when no page can be had: kill the
 * process that holds the most memory, rather than whoever faults next.
 */
#ifndef REWIND_OOM_KILL_H
#define REWIND_OOM_KILL_H

#include "kernel/lib/types.h"

/*
 * Out of memory at a page fault of the current task: chooses and kills a
 * victim unless an earlier one still holds its memory, and waits for it
 * to go. True: fault again; false: the current task was the one killed,
 * or the victim would not go (the fault fails).
 */
bool out_of_memory(void);
/*
 * An address space is being freed: if it was the last victim's, the victim
 * is gone. Without this a new address space allocated at the freed one's
 * address would pass for the victim, still dying, and its own faults would
 * wait for itself and fail.
 */
struct mm;
void oom_forget_mm(const struct mm *mm);

/*
 * Kernel memory a process caused and that its address space does not
 * count (pipe buffers, fs/pipe.c; file locks, fs/locks.c; its threads'
 * kernel stacks, kernel/process/fork.c; mounts, fs/mount.c): counted with
 * its resident pages when a victim is chosen, as Linux's memory cgroups
 * count such objects (__GFP_ACCOUNT, SLAB_ACCOUNT). Kept in bytes, since
 * most of these objects are smaller than a page. The object outlives the
 * process while something it created still holds it (a pipe passed on).
 * Reference counted; the leader holds one.
 */
struct mem_charge;
struct task;
/*
 * The current process's charge with a reference for the caller, or NULL
 * (no memory, or no process: the kernel's own work).
 */
struct mem_charge *mem_charge_current(void);
/* The same for the process leader leads. */
struct mem_charge *mem_charge_of(struct task *leader);
void mem_charge_add(struct mem_charge *c, s64 pages);
void mem_charge_add_bytes(struct mem_charge *c, s64 bytes);
void mem_charge_put(struct mem_charge *c);
/*
 * /proc/<pid>/oom_score of the process leader leads (tasks_lock held), as
 * Linux's proc_oom_score: (1000 + badness * 1000 / total pages) * 2 / 3,
 * where badness is what the choice of a victim weighs, oom_score_adj
 * included; 0 for a process that is never chosen while another is left
 * (init, oom_score_adj -1000) or has no memory.
 */
unsigned long oom_score(const struct task *leader, u64 total_pages);
/* /proc/<pid>/oom_score_adj's range (Linux's uapi/linux/oom.h): -1000 is never chosen. */
#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000
/* /proc/<pid>/oom_adj, the older scale: -17 is never chosen. */
#define OOM_ADJUST_MIN (-17)
#define OOM_ADJUST_MAX 15

/* leader is being freed: its reference goes. */
void mem_charge_release(struct task *leader);

#endif

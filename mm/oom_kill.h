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

#endif

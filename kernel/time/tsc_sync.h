/*
 * tsc_sync.h - the TSC warp check between the boot CPU and an AP that is
 * starting: the two take turns reading their TSCs, each reading after
 * seeing the other's, and a TSC that reads below what the other CPU read
 * before it has gone back ("warped").
 *
 * Each side is a small state machine (struct tsc_sync) stepped until it is
 * done, so that the host tests can interleave two or three sides in any
 * order; tsc_sync_run() steps one side on a real CPU. kernel/time/tsc.c
 * calls it at AP start-up (tsc_sync_source, tsc_sync_target) and reports a
 * warp.
 */
#ifndef REWIND_TSC_SYNC_H
#define REWIND_TSC_SYNC_H

#include "kernel/lib/types.h"

#define TSC_SYNC_ROUNDS 16 /* even: the source publishes the last round (tsc_sync.c) */

struct tsc_sync {
	s64 first, round, end; /* the AP's rounds, the one this side is in, one past the last */
	bool source;	       /* the boot CPU's side */
	bool stamp_out;	       /* publishing this round: the stamp is out, the check not yet seen */
	u64 (*read_tsc)(void);
};

enum tsc_sync_progress { TSC_SYNC_WAITING, TSC_SYNC_MOVED, TSC_SYNC_DONE };

/* One side of the check with the AP numbered cpu; the source's begin clears the worst warp. */
void tsc_sync_begin(struct tsc_sync *s, unsigned cpu, bool source, u64 (*read_tsc)(void));
/* One step: WAITING when it needs the other side first, DONE after its last round. */
enum tsc_sync_progress tsc_sync_step(struct tsc_sync *s);
/* Steps s until done, relaxing the CPU while it waits. */
void tsc_sync_run(struct tsc_sync *s);
/* The largest warp either side saw in the last check; complete once the source is done. */
u64 tsc_sync_worst_warp(void);

#endif

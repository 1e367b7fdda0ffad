/*
 * seqcount.h - a sequence counter: one writer at a time (the caller's own
 * lock, or the only CPU that writes) makes it odd while it changes some
 * data; readers take no lock and read the data between two even, equal
 * values, retrying otherwise. For data read far more often than written,
 * where a reader must never see half of an update (the timekeeper, a
 * CPU's idle time).
 */
#ifndef REWIND_SEQCOUNT_H
#define REWIND_SEQCOUNT_H

#include "kernel/lib/types.h"
#include "kernel/x86/x86.h"

static inline void
seq_write_begin(u32 *seq)
{
	WRITE_ONCE(*seq, *seq + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE); /* odd before the data */
}

static inline void
seq_write_end(u32 *seq)
{
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELEASE); /* the data before even */
}

static inline u32
seq_read_begin(const u32 *seq)
{
	u32 s;

	while ((s = __atomic_load_n(seq, __ATOMIC_ACQUIRE)) & 1)
		cpu_relax();
	return s;
}

static inline bool
seq_read_retry(const u32 *seq, u32 s)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE); /* the data before the second look */
	return __atomic_load_n(seq, __ATOMIC_RELAXED) != s;
}

#endif

/*
 * pipe_accounting.c - see pipe_accounting.h.
 *
 * Linux keeps the count in each user's user_struct; rewind has none, so
 * the users that hold pipe buffers now are a small table under a spinlock,
 * a slot per uid, freed when its count drops to 0. If more users than
 * slots hold pipes at once the rest share one overflow slot, whose limits
 * then apply to them together (never looser than per user). A pipe keeps
 * the slot it was charged in: a slot with pages in it keeps its user.
 */
#include "fs/pipe_accounting.h"
#include "locking/spinlock.h"
#include "mm/layout.h"

#define PIPE_USER_SLOTS 64
#define OVERFLOW_SLOT	(PIPE_USER_SLOTS - 1)

unsigned long pipe_max_size = 1048576;
unsigned long pipe_user_pages_soft = 16384;
unsigned long pipe_user_pages_hard;

static struct {
	u32 uid;
	unsigned long pages; /* 0: the slot is free */
} users[PIPE_USER_SLOTS];
static struct spinlock accounting_lock = SPINLOCK_INIT("pipe_accounting");

/* uid's slot, a free one for it, or the overflow slot; accounting_lock held. */
static unsigned
user_slot(u32 uid)
{
	unsigned free = OVERFLOW_SLOT;

	for (unsigned i = 0; i < OVERFLOW_SLOT; i++) {
		if (users[i].pages && users[i].uid == uid)
			return i;
		if (!users[i].pages && free == OVERFLOW_SLOT)
			free = i;
	}
	return free;
}

unsigned long
pipe_account_add(struct pipe_account *a, long delta)
{
	u64 flags = spin_lock_irqsave(&accounting_lock);

	if (a->slot < 0) {
		a->slot = (int)user_slot(a->uid);
		users[a->slot].uid = a->uid;
	}
	a->pages += (unsigned long)delta;
	users[a->slot].pages += (unsigned long)delta;
	unsigned long total = users[a->slot].pages;
	spin_unlock_irqrestore(&accounting_lock, flags);
	return total;
}

bool
pipe_user_over_soft(unsigned long total)
{
	unsigned long soft = READ_ONCE(pipe_user_pages_soft);

	return soft && total > soft;
}

bool
pipe_user_over_hard(unsigned long total)
{
	unsigned long hard = READ_ONCE(pipe_user_pages_hard);

	return hard && total > hard;
}

unsigned long
pipe_round_size(unsigned long bytes)
{
	if (bytes > (1ul << 31))
		return 0;
	unsigned long size = PAGE_SIZE;
	while (size < bytes)
		size <<= 1;
	return size;
}

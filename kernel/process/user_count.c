/*
 * user_count.c - see user_count.h.
 *
 * Linux keeps the counts in each user's user_struct; rewind has none, so
 * the users that hold something now are a small table under a spinlock,
 * a slot per uid, free again once all its counts are 0. If more users than
 * slots hold something at once the rest share one overflow slot, whose
 * limits then apply to them together (never looser than per user). A
 * holder keeps the slot it was charged in: a slot with counts in it keeps
 * its user. Slots are handed out from the bottom, and the search for a
 * user's slot stops at the highest one ever handed out: a queued signal
 * looks its user up on every send (a kill of oneself frees the slot again
 * at once), and a search of all 64 slots cost it 1700 instructions.
 */
#include "kernel/process/user_count.h"
#include "locking/spinlock.h"

#define USER_SLOTS    64
#define OVERFLOW_SLOT (USER_SLOTS - 1)

static struct {
	u32 uid;
	unsigned long counts[USER_RESOURCES]; /* all 0: the slot is free */
} users[USER_SLOTS];
/* Slots [0, slots_handed_out) have had a user; those above are free. */
static unsigned slots_handed_out;
static struct spinlock user_count_lock = SPINLOCK_INIT("user_count");

static bool
slot_in_use(unsigned i)
{
	for (unsigned r = 0; r < USER_RESOURCES; r++)
		if (users[i].counts[r])
			return true;
	return false;
}

/* uid's slot, a free one for it, or the overflow slot; user_count_lock held. */
static unsigned
user_slot(u32 uid)
{
	unsigned free = OVERFLOW_SLOT;

	for (unsigned i = 0; i < slots_handed_out; i++) {
		bool used = slot_in_use(i);
		if (used && users[i].uid == uid)
			return i;
		if (!used && free == OVERFLOW_SLOT)
			free = i;
	}
	if (free == OVERFLOW_SLOT && slots_handed_out < OVERFLOW_SLOT)
		free = slots_handed_out++;
	return free;
}

/* c's slot, found or taken at its first charge; user_count_lock held. */
static unsigned
charge_slot(struct user_charge *c)
{
	if (c->slot < 0) {
		c->slot = (int)user_slot(c->uid);
		users[c->slot].uid = c->uid;
	}
	return (unsigned)c->slot;
}

unsigned long
user_count_add(struct user_charge *c, enum user_resource r, long delta)
{
	u64 flags = spin_lock_irqsave(&user_count_lock);
	unsigned long *count = &users[charge_slot(c)].counts[r];

	*count += (unsigned long)delta;
	unsigned long total = *count;
	spin_unlock_irqrestore(&user_count_lock, flags);
	return total;
}

bool
user_count_add_one_within(struct user_charge *c, enum user_resource r, unsigned long limit)
{
	u64 flags = spin_lock_irqsave(&user_count_lock);
	unsigned long *count = &users[charge_slot(c)].counts[r];
	bool within = *count < limit;

	*count += within;
	spin_unlock_irqrestore(&user_count_lock, flags);
	return within;
}

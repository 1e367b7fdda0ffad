/*
 * pipe_accounting.c - see pipe_accounting.h.
 *
 * The users' totals are in kernel/process/user_count.c, beside their other
 * per-user counts; a pipe also keeps its own, to give it all back.
 */
#include "fs/pipe_accounting.h"
#include "kernel/process/cred.h"
#include "mm/layout.h"

unsigned long pipe_max_size = 1048576;
unsigned long pipe_user_pages_soft = 16384;
unsigned long pipe_user_pages_hard;

unsigned long
pipe_account_add(struct pipe_account *a, long delta)
{
	a->pages += (unsigned long)delta;
	return user_count_add(&a->user, USER_PIPE_PAGES, delta);
}

bool
pipe_user_unprivileged(void)
{
	return !capable(CAP_SYS_RESOURCE) && !capable(CAP_SYS_ADMIN);
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

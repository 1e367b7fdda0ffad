/*
 * stack_growth.c - usertests: mappings that grow down (MAP_GROWSDOWN): a
 * fault below one extends it, unless that would come within the stack
 * guard gap (256 pages) of an accessible mapping below, or past
 * RLIMIT_STACK; a fault that cannot grow it is SIGSEGV.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define GUARD_GAP (256 * PAGE)

/*
 * A free stretch of `free` bytes with a one-page MAP_GROWSDOWN mapping
 * just above it: that page's address.
 */
static char *
growsdown_above_free(size_t free)
{
	char *base = map_anon(free + PAGE, PROT_NONE);

	CHECK_OK(munmap(base, free + PAGE));
	char *top = mmap(base + free, PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_GROWSDOWN, -1, 0);
	CHECK(top == base + free);
	return top;
}

TEST(growsdown_grows_on_fault_below)
{
	char *top = growsdown_above_free(GUARD_GAP + 16 * PAGE);

	top[-1] = 'x';		    /* the page just below */
	top[-8 * PAGE] = 'y';	    /* further down: the whole way is added */
	CHECK(top[-4 * PAGE] == 0); /* the pages between are there, zeroed */
	CHECK(top[-1] == 'x' && top[-8 * PAGE] == 'y');
	CHECK_OK(munmap(top - 8 * PAGE, 9 * PAGE));
}

static char *gap_target;

static void
touch_gap_target(void)
{
	*(volatile char *)gap_target = 1;
}

/* Growing to within the guard gap of the mapping below is SIGSEGV. */
TEST(growsdown_keeps_guard_gap)
{
	char *top = growsdown_above_free(GUARD_GAP + 16 * PAGE);
	char *below = top - GUARD_GAP - 16 * PAGE;

	CHECK(mmap(below, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	      below);
	top[-15 * PAGE] = 1; /* a gap of 256 pages stays: allowed */
	gap_target = top - 16 * PAGE;
	expect_killed(touch_gap_target, SIGSEGV, "a fault inside the guard gap");
	/* An inaccessible mapping below needs no gap. */
	CHECK_OK(mprotect(below, PAGE, PROT_NONE));
	top[-16 * PAGE] = 1;
	CHECK_OK(munmap(below, GUARD_GAP + 17 * PAGE));
}

static void
grow_past_rlimit_stack(void)
{
	struct rlimit rl = { 16 * PAGE, 16 * PAGE };
	char *top = growsdown_above_free(GUARD_GAP + 64 * PAGE);

	CHECK_OK(setrlimit(RLIMIT_STACK, &rl));
	top[-15 * PAGE] = 1; /* 16 pages in all: allowed */
	top[-16 * PAGE] = 1;
}

TEST(growsdown_bounded_by_rlimit_stack)
{
	expect_killed(grow_past_rlimit_stack, SIGSEGV, "growth past RLIMIT_STACK");
}

TEST(growsdown_not_for_shared_anonymous)
{
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_SHARED | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0) ==
	      MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
}

/*
 * pgtable_free.c - usertests: the page tables an unmapped range leaves
 * where no area reaches them are given back (Linux's free_pgtables), so
 * that mapping and unmapping across a wide address range does not grow a
 * process's page-table memory (VmPTE, and /proc/meminfo's PageTables)
 * without bound: by munmap, by mremap's move of the old range and by a
 * shrinking brk; a table still shared with a neighbouring area stays and
 * the neighbour's pages with it; and threads on other CPUs touching the
 * memory while its tables go never reach a freed table (run under the
 * kmemdebug knob on rewind, whose report count must not move).
 *
 * Each test works in its own 512 GiB of address space, far from the
 * program, its heap and its stacks, so that the tables it makes and frees
 * are its own and VmPTE comes back exactly. /proc is read with read(2)
 * into the stack: a stdio buffer would be a heap that grows in between.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "lib/procfile.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GIB (1ul << 30)
#define MIB (1ul << 20)
/* One 512 GiB stretch (one top-level entry's worth) per test, from 16 TiB up. */
#define STRETCH(i) ((char *)((16ul << 40) + (unsigned long)(i) * (512ul << 30)))
#define REGIONS	   64 /* 1 GiB apart: each needs a page table and a page directory of its own */

static long
vm_pte_kb(void)
{
	char text[4096];
	unsigned long long kb;

	CHECK_OK(read_text_file("/proc/self/status", text, sizeof(text)));
	CHECK_OK(field_ull(text, "VmPTE", &kb));
	return (long)kb;
}

/* One page at exactly addr, filled with seed's pattern. */
static void
map_page_at(char *addr, unsigned seed)
{
	void *p = mmap(addr, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	CHECK(p == addr);
	fill_pattern((unsigned char *)p, PAGE, seed);
}

/*
 * 64 one-page regions 1 GiB apart, mapped, touched and unmapped, eight
 * times over at fresh addresses: every round makes 129 table pages (the
 * page directory over the stretch, then a directory and a table per
 * region), which PageTables shows too, and unmapping gives every one back.
 */
TEST(munmap_gives_wide_page_tables_back)
{
	vm_pte_kb(); /* the first read's own stack pages are in place from now on */
	long start = vm_pte_kb();

	for (int round = 0; round < 8; round++) {
		char *base = STRETCH(0) + (unsigned long)round * REGIONS * GIB;
		for (int i = 0; i < REGIONS; i++)
			map_page_at(base + i * GIB, (unsigned)i);
		CHECK(vm_pte_kb() >= start + (2 * REGIONS + 1) * 4);
		CHECK(meminfo("PageTables:") >= 2 * REGIONS * 4);
		for (int i = 0; i < REGIONS; i++) {
			CHECK(has_pattern((unsigned char *)base + i * GIB, PAGE, (unsigned)i));
			CHECK_OK(munmap(base + i * GIB, PAGE));
		}
		CHECK_EQ(vm_pte_kb(), start);
	}
}

/*
 * A sits at the top of one 2 MiB page table's span, B and D in the next
 * table's: unmapping B frees nothing (D still needs that table), unmapping
 * D frees exactly that table (A's is its own, and the page directory they
 * share stays), and A's page is there and writable throughout.
 */
TEST(munmap_keeps_the_tables_a_neighbour_shares)
{
	char *table_edge = STRETCH(1) + 2 * MIB;
	char *a = table_edge - PAGE, *b = table_edge, *d = table_edge + 2 * PAGE;
	long start = vm_pte_kb();

	map_page_at(a, 1);
	map_page_at(b, 2);
	map_page_at(d, 3);
	long mapped = vm_pte_kb();

	CHECK_OK(munmap(b, PAGE));
	CHECK_EQ(vm_pte_kb(), mapped);
	CHECK(has_pattern((unsigned char *)d, PAGE, 3));
	CHECK_OK(munmap(d, PAGE));
	CHECK_EQ(vm_pte_kb(), mapped - 4);
	CHECK(has_pattern((unsigned char *)a, PAGE, 1));
	fill_pattern((unsigned char *)a, PAGE, 4);
	CHECK(has_pattern((unsigned char *)a, PAGE, 4));
	CHECK_OK(munmap(a, PAGE));
	CHECK_EQ(vm_pte_kb(), start);
}

/* mremap moving a page 5 GiB away: the old range's tables go, the page arrives whole. */
TEST(mremap_move_gives_the_old_tables_back)
{
	char *from = STRETCH(2), *to = STRETCH(2) + 5 * GIB;
	long start = vm_pte_kb();

	map_page_at(from, 5);
	long mapped = vm_pte_kb();
	CHECK(mremap(from, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, to) == to);
	CHECK(has_pattern((unsigned char *)to, PAGE, 5));
	CHECK_EQ(vm_pte_kb(), mapped); /* a table and a directory there, none left here */
	CHECK_OK(munmap(to, PAGE));
	CHECK_EQ(vm_pte_kb(), start);
}

/*
 * brk grown by 64 MiB with a page touched in every 2 MiB, then shrunk
 * back: the tables of the heap's end go again, but for the one table the
 * old end may share with the area below it, which a fault there made.
 */
TEST(brk_shrink_gives_page_tables_back)
{
	char *old_end = (char *)syscall(SYS_brk, 0);
	long start = vm_pte_kb();

	CHECK((char *)syscall(SYS_brk, old_end + 64 * MIB) == old_end + 64 * MIB);
	for (unsigned long off = 0; off < 64 * MIB; off += 2 * MIB)
		old_end[off] = 1;
	CHECK(vm_pte_kb() >= start + 31 * 4); /* the first 2 MiB's table may be the old end's */
	CHECK((char *)syscall(SYS_brk, old_end) == old_end);
	CHECK(vm_pte_kb() <= start + 4);
}

/* ---- touching while the tables go ------------------------------------------------ */

#define SLOTS	     8 /* 1 GiB apart, each a page per toucher */
#define TOUCHERS     2
#define CHURN_ROUNDS 300

struct churn {
	char *base;
	int stop;
	unsigned long touches[TOUCHERS];
	unsigned long strange; /* a read neither the toucher's own word nor a fresh page's 0 */
};

static __thread sigjmp_buf touch_escape;

static void
on_segv(int sig)
{
	(void)sig;
	siglongjmp(touch_escape, 1);
}

static char *
slot_page(const struct churn *c, int slot, int toucher)
{
	return c->base + (unsigned long)slot * GIB + (unsigned long)toucher * PAGE;
}

struct toucher_arg {
	struct churn *churn;
	int me;
};

/*
 * Reads its page of each slot (a fresh page's 0, or a word it wrote), then
 * writes a new word and reads that back; a slot unmapped meanwhile faults.
 */
static void *
toucher(void *arg)
{
	struct churn *c = ((struct toucher_arg *)arg)->churn;
	int me = ((struct toucher_arg *)arg)->me;

	for (unsigned long word = 1; !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE); word++) {
		for (volatile int slot = 0; slot < SLOTS; slot++) {
			if (sigsetjmp(touch_escape, 1))
				continue; /* unmapped just then */
			volatile unsigned long *p = (unsigned long *)slot_page(c, slot, me);
			unsigned long mark = word << 8 | (unsigned long)me, seen = *p;
			if (seen && (seen & 0xff) != (unsigned long)me)
				__atomic_fetch_add(&c->strange, 1, __ATOMIC_RELAXED);
			*p = mark;
			seen = *p;
			if (seen != mark && seen != 0) /* 0: the slot came back as a fresh page */
				__atomic_fetch_add(&c->strange, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&c->touches[me], 1, __ATOMIC_RELEASE);
		}
	}
	return NULL;
}

static void
map_slot(const struct churn *c, int slot)
{
	char *at = slot_page(c, slot, 0);

	CHECK(mmap(at, TOUCHERS * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == at);
}

/*
 * Two threads touch a page each in eight slots 1 GiB apart while this one
 * unmaps and maps the slots again, 300 times over: every unmap frees the
 * slot's table and directory under the touchers' feet (on rewind with
 * kmemdebug on, a touch through a freed table would write into memory
 * handed out again, which its checks report). A touch sees its own words,
 * or a fresh page's zero when the slot came back in between, never
 * anything else.
 */
TEST(munmap_frees_tables_under_touching_threads)
{
	static struct churn c;
	struct sigaction sa = { .sa_handler = on_segv };
	pthread_t t[TOUCHERS];
	struct toucher_arg args[TOUCHERS];
	long reports = kernel_objects("kmemdebug");

	c.base = STRETCH(3);
	CHECK_OK(sigaction(SIGSEGV, &sa, NULL));
	for (int s = 0; s < SLOTS; s++)
		map_slot(&c, s);
	for (int i = 0; i < TOUCHERS; i++) {
		args[i] = (struct toucher_arg){ &c, i };
		CHECK_EQ(pthread_create(&t[i], NULL, toucher, &args[i]), 0);
	}
	for (int i = 0; i < TOUCHERS; i++)
		while (__atomic_load_n(&c.touches[i], __ATOMIC_ACQUIRE) == 0)
			sched_yield(); /* both touching before the first unmap */
	for (int round = 0; round < CHURN_ROUNDS; round++)
		for (int s = 0; s < SLOTS; s++) {
			CHECK_OK(munmap(slot_page(&c, s, 0), TOUCHERS * PAGE));
			map_slot(&c, s);
		}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < TOUCHERS; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	CHECK_EQ(c.strange, 0ul);
	CHECK_EQ(kernel_objects("kmemdebug"), reports); /* -1 both times on Linux */
}

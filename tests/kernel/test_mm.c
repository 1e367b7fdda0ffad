/*
 * test_mm.c - self-tests of memory management on the real machine: the
 * allocators under stress (with every byte they hand out checked), page
 * mappings made and removed, NX and W^X enforced by the MMU, and kernel
 * stack guard pages.
 */
#include "kernel/ktest.h"
#include "kernel/lib/string.h"
#include "kernel/x86/traps.h"
#include "kernel/x86/paravirt.h"
#include "mm/extable.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "mm/paging.h"
#include "mm/vmap.h"
#include "uapi/errno.h"

/* A spare spot near the top of the vmap region, far from ioremap's bump pointer. */
#define TEST_VA (VMAP_BASE + VMAP_SIZE - 64 * PAGE_SIZE)

static u64 rng_state = 0x9e3779b97f4a7c15ul;

static u64
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

KTEST(page_allocator_stress)
{
	enum { BLOCKS = 256 };
	static struct page *blocks[BLOCKS];
	static unsigned orders[BLOCKS];
	struct page_alloc_stats before, after;

	page_alloc_get_stats(&before);
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < BLOCKS; i++) {
			orders[i] = rng() % 5;
			blocks[i] = alloc_pages(orders[i]);
			CHECK(blocks[i] != NULL);
			if (!blocks[i])
				return;
			/* Tag every page with its own pfn: an overlap shows as a wrong tag. */
			for (u64 p = 0; p < (1ul << orders[i]); p++)
				*(u64 *)phys_to_virt(page_to_phys(blocks[i]) + p * PAGE_SIZE) =
					page_to_pfn(blocks[i]) + p;
		}
		u64 bad = 0;
		for (int i = 0; i < BLOCKS; i++)
			for (u64 p = 0; p < (1ul << orders[i]); p++)
				if (*(u64 *)phys_to_virt(page_to_phys(blocks[i]) + p * PAGE_SIZE) !=
				    page_to_pfn(blocks[i]) + p)
					bad++;
		CHECK_EQ(bad, 0);
		for (int i = BLOCKS - 1; i >= 0; i -= 2) /* free in a scattered order */
			free_pages(blocks[i], orders[i]);
		for (int i = BLOCKS - 2; i >= 0; i -= 2)
			free_pages(blocks[i], orders[i]);
	}
	page_alloc_get_stats(&after);
	CHECK_EQ(after.free_pages, before.free_pages);
}

KTEST(kmalloc_stress)
{
	enum { OBJECTS = 1024 };
	static u8 *objs[OBJECTS];
	static size_t sizes[OBJECTS];
	struct kmalloc_class_stats before[KMALLOC_NCLASSES], after[KMALLOC_NCLASSES];

	kmalloc_get_stats(before);
	for (int i = 0; i < OBJECTS; i++) {
		sizes[i] = i % 17 == 0 ? 4096 + rng() % 20000 : 1 + rng() % 2048;
		objs[i] = kmalloc(sizes[i]);
		CHECK(objs[i] != NULL);
		if (!objs[i])
			return;
		CHECK(ksize(objs[i]) >= sizes[i]);
		memset(objs[i], (u8)i, sizes[i]);
	}
	u64 bad = 0;
	for (int i = 0; i < OBJECTS; i++)
		for (size_t b = 0; b < sizes[i]; b++)
			if (objs[i][b] != (u8)i)
				bad++;
	CHECK_EQ(bad, 0);
	for (int i = 0; i < OBJECTS; i++) {
		int j = (int)(rng() % OBJECTS); /* free in random order */
		kfree(objs[j]);
		objs[j] = NULL;
		kfree(objs[i]);
		objs[i] = NULL;
	}
	kmalloc_get_stats(after);
	for (int c = 0; c < KMALLOC_NCLASSES; c++)
		CHECK_EQ(after[c].objects_in_use, before[c].objects_in_use);
}

KTEST(map_and_unmap_a_page)
{
	u64 *page = alloc_zeroed_page();
	int level;

	CHECK(page != NULL);
	if (!page)
		return;
	CHECK_EQ(map_kernel_page(TEST_VA, virt_to_phys(page), PAGE_KERNEL_RW), 0);
	u64 pte = lookup_kernel_mapping(TEST_VA, &level);
	CHECK_EQ(level, 1);
	CHECK_EQ(pte & PTE_ADDR_MASK, virt_to_phys(page));
	CHECK((pte & (PTE_PRESENT | PTE_WRITE | PTE_NX)) == (PTE_PRESENT | PTE_WRITE | PTE_NX));

	*(volatile u64 *)(TEST_VA + 8) = 0x1234abcd; /* through the new mapping */
	CHECK_EQ(page[1], 0x1234abcd);		     /* seen through the direct map */

	unmap_kernel_page(TEST_VA);
	CHECK_EQ(lookup_kernel_mapping(TEST_VA, &level), 0);
	u64 v;
	CHECK_EQ(probe_read_u64((void *)TEST_VA, &v), -EFAULT);
	free_page_virt(page);
}

KTEST(nx_pages_do_not_execute)
{
	u8 *page = alloc_zeroed_page();
	struct expected_trap e;

	CHECK(page != NULL);
	if (!page)
		return;
	page[0] = 0xc3; /* ret */
	void (*fn)(void) = (void (*)(void))TEST_VA;

	map_kernel_page(TEST_VA, virt_to_phys(page), PAGE_KERNEL_RO); /* NX */
	CHECK(ktest_call_expecting_trap(VEC_PAGE_FAULT, fn, &e));
	CHECK_EQ(e.error, PF_INSTR | PF_PRESENT);
	CHECK_EQ(e.cr2, TEST_VA);
	unmap_kernel_page(TEST_VA);

	map_kernel_page(TEST_VA, virt_to_phys(page), PAGE_KERNEL_RX);
	CHECK(!ktest_call_expecting_trap(VEC_PAGE_FAULT, fn, &e)); /* runs and returns */
	unmap_kernel_page(TEST_VA);
	free_page_virt(page);
}

static int writable_data = 1;
static const int read_only_data = 2;

KTEST(kernel_image_is_w_xor_x)
{
	int level;
	u64 text = lookup_kernel_mapping((u64)&kernel_image_is_w_xor_x, &level);
	CHECK_EQ(level, 1);
	CHECK(!(text & PTE_WRITE) && !(text & PTE_NX));

	u64 ro = lookup_kernel_mapping((u64)&read_only_data, &level);
	CHECK(!(ro & PTE_WRITE) && (ro & PTE_NX));

	u64 rw = lookup_kernel_mapping((u64)&writable_data, &level);
	CHECK((rw & PTE_WRITE) && (rw & PTE_NX));

	/* CR0.WP: even the kernel cannot write read-only pages. */
	CHECK_EQ(probe_write_u64((void *)&read_only_data, 0), -EFAULT);
	CHECK_EQ(read_only_data, 2);
	CHECK_EQ(writable_data, 1);
}

KTEST(kernel_stacks_have_guard_pages)
{
	u64 top = kstack_alloc(), v;

	CHECK(top != 0);
	if (!top)
		return;
	u64 bottom = top - KSTACK_SIZE;
	CHECK_EQ(probe_read_u64((void *)bottom, &v), 0);
	CHECK_EQ(probe_read_u64((void *)(top - 8), &v), 0);
	CHECK_EQ(probe_read_u64((void *)(bottom - 8), &v), -EFAULT);
	CHECK(kstack_is_guard(bottom - 8));
	CHECK(!kstack_is_guard(bottom));
	kstack_free(top);
	kstack_purge(); /* a freed stack stays mapped in the cache until then */
	CHECK_EQ(probe_read_u64((void *)bottom, &v), -EFAULT);
}

/*
 * A freed stack is kept mapped and handed out again (vmap.c's cache):
 * zeroed, as a new one, and with its guard page still unmapped.
 */
KTEST(kernel_stacks_are_reused_zeroed)
{
	u64 top = kstack_alloc(), v;

	CHECK(top != 0);
	if (!top)
		return;
	memset((void *)(top - KSTACK_SIZE), 0x5a, KSTACK_SIZE);
	kstack_free(top);
	u64 again = kstack_alloc();
	CHECK(again != 0);
	if (!again)
		return;
	for (u64 p = again - KSTACK_SIZE; p < again; p += sizeof(u64))
		if (*(u64 *)p != 0) {
			CHECK_EQ(*(u64 *)p, 0);
			break;
		}
	CHECK_EQ(probe_read_u64((void *)(again - KSTACK_SIZE - 8), &v), -EFAULT);
	kstack_free(again);
}

/*
 * kmemdebug on the real kernel: a red-zone overrun, a double free and a
 * write after free each make one report, and the report names this
 * function, symbolized from the kernel's table, as the allocation site.
 * The knob is switched on just for this; objects made meanwhile by other
 * CPUs live in the debug caches, which is harmless.
 */
KTEST(kmemdebug_reports_name_the_allocation_site)
{
	int was = READ_ONCE(kmemdebug);
	u64 reports = kmemdebug_report_count();

	WRITE_ONCE(kmemdebug, 1);
	char *p = kmalloc(40);
	CHECK(p && ksize(p) == 40);
	if (!p)
		goto out;
	p[40] = 'x'; /* one byte past the end */
	kfree(p);
	CHECK(kmemdebug_report_count() == reports + 1);
	CHECK(strstr(kmemdebug_last_report(), "red zone overwritten: 40-byte object") != NULL);
	CHECK(strstr(kmemdebug_last_report(),
		     "allocated at kmemdebug_reports_name_the_allocation_site+") != NULL);

	char *q = kmalloc(100);
	CHECK(q != NULL);
	if (!q)
		goto out;
	kfree(q);
	kfree(q); /* reported and ignored */
	CHECK(kmemdebug_report_count() == reports + 2);
	CHECK(strstr(kmemdebug_last_report(), "double free: 100-byte object") != NULL);
	CHECK(strstr(kmemdebug_last_report(),
		     "freed at kmemdebug_reports_name_the_allocation_site+") != NULL);

	char *r = kmalloc(200);
	CHECK(r != NULL);
	if (!r)
		goto out;
	kfree(r);
	r[50] = 1;
	/* The next allocation of that class gets it back and finds the write (here or on another CPU). */
	char *s = kmalloc(200);
	CHECK(kmemdebug_report_count() == reports + 3);
	CHECK(strstr(kmemdebug_last_report(), "use after free") != NULL);
	kfree(s);
out:
	WRITE_ONCE(kmemdebug, was);
}

/* Whether the last kmemdebug report says what and names this file's test fn after label. */
static bool
reported(const char *what, const char *label, const char *fn)
{
	const char *r = kmemdebug_last_report(), *at = strstr(r, label);

	return strstr(r, what) && at && !strncmp(at + strlen(label), fn, strlen(fn)) &&
	       at[strlen(label) + strlen(fn)] == '+';
}

/* The free-list link of a plain cache lives in the first word: kmemdebug's does not. */
KTEST(kmemdebug_reports_a_write_to_the_first_word_after_free)
{
	int was = READ_ONCE(kmemdebug);
	u64 reports = kmemdebug_report_count();

	WRITE_ONCE(kmemdebug, 1);
	u64 *p = kmalloc(64);
	CHECK(p != NULL);
	if (p) {
		kfree(p);
		*p = 0;		      /* where the link would be */
		u64 *q = kmalloc(64); /* the same object, unless another CPU took it first */
		CHECK(kmemdebug_report_count() == reports + 1);
		CHECK(strstr(kmemdebug_last_report(), "(byte 0 is 0x00)") != NULL);
		CHECK(reported("use after free", "allocated at ", __func__));
		CHECK(reported("use after free", "freed at ", __func__));
		kfree(q);
	}
	WRITE_ONCE(kmemdebug, was);
}

/*
 * A page-sized and a multi-page allocation: red zone, double free, write
 * after free (found when the block leaves kmemdebug's quarantine, drained
 * here), each one report naming this function.
 */
KTEST(kmemdebug_covers_page_sized_and_multi_page_allocations)
{
	static const size_t sizes[] = { PAGE_SIZE, 3 * PAGE_SIZE + 100 };
	int was = READ_ONCE(kmemdebug);

	WRITE_ONCE(kmemdebug, 1);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i];
		u64 reports = kmemdebug_report_count();
		u8 *p = kmalloc(size);
		CHECK(p && ksize(p) == size);
		if (!p)
			break;
		p[size] = 'x';
		kfree(p);
		CHECK(kmemdebug_report_count() == reports + 1);
		CHECK(reported("red zone overwritten", "allocated at ", __func__));

		p = kmalloc(size);
		CHECK(p != NULL);
		if (!p)
			break;
		kfree(p);
		kfree(p); /* reported and ignored */
		CHECK(kmemdebug_report_count() == reports + 2);
		CHECK(reported("double free", "freed at ", __func__));

		p = kmalloc(size);
		CHECK(p != NULL);
		if (!p)
			break;
		kfree(p);
		p[0] = 1;
		kmemdebug_drain_quarantine();
		CHECK(kmemdebug_report_count() == reports + 3);
		CHECK(strstr(kmemdebug_last_report(), "(byte 0 is 0x01)") != NULL);
		CHECK(reported("use after free", "freed at ", __func__));
	}
	WRITE_ONCE(kmemdebug, was);
}

enum { KMALLOC_COST_ROUNDS = 20000 };

/* Cycles of one kmalloc(64) + kfree, the median of five batches, with kmemdebug as given. */
static u64
kmalloc_round_trip_cycles(int debug)
{
	u64 batches[5];
	int was = READ_ONCE(kmemdebug);

	WRITE_ONCE(kmemdebug, debug);
	for (int b = 0; b < 5; b++) {
		u64 t0 = rdtsc();
		for (int i = 0; i < KMALLOC_COST_ROUNDS; i++)
			kfree(kmalloc(64));
		batches[b] = (rdtsc() - t0) / KMALLOC_COST_ROUNDS;
	}
	WRITE_ONCE(kmemdebug, was);
	for (int i = 1; i < 5; i++) /* insertion sort: five values */
		for (int j = i; j > 0 && batches[j] < batches[j - 1]; j--) {
			u64 t = batches[j];
			batches[j] = batches[j - 1];
			batches[j - 1] = t;
		}
	return batches[2];
}

/* What kmemdebug costs a small allocation, in one boot (reported, not judged: the host is shared). */
KTEST(kmalloc_round_trip_cost_with_kmemdebug)
{
	u64 reports = kmemdebug_report_count();
	u64 off = kmalloc_round_trip_cycles(0), on = kmalloc_round_trip_cycles(1);

	CHECK(kmemdebug_report_count() == reports);
	pr_info("ktest:     kmalloc(64)+kfree: %lu cycles plain, %lu with kmemdebug\n", off, on);
}

/*
 * vdso.c - checking the embedded vDSO image and mapping it into each
 * process; see vdso.h.
 *
 * The image's pages in the kernel's .rodata are what user mode executes:
 * there is one copy for all processes, mapped through a special mapping
 * (mm/vm.h), so fork, munmap and exit never copy or free it. The two
 * [vvar] pages in front are the HPET's registers (uncached; absent without
 * an HPET) and the vvar_data page - the places the code, linked by
 * user/vdso/vdso.lds, expects one and two pages below its start.
 *
 * Placement: in the gap between the top of the mmap area and the stack,
 * so it never fragments the mmap area; at its top, or with
 * randomize_va_space=1|2 (Linux's sysctl of that name) at a random page
 * offset, as Linux 3.x put the vDSO at a random spot near the stack,
 * unless the program's personality says ADDR_NO_RANDOMIZE (gdb's default).
 * Fixed is rewind's default because under TCG the cost of the very same
 * code depends on its address (the emulator's TLB and jump cache are
 * indexed by it): randomly placed, clock_gettime through the vDSO varied
 * from 43 to 70 ns between processes; fixed, it reads 43 every time.
 */
#include "kernel/vdso/vdso.h"
#include "kernel/process/elf.h"
#include "kernel/process/process.h"
#include "uapi/errno.h"
#include "uapi/personality.h"
#include "kernel/knobs.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/random.h"
#include "kernel/vdso/vvar.h"
#include "mm/paging.h"
#include "mm/vm.h"

#define PT_DYNAMIC 2
#define DT_NULL	   0
#define DT_RELA	   7
#define DT_REL	   17
#define DT_TEXTREL 22
#define DT_JMPREL  23

/* The few ELF64 fields the check needs beyond elf_parse (System V gABI layouts). */
struct vdso_phdr {
	u32 type, flags;
	u64 offset, vaddr, paddr, filesz, memsz, align;
};

struct vdso_dyn {
	s64 tag;
	u64 val;
};

extern const u8 vdso_image[], vdso_image_end[];

static unsigned vdso_pages;

static u64
vdso_page(unsigned i)
{
	return kernel_image_to_phys(vdso_image + (u64)i * PAGE_SIZE);
}

/* [HPET registers][vvar_data], as vvar.h lays them out. */
static u64
vvar_page(unsigned i)
{
	if (i == 0)
		return vvar_hpet_phys ? vvar_hpet_phys | PTE_CACHE_UC : 0;
	return vvar_phys;
}

static struct special_mapping vdso_mapping = { .name = "[vdso]", .page = vdso_page };
static const struct special_mapping vvar_mapping = {
	.name = "[vvar]",
	.npages = VVAR_PAGES,
	.page = vvar_page,
};

/* Whether the dynamic section asks for any relocation (the code must run where it is mapped). */
static bool
has_relocations(const struct vdso_dyn *d, const u8 *end)
{
	for (; (const u8 *)(d + 1) <= end && d->tag != DT_NULL; d++)
		if (d->tag == DT_RELA || d->tag == DT_REL || d->tag == DT_JMPREL ||
		    d->tag == DT_TEXTREL)
			return true;
	return false;
}

/* What is wrong with the embedded image, or NULL. */
static const char *
image_problem(size_t size)
{
	struct elf_image img;
	const char *why;

	if (elf_parse(vdso_image, size, size, &img, &why))
		return why;
	if (!img.relocatable || img.nsegments != 1 || img.segments[0].vaddr != 0 ||
	    img.segments[0].filesz != img.segments[0].memsz || img.segments[0].memsz > size)
		return "not one position-independent segment at address 0";
	if (img.segments[0].flags & PF_W)
		return "a writable segment";
	u64 phoff = *(const u64 *)(vdso_image + 32); /* e_phoff */
	const struct vdso_phdr *ph = (const void *)(vdso_image + phoff);
	for (unsigned i = 0; i < img.phnum; i++)
		if (ph[i].type == PT_DYNAMIC && ph[i].offset + ph[i].filesz <= size &&
		    has_relocations((const void *)(vdso_image + ph[i].offset),
				    vdso_image + ph[i].offset + ph[i].filesz))
			return "dynamic relocations";
	return NULL;
}

void
vdso_init(void)
{
	size_t size = (size_t)(vdso_image_end - vdso_image);
	const char *why = image_problem(size);

	if (why)
		panic("vdso: the embedded vDSO image (%zu bytes) is broken: %s; rebuild user/vdso",
		      size, why);
	vdso_pages = (unsigned)(ALIGN_UP(size, PAGE_SIZE) >> PAGE_SHIFT);
	vdso_mapping.npages = vdso_pages;
	pr_info("vdso: %zu bytes (%u page%s) + %d vvar pages in every process\n", size, vdso_pages,
		vdso_pages == 1 ? "" : "s", VVAR_PAGES);
}

KNOB_INT(
	randomize_va_space, "randomize_va_space", 0, 0, 2, true,
	"0: the vDSO at one fixed address (steady figures under TCG); 1 or 2: a random page per process");

/* A page-aligned start for len bytes in the gap above the mmap area, a page below the stack. */
static u64
choose_address(u64 len)
{
	u64 gap = USER_STACK_TOP - USER_STACK_SIZE - PAGE_SIZE - USER_MMAP_TOP;
	u64 slots = (gap - len) >> PAGE_SHIFT, r;

	if (!READ_ONCE(randomize_va_space) || (current()->personality & ADDR_NO_RANDOMIZE))
		return USER_MMAP_TOP + slots * PAGE_SIZE;
	get_random_bytes(&r, sizeof(r));
	return USER_MMAP_TOP + (r % (slots + 1)) * PAGE_SIZE;
}

/* An executable may have a segment in that gap too: then another spot is tried. */
#define PLACEMENT_TRIES 16

int
vdso_map(struct mm *mm)
{
	u64 vvar_len = (u64)VVAR_PAGES << PAGE_SHIFT;
	int err = -EEXIST;

	for (int i = 0; i < PLACEMENT_TRIES && err == -EEXIST; i++) {
		u64 start = choose_address(vvar_len + ((u64)vdso_pages << PAGE_SHIFT));
		err = vm_map_special(mm, start, &vvar_mapping, VM_READ);
		if (err)
			continue;
		err = vm_map_special(mm, start + vvar_len, &vdso_mapping, VM_READ | VM_EXEC);
		if (err) {
			vm_munmap(mm, start, vvar_len);
			continue;
		}
		mm->vdso_base = start + vvar_len;
	}
	return err;
}

/*
 * vvar.c - the page of timekeeping data shared read-only with user mode
 * (layout and reading protocol in vvar.h). Allocated once at boot; the
 * timekeeping core writes it, the vDSO and vsyscall code map it.
 */
#include "kernel/vdso/vvar.h"
#include "kernel/panic.h"
#include "mm/layout.h"
#include "mm/page_alloc.h"

_Static_assert(sizeof(struct vvar_data) <= PAGE_SIZE, "vvar_data must fit one page");

struct vvar_data *vvar;
phys_addr_t vvar_phys;
phys_addr_t vvar_hpet_phys;

void
vvar_init(void)
{
	vvar = alloc_zeroed_page();
	if (!vvar)
		panic("vvar: no memory for the shared timekeeping page");
	vvar_phys = virt_to_phys(vvar);
}

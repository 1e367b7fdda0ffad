/*
 * vdso.h - the vDSO in every process: the shared object built from
 * user/vdso/ (embedded by kernel/vdso/vdso_image.asm) mapped as "[vdso]", with
 * the timekeeping page below it as "[vvar]" (layout in kernel/vdso/vvar.h), at
 * an address chosen at each execve and announced by AT_SYSINFO_EHDR.
 */
#ifndef REWIND_VDSO_H
#define REWIND_VDSO_H

#include "kernel/lib/types.h"

struct mm;

/* Checks the embedded image (ELF header, no relocations); a broken build is a panic. */
void vdso_init(void);
/* Maps [vvar] and [vdso] into a new address space and records mm->vdso_base. 0 or -errno. */
int vdso_map(struct mm *mm);

#endif

/*
 * paravirt_patch.h - what each `paravirt=` mode puts in a call site, byte
 * for byte (Linux's native_patch and paravirt_patch_default). Pure: no
 * kernel state, so the host unit test (tests/unit/test_paravirt_patch.c)
 * runs the very code the kernel patches with and decodes its bytes.
 */
#ifndef REWIND_PARAVIRT_PATCH_H
#define REWIND_PARAVIRT_PATCH_H

#include "kernel/x86/paravirt_types.h"

enum pv_mode {
	PV_MODE_INDIRECT, /* call *pv_ops.op(%rip): an unpatched CONFIG_PARAVIRT kernel */
	PV_MODE_PATCHED,  /* 2.6.25: irq flags, cr2/cr3, invlpg inline; the rest direct calls */
	PV_MODE_IDENT,	  /* 2.6.30: as patched, and the entry accessors one mov */
};

/*
 * Fills buf[0, s->len) with the bytes the site s holds in mode: slot is the
 * run-time address of its pv_ops slot, target the function the slot holds
 * and target_clobbers the registers that function may clobber (CLBR_*).
 * Padding is one multi-byte NOP in front, so that the replacement (and a
 * call's return address) ends where the site ends whatever the mode: a
 * return address saved in one mode stays an instruction boundary in every
 * other. Returns false if the site's length does not allow it, or if mode
 * would call a target that clobbers more than the site lets it.
 */
bool paravirt_patch_site(enum pv_mode mode, const struct paravirt_site *s, u64 slot, u64 target,
			 u16 target_clobbers, u8 *buf);

/*
 * The registers the function in type's slot may clobber, as this build
 * declares the table: the irq-flag ops rax, the entry code's none, the
 * page-table accessors rax with PV_CALLEE_SAVE=y (their thunks) and all
 * caller-saved ones without (the C natives), every other op all.
 */
u16 paravirt_target_clobbers(unsigned type);

/* Whether mode puts an instruction sequence of its own in place of type's call. */
bool paravirt_type_inlined(enum pv_mode mode, unsigned type);

/* ---- the kernel's sites and their mode (kernel/x86/paravirt.c) ---------------- */

/* Checks the sites as built, and patches them for the knob's mode (boot, one CPU). */
void paravirt_init(void);
/* The mode the kernel text holds now. */
enum pv_mode paravirt_mode(void);
/* Every recorded call site, in link order. */
const struct paravirt_site *paravirt_sites(size_t *count);
/* Whether site s holds exactly the bytes mode prescribes. */
bool paravirt_site_is(const struct paravirt_site *s, enum pv_mode mode);

#endif

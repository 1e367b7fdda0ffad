/*
 * sys_info.h - what the system says about itself (kernel/sys_info.c):
 * the uname fields, which uname(2) and /proc/sys/kernel/ both show, so
 * that they always agree.
 *
 * The version field is "#1 SMP BUILD", BUILD the name of the kernel build:
 * "default", "nopv" (PARAVIRT=n) or "pv30" (PV_CALLEE_SAVE=y), as the
 * Makefile's trees and experiments' [[build]] tables name them. A
 * benchmark's @meta line carries it, so that a figure says which kernel
 * it was measured on even when one machine boots several (the USB stick).
 */
#ifndef REWIND_SYS_INFO_H
#define REWIND_SYS_INFO_H

#include "uapi/utsname.h"

#ifndef CONFIG_PARAVIRT
#define KERNEL_BUILD_NAME "nopv"
#elif defined(CONFIG_PV_CALLEE_SAVE)
#define KERNEL_BUILD_NAME "pv30"
#else
#define KERNEL_BUILD_NAME "default"
#endif

void uname_fill(struct kernel_utsname *u);

#endif

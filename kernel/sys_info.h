/*
 * sys_info.h - what the system says about itself (kernel/sys_info.c):
 * the uname fields, which uname(2) and /proc/sys/kernel/ both show, so
 * that they always agree.
 *
 * The release is the Linux ABI level rewind answers to, in Linux's N.N.N
 * form (as gVisor's "4.4.0" and WSL1's did), because programs and test
 * suites compare it with the version a feature came in (LTP's
 * tst_kvercmp, glibc's minimum kernel); docs/userspace.md says why 6.1.
 *
 * The version field is "#1 SMP REVISION BUILD": the git revision the
 * kernel was built from (before the release took its place), then BUILD,
 * the name of the kernel build: "default", "nopv" (PARAVIRT=n) or "pv30"
 * (PV_CALLEE_SAVE=y), as the Makefile's trees and experiments' [[build]]
 * tables name them. A benchmark's @meta line carries the build and its
 * @result variants the revision (user/lib/bench.c), so that a figure says
 * which kernel it was measured on even when one machine boots several
 * (the USB stick).
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

/* Debian 12's kernel: the Linux the comparisons run beside rewind (tools/rewind-run --linux). */
#define LINUX_ABI_RELEASE "6.1.0"

void uname_fill(struct kernel_utsname *u);

#endif

/*
 * sys_info.h - what the system says about itself (kernel/sys_info.c):
 * the uname fields, which uname(2) and /proc/sys/kernel/ both show, so
 * that they always agree.
 */
#ifndef REWIND_SYS_INFO_H
#define REWIND_SYS_INFO_H

#include "uapi/utsname.h"

void uname_fill(struct kernel_utsname *u);

#endif

/*
 * utsname.h - what uname(2) writes, Linux's struct new_utsname
 * (linux/utsname.h), as struct kernel_utsname so that it can sit next to
 * libc's <sys/utsname.h>.
 */
#ifndef REWIND_UAPI_UTSNAME_H
#define REWIND_UAPI_UTSNAME_H

#define __NEW_UTS_LEN 64 /* characters in a field, the NUL not counted */

struct kernel_utsname {
	char sysname[__NEW_UTS_LEN + 1];
	char nodename[__NEW_UTS_LEN + 1];
	char release[__NEW_UTS_LEN + 1];
	char version[__NEW_UTS_LEN + 1];
	char machine[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
};

#endif

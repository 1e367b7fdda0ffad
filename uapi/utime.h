/*
 * utime.h - what utime(2) takes: Linux's struct utimbuf (linux/utime.h),
 * as struct kernel_utimbuf so that it can sit next to libc's <utime.h>.
 */
#ifndef REWIND_UAPI_UTIME_H
#define REWIND_UAPI_UTIME_H

struct kernel_utimbuf {
	long actime;  /* seconds */
	long modtime; /* seconds */
};

#endif

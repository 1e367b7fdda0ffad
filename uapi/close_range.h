/* close_range.h - close_range(2)'s flags, as Linux's linux/close_range.h. */
#ifndef REWIND_UAPI_CLOSE_RANGE_H
#define REWIND_UAPI_CLOSE_RANGE_H

#define CLOSE_RANGE_UNSHARE (1U << 1) /* the caller's own copy of a shared fd table first */
#define CLOSE_RANGE_CLOEXEC (1U << 2) /* mark close-on-exec instead of closing */

#endif

/*
 * xattr.h - the extended-attribute calls' flags and limits, Linux's
 * (linux/xattr.h, linux/limits.h). User code has them from <sys/xattr.h>
 * and <linux/limits.h>.
 */
#ifndef REWIND_UAPI_XATTR_H
#define REWIND_UAPI_XATTR_H

#define XATTR_CREATE   0x1   /* setxattr: fail with EEXIST if the name exists */
#define XATTR_REPLACE  0x2   /* ...with ENODATA if it does not */
#define XATTR_NAME_MAX 255   /* the longest name, its namespace prefix included */
#define XATTR_SIZE_MAX 65536 /* the largest value */
#define XATTR_LIST_MAX 65536 /* the most listxattr returns */

#endif

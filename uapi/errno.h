/*
 * errno.h - error numbers, Linux's x86-64 values (asm-generic/errno-base.h, errno.h).
 * System calls return them negated; libc turns that into errno.
 */
#ifndef REWIND_UAPI_ERRNO_H
#define REWIND_UAPI_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define ENXIO		6
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define ECHILD		10
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EXDEV		18
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENFILE		23
#define EMFILE		24
#define ENOTTY		25
#define ETXTBSY		26
#define EFBIG		27
#define ENOSPC		28
#define ESPIPE		29
#define EROFS		30
#define EMLINK		31
#define EPIPE		32
#define EDOM		33
#define ERANGE		34
#define EDEADLK		35
#define ENAMETOOLONG	36
#define ENOLCK		37
#define ENOSYS		38
#define ENOTEMPTY	39
#define ELOOP		40
#define ENOMSG		42
#define EIDRM		43
#define ENODATA		61 /* no such extended attribute */
#define ETIME		62 /* a timer ran out (io_uring_enter's EXT_ARG timeout) */
#define EOVERFLOW	75
#define EBADFD		77 /* the descriptor is of the wrong kind (a Landlock ruleset expected) */
#define ELIBBAD		80 /* a program's interpreter is not an executable for this machine */
#define ENOTSOCK	88
#define EDESTADDRREQ	89
#define EMSGSIZE	90
#define EPROTOTYPE	91
#define ENOPROTOOPT	92
#define EPROTONOSUPPORT 93
#define ESOCKTNOSUPPORT 94
#define EOPNOTSUPP	95
#define EAFNOSUPPORT	97
#define EADDRINUSE	98
#define EADDRNOTAVAIL	99
#define ENETUNREACH	101
#define ECONNRESET	104
#define ENOBUFS		105
#define EISCONN		106
#define ENOTCONN	107
#define ETOOMANYREFS	109 /* SCM_RIGHTS: more files in flight than RLIMIT_NOFILE */
#define ETIMEDOUT	110
#define ECONNREFUSED	111
#define EINPROGRESS	115
#define ESTALE		116 /* a file handle whose file is gone (fs/fhandle.c) */
#define EDQUOT		122 /* a user's key quota (kernel/keys/) */
#define ECANCELED	125
#define ENOKEY		126
#define EKEYEXPIRED	127
#define EKEYREVOKED	128
#define EKEYREJECTED	129

#endif

/*
 * uio.h - struct iovec as readv(2) and writev(2) read it, Linux x86-64's
 * (linux/uio.h), named struct kernel_iovec so that it can sit next to
 * libc's <sys/uio.h>.
 */
#ifndef REWIND_UAPI_UIO_H
#define REWIND_UAPI_UIO_H

#define UIO_MAXIOV 1024 /* iovecs in one readv/writev (libc's IOV_MAX) */

struct kernel_iovec {
	void *iov_base;
	unsigned long iov_len;
};

#endif

/*
 * mman.h - mmap(2), mprotect(2), mremap(2), madvise(2) and msync(2) values, Linux x86-64's
 * (asm-generic/mman-common.h, linux/mman.h). libc's <sys/mman.h> has the
 * same: user code includes that, not this.
 */
#ifndef REWIND_UAPI_MMAN_H
#define REWIND_UAPI_MMAN_H

#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4

#define MAP_SHARED	    0x01
#define MAP_PRIVATE	    0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE	    0x0f /* the bits that hold the mapping type */
#define MAP_FIXED	    0x10
#define MAP_ANONYMOUS	    0x20
#define MAP_FIXED_NOREPLACE 0x100000

#define MREMAP_MAYMOVE	 1
#define MREMAP_FIXED	 2
#define MREMAP_DONTUNMAP 4

#define MADV_DONTNEED 4

#define MS_ASYNC      1
#define MS_INVALIDATE 2
#define MS_SYNC	      4

#endif

/*
 * mman.h - mmap(2), mprotect(2), mremap(2), madvise(2), msync(2) and mlock(2) values, Linux x86-64's
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
#define MAP_32BIT	    0x40
#define MAP_GROWSDOWN	    0x100
#define MAP_DENYWRITE	    0x800
#define MAP_EXECUTABLE	    0x1000
#define MAP_LOCKED	    0x2000
#define MAP_NORESERVE	    0x4000
#define MAP_POPULATE	    0x8000
#define MAP_NONBLOCK	    0x10000
#define MAP_STACK	    0x20000
#define MAP_HUGETLB	    0x40000
#define MAP_FIXED_NOREPLACE 0x100000
#define MAP_HUGE_SHIFT	    26
#define MAP_HUGE_MASK	    (0x3f << 26) /* a huge page size's log2, MAP_UNINITIALIZED's bit among them */
/* The flags every file mapping understands: MAP_SHARED_VALIDATE refuses others (Linux's LEGACY_MAP_MASK). */
#define MAP_LEGACY_MASK                                                                          \
	(MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_DENYWRITE | MAP_EXECUTABLE | \
	 MAP_GROWSDOWN | MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE | MAP_NONBLOCK | MAP_STACK |  \
	 MAP_HUGETLB | MAP_32BIT | MAP_HUGE_MASK)

#define MREMAP_MAYMOVE	 1
#define MREMAP_FIXED	 2
#define MREMAP_DONTUNMAP 4

#define MADV_NORMAL	     0
#define MADV_RANDOM	     1
#define MADV_SEQUENTIAL	     2
#define MADV_WILLNEED	     3
#define MADV_DONTNEED	     4
#define MADV_FREE	     8
#define MADV_REMOVE	     9
#define MADV_DONTFORK	     10
#define MADV_DOFORK	     11
#define MADV_MERGEABLE	     12
#define MADV_UNMERGEABLE     13
#define MADV_HUGEPAGE	     14
#define MADV_NOHUGEPAGE	     15
#define MADV_DONTDUMP	     16
#define MADV_DODUMP	     17
#define MADV_WIPEONFORK	     18
#define MADV_KEEPONFORK	     19
#define MADV_COLD	     20
#define MADV_PAGEOUT	     21
#define MADV_POPULATE_READ   22
#define MADV_POPULATE_WRITE  23
#define MADV_DONTNEED_LOCKED 24
#define MADV_HWPOISON	     100
#define MADV_SOFT_OFFLINE    101

#define MLOCK_ONFAULT 1
#define MCL_CURRENT   1
#define MCL_FUTURE    2
#define MCL_ONFAULT   4

#define MS_ASYNC      1
#define MS_INVALIDATE 2
#define MS_SYNC	      4

#endif

/*
 * userfaultfd.h - userfaultfd(2): its flags, the ioctls on the descriptor
 * and on /dev/userfaultfd, their structures, and the message a fault sends
 * to the reader. Linux x86-64's values and layout (linux/userfaultfd.h).
 */
#ifndef REWIND_UAPI_USERFAULTFD_H
#define REWIND_UAPI_USERFAULTFD_H

#define UFFD_USER_MODE_ONLY 1 /* userfaultfd flag: only faults of user mode are reported */

#define UFFD_API 0xaaull

/* ioctl numbers: _IOWR/_IOR(0xaa, nr, struct), as Linux encodes them. */
#define _UFFDIO_REGISTER    0x00
#define _UFFDIO_UNREGISTER  0x01
#define _UFFDIO_WAKE	    0x02
#define _UFFDIO_COPY	    0x03
#define _UFFDIO_ZEROPAGE    0x04
#define _UFFDIO_CONTINUE    0x07
#define _UFFDIO_API	    0x3f
#define UFFDIO_API	    0xc018aa3fu /* _IOWR, struct uffdio_api */
#define UFFDIO_REGISTER	    0xc020aa00u /* _IOWR, struct uffdio_register */
#define UFFDIO_UNREGISTER   0x8010aa01u /* _IOR, struct uffdio_range */
#define UFFDIO_WAKE	    0x8010aa02u /* _IOR, struct uffdio_range */
#define UFFDIO_COPY	    0xc028aa03u /* _IOWR, struct uffdio_copy */
#define UFFDIO_ZEROPAGE	    0xc020aa04u /* _IOWR, struct uffdio_zeropage */
#define UFFDIO_CONTINUE	    0xc020aa07u /* _IOWR, struct uffdio_continue */
#define USERFAULTFD_IOC_NEW 0xaa00u	/* _IO: on /dev/userfaultfd, a new descriptor */

/* What a fault reports (struct uffd_msg.event and its pagefault.flags). */
#define UFFD_EVENT_PAGEFAULT	  0x12
#define UFFD_PAGEFAULT_FLAG_WRITE 1 /* a write fault */
#define UFFD_PAGEFAULT_FLAG_WP	  2 /* a write to a write-protected page */
#define UFFD_PAGEFAULT_FLAG_MINOR 4 /* the page is in the file's cache, not in the page table */

/* UFFDIO_API's features (the ones rewind has are in fs/userfaultfd.c). */
#define UFFD_FEATURE_PAGEFAULT_FLAG_WP (1u << 0)
#define UFFD_FEATURE_EVENT_FORK	       (1u << 1)
#define UFFD_FEATURE_SIGBUS	       (1u << 7) /* SIGBUS for a fault, no message */
#define UFFD_FEATURE_THREAD_ID	       (1u << 8) /* the faulting thread's id in the message */
#define UFFD_FEATURE_MINOR_SHMEM       (1u << 10)
#define UFFD_FEATURE_EXACT_ADDRESS     (1u << 11) /* the address unrounded */

#define UFFDIO_REGISTER_MODE_MISSING 1u
#define UFFDIO_REGISTER_MODE_WP	     2u
#define UFFDIO_REGISTER_MODE_MINOR   4u

#define UFFDIO_COPY_MODE_DONTWAKE     1u /* the copy wakes no waiting fault */
#define UFFDIO_COPY_MODE_WP	      2u
#define UFFDIO_ZEROPAGE_MODE_DONTWAKE 1u
#define UFFDIO_CONTINUE_MODE_DONTWAKE 1u

/* 32 bytes, packed as Linux's. */
struct uffd_msg {
	unsigned char event;
	unsigned char reserved1;
	unsigned short reserved2;
	unsigned reserved3;
	union {
		struct {
			unsigned long long flags;
			unsigned long long address;
			unsigned ptid;
		} __attribute__((packed)) pagefault;
		unsigned long long reserved[3];
	} arg;
} __attribute__((packed));

struct uffdio_api {
	unsigned long long api;
	unsigned long long features;
	unsigned long long ioctls;
};

struct uffdio_range {
	unsigned long long start;
	unsigned long long len;
};

struct uffdio_register {
	struct uffdio_range range;
	unsigned long long mode;
	unsigned long long ioctls; /* out: the ioctls the range takes */
};

struct uffdio_copy {
	unsigned long long dst;
	unsigned long long src;
	unsigned long long len;
	unsigned long long mode;
	long long copy; /* out: the bytes copied, or -errno */
};

/* UFFDIO_ZEROPAGE's and UFFDIO_CONTINUE's: the bytes done, or -errno, in result. */
struct uffdio_zeropage {
	struct uffdio_range range;
	unsigned long long mode;
	long long zeropage;
};

struct uffdio_continue {
	struct uffdio_range range;
	unsigned long long mode;
	long long mapped;
};

#endif

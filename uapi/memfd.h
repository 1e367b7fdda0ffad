/*
 * memfd.h - memfd_create(2)'s flags (Linux's linux/memfd.h).
 */
#ifndef REWIND_UAPI_MEMFD_H
#define REWIND_UAPI_MEMFD_H

#define MFD_CLOEXEC	  0x0001u
#define MFD_ALLOW_SEALING 0x0002u
#define MFD_HUGETLB	  0x0004u
/* With MFD_HUGETLB: a huge page size's log2 in these bits (0: the default size). */
#define MFD_HUGE_SHIFT 26
#define MFD_HUGE_MASK  0x3fu

#endif

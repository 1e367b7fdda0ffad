/*
 * memfd.h - memfd_create(2)'s flags (Linux's linux/memfd.h).
 */
#ifndef REWIND_UAPI_MEMFD_H
#define REWIND_UAPI_MEMFD_H

#define MFD_CLOEXEC	  0x0001u
#define MFD_ALLOW_SEALING 0x0002u

#endif

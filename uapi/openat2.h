/*
 * openat2.h - openat2(2)'s struct open_how and its RESOLVE_* flags, which
 * narrow the path walk: Linux x86-64's values and layout (linux/openat2.h).
 */
#ifndef REWIND_UAPI_OPENAT2_H
#define REWIND_UAPI_OPENAT2_H

/* The argument; a caller's bigger struct must be zero past it (else E2BIG). */
struct kernel_open_how {
	unsigned long long flags;   /* O_* */
	unsigned long long mode;    /* with O_CREAT or O_TMPFILE only */
	unsigned long long resolve; /* RESOLVE_* */
};

#define OPEN_HOW_SIZE_VER0 24 /* the first version's size, the smallest accepted */

#define RESOLVE_NO_XDEV	      0x01 /* no mount crossed */
#define RESOLVE_NO_MAGICLINKS 0x02 /* no /proc magic link followed */
#define RESOLVE_NO_SYMLINKS   0x04 /* no symbolic link followed, magic ones included */
#define RESOLVE_BENEATH	      0x08 /* never outside the starting directory */
#define RESOLVE_IN_ROOT	      0x10 /* the starting directory is "/" */
#define RESOLVE_CACHED	      0x20 /* only what needs no I/O (else EAGAIN) */

#endif

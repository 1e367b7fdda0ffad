/*
 * auxvec.h - the auxiliary vector's entry types, the ones execve writes,
 * Linux x86-64's values (linux/auxvec.h, asm/auxvec.h). libc's <elf.h>
 * and <sys/auxv.h> have the same: user code includes those.
 */
#ifndef REWIND_UAPI_AUXVEC_H
#define REWIND_UAPI_AUXVEC_H

#define AT_NULL		0 /* the end of the vector */
#define AT_PHDR		3 /* the program headers in memory */
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7 /* the interpreter's base (0: none) */
#define AT_FLAGS	8
#define AT_ENTRY	9 /* the program's entry point */
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15 /* a string: "x86_64" */
#define AT_HWCAP	16
#define AT_CLKTCK	17 /* the unit of times(2) */
#define AT_SECURE	23
#define AT_RANDOM	25 /* 16 random bytes */
#define AT_HWCAP2	26 /* more hardware capabilities (x86: ring-3 MWAIT, FSGSBASE) */
#define AT_EXECFN	31 /* the file name execve ran */
#define AT_SYSINFO_EHDR 33 /* the vDSO's ELF header */
#define AT_MINSIGSTKSZ	51 /* the largest signal frame the kernel writes */

#endif

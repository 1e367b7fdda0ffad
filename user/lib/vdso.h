/*
 * vdso.h - calling the vDSO directly: the functions the kernel maps into
 * every process and announces with AT_SYSINFO_EHDR.
 *
 * Symbols are looked up as musl does it - through the DT_HASH table and the
 * symbol versions (LINUX_2.6) - so a lookup that works here also works for
 * libc. This lets a test or a benchmark call the vDSO route explicitly,
 * beside the system call and the legacy vsyscall page.
 */
#ifndef USER_VDSO_H
#define USER_VDSO_H

/* The vDSO's ELF header, or NULL when the kernel maps none. */
const void *vdso_base(void);
/* The address of a LINUX_2.6 function of the vDSO ("__vdso_time" ...), or NULL. */
void *vdso_sym(const char *name);

#endif

/*
 * ptrace_vdso.c - usertests: what a debugger reads of a tracee beyond its
 * registers and its own mappings: the vDSO's ELF image, from which gdb
 * loads the vDSO's symbols (AT_SYSINFO_EHDR).
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "tracer.h"

#include <errno.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>

/*
 * The vDSO's ELF image is readable through PEEKDATA, as Linux's
 * get_user_pages reads it: gdb loads its symbols from the tracee's memory
 * (AT_SYSINFO_EHDR), and warned "Failed to read a valid object file image
 * from memory" when it could not. A fork child has the vDSO where its
 * parent has it.
 */
TEST(ptrace_peekdata_reads_the_vdso_image)
{
	unsigned long vdso = getauxval(AT_SYSINFO_EHDR);

	if (!vdso)
		skip("no vDSO");
	pid_t pid = traced_child(sleep_forever);
	errno = 0;
	long word = ptrace(PTRACE_PEEKDATA, pid, (void *)vdso, 0);
	CHECK_EQ(errno, 0);
	CHECK_EQ(word, *(const long *)vdso); /* the ELF magic and class */
	kill_and_reap(pid);
}

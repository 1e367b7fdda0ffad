/*
 * personality.c - personality(2): a thread's execution-domain flags, as
 * Linux keeps them in task->personality. A fork child inherits them and
 * execve keeps them (rewind has no set-id execve, which would clear some).
 * rewind acts on ADDR_NO_RANDOMIZE only: the vDSO then stays at its fixed
 * place even with randomize_va_space on (kernel/vdso/vdso.c), which is how
 * gdb's "disable-randomization" starts a program.
 */
#include "kernel/process/process.h"
#include "kernel/syscall/syscall.h"
#include "uapi/personality.h"

SYSCALL1(personality, unsigned int, persona)
{
	struct task *t = current();
	unsigned int old = t->personality;

	if (persona != PERSONALITY_QUERY)
		t->personality = persona;
	return old;
}

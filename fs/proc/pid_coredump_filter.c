/*
 * pid_coredump_filter.c - /proc/<pid>/coredump_filter: which kinds of
 * memory area the process's core file holds (kernel/process/coredump.h's
 * bits, 0x33 at first), read as eight hex digits and set as a number in
 * C's notation (0x.. hex, 0.. octal, else decimal), as Linux's. The
 * file's mode and owner (the process's user while it is dumpable) say who
 * may set it.
 */
#include "fs/proc/internal.h"
#include "kernel/process/coredump.h"
#include "kernel/process/process.h"
#include "uapi/errno.h"

int
proc_show_coredump_filter(struct procbuf *b, union proc_arg arg)
{
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(arg.pid);
	u32 filter = t ? t->coredump_filter : 0;

	spin_unlock_irqrestore(&tasks_lock, flags);
	if (!t)
		return -ESRCH;
	procbuf_printf(b, "%08x\n", filter);
	return 0;
}

/* A number as kstrtouint with base 0 reads it: 0 or -EINVAL. */
static int
parse_number(const char *s, unsigned long *out)
{
	unsigned base = 10;
	unsigned long n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	if (!*s || *s == '\n')
		return -EINVAL;
	for (; *s && *s != '\n'; s++) {
		unsigned d = *s >= '0' && *s <= '9'   ? (unsigned)(*s - '0')
			     : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
			     : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10)
						      : 16;
		if (d >= base || n > (0xffffffffu - d) / base)
			return -EINVAL;
		n = n * base + d;
	}
	*out = n;
	return 0;
}

int
proc_write_coredump_filter(const char *value, union proc_arg arg)
{
	unsigned long n;

	if (parse_number(value, &n))
		return -EINVAL;
	u64 flags = spin_lock_irqsave(&tasks_lock);
	struct task *t = proc_find_leader(arg.pid);
	if (t)
		WRITE_ONCE(t->coredump_filter, (u32)n & COREDUMP_FILTER_MASK);
	spin_unlock_irqrestore(&tasks_lock, flags);
	return t ? 0 : -ESRCH;
}

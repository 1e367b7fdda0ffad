/*
 * syscall_bench.c - the cost of entering and leaving the kernel: a null
 * system call (getppid) through the `syscall` instruction, the same call
 * through `int $0x80`, and an unknown system call number (the -ENOSYS path).
 *
 * int $0x80 takes Linux's 32-bit call numbers on Linux (getppid is 64 there)
 * and the 64-bit table on rewind, where it is studied as the trap path.
 */
#include "lib/bench.h"

#include <stdint.h>

#define NR_GETPPID_64 110
#define NR_GETPPID_32 64
#define NR_UNKNOWN    451 /* not a system call on either kernel */

static long
raw_syscall0(long nr)
{
	long ret;

	__asm__ __volatile__("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
}

static long
raw_int80(long nr)
{
	long ret;

	__asm__ __volatile__("int $0x80" : "=a"(ret) : "a"(nr) : "memory");
	return ret;
}

static void
op_syscall_getppid(void *arg)
{
	(void)arg;
	raw_syscall0(NR_GETPPID_64);
}

static void
op_int80_getppid(void *arg)
{
	raw_int80(*(long *)arg);
}

static void
op_syscall_unknown(void *arg)
{
	(void)arg;
	raw_syscall0(NR_UNKNOWN);
}

static const struct bench_help help = {
	.name = "syscall",
	.about = "Entering and leaving the kernel: getppid through syscall and through int $0x80,\n"
		 "and an unknown call number (the -ENOSYS path), in ns.",
	.synopsis = "",
	.options = "",
};

int
main(int argc, char **argv)
{
	long int80_nr = bench_on_rewind() ? NR_GETPPID_64 : NR_GETPPID_32;

	bench_init(argc, argv, &help);
	if (raw_syscall0(NR_GETPPID_64) != raw_int80(int80_nr))
		bench_result("check_int80_matches_syscall", 0, "bool");
	bench_report("syscall_getppid", bench_measure(op_syscall_getppid, 0), "ns");
	bench_report("int80_getppid", bench_measure(op_int80_getppid, &int80_nr), "ns");
	bench_report("syscall_unknown_nr", bench_measure(op_syscall_unknown, 0), "ns");
	return 0;
}

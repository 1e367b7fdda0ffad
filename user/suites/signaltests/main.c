/*
 * main.c - signaltests, POSIX signals as Linux x86-64 delivers them: handlers
 * with their siginfo and ucontext, the frame on the user stack and
 * rt_sigreturn (every register back, FPU included), faults turned into
 * signals, masks, sigsuspend, the alternate stack, interrupted and
 * restarted system calls, timers, default actions, and the signals that
 * end a process.
 *
 *	signaltests [NAME-PREFIX...]     run all tests, or those whose names start so
 *
 * The output is usertests' (lib/testing.h), one forked child per test, so
 * the handlers and masks a test installs die with it. Every expectation is
 * Linux's: the suite passes on a Linux host, which is how the ABI is
 * checked. Tests about how a process ends fork once more and judge that
 * grandchild's wait status. No test depends on speed: timers only have to
 * fire at some point, and deadlines are generous ones that turn a hang
 * into a failure.
 *
 * This file runs the tests, which the other files of
 * user/suites/signaltests/ define, one area each.
 */

#include "lib/testing.h"

int
main(int argc, char **argv)
{
	return test_run_all("signaltests", argc - 1, argv + 1, NULL);
}

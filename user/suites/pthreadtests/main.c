/*
 * main.c - pthreadtests, threads as musl's pthreads use them: clone, futex
 * (private and process-shared), thread-local storage, thread and process
 * exit, page faults and mappings shared by threads, CPU time, CPU
 * affinity, and TLB shootdown as threads on other CPUs see it.
 *
 *	pthreadtests [NAME-PREFIX...]     run all tests, or those whose names start so
 *
 * The output is usertests' (lib/testing.h): "ok NAME", "FAIL NAME: why",
 * "skip NAME: why", then "pthreadtests: N passed, N failed"; the exit
 * status is 0 only if nothing failed. Each test is a forked child, so a
 * thread that crashes or hangs takes down its test alone. Tests about how
 * a whole process ends (exit from a thread, a faulting thread, a stale TLB
 * entry) fork once more and judge that grandchild's wait status.
 *
 * Every expectation is Linux's, and the suite passes on a Linux host. No
 * test depends on speed: timeouts are checked to last at least as long as
 * asked, and the only deadlines are generous ones that turn a hang (a lost
 * wake-up, a thread that never ends) into a failure.
 *
 * This file runs the tests, which the other files of
 * user/suites/pthreadtests/ define, one area each.
 */

#include "lib/testing.h"

int
main(int argc, char **argv)
{
	return test_run_all("pthreadtests", argc - 1, argv + 1, NULL);
}

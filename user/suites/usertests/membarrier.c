/*
 * membarrier.c - usertests: the membarrier call (kernel/sched/membarrier.c):
 * the commands QUERY reports, Linux's errnos for bad commands and flags,
 * the private commands' registrations (EPERM before, kept across fork),
 * and barriers that finish while another thread of the process spins on
 * the other CPU. They pass on the host's Linux too.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "uapi/membarrier.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* What rewind answers to QUERY; Linux with rseq adds the two RSEQ commands. */
#define NON_RSEQ_COMMANDS 0x7f

static long
membarrier(int cmd, unsigned flags, int cpu_id)
{
	return syscall(SYS_membarrier, cmd, flags, cpu_id);
}

TEST(membarrier_query_and_errnos)
{
	long mask = CHECK_OK(membarrier(MEMBARRIER_CMD_QUERY, 0, 0));
	CHECK_EQ(mask & NON_RSEQ_COMMANDS, NON_RSEQ_COMMANDS);
	if (on_rewind())
		CHECK_EQ(mask, NON_RSEQ_COMMANDS);
	CHECK_ERR(EINVAL, membarrier(-1, 0, 0));
	CHECK_ERR(EINVAL, membarrier(1 << 10, 0, 0)); /* past Linux 6.3's GET_REGISTRATIONS */
	CHECK_ERR(EINVAL, membarrier(MEMBARRIER_CMD_QUERY, 1, 0));
	/* the CPU flag belongs to the RSEQ command alone */
	CHECK_ERR(EINVAL, membarrier(MEMBARRIER_CMD_GLOBAL, MEMBARRIER_CMD_FLAG_CPU, 0));
	CHECK_ERR(EINVAL, membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED, MEMBARRIER_CMD_FLAG_CPU, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_GLOBAL, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0)); /* no registration needed */
}

TEST(membarrier_private_registration)
{
	CHECK_ERR(EPERM, membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	CHECK_ERR(EPERM, membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
	/* each registration makes its own command ready */
	CHECK_ERR(EPERM, membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0)); /* again: still 0 */
	CHECK_OK(membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0));
	CHECK_OK(membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0));

	pid_t pid = CHECK_OK(fork()); /* the child's address space is registered as the parent's */
	if (pid == 0)
		_exit(membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0 &&
				      membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0,
						 0) == 0
			      ? 0
			      : 1);
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static volatile bool stop_spinning;
static volatile unsigned long spins;

static void *
spin(void *unused)
{
	(void)unused;
	while (!stop_spinning)
		spins++;
	return NULL;
}

/* A thread that never sleeps nor calls the kernel does not hold any barrier up. */
TEST(membarrier_with_busy_thread)
{
	pthread_t t;

	CHECK_OK(membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0));
	CHECK_EQ(pthread_create(&t, NULL, spin, NULL), 0);
	while (!spins)
		sched_yield();
	for (int i = 0; i < 20; i++) {
		unsigned long before = spins;
		CHECK_OK(membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
		CHECK_OK(membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0));
		CHECK_OK(membarrier(MEMBARRIER_CMD_GLOBAL, 0, 0));
		CHECK(spins >= before);
	}
	stop_spinning = true;
	CHECK_EQ(pthread_join(t, NULL), 0);
}

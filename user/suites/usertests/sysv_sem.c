/*
 * sysv_sem.c - usertests: System V semaphore sets (semget, semop,
 * semtimedop, semctl): values and their range, a semop applied whole or
 * not at all, the sleeps and what ends them, SEM_UNDO at exit and between
 * threads, and what semctl reports.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "sysv.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define SEMVMX 32767

static int
new_set(int nsems)
{
	return (int)CHECK_OK(sysv_semget(IPC_PRIVATE, nsems, 0600));
}

static long
semval(int id, int num)
{
	return CHECK_OK(sysv_semctl(id, num, GETVAL, 0));
}

static void
setval(int id, int num, int val)
{
	CHECK_OK(sysv_semctl(id, num, SETVAL, val));
}

/* One operation on one semaphore: semop's result. */
static long
semop1(int id, int num, int op, int flags)
{
	struct kernel_sembuf sb = { .sem_num = (unsigned short)num,
				    .sem_op = (short)op,
				    .sem_flg = (short)flags };

	return sysv_semop(id, &sb, 1);
}

TEST(sysv_sem_get)
{
	int key = sysv_test_key('S');
	int semmsl = 0;
	FILE *f = fopen("/proc/sys/kernel/sem", "r");

	CHECK(f && fscanf(f, "%d", &semmsl) == 1);
	fclose(f);
	CHECK_ERR(EINVAL, sysv_semget(IPC_PRIVATE, 0, 0600));
	CHECK_ERR(EINVAL, sysv_semget(IPC_PRIVATE, semmsl + 1, 0600));
	CHECK_ERR(EINVAL, sysv_semget(IPC_PRIVATE, -1, 0600));
	int id = (int)CHECK_OK(sysv_semget(key, 3, IPC_CREAT | IPC_EXCL | 0600));
	CHECK_EQ(sysv_semget(key, 2, 0), id);
	CHECK_EQ(sysv_semget(key, 0, 0), id);
	CHECK_ERR(EINVAL, sysv_semget(key, 4, 0)); /* more than it has */
	CHECK_ERR(EEXIST, sysv_semget(key, 3, IPC_CREAT | IPC_EXCL));
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
	CHECK_ERR(ENOENT, sysv_semget(key, 3, 0));
}

TEST(sysv_sem_values)
{
	int id = new_set(3);
	unsigned short all[3] = { 1, 2, 3 }, got[3];

	CHECK_EQ(semval(id, 2), 0l); /* a new set is zeros */
	setval(id, 1, SEMVMX);
	CHECK_EQ(semval(id, 1), (long)SEMVMX);
	CHECK_EQ(sysv_semctl(id, 1, GETPID, 0), (long)getpid());
	CHECK_ERR(ERANGE, sysv_semctl(id, 1, SETVAL, SEMVMX + 1));
	CHECK_ERR(ERANGE, sysv_semctl(id, 1, SETVAL, -1));
	CHECK_ERR(EINVAL, sysv_semctl(id, 3, SETVAL, 1));
	CHECK_ERR(EINVAL, sysv_semctl(id, -1, GETVAL, 0));
	CHECK_OK(sysv_semctl(id, 0, SETALL, all));
	CHECK_OK(sysv_semctl(id, 0, GETALL, got));
	CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3);
	all[1] = SEMVMX + 1;
	CHECK_ERR(ERANGE, sysv_semctl(id, 0, SETALL, all));
	CHECK_EQ(semval(id, 1), 2l);
	CHECK_ERR(EFAULT, sysv_semctl(id, 0, GETALL, bad_addrs[0]));
	CHECK_ERR(EFAULT, sysv_semctl(id, 0, SETALL, bad_addrs[0]));
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
	CHECK_ERR(EINVAL, sysv_semctl(id, 0, GETVAL, 0));
}

/* All operations of one semop or none. */
TEST(sysv_sem_atomic)
{
	int id = new_set(2);
	struct kernel_sembuf both[2] = { { 0, -1, IPC_NOWAIT }, { 1, -1, IPC_NOWAIT } };

	setval(id, 0, 1);
	CHECK_ERR(EAGAIN, sysv_semop(id, both, 2)); /* the second cannot: the first is undone */
	CHECK_EQ(semval(id, 0), 1l);
	setval(id, 1, SEMVMX);
	struct kernel_sembuf up[2] = { { 0, 1, 0 }, { 1, 1, 0 } };
	CHECK_ERR(ERANGE, sysv_semop(id, up, 2));
	CHECK_EQ(semval(id, 0), 1l);
	/* Two operations on one semaphore apply in order. */
	struct kernel_sembuf twice[2] = { { 0, 2, 0 }, { 0, -3, IPC_NOWAIT } };
	CHECK_OK(sysv_semop(id, twice, 2));
	CHECK_EQ(semval(id, 0), 0l);
	CHECK_ERR(EAGAIN, semop1(id, 1, 0, IPC_NOWAIT)); /* not zero */
	CHECK_OK(semop1(id, 0, 0, IPC_NOWAIT));		 /* zero */
	CHECK_ERR(EFBIG, semop1(id, 2, 1, 0));
	CHECK_ERR(EINVAL, sysv_semop(id, up, 0));
	CHECK_ERR(E2BIG, sysv_semop(id, up, 100000));
	CHECK_ERR(EFAULT, sysv_semop(id, (void *)bad_addrs[0], 1));
	CHECK_ERR(EINVAL, sysv_semop(-1, up, 1));
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
}

/* A decrease sleeps until the value allows it (GETNCNT counts it), a wait for zero until zero. */
TEST(sysv_sem_sleeps)
{
	int id = new_set(2);
	pid_t child = xfork();

	if (child == 0)
		_exit(semop1(id, 0, -2, 0) == 0 ? 0 : 1);
	wait_until_asleep(child);
	CHECK_EQ(sysv_semctl(id, 0, GETNCNT, 0), 1l);
	CHECK_EQ(sysv_semctl(id, 0, GETZCNT, 0), 0l);
	CHECK_OK(semop1(id, 0, 1, 0));
	wait_until_asleep(child); /* one is not enough */
	CHECK_OK(semop1(id, 0, 1, 0));
	expect_exit(child, 0, "the decrease, once the value allowed it");
	CHECK_EQ(semval(id, 0), 0l);
	CHECK_EQ(sysv_semctl(id, 0, GETPID, 0), (long)child);
	setval(id, 1, 1);
	child = xfork();
	if (child == 0)
		_exit(semop1(id, 1, 0, 0) == 0 ? 0 : 1);
	wait_until_asleep(child);
	CHECK_EQ(sysv_semctl(id, 1, GETZCNT, 0), 1l);
	CHECK_OK(semop1(id, 1, -1, 0));
	expect_exit(child, 0, "the wait for zero");
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
}

static void
on_signal(int sig)
{
	(void)sig;
}

/* A sleep ends with EIDRM at removal, EINTR at a signal, EAGAIN at its timeout. */
TEST(sysv_sem_sleep_ends)
{
	int id = new_set(1);
	pid_t child = xfork();

	if (child == 0)
		_exit(semop1(id, 0, -1, 0) == -1 && errno == EIDRM ? 0 : 1);
	wait_until_asleep(child);
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
	expect_exit(child, 0, "the sleeper, with EIDRM");
	id = new_set(1);
	child = xfork();
	if (child == 0) {
		struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
		sigaction(SIGUSR1, &sa, NULL);
		_exit(semop1(id, 0, -1, 0) == -1 && errno == EINTR ? 0 : 1);
	}
	wait_until_asleep(child);
	CHECK_OK(kill(child, SIGUSR1));
	expect_exit(child, 0, "the sleeper, with EINTR");
	struct kernel_sembuf down = { 0, -1, 0 };
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 1000000 };
	CHECK_ERR(EAGAIN, sysv_semtimedop(id, &down, 1, &ts));
	ts.tv_nsec = 1000000000;
	CHECK_ERR(EINVAL, sysv_semtimedop(id, &down, 1, &ts));
	CHECK_ERR(EFAULT, sysv_semtimedop(id, &down, 1, (void *)bad_addrs[0]));
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
}

/* SEM_UNDO: a process's adjustments are taken back at its exit, unless SETVAL forgot them. */
TEST(sysv_sem_undo)
{
	int id = new_set(2);
	pid_t child = xfork();

	setval(id, 1, 3);
	if (child == 0) {
		CHECK_OK(semop1(id, 0, 5, SEM_UNDO));
		CHECK_OK(semop1(id, 1, -1, SEM_UNDO));
		CHECK_OK(semop1(id, 0, -2, SEM_UNDO));
		_exit(0);
	}
	expect_exit(child, 0, "the child's undoable operations");
	CHECK_EQ(semval(id, 0), 0l);
	CHECK_EQ(semval(id, 1), 3l);
	int go[2], done[2];
	CHECK_OK(pipe(go));
	CHECK_OK(pipe(done));
	child = xfork();
	if (child == 0) {
		char c;
		CHECK_OK(semop1(id, 0, 2, SEM_UNDO));
		CHECK(write(done[1], "u", 1) == 1);
		CHECK(read(go[0], &c, 1) == 1);
		_exit(0);
	}
	char c;
	CHECK(read(done[0], &c, 1) == 1);
	setval(id, 0, 7);
	CHECK(write(go[1], "g", 1) == 1);
	expect_exit(child, 0, "the child whose adjustment SETVAL forgot");
	CHECK_EQ(semval(id, 0), 7l);
	/* The range of the adjustment: SEMVMX + 1 below zero at most. */
	setval(id, 0, 0);
	CHECK_OK(semop1(id, 0, SEMVMX, SEM_UNDO));
	CHECK_OK(semop1(id, 0, -2, 0));
	CHECK_OK(semop1(id, 0, 1, SEM_UNDO));
	CHECK_ERR(ERANGE, semop1(id, 0, 1, SEM_UNDO));
	CHECK_EQ(semval(id, 0), (long)SEMVMX - 1);
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
}

static int thread_set;

static void *
undo_in_thread(void *arg)
{
	(void)arg;
	return (void *)semop1(thread_set, 0, 1, SEM_UNDO);
}

/* Threads share one undo list (CLONE_SYSVSEM): a thread's exit undoes nothing, the process's does. */
TEST(sysv_sem_undo_threads)
{
	thread_set = new_set(1);
	pid_t child = xfork();

	if (child == 0) {
		pthread_t t;
		void *ret;
		CHECK(pthread_create(&t, NULL, undo_in_thread, NULL) == 0);
		CHECK(pthread_join(t, &ret) == 0);
		CHECK(ret == NULL);
		CHECK_EQ(semval(thread_set, 0), 1l);
		_exit(0);
	}
	expect_exit(child, 0, "the thread's operation outlives the thread");
	CHECK_EQ(semval(thread_set, 0), 0l);
	CHECK_OK(sysv_semctl(thread_set, 0, IPC_RMID, 0));
}

TEST(sysv_sem_ctl)
{
	int key = sysv_test_key('c');
	int id = (int)CHECK_OK(sysv_semget(key, 2, IPC_CREAT | 0640));
	struct kernel_semid64_ds ds;
	struct kernel_seminfo info;
	char want[64];

	CHECK_OK(sysv_semctl(id, 0, IPC_STAT, &ds));
	CHECK_EQ(ds.sem_nsems, 2ul);
	CHECK_EQ(ds.sem_perm.key, key);
	CHECK_EQ(ds.sem_otime, 0l);
	CHECK_OK(semop1(id, 0, 1, 0));
	ds.sem_perm.mode = 0600;
	CHECK_OK(sysv_semctl(id, 0, IPC_SET, &ds));
	CHECK_OK(sysv_semctl(id, 0, IPC_STAT, &ds));
	CHECK_EQ(ds.sem_perm.mode & 0777, 0600u);
	CHECK(ds.sem_otime != 0);
	int max = (int)CHECK_OK(sysv_semctl(0, 0, IPC_INFO, &info));
	CHECK(max >= (id & 0x7fff));
	CHECK_EQ(info.semvmx, SEMVMX);
	CHECK_OK(sysv_semctl(0, 0, SEM_INFO, &info));
	CHECK(info.semusz >= 1 && info.semaem >= 2);
	CHECK_EQ(sysv_semctl(id & 0x7fff, 0, SEM_STAT, &ds), id);
	CHECK_EQ(sysv_semctl(id & 0x7fff, 0, SEM_STAT_ANY, &ds), id);
	snprintf(want, sizeof(want), "%10d %10d  %4o %10u", key, id, 0600, 2);
	CHECK(file_has_line_with("/proc/sysvipc/sem", want));
	CHECK_ERR(EFAULT, sysv_semctl(id, 0, IPC_STAT, bad_addrs[0]));
	CHECK_ERR(EINVAL, sysv_semctl(id, 0, 99, 0));
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
	CHECK(!file_has_line_with("/proc/sysvipc/sem", want));
}

/* Another user: reading and altering follow the mode bits; control is the owner's. */
TEST(sysv_sem_permissions)
{
	if (geteuid() != 0)
		skip("needs root to become another user");
	int id = (int)CHECK_OK(sysv_semget(IPC_PRIVATE, 1, 0644));
	pid_t child = xfork();

	if (child == 0) {
		struct kernel_semid64_ds ds;
		CHECK_OK(setuid(65534));
		CHECK_ERR(EACCES, semop1(id, 0, 1, IPC_NOWAIT));
		CHECK_ERR(EACCES, sysv_semctl(id, 0, SETVAL, 1));
		CHECK_OK(semop1(id, 0, 0, IPC_NOWAIT)); /* a wait for zero only reads */
		CHECK_OK(sysv_semctl(id, 0, GETVAL, 0));
		CHECK_OK(sysv_semctl(id, 0, IPC_STAT, &ds));
		CHECK_ERR(EPERM, sysv_semctl(id, 0, IPC_RMID, 0));
		_exit(0);
	}
	expect_exit(child, 0, "another user's checks");
	CHECK_OK(sysv_semctl(id, 0, IPC_RMID, 0));
}

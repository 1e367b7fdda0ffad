/*
 * sysv_shm.c - usertests: System V shared memory (shmget, shmat, shmdt,
 * shmctl) and what the IPC kinds share: keys to ids, IPC_CREAT and
 * IPC_EXCL, ids that never name a removed object, the owner's permission
 * bits, IPC_STAT/IPC_SET/IPC_RMID/IPC_INFO, and /proc's views. The calls
 * go through syscall() with uapi/ipc.h's structures, so that musl and glibc
 * builds check the same layout.
 */
#define _GNU_SOURCE
#include "usertests.h"
#include "sysv.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void
shm_stat(int id, struct kernel_shmid64_ds *ds)
{
	CHECK_OK(sysv_shmctl(id, IPC_STAT, ds));
}

static unsigned long
nattch(int id)
{
	struct kernel_shmid64_ds ds;

	shm_stat(id, &ds);
	return ds.shm_nattch;
}

TEST(sysv_shm_keys)
{
	int key = sysv_test_key('s');
	int id = (int)CHECK_OK(sysv_shmget(key, PAGE, IPC_CREAT | IPC_EXCL | 0600));
	struct kernel_shmid64_ds ds;

	CHECK_EQ(sysv_shmget(key, 0, 0), id);
	CHECK_EQ(sysv_shmget(key, PAGE, IPC_CREAT | 0600), id);
	CHECK_ERR(EEXIST, sysv_shmget(key, PAGE, IPC_CREAT | IPC_EXCL | 0600));
	CHECK_ERR(EINVAL, sysv_shmget(key, 2 * PAGE, 0)); /* bigger than the segment */
	CHECK_ERR(ENOENT, sysv_shmget(key + 1, PAGE, 0600));
	CHECK_ERR(EINVAL, sysv_shmget(IPC_PRIVATE, 0, 0600));
	shm_stat(id, &ds);
	CHECK_EQ(ds.shm_perm.key, key);
	CHECK_EQ(ds.shm_perm.mode & 0777, 0600u);
	CHECK_EQ(ds.shm_perm.uid, geteuid());
	CHECK_EQ(ds.shm_perm.cuid, geteuid());
	CHECK_EQ(ds.shm_segsz, (unsigned long)PAGE);
	CHECK_EQ(ds.shm_cpid, getpid());
	CHECK_EQ(ds.shm_nattch, 0ul);
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
	/* The removed id names nothing, not even the key's next segment. */
	CHECK_ERR(EINVAL, sysv_shmctl(id, IPC_STAT, &ds));
	CHECK_ERR(ENOENT, sysv_shmget(key, PAGE, 0600));
	int again = (int)CHECK_OK(sysv_shmget(key, PAGE, IPC_CREAT | 0600));
	CHECK(again != id);
	CHECK_ERR(EINVAL, sysv_shmctl(id, IPC_STAT, &ds));
	CHECK_OK(sysv_shmctl(again, IPC_RMID, NULL));
}

/* Attached memory is shared with a fork child, which counts as an attachment until it exits. */
TEST(sysv_shm_fork_shares)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, 3 * PAGE, 0600));
	char *p = (char *)CHECK_OK(sysv_shmat(id, NULL, 0));
	struct kernel_shmid64_ds ds;

	CHECK_EQ(nattch(id), 1ul);
	shm_stat(id, &ds);
	CHECK_EQ(ds.shm_lpid, getpid());
	CHECK(ds.shm_atime != 0);
	int go[2], done[2];
	CHECK_OK(pipe(go));
	CHECK_OK(pipe(done));
	pid_t child = xfork();
	if (child == 0) {
		char c;
		strcpy(p + 2 * PAGE, "child");
		CHECK(write(done[1], "d", 1) == 1);
		CHECK(read(go[0], &c, 1) == 1);
		_exit(strcmp(p, "parent") == 0 ? 0 : 1);
	}
	char c;
	CHECK(read(done[0], &c, 1) == 1);
	CHECK_EQ(nattch(id), 2ul);
	CHECK(strcmp(p + 2 * PAGE, "child") == 0);
	strcpy(p, "parent");
	CHECK(write(go[1], "g", 1) == 1);
	expect_exit(child, 0, "the child sees the parent's write");
	CHECK_EQ(nattch(id), 1ul);
	CHECK_OK(sysv_shmdt(p));
	CHECK_EQ(nattch(id), 0ul);
	shm_stat(id, &ds);
	CHECK(ds.shm_dtime != 0);
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
}

/* exec and exit detach. */
TEST(sysv_shm_exec_detaches)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, PAGE, 0600));
	pid_t child = xfork();

	if (child == 0) {
		if (sysv_shmat(id, NULL, 0) == -1)
			_exit(2);
		char *argv[] = { self_path, "--helper", "exit", "0", NULL };
		execv(self_path, argv);
		_exit(3);
	}
	expect_exit(child, 0, "a helper, run attached");
	CHECK_EQ(nattch(id), 0ul);
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
}

/* A segment removed while attached lives on, keyless and marked, until its last detach. */
TEST(sysv_shm_rmid_waits_for_detach)
{
	int key = sysv_test_key('r');
	int id = (int)CHECK_OK(sysv_shmget(key, PAGE, IPC_CREAT | 0600));
	char *p = (char *)CHECK_OK(sysv_shmat(id, NULL, 0));
	struct kernel_shmid64_ds ds;

	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
	shm_stat(id, &ds);
	CHECK(ds.shm_perm.mode & SHM_DEST);
	CHECK_EQ(ds.shm_perm.key, IPC_PRIVATE);
	CHECK_ERR(ENOENT, sysv_shmget(key, PAGE, 0600));
	strcpy(p, "still here");
	CHECK_OK(sysv_shmdt(p));
	CHECK_ERR(EINVAL, sysv_shmctl(id, IPC_STAT, &ds));
}

static char *ro_page;

static void
write_ro_page(void)
{
	ro_page[0] = 1;
}

TEST(sysv_shm_attach_flags)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, 2 * PAGE, 0600));
	char *area = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(area != MAP_FAILED);
	/* Unaligned: EINVAL, unless SHM_RND rounds it down. */
	CHECK_ERR(EINVAL, sysv_shmat(id, area + 1, 0));
	CHECK_ERR(EINVAL, sysv_shmat(id, NULL, SHM_REMAP));
	/* Something is there: EINVAL without SHM_REMAP, replaced with it. */
	CHECK_ERR(EINVAL, sysv_shmat(id, area, 0));
	char *p = (char *)CHECK_OK(sysv_shmat(id, area + 1, SHM_RND | SHM_REMAP));
	CHECK(p == area);
	p[PAGE] = 'x';
	/* shmdt takes only the segment's pages: the rest of the area stays. */
	CHECK_ERR(EINVAL, sysv_shmdt(area + PAGE));
	CHECK_ERR(EINVAL, sysv_shmdt(area + 1));
	CHECK_OK(sysv_shmdt(area));
	CHECK(area[3 * PAGE] == 0);
	CHECK_OK(munmap(area, 4 * PAGE));
	/* SHM_RDONLY: reading works, writing is a SIGSEGV. */
	ro_page = (char *)CHECK_OK(sysv_shmat(id, NULL, SHM_RDONLY));
	CHECK(ro_page[PAGE] == 'x');
	expect_killed(write_ro_page, SIGSEGV, "a write to a SHM_RDONLY attachment");
	CHECK_OK(sysv_shmdt(ro_page));
	CHECK_ERR(EINVAL, sysv_shmat(-1, NULL, 0));
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
	CHECK_ERR(EINVAL, sysv_shmat(id, NULL, 0));
}

/*
 * An attach at the top of user space is ENOMEM, as mmap there is, with or
 * without SHM_REMAP. rewind once made the area (only mmap itself checked
 * the range), and a fork or the shmdt then walked the kernel's page tables
 * as the area's: a panic (issue 24).
 */
TEST(sysv_shm_attach_beyond_user_space)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, PAGE, 0600));
	void *top = (void *)(1ul << 47); /* past the 47-bit user half */

	CHECK_ERR(ENOMEM, sysv_shmat(id, top, 0));
	CHECK_ERR(ENOMEM, sysv_shmat(id, top, SHM_REMAP));
	/* The kernel's half too; one that wraps is EINVAL, unless SHM_REMAP. */
	CHECK_ERR(ENOMEM, sysv_shmat(id, (void *)0xffff800000000000ul, 0));
	CHECK_ERR(EINVAL, sysv_shmat(id, (void *)-(unsigned long)PAGE, 0));
	CHECK_ERR(ENOMEM, sysv_shmat(id, (void *)-(unsigned long)PAGE, SHM_REMAP));
	CHECK_ERR(EINVAL, sysv_shmdt(top));
	pid_t pid = (pid_t)CHECK_OK(fork());
	if (pid == 0)
		_exit(0);
	expect_exit(pid, 0, "a child forked after the refused attach");
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
}

TEST(sysv_shm_ctl)
{
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, PAGE, 0640));
	struct kernel_shmid64_ds ds;
	struct kernel_shminfo64 info;
	struct kernel_shm_info used;

	shm_stat(id, &ds);
	ds.shm_perm.mode = 0604;
	CHECK_OK(sysv_shmctl(id, IPC_SET, &ds));
	shm_stat(id, &ds);
	CHECK_EQ(ds.shm_perm.mode & 0777, 0604u);
	CHECK_OK(sysv_shmctl(id, SHM_LOCK, NULL));
	shm_stat(id, &ds);
	CHECK(ds.shm_perm.mode & SHM_LOCKED);
	CHECK_OK(sysv_shmctl(id, SHM_UNLOCK, NULL));
	shm_stat(id, &ds);
	CHECK(!(ds.shm_perm.mode & SHM_LOCKED));
	int max = (int)CHECK_OK(sysv_shmctl(0, IPC_INFO, &info));
	CHECK(max >= (id & 0x7fff));
	CHECK(info.shmmni > 0 && info.shmmax > 0 && info.shmmin == 1);
	CHECK_OK(sysv_shmctl(0, SHM_INFO, &used));
	CHECK(used.used_ids >= 1);
	CHECK_EQ(sysv_shmctl(id & 0x7fff, SHM_STAT, &ds), id);
	CHECK_EQ(sysv_shmctl(id & 0x7fff, SHM_STAT_ANY, &ds), id);
	CHECK_ERR(EFAULT, sysv_shmctl(id, IPC_STAT, (void *)bad_addrs[0]));
	CHECK_ERR(EFAULT, sysv_shmctl(id, IPC_SET, (void *)bad_addrs[0]));
	CHECK_ERR(EINVAL, sysv_shmctl(id, 99, &ds));
	CHECK_ERR(EINVAL, sysv_shmctl(-1, IPC_STAT, &ds));
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
}

/* Another user: the mode bits decide attaching, only the owner (or root) controls. */
TEST(sysv_shm_permissions)
{
	if (geteuid() != 0)
		skip("needs root to become another user");
	int id = (int)CHECK_OK(sysv_shmget(IPC_PRIVATE, PAGE, 0644)); /* the child keeps group 0 */
	pid_t child = xfork();

	if (child == 0) {
		struct kernel_shmid64_ds ds;
		CHECK_OK(setuid(65534));
		CHECK_ERR(EACCES, sysv_shmat(id, NULL, 0));
		CHECK_OK(sysv_shmdt((void *)CHECK_OK(sysv_shmat(id, NULL, SHM_RDONLY))));
		CHECK_OK(sysv_shmctl(id, IPC_STAT, &ds));
		CHECK_ERR(EPERM, sysv_shmctl(id, IPC_RMID, NULL));
		CHECK_ERR(EPERM, sysv_shmctl(id, IPC_SET, &ds));
		_exit(0);
	}
	expect_exit(child, 0, "another user's checks");
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
}

/* /proc/<pid>/maps names the segment by key; /proc/sysvipc/shm lists it. */
TEST(sysv_shm_proc)
{
	int key = sysv_test_key('p');
	int id = (int)CHECK_OK(sysv_shmget(key, PAGE, IPC_CREAT | 0600));
	char *p = (char *)CHECK_OK(sysv_shmat(id, NULL, 0));
	char want[64];

	snprintf(want, sizeof(want), "/SYSV%08x (deleted)", (unsigned)key);
	CHECK(file_has_line_with("/proc/self/maps", want));
	snprintf(want, sizeof(want), "%10d %10d  %4o", key, id, 0600);
	CHECK(file_has_line_with("/proc/sysvipc/shm", want));
	CHECK_OK(sysv_shmdt(p));
	CHECK_OK(sysv_shmctl(id, IPC_RMID, NULL));
	CHECK(!file_has_line_with("/proc/sysvipc/shm", want));
}

/* The limits are files; shmmni bounds the segments (ENOSPC). */
TEST(sysv_shm_limits)
{
	if (geteuid() != 0 || !sysv_private_namespace())
		skip("needs root and an IPC namespace of its own to change the limits");
	unsigned long mni = read_number("/proc/sys/kernel/shmmni");
	struct kernel_shm_info used;

	CHECK(read_number("/proc/sys/kernel/shmmax") > 0);
	CHECK(read_number("/proc/sys/kernel/shmall") > 0);
	CHECK_OK(sysv_shmctl(0, SHM_INFO, &used));
	write_number("/proc/sys/kernel/shmmni", (unsigned long)used.used_ids);
	int err = sysv_shmget(IPC_PRIVATE, PAGE, 0600) == -1 ? errno : 0;
	write_number("/proc/sys/kernel/shmmni", mni);
	CHECK_EQ(err, ENOSPC);
}

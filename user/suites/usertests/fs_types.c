/*
 * fs_types.c - usertests: sysfs(2), the obsolete list of registered file
 * system types (an index per name, a name per index, the count), and
 * ustat(2), a mounted instance's free blocks and inodes by device number.
 */
#define _GNU_SOURCE
#include "usertests.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static long
sysfs_call(int option, unsigned long arg1, unsigned long arg2)
{
	return syscall(SYS_sysfs, option, arg1, arg2);
}

/* Every index up to the count names a type whose index is that one. */
TEST(sysfs_types_agree)
{
	long count = CHECK_OK(sysfs_call(3, 0, 0));
	char name[64];

	CHECK(count > 0);
	for (long i = 0; i < count; i++) {
		CHECK_OK(sysfs_call(2, (unsigned long)i, (unsigned long)name));
		CHECK_EQ(sysfs_call(1, (unsigned long)name, 0), i);
	}
	CHECK_OK(sysfs_call(1, (unsigned long)"proc", 0));
	CHECK_ERR(EINVAL, sysfs_call(2, (unsigned long)count, (unsigned long)name));
	CHECK_ERR(EINVAL, sysfs_call(1, (unsigned long)"no-such-fs", 0));
	CHECK_ERR(EINVAL, sysfs_call(4, 0, 0));
	CHECK_ERR(EFAULT, sysfs_call(1, 1, 0));
	CHECK_ERR(EFAULT, sysfs_call(2, 0, 1));
}

/* struct ustat on x86-64: 32 bytes. */
struct ustat_answer {
	int f_tfree;
	unsigned long f_tinode;
	char f_fname[6];
	char f_fpack[6];
};

TEST(ustat_of_mounted_device)
{
	struct stat st;
	struct ustat_answer u;

	CHECK_OK(stat("/proc", &st));
	CHECK_OK(syscall(SYS_ustat, (unsigned)st.st_dev, &u));
	CHECK_ERR(EFAULT, syscall(SYS_ustat, (unsigned)st.st_dev, (void *)1));
	CHECK_ERR(EINVAL, syscall(SYS_ustat, 0xfffffu, &u)); /* no such instance */
}

/*
 * test_vfs_mounts.c - host tests of the mount table (fs/mount.c) and of
 * file-system instances (fs/super.c, fs/tmpfs.c) through mount(2) and
 * umount2(2) themselves: crossing into a mount and out of it, stacking,
 * the instance's limits, EBUSY and MNT_DETACH, /proc/mounts' text, and
 * that the last umount gives back every object and page.
 */
#include "tests/unit/fs_host.h"
#include "uapi/mount.h"

static char mounts_text[4096];

static void
collect(void *ctx, const char *line)
{
	strncat(ctx, line, sizeof(mounts_text) - strlen(ctx) - 1);
}

static const char *
mounts_now(void)
{
	mounts_text[0] = '\0';
	mounts_show(&init_mnt_ns, collect, mounts_text);
	return mounts_text;
}

UNIT_TEST(walk_crosses_into_a_mount_and_dotdot_leaves_it)
{
	fs_setup();
	CHECK_EQ(do_sys_mkdir("/m", 0755), 0);
	make_file("/m/hidden", "h");
	u64 covered = stat_of("/m").st_ino;
	CHECK_EQ(do_sys_mount("none", "/m", "tmpfs", 0, "mode=700"), 0);
	struct kernel_stat st = stat_of("/m");
	CHECK(st.st_dev != root_sb->dev && st.st_ino != covered);
	CHECK_EQ(st.st_mode, S_IFDIR | 0700);
	CHECK_EQ(do_sys_open("/m/hidden", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(do_sys_mkdir("/m/d", 0755), 0);
	CHECK_EQ(stat_of("/m/d/../..").st_ino, stat_of("/").st_ino);
	CHECK_EQ(stat_of("/m/..").st_dev, root_sb->dev);
	CHECK_EQ(do_sys_rename("/m/d", "/tmp/d"), -EXDEV);
	CHECK_EQ(do_sys_rmdir("/m"), -EBUSY);
	CHECK_EQ(do_sys_rename("/m", "/m2"), -EBUSY);
	CHECK_EQ(do_sys_umount2("/m", 0), 0);
	CHECK_EQ(stat_of("/m").st_ino, covered);
	CHECK_EQ(stat_of("/m/hidden").st_size, 1);
	CHECK_EQ(do_sys_umount2("/m", 0), -EINVAL); /* no longer a mount point */
	CHECK_EQ(do_sys_umount2("/", 0), -EBUSY);
}

UNIT_TEST(mounts_stack_and_come_off_top_first)
{
	fs_setup();
	CHECK_EQ(do_sys_mkdir("/s", 0755), 0);
	CHECK_EQ(do_sys_mount("none", "/s", "tmpfs", 0, NULL), 0);
	make_file("/s/first", "1");
	u32 first = (u32)stat_of("/s").st_dev;
	CHECK_EQ(do_sys_mount("none", "/s", "ramfs", 0, NULL), 0);
	CHECK(stat_of("/s").st_dev != first);
	CHECK_EQ(do_sys_open("/s/first", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(do_sys_umount2("/s", 0), 0);
	CHECK_EQ(stat_of("/s/first").st_size, 1);
	CHECK_EQ(do_sys_umount2("/s", 0), 0);
	CHECK_EQ(stat_of("/s").st_dev, root_sb->dev);
}

/* A deep tree with data: the last umount gives every object and page back. */
UNIT_TEST(umount_frees_the_whole_instance)
{
	char path[512] = "/t";

	fs_setup();
	CHECK_EQ(do_sys_mkdir("/t", 0755), 0);
	u64 objects = kmalloc_objects_now(), pages = free_pages_now();
	CHECK_EQ(do_sys_mount("none", "/t", "tmpfs", 0, NULL), 0);
	u32 dev = (u32)stat_of("/t").st_dev;
	for (int depth = 0; depth < 60; depth++) {
		strcat(path, "/d");
		CHECK_EQ(do_sys_mkdir(path, 0755), 0);
	}
	strcat(path, "/data");
	int fd = (int)do_sys_open(path, O_CREAT | O_RDWR, 0644);
	static char block[3 * 4096];
	CHECK_EQ(do_sys_write(fd, block, sizeof(block)), (long)sizeof(block));
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(do_sys_symlink("d", "/t/link"), 0);
	CHECK_EQ(do_sys_umount2("/t", 0), 0);
	CHECK_EQ(kmalloc_objects_now(), objects);
	CHECK_EQ(free_pages_now(), pages);
	/* Its device number came back too: the next instance gets it. */
	CHECK_EQ(do_sys_mount("none", "/t", "tmpfs", 0, NULL), 0);
	CHECK_EQ(stat_of("/t").st_dev, dev);
	CHECK_EQ(do_sys_umount2("/t", 0), 0);
}

UNIT_TEST(umount_is_busy_while_pinned_and_lazy_waits_for_the_last_pin)
{
	char buf[4];

	fs_setup();
	CHECK_EQ(do_sys_mkdir("/b", 0755), 0);
	u64 objects = kmalloc_objects_now();
	CHECK_EQ(do_sys_mount("none", "/b", "tmpfs", 0, NULL), 0);
	int fd = (int)do_sys_open("/b/f", O_CREAT | O_RDWR, 0644);
	CHECK_EQ(do_sys_umount2("/b", 0), -EBUSY);
	CHECK_EQ(do_sys_chdir("/b"), 0);
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(do_sys_umount2("/b", 0), -EBUSY); /* the cwd */
	CHECK_EQ(do_sys_chdir("/"), 0);
	CHECK_EQ(do_sys_mkdir("/b/sub", 0755), 0);
	CHECK_EQ(do_sys_mount("none", "/b/sub", "tmpfs", 0, NULL), 0);
	CHECK_EQ(do_sys_umount2("/b", 0), -EBUSY); /* a mount below */
	fd = (int)do_sys_open("/b/sub/g", O_CREAT | O_RDWR, 0644);
	CHECK_EQ(do_sys_write(fd, "lazy", 4), 4);
	CHECK_EQ(do_sys_umount2("/b", MNT_DETACH), 0); /* both, at once */
	CHECK_EQ(stat_of("/b").st_dev, root_sb->dev);
	CHECK_EQ(do_sys_pread64(fd, buf, 4, 0), 4);
	CHECK_EQ(memcmp(buf, "lazy", 4), 0);
	CHECK(kmalloc_objects_now() > objects);
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(kmalloc_objects_now(), objects);
}

UNIT_TEST(tmpfs_limits_its_own_pages_and_inodes)
{
	static char block[4 * 4096];

	fs_setup();
	CHECK_EQ(do_sys_mkdir("/l", 0755), 0);
	CHECK_EQ(do_sys_mount("none", "/l", "tmpfs", 0, "size=8k,nr_inodes=3"), 0);
	int fd = (int)do_sys_open("/l/f", O_CREAT | O_RDWR, 0644);
	CHECK_EQ(do_sys_write(fd, block, sizeof(block)), 8192);
	CHECK_EQ(do_sys_write(fd, block, 1), -ENOSPC);
	make_file("/tmp/outside", "the root is not limited by it");
	CHECK_EQ(do_sys_mkdir("/l/d", 0755), 0); /* the third inode, with the root and f */
	CHECK_EQ(do_sys_mkdir("/l/e", 0755), -ENOSPC);
	CHECK_EQ(do_sys_mount("none", "/l", "tmpfs", MS_REMOUNT, "size=4k"), -EINVAL);
	CHECK_EQ(do_sys_mount("none", "/l", "tmpfs", MS_REMOUNT, "size=16k"), 0);
	CHECK_EQ(do_sys_write(fd, block, 4096), 4096);
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(do_sys_umount2("/l", 0), 0);
}

UNIT_TEST(read_only_and_remount)
{
	fs_setup();
	CHECK_EQ(do_sys_mkdir("/r", 0755), 0);
	CHECK_EQ(do_sys_mount("none", "/r", "tmpfs", MS_RDONLY, NULL), 0);
	CHECK_EQ(do_sys_open("/r/f", O_CREAT | O_RDWR, 0644), -EROFS);
	CHECK_EQ(do_sys_mkdir("/r/d", 0755), -EROFS);
	CHECK_EQ(do_sys_mount("none", "/r", "tmpfs", MS_REMOUNT, NULL), 0);
	int fd = (int)do_sys_open("/r/f", O_CREAT | O_RDWR, 0644);
	CHECK(fd >= 0);
	CHECK_EQ(do_sys_mount("none", "/r", "tmpfs", MS_REMOUNT | MS_RDONLY, NULL), -EBUSY);
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(do_sys_mount("none", "/r", "tmpfs", MS_REMOUNT | MS_RDONLY, NULL), 0);
	CHECK_EQ(do_sys_unlink("/r/f"), -EROFS);
	fd = (int)do_sys_open("/r/f", O_RDONLY, 0);
	CHECK(fd >= 0);
	CHECK_EQ(do_sys_umount2("/r", 0), -EBUSY); /* that open file */
	CHECK_EQ(do_sys_close(fd), 0);
	CHECK_EQ(do_sys_umount2("/r", 0), 0);
}

UNIT_TEST(mount_errors)
{
	fs_setup();
	make_file("/file", "f");
	CHECK_EQ(do_sys_mkdir("/e", 0755), 0);
	CHECK_EQ(do_sys_mount("none", "/e", "nosuchfs", 0, NULL), -ENODEV);
	CHECK_EQ(do_sys_mount("none", "/e", "", 0, NULL), -EINVAL);
	CHECK_EQ(do_sys_mount("none", "/file", "tmpfs", 0, NULL), -ENOTDIR);
	CHECK_EQ(do_sys_mount("none", "/nowhere", "tmpfs", 0, NULL), -ENOENT);
	CHECK_EQ(do_sys_mount("none", "/", "tmpfs", 0, NULL), -EBUSY);
	CHECK_EQ(do_sys_mount("none", "/e", "tmpfs", MS_BIND, NULL), -EINVAL);
	CHECK_EQ(do_sys_mount("none", "/e", "tmpfs", 0, "size=1x"), -EINVAL);
	CHECK_EQ(do_sys_mount("none", "/e", "tmpfs", 0, "bogus"), -EINVAL);
	CHECK_EQ(do_sys_mount("none", "/e", "ramfs", 0, "bogus"), 0); /* ramfs ignores them */
	CHECK_EQ(do_sys_umount2("/e", 0x100), -EINVAL);
	CHECK_EQ(do_sys_umount2("/e", MNT_EXPIRE), -EINVAL);
	CHECK_EQ(do_sys_umount2("/e", 0), 0);
	CHECK_EQ(do_sys_mount((const char *)BAD_USER_PTR, "/e", "tmpfs", 0, NULL), -EFAULT);
	CHECK_EQ(do_sys_mount("none", "/e", (const char *)BAD_USER_PTR, 0, NULL), -EFAULT);
	CHECK_EQ(do_sys_mount("none", (const char *)BAD_USER_PTR, "tmpfs", 0, NULL), -EFAULT);
	CHECK_EQ(do_sys_mount("none", "/e", "tmpfs", 0, BAD_USER_PTR), -EFAULT);
	CHECK_EQ(do_sys_umount2((const char *)BAD_USER_PTR, 0), -EFAULT);
}

UNIT_TEST(proc_mounts_lists_every_mount_in_linux_format)
{
	fs_setup();
	CHECK_EQ(do_sys_mkdir("/a b", 0755), 0);
	CHECK_EQ(do_sys_mount("src", "/a b", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			      "size=64k,mode=755,uid=5"),
		 0);
	const char *text = mounts_now();
	CHECK(strncmp(text, "rootfs / rootfs rw,size=", 24) == 0);
	CHECK(strstr(text,
		     "\nsrc /a\\040b tmpfs rw,nosuid,nodev,noexec,relatime,size=64k,"
		     "mode=755,uid=5,inode64 0 0\n") != NULL);
	CHECK_EQ(do_sys_mount("src", "/a b", "tmpfs", MS_REMOUNT | MS_RDONLY | MS_NOATIME, NULL),
		 0);
	CHECK(strstr(mounts_now(), "\nsrc /a\\040b tmpfs ro,noatime,size=64k,") != NULL);
	CHECK_EQ(do_sys_umount2("/a b", 0), 0);
	CHECK(strstr(mounts_now(), "/a\\040b") == NULL);
}
